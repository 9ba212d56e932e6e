// Small string helpers shared by every module.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pp {

std::string_view trim(std::string_view s);
std::vector<std::string_view> split(std::string_view s, char sep);
std::string join(const std::vector<std::string>& parts, std::string_view sep);

// ASCII lower case (names of fields, headers, keywords); other bytes unchanged.
std::string to_lower(std::string_view s);

// Splits "A (X, Y), B, C" at the commas outside parentheses, so author
// affiliations that contain commas stay with their author.
std::vector<std::string> split_top_level_commas(std::string_view s);

// Strict whole-string number parsing: nothing may follow the number.
std::optional<long long> parse_int(std::string_view s);
std::optional<double> parse_double(std::string_view s);

// Shortest text that reads back as the same double ("0.21", "1e-05").
std::string format_double(double value);

// Stable 64-bit FNV-1a, as 16 hex digits: names content-addressed files.
std::string fnv1a_hex(std::string_view s);

} // namespace pp
