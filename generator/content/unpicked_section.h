// The day file's "Not picked" section (docs/content-format.md): the day's
// other candidates after its papers, a title and a link each, so the day page
// can list the rest of the announcement. Internal to content/ (day_file.cpp).
//
//   ## Not picked
//
//   - [Title](https://arxiv.org/abs/ID)
#pragma once

#include "core/paper.h"
#include "util/error.h"

#include <cmark-gfm.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pp {

inline constexpr std::string_view unpicked_heading = "## Not picked";

// "[Title](https://arxiv.org/abs/ID)" as write_day writes it (a paper's
// heading after "## ", an item after "- "): the title, plain text
// (content/markdown.h), and the link's ID; nullopt for anything else.
std::optional<std::pair<std::string, std::string_view>> read_written_link(std::string_view text);

// The section, starting with a blank line; "" when there is nothing to list.
std::string write_unpicked(const std::vector<Unpicked>& unpicked);

// The section as write_unpicked writes it, read without cmark; nullopt for
// anything else (then cmark reads it and says what is wrong, and where).
std::optional<std::vector<Unpicked>> read_written_unpicked(std::string_view section);

// Whether a level-2 heading is the section's: exactly the text "Not picked".
bool is_unpicked_heading(cmark_node* heading);

// The section's list, read through cmark into `out`: each item exactly a link
// to https://arxiv.org/abs/ + an arXiv ID, with a title (read tidy: one line). `offset` as
// day_file.cpp's line_of(); errors carry the line, not the file.
Result<void> read_unpicked_list(cmark_node* list, int offset, std::vector<Unpicked>& out);

} // namespace pp
