// `paperpress build`: content tree + theme + config -> the static site.
// Scans the content, builds the site graph, renders every page with the
// theme, writes feeds and data (one file a month, which the search reads), copies
// the theme's static files and, for a theme that typesets math, KaTeX's.
//
// Incremental and parallel: the build state next to the output folder
// (site/build_state.h) records what each output was made from, so only
// outputs whose inputs changed are rendered, outputs of days that are gone
// are removed, and unchanged days are not even parsed (their summaries are
// cached; a page that needs a whole unchanged day parses it, or reads it
// back from its JSON data with `data: day`). Days are parsed, rendered and
// dropped a month at a time on job_count() workers (the CPUs the process
// may use), each month ending with its data file; only the site graph of
// summaries stays in memory. An
// incremental build gives the same bytes as a clean one. Every output goes
// through write_file_if_changed.
//
// Safe against careless input and crashes: a missing or empty content tree
// is an error; a page that cannot be rendered or written keeps its last
// version; a build that would remove more than half of
// the site needs `force`; one build at a time writes an output folder (a
// lock next to it; the second waits), and the first build after one that was
// killed removes the temporary files it left. The build state and the files
// read back are verified by hash; when they do not verify, everything is
// built again (a warning says so).
#pragma once

#include "config/config.h"
#include "util/env.h"
#include "util/error.h"
#include "util/files.h"

#include <functional>
#include <string>
#include <vector>

namespace pp {

struct BuildOptions {
    fs::path content_dir = "content";
    fs::path out_dir = "site";
    fs::path site_dir = "."; // the config file's folder: layouts/ and static/ overrides
    fs::path themes_dir = "themes";
    // KaTeX's dist folder, shipped into static/katex/ for themes with `math: true`
    // in theme.yaml. Empty: $PAPERPRESS_KATEX_DIR, else the first copy found
    // (site/assets.cpp: node_modules, the install's, Debian's libjs-katex). Not
    // found: an error, unless the config turns math off.
    fs::path katex_dir;
    Config config;
    // A build that would remove more than half of the outputs the last build
    // made is refused (a wrong --content, a half-deleted tree) unless forced.
    bool force = false;
    // Threads: 0 for job_count() (util/thread_pool.h: $PAPERPRESS_JOBS, else
    // the CPUs this process may use).
    unsigned jobs = 0;
    // Told when another process is building the same output folder and this
    // one waits for it; empty: a line on stderr.
    std::function<void(const std::string&)> on_wait;
    // The wall clock and the files' stamps the build trusts (util/env.h);
    // nullptr: the real ones. Tests set them exactly.
    Env* env = nullptr;
    Env& environment() const { return env ? *env : real_env(); }
};

struct BuildReport {
    int days = 0;
    int papers = 0;
    int files = 0;                          // outputs produced
    int written = 0;                        // of which changed on disk
    int rendered = 0;                       // outputs rendered (the others were up to date by their inputs)
    int removed = 0;                        // outputs of the previous build that no longer exist
    int parsed = 0;                         // day files read and parsed (the others came from the summary cache)
    int trend_months_counted = 0;           // by the trends page (the others' tallies were kept: site/trends_cache.h)
    unsigned jobs = 0;                      // threads the build ran on (BuildOptions::jobs)
    std::vector<std::string> written_files; // site paths, sorted
    std::vector<std::string> removed_files; // site paths, sorted
    std::vector<Error> errors;              // days that could not be read, failed writes, theme problems
    std::vector<std::string> warnings;
    bool ok() const { return errors.empty(); }
};

BuildReport build_site(const BuildOptions& options);

// The one-line summary `build` and `serve` print: "build: N days, … files into OUT (…)",
// with " in N ms" when `ms` is given.
std::string build_summary(const BuildReport& report, const fs::path& out, long long ms = -1);

} // namespace pp
