// What the last build made and from what: kept next to the output folder
// (site/ -> .site.paperpress-state), so the next build re-renders only the
// outputs whose inputs changed and removes the outputs that no longer
// exist. Not inside it: the output folder is published as it is.
//
// A record file (util/record_file.h): the key of the program that wrote
// it, then two tables, both in date / path order so the file's bytes depend
// only on the inputs (two builds of the same content give the same state):
//   days:    each day file's size, mtime and content hash, with its summary
//            (the site graph's share of the day) and its prompt reference,
//            so an unchanged day is neither read nor parsed again;
//   outputs: each output's site path, the key of everything it was made
//            from (a hash), and its size, to notice a file deleted by hand;
//            for outputs a later build reads back, the hash of their bytes.
//
// The last line carries a hash of all the others: a state that does not
// verify (damaged, edited by hand), or names an output path that is not a
// plain relative path inside the output folder, is not used at all.
//
// A day record is trusted on size + mtime only when the file was last
// changed well before the build that wrote the state started (the state
// file's mtime is set to that start): a file changed within the same clock
// tick as it was read is hashed again, as git does with its index.
#pragma once

#include "site/site_graph.h"
#include "util/env.h"
#include "util/files.h"
#include "util/hash.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace pp {

// A date as one number, for a Hasher (util/hash.h).
inline std::uint64_t date_number(const Date& date) {
    return static_cast<std::uint64_t>(date.year * 10000 + date.month * 100 + date.day);
}

struct DayRecord {
    std::uint64_t size = 0;
    std::int64_t mtime_ns = 0;
    std::uint64_t hash = 0; // of the file's bytes
    std::string prompt;     // the day's prompt reference ("" when none)
    DaySummary summary;
};

struct OutputRecord {
    std::uint64_t key = 0; // hash of every input the output was made from
    std::uint64_t size = 0;
    std::uint64_t bytes =
        0;             // hash of the bytes written, for outputs read back (data/days/*.json, data/YYYY-MM.json); else 0
    bool made = false; // the builder's own mark: made or kept by this build (not saved)
};

struct BuildState {
    std::uint64_t program = 0; // the build's program key: outputs it made can be read back
    std::map<Date, DayRecord> days;
    std::map<std::string, OutputRecord> outputs; // by site path
    // Day records with an mtime at or after this are hashed again (ns since the epoch).
    std::int64_t trusted_before_ns = 0;
    // Why a state file that exists was not used ("" when it was, or there was none).
    std::string rejected;
};

// "site" -> ".site.paperpress-state" in the same folder.
fs::path state_path(const fs::path& out_dir);

// A missing, unreadable, foreign or damaged state gives an empty one (a full
// build); `rejected` says why when the file was there. `env` reads its stamp.
BuildState load_state(const fs::path& out_dir, Env& env = real_env());

// The state in `bytes` (a state file's), or an empty one with `rejected`
// saying why; day records stamped at or after `trusted_before_ns` are
// hashed again.
BuildState parse_state(std::string_view bytes, std::int64_t trusted_before_ns);

// The state file's bytes, handed to `write` a line at a time.
void serialize_state(const BuildState& state, const std::function<void(std::string_view)>& write);
std::string serialize_state(const BuildState& state);

// Writes the state (if its bytes changed) and stamps it with `build_start_ns`.
Result<void> save_state(const fs::path& out_dir, const BuildState& state, std::int64_t build_start_ns);

} // namespace pp
