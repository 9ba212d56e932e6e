// The trends page's month tallies (site/trends.h), kept between builds
// beside the output folder (site/ -> .site.paperpress-trends), so that a
// night's build counts only the month that changed, not a year of picks.
//
// A record file (util/record_file.h): the key of the program and settings
// that counted them, then each month's tally under the key of the days it
// was counted from. A tally is used only when both keys match the build's;
// a missing, linked, damaged or foreign file gives none (the months are
// counted again). The months are written in date order, each one's lists in
// a fixed order: the same tallies give the same bytes.
#pragma once

#include "site/trends.h"
#include "util/error.h"
#include "util/files.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace pp {

struct KeptTally {
    std::uint64_t key = 0; // of the days the tally was counted from
    MonthTally tally;
};

// "site" -> ".site.paperpress-trends" in the same folder.
fs::path trends_cache_path(const fs::path& out_dir);

// The tallies in `bytes` (a cache file's) counted under `program`; none
// when the bytes do not verify or name another program.
std::vector<KeptTally> parse_tallies(std::string_view bytes, std::uint64_t program);
std::vector<KeptTally> load_tallies(const fs::path& out_dir, std::uint64_t program);

std::string serialize_tallies(const std::vector<KeptTally>& tallies, std::uint64_t program);
// Writes the file when its bytes change (atomically).
Result<void> save_tallies(const fs::path& out_dir, const std::vector<KeptTally>& tallies, std::uint64_t program);

} // namespace pp
