// Error values in the style of LevelDB's Status: every fallible function
// returns Result<T>, and an Error names where the problem is (file, line)
// and what was expected, so a person can fix the input.
#pragma once

#include <expected>
#include <string>

namespace pp {

struct Error {
    std::string file;    // empty when the error is not about a file
    int line = 0;        // 1-based; 0 when no line applies
    std::string message; // what was wrong, phrased as what was expected

    std::string to_string() const; // "file:line: message"
};

template <class T>
using Result = std::expected<T, Error>;

inline std::unexpected<Error> fail(std::string message, std::string file = {}, int line = 0) {
    return std::unexpected(Error{std::move(file), line, std::move(message)});
}

// Fills in the file of an error raised by code that only saw text.
inline Error in_file(Error e, const std::string& file) {
    if (e.file.empty()) e.file = file;
    return e;
}

} // namespace pp
