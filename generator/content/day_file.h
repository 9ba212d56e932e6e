// The day file: content/YYYY/MM/YYYY-MM-DD.md, the archive's single source
// of truth. YAML front matter holds the day's metadata; the Markdown body
// holds one section per paper. docs/content-format.md is the specification.
//
//   write_day(read_day(canonical file)) == the same bytes
//   read_day(write_day(day))            == day (for tidy text, see tidy_paper)
#pragma once

#include "core/paper.h"
#include "util/error.h"

#include <string>
#include <string_view>

namespace pp {

// A secret value the process knows (util/redact.h) is written as "[$NAME]"
// wherever it stands, and the reason is redacted: the day file is published.
std::string write_day(const Day& day);

// `file_name` only labels errors ("content/2025/05/2025-05-20.md:14: ...").
// A paper's section as write_day writes it is read without cmark; any other
// through cmark's syntax tree. The front matter likewise, without yaml-cpp
// (content/front_matter.h).
// Characters XML forbids are read as spaces, invalid UTF-8 as U+FFFD (valid_xml_text).
Result<Day> read_day(std::string_view text, const std::string& file_name);

// The same with every block read through cmark's syntax tree and the front
// matter through yaml-cpp: the tests and the fuzz target check that
// read_day gives the same day, or the same error.
Result<Day> read_day_through_cmark(std::string_view text, const std::string& file_name);

} // namespace pp
