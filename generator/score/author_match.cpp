#include "score/author_match.h"

#include "util/text.h"

#include <cctype>
#include <cstdint>

namespace pp {

namespace {

// Base letters of U+00C0..U+017F (Latin-1 Supplement and Latin Extended-A);
// ("..."sv keeps the embedded NULs) '\0' marks a code point without one (×, ÷).
using namespace std::literals;
constexpr std::string_view latin_base =
    "AAAAAAACEEEEIIII" "DNOOOOO\0OUUUUYTs"   // U+00C0..U+00DF
    "aaaaaaaceeeeiiii" "dnooooo\0ouuuuyty"   // U+00E0..U+00FF
    "AaAaAaCcCcCcCcDd" "DdEeEeEeEeEeGgGg"   // U+0100..U+011F
    "GgGgHhHhIiIiIiIi" "IiJjJjKkkLlLlLlL"   // U+0120..U+013F
    "lLlNnNnNnnNnOoOo" "OoOoRrRrRrSsSsSs"   // U+0140..U+015F
    "SsTtTtTtUuUuUuUu" "UuUuWwYyYZzZzZzs"sv; // U+0160..U+017F

// Decodes one UTF-8 sequence at s[i]; advances i.
std::uint32_t next_code_point(std::string_view s, size_t& i) {
    unsigned char c = static_cast<unsigned char>(s[i++]);
    if (c < 0x80) return c;
    int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
    std::uint32_t cp = c & (0x3F >> extra);
    for (int k = 0; k < extra && i < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i++]) & 0x3F);
    return cp;
}

// Removes TeX accent commands: \'a, \'{a}, {\"o}, \c{c}, \v s, \ss, \o, \l.
std::string strip_tex_accents(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (c == '{' || c == '}') continue;
        if (c != '\\' || i + 1 >= s.size()) {
            out += c;
            continue;
        }
        char command = s[i + 1];
        if (std::string_view("'`^\"~=.").find(command) != std::string_view::npos) {
            ++i; // a symbol accent: drop it, keep the letter that follows
        } else if (std::isalpha(static_cast<unsigned char>(command))) {
            size_t end = i + 1;
            while (end < s.size() && std::isalpha(static_cast<unsigned char>(s[end]))) ++end;
            std::string_view word = s.substr(i + 1, end - i - 1);
            if (word == "ss") out += "ss";
            else if (word == "o" || word == "O" || word == "l" || word == "L" || word == "i" || word == "aa")
                out += word.substr(0, 1);
            // Otherwise an accent command (\c, \v, \u, \H, \k, ...): drop it.
            i = end - 1;
            if (i + 1 < s.size() && s[i + 1] == ' ') ++i;
        }
    }
    return out;
}

} // namespace

std::string normalize_name(std::string_view name) {
    std::string plain = strip_tex_accents(name);
    std::string out;
    bool space = false;
    for (size_t i = 0; i < plain.size();) {
        std::uint32_t cp = next_code_point(plain, i);
        char c = 0;
        if (cp < 0x80) c = static_cast<char>(cp);
        else if (cp >= 0xC0 && cp <= 0x17F) c = latin_base[cp - 0xC0];
        if (c && std::isalnum(static_cast<unsigned char>(c))) {
            if (space && !out.empty()) out += ' ';
            space = false;
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (c != '\'') {
            space = true; // blanks, hyphens, dots and other marks separate words
        }
    }
    return out;
}

AuthorMatcher::AuthorMatcher(const std::vector<std::string>& followed) {
    for (const auto& name : followed) {
        std::string key = normalize_name(name);
        if (!key.empty()) followed_.insert(key);
    }
}

std::vector<std::string> AuthorMatcher::matches(const Paper& paper) const {
    std::vector<std::string> found;
    for (const auto& author : paper.authors)
        if (followed_.contains(normalize_name(author))) found.push_back(author);
    return found;
}

} // namespace pp
