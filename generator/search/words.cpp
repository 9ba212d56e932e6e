#include "search/words.h"

#include "util/text.h"

#include <utf8proc.h>

#include <algorithm>
#include <iterator>

namespace pp::search {

namespace {

// The words of folded, non-ASCII text: runs of letters and digits.
void split_folded(std::string_view folded, const std::function<void(std::string_view)>& word) {
    std::size_t start = 0, i = 0;
    auto flush = [&](std::size_t end) {
        if (end - start >= 2) word(folded.substr(start, end - start));
    };
    while (i < folded.size()) {
        utf8proc_int32_t c = 0;
        const auto n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(folded.data() + i),
                                        static_cast<utf8proc_ssize_t>(folded.size() - i), &c);
        const std::size_t step = n > 0 ? static_cast<std::size_t>(n) : 1;
        if (n <= 0 || !is_letter_or_digit(static_cast<std::uint32_t>(c))) {
            flush(i);
            start = i + step;
        }
        i += step;
    }
    flush(folded.size());
}

} // namespace

// Sorted, for binary_search.
constexpr std::string_view stop_list[] = {
    "also", "an",   "and",  "are", "as",    "at",    "be",   "been", "both", "but", "by",   "can",   "for",
    "from", "has",  "have", "in",  "into",  "is",    "it",   "its",  "not",  "of",  "on",   "or",    "our",
    "such", "than", "that", "the", "their", "these", "this", "to",   "was",  "we",  "were", "which", "with"};

bool is_stop_word(std::string_view word) {
    if (word.size() > 5) return false;
    return std::binary_search(std::begin(stop_list), std::end(stop_list), word);
}

std::vector<std::string_view> stop_words() { return {std::begin(stop_list), std::end(stop_list)}; }

void for_each_folded_word(std::string_view run, const std::function<void(std::string_view)>& word) {
    split_folded(fold_for_matching(run), word);
}

std::vector<std::string> words_of(std::string_view text) {
    std::vector<std::string> out;
    for_each_word(text, [&](std::string_view w) { out.emplace_back(w); });
    return out;
}

} // namespace pp::search
