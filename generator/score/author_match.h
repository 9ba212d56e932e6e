// Author follow list: a paper by a followed author is always kept and marked.
// Names match through case, accents and TeX accents, so "Zdeborov\'a",
// "Zdeborová" and "ZDEBOROVA" are the same person.
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
    // The followed names that wrote `paper`, in the paper's author order.
    std::vector<std::string> matches(const Paper& paper) const;
    bool empty() const { return followed_.empty(); }

private:
    std::set<std::string> followed_;
};

} // namespace pp
