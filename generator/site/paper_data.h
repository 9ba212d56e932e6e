// A day's papers as the day page and the home page show them: each paper's
// fields, and the papers grouped by topic (or one ranked list) with the rest
// of the announcement. Pure functions, like site/pages.h.
#pragma once

#include "core/paper.h"
#include "site/theme.h"

#include <cstddef>
#include <string>

namespace pp {

// "p-2501.00001", "p-hep-th-9901001": letters, digits, '.' and '-' only, so
// themes may write it unquoted (id=p-…, href=#p-…).
std::string paper_anchor(const std::string& id);

// One paper's fields (docs/themes.md, "paper"); `number` as shown.
TemplateData paper_data(const Paper& paper, std::size_t number);

// Sets `papers`, `topics`, `grouped`, `paper_count`, `has_papers`,
// `many_papers` and the papers not picked (`unpicked`, `has_unpicked`,
// `unpicked_count`) of `day` on `data`.
void set_papers(TemplateData& data, const Day& day, bool group_by_topic);

} // namespace pp
