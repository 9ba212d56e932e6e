// The Latin letters that NFKD leaves whole, and the letters readers type for
// them (æ ae, ø o, ß ss, ł l, đ d, þ th, œ oe, ı i, …): util/folding.txt,
// compiled in. fold_for_matching (util/text.h) takes them there after NFKD and
// case folding, and the search page gets the same table (search/words.h).
#pragma once

#include <string_view>
#include <utility>
#include <vector>

namespace pp {

// (letter, its ASCII letters) in UTF-8, both cases, in code point order.
const std::vector<std::pair<std::string_view, std::string_view>>& letter_folds();

} // namespace pp
