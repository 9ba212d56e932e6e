// The words of the search index, and of a query: both sides split and fold
// text the same way, and so does the search page, whose static/search-words.js
// the build writes from the same tables (words_script()).
//
// A word is a run of letters and digits (Unicode categories L and N) of the
// text folded by fold_for_matching (util/text.h: NFKD, marks stripped, case
// folded, the Latin letters NFKD leaves whole as readers type them: æ ae,
// ø o, ß ss, þ th), so "Schölkopf", "SCHOLKOPF" and "scholkopf" are one
// word, and "Sæbø" and "Saebo". Words of one byte are not indexed.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pp::search {

// The most common English function words ("the", "of", "we", …:
// search/stop_words.txt, which the page gets too): not indexed and ignored in
// a query. They are a third of an abstract's words and match nearly every paper.
bool is_stop_word(std::string_view word);

// The words of a run of text that holds bytes beyond ASCII, folded by
// utf8proc, stop words included.
void for_each_folded_word(std::string_view run, const std::function<void(std::string_view)>& word);

namespace detail {
// A byte's part in a word: 0 none, 1 an ASCII letter or digit, 2 beyond ASCII.
inline constexpr auto byte_kind = [] {
    std::array<unsigned char, 256> kind{};
    for (int c = 0; c < 256; ++c)
        kind[c] = c >= 0x80 ? 2 : (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? 1 : 0;
    return kind;
}();
} // namespace detail

// Calls `word` with each word of `text` of two bytes or more, stop words
// included, in order. ASCII letters and digits are lower-cased here; a run
// that holds other bytes goes through utf8proc (most of an archive's text is
// ASCII, and this is the build's inner loop: a template, so it inlines).
template <class Word>
void for_each_indexed_word(std::string_view text, Word&& word) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const auto* const end = p + text.size();
    char lower[64];
    while (p < end) {
        while (p < end && detail::byte_kind[*p] == 0) ++p;
        const auto* start = p;
        unsigned char kinds = 0;
        for (; p < end && detail::byte_kind[*p] != 0; ++p) kinds |= detail::byte_kind[*p];
        const auto size = static_cast<std::size_t>(p - start);
        if ((kinds & 2) != 0 || size > sizeof lower) {
            for_each_folded_word(std::string_view(reinterpret_cast<const char*>(start), size),
                                 [&](std::string_view w) { word(w); });
            continue;
        }
        if (size < 2) continue;
        for (std::size_t k = 0; k < size; ++k)
            lower[k] = static_cast<char>(start[k] >= 'A' && start[k] <= 'Z' ? start[k] - 'A' + 'a' : start[k]);
        word(std::string_view(lower, size));
    }
}

// The same without the stop words.
template <class Word>
void for_each_word(std::string_view text, Word&& word) {
    for_each_indexed_word(text, [&](std::string_view w) {
        if (!is_stop_word(w)) word(w);
    });
}

// The stop words, in byte order.
std::vector<std::string_view> stop_words();

// static/search-words.js: the page's fold() and words(), from the same
// tables (the folded letters, the stop words), as globalThis.paperpressWords.
std::string words_script();

// The words of `text`, in order, repeats included.
std::vector<std::string> words_of(std::string_view text);

// A query word of three bytes or more matches every indexed word it starts
// (prefix search as one types); a shorter one matches only itself, so "ai"
// does not read every word that starts with "ai".
inline constexpr std::size_t min_prefix = 3;

} // namespace pp::search
