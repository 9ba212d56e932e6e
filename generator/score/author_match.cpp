#include "score/author_match.h"

#include "util/text.h"

#include <cctype>
#include <cstdint>

namespace pp {

namespace {

// Decodes one UTF-8 sequence at s[i]; advances i. (The text comes from
// fold_for_matching, which only returns valid UTF-8.)
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
    const std::string folded = fold_for_matching(strip_tex_accents(name));
    std::string out;
    bool space = false;
    for (size_t i = 0; i < folded.size();) {
        const size_t start = i;
        const std::uint32_t cp = next_code_point(folded, i);
        if (cp == '\'') continue; // O'Brien = OBrien
        if (!is_letter_or_digit(cp)) {
            space = true; // blanks, hyphens, dots and other marks separate words
            continue;
        }
        if (space && !out.empty()) out += ' ';
        space = false;
        out.append(folded, start, i - start);
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
