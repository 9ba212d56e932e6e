// gzip for the site's data files (libdeflate). The same bytes always give
// the same file: the header carries no time and no name, so a rebuilt
// month file is byte-identical and a commit shows only real changes.
#pragma once

#include "util/error.h"
#include "util/memory.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace pp {

// Level 1: the data files are most of a full build's output, and level 6
// would make them 9% smaller for four times the CPU (docs/performance.md).
// The file is on pages of its own (a month's data file is megabytes).
PageBuffer gzip(std::string_view bytes);

// The bytes a gzip file holds; an error for anything else, or for more
// than `max_size` bytes (the size is checked before anything is inflated).
Result<std::string> gunzip(std::string_view file, std::size_t max_size);

} // namespace pp
