// Author follow list: a paper by a followed author is always kept and marked.
// Names match through case, accents and TeX accents, so "Zdeborov\'a",
// "Zdeborová" and "ZDEBOROVA" are the same person. The name is matched
// without the affiliations arXiv's feed adds to it (core/paper.h, split_author).
#pragma once

#include "core/paper.h"

#include <set>
#include <string>
#include <vector>

namespace pp {

// "Lenka Zdeborov\'a" -> "lenka zdeborova"
std::string normalize_name(std::string_view name);

class AuthorMatcher {
public:
    explicit AuthorMatcher(const std::vector<std::string>& followed);
    // The names of `paper`'s authors that are followed, in the paper's author order.
    std::vector<std::string> matches(const Paper& paper) const;
    bool empty() const { return followed_.empty(); }

private:
    std::set<std::string> followed_;
};

} // namespace pp
