#include "score/author_match.h"

#include "core/tex.h"
#include "util/text.h"

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

} // namespace

std::string normalize_name(std::string_view name) {
    // TeX accents as letters (core/tex), then folded: Zdeborov\'a = Zdeborová = Zdeborova.
    const std::string folded = fold_for_matching(tex_to_unicode(name));
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
        std::string key = normalize_name(split_author(name).name);
        if (!key.empty()) followed_.insert(key);
    }
}

std::vector<std::string> AuthorMatcher::matches(const Paper& paper) const {
    std::vector<std::string> found;
    // The name alone: the feed adds affiliations ("Kaiming He (MIT, CSAIL)").
    for (const auto& author : paper.authors) {
        std::string name = split_author(author).name;
        if (followed_.contains(normalize_name(name))) found.push_back(std::move(name));
    }
    return found;
}

} // namespace pp
