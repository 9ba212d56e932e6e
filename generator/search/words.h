// The words of the search index, and of a query: both sides split and fold
// text the same way, and so does themes/default/static/search.js.
//
// A word is a run of letters and digits (Unicode categories L and N) of the
// text folded by fold_for_matching (util/text.h: NFKD, marks stripped, case
// folded, ø ł đ ð þ æ ı to a base letter), so "Schölkopf", "SCHOLKOPF" and
// "scholkopf" are one word. Words of one byte are not indexed.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pp::search {

// The most common English function words ("the", "of", "we", …: search.js
// lists the same): not indexed and ignored in a query. They are a third of
// an abstract's words and match nearly every paper.
bool is_stop_word(std::string_view word);

// The words of a run of text that holds bytes beyond ASCII, folded by utf8proc.
void for_each_folded_word(std::string_view run, const std::function<void(std::string_view)>& word);

// Calls `word` with each word of `text` of two bytes or more that is not a
// stop word, in order. ASCII letters and digits are lower-cased here; a run
// that holds other bytes goes through utf8proc (most of an archive's text is
// ASCII, and this is the build's inner loop: a template, so it inlines).
template <class Word>
void for_each_word(std::string_view text, Word&& word) {
    auto word_byte = [](unsigned char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || c >= 0x80;
    };
    char lower[64];
    std::size_t i = 0;
    while (i < text.size()) {
        if (!word_byte(static_cast<unsigned char>(text[i]))) {
            ++i;
            continue;
        }
        std::size_t end = i;
        bool plain = true;
        for (; end < text.size() && word_byte(static_cast<unsigned char>(text[end])); ++end)
            plain = plain && static_cast<unsigned char>(text[end]) < 0x80;
        const std::string_view run = text.substr(i, end - i);
        i = end;
        if (!plain || run.size() > sizeof lower) {
            for_each_folded_word(run, [&](std::string_view w) { word(w); });
            continue;
        }
        if (run.size() < 2) continue;
        for (std::size_t k = 0; k < run.size(); ++k)
            lower[k] = run[k] >= 'A' && run[k] <= 'Z' ? static_cast<char>(run[k] - 'A' + 'a') : run[k];
        const std::string_view w(lower, run.size());
        if (!is_stop_word(w)) word(w);
    }
}

// The words of `text`, in order, repeats included.
std::vector<std::string> words_of(std::string_view text);

// A query word of three bytes or more matches every indexed word it starts
// (prefix search as one types); a shorter one matches only itself, so "ai"
// does not read every word that starts with "ai".
inline constexpr std::size_t min_prefix = 3;

} // namespace pp::search
