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

// Calls `word` with each word of `text` of two bytes or more, in order.
void for_each_word(std::string_view text, const std::function<void(std::string_view)>& word);

// The words of `text`, in order, repeats included.
std::vector<std::string> words_of(std::string_view text);

// A query word of three bytes or more matches every indexed word it starts
// (prefix search as one types); a shorter one matches only itself, so "ai"
// does not read every word that starts with "ai".
inline constexpr std::size_t min_prefix = 3;

} // namespace pp::search
