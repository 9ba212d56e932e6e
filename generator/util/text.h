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
// The same into `parts` (cleared first), reusing its memory line after line.
void split_into(std::string_view s, char sep, std::vector<std::string_view>& parts);
std::string join(const std::vector<std::string>& parts, std::string_view sep);

// ASCII lower case (names of fields, headers, keywords); other bytes unchanged.
std::string to_lower(std::string_view s);

// Text for matching, never for display: compatibility-decomposed (NFKD),
// accents stripped and case-folded by utf8proc, and the Latin letters that
// NFKD leaves whole to what readers type (util/folding.h: æ ae, þ th), so
// "Nguyễn", "NGUYEN" and "nguyen" fold alike. Invalid UTF-8 is only
// lower-cased (ASCII).
std::string fold_for_matching(std::string_view s);

// Strictly valid UTF-8 (no overlong forms or surrogates) without NUL or CR:
// text cmark passes through unchanged.
bool plain_utf8(std::string_view text);

// The byte offset of the first character in `text` that is not valid XML
// 1.0 text: an invalid UTF-8 sequence (overlong, truncated, a surrogate,
// beyond U+10FFFF), a C0 control other than tab, LF and CR, U+FFFE or
// U+FFFF; npos when there is none. Outside text (feeds, API pages, LLM
// replies, imports, day files) is checked and mended with it at the boundary,
// so that feed.xml stays XML whatever a source held.
std::size_t first_invalid_xml_char(std::string_view text);

// `text` with each such control replaced by a space (invisible either way;
// a space reads right) and each other invalid character (each maximal run
// of invalid bytes) by U+FFFD; `text` unchanged when it has none.
std::string valid_xml_text(std::string_view text);

// Is code point `c` a letter or a digit (any script)?
bool is_letter_or_digit(std::uint32_t c);

// Splits "A (X, Y), B, C" at the commas outside parentheses, so author
// affiliations that contain commas stay with their author.
std::vector<std::string> split_top_level_commas(std::string_view s);

// Strict whole-string number parsing: nothing may follow the number.
std::optional<long long> parse_int(std::string_view s);
std::optional<double> parse_double(std::string_view s);

// At most `max_bytes` of `text` for an error message, on one line and cut at
// a UTF-8 boundary, quoted, with the full length when it was cut:
// '{"choices":[5]…' (1048576 bytes). Errors quote what they reject, never a
// whole megabyte of it. The text is redacted (util/redact.h) before it is cut.
std::string excerpt(std::string_view text, std::size_t max_bytes = 60);

// The name in `known` closest to `typed` within two edits (Levenshtein),
// else "": what "did you mean ...?" suggests for a mistyped key or command.
std::string closest_name(std::string_view typed, const std::vector<std::string>& known);

// Shortest text that reads back as the same double ("0.21", "1e-05").
std::string format_double(double value);

// A set of bytes, for scanning text at a few instructions a byte; a set of
// up to eight bytes is searched for sixteen bytes at a time.
struct ByteSet {
    static constexpr std::size_t max_listed = 8;
    bool has[256] = {};
    char listed[max_listed] = {};
    std::size_t size = 0; // more than max_listed: look up `has` only
    constexpr explicit ByteSet(std::string_view bytes) {
        for (char c : bytes) {
            if (has[static_cast<unsigned char>(c)]) continue;
            has[static_cast<unsigned char>(c)] = true;
            if (size < max_listed) listed[size] = c;
            ++size;
        }
    }
    constexpr bool contains(char c) const { return has[static_cast<unsigned char>(c)]; }
};

// The first byte in [p, end) that is in `set`, else `end`.
const char* find_first_of(const char* p, const char* end, const ByteSet& set);

// Appends `text` to `out`, each byte of `specials` replaced by
// `replacement(byte)`; the runs between them are copied whole. The escapers
// of HTML and JSON, which see every byte a build writes.
template <class Replacement>
void append_replacing(std::string& out, std::string_view text, const ByteSet& specials, Replacement replacement) {
    const char* run = text.data();
    const char* end = text.data() + text.size();
    for (const char* p = find_first_of(run, end, specials); p < end; p = find_first_of(run, end, specials)) {
        out.append(run, static_cast<std::size_t>(p - run));
        out.append(replacement(*p));
        run = p + 1;
    }
    out.append(run, static_cast<std::size_t>(end - run));
}

} // namespace pp
