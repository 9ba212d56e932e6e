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

// Level 4: on the bench archive's month files, 8% smaller than level 1 for
// 0.2 s more CPU in a full build (about 1 ms in an append); level 6 would save
// 2% more for twice that again (docs/performance.md).
// The file is on pages of its own (a month's data file is megabytes).
PageBuffer gzip(std::string_view bytes);
// How hard gzip_small() compresses: `fast` is level 1, for the search
// index's chunks (twice the speed of level 4 for 2.5% more bytes: about
// 0.35 s of CPU in a full build of the bench archive, docs/performance.md).
enum class Effort { usual, fast };
// The same on the heap, for files of kilobytes (a page of its own would
// fault in 2 MB for each: the search index's thousands of small files).
std::string gzip_small(std::string_view bytes, Effort effort = Effort::usual);

// The bytes a gzip file holds; an error for anything else, or for more
// than `max_size` bytes (the size is checked before anything is inflated).
Result<std::string> gunzip(std::string_view file, std::size_t max_size);

} // namespace pp
