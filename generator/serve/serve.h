// `paperpress serve`: a local preview. Builds the site into its own output
// folder for http://127.0.0.1:PORT/, serves it (serve/server.h), watches the
// content, the themes, the layouts/ and static/ overrides and the config
// file (inotify: serve/change_notifier.h; else polling: serve/watcher.h),
// rebuilds with build_site when something changed and makes open pages
// reload. A failed build is logged and shown on the pages; the server keeps
// running. SIGINT and SIGTERM stop it.
#pragma once

#include "config/config.h"
#include "util/clock.h"
#include "util/files.h"

#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace pp {

// Polling, when inotify is unavailable: a look this often.
inline constexpr std::chrono::milliseconds default_poll_interval{300};
// An editor's save is several events (write, rename, touch): with inotify,
// the build starts once no event came for settle_quiet (a stream of events
// is looked at after settle_limit); polling, once a look finds nothing new
// (every 100 ms, for at most 1 s).
inline constexpr std::chrono::milliseconds settle_quiet{8};
inline constexpr std::chrono::milliseconds settle_limit{500};

struct ServeOptions {
    fs::path content_dir = "content";
    fs::path config_path = "paperpress.yaml";
    // Reads the config before each build. The command line passes its own
    // check (which reads notify: too); unset, config/'s load_config with the
    // file optional.
    std::function<Result<Config>()> load_config;
    fs::path out_dir = ".cache/serve/site";
    std::string host = "127.0.0.1";
    int port = 8000; // 0: any free port
    bool watch = true;
    unsigned jobs = 0; // build threads; 0: job_count() (util/thread_pool.h)
    // Set (--poll-interval): poll this often. Unset: inotify, else polling every default_poll_interval.
    std::optional<std::chrono::milliseconds> poll_interval;
    Clock* clock = nullptr;                            // every wait and time of serve/; nullptr: real_clock()
    std::function<void(const std::string&)> log;       // progress, one line at a time
    std::function<void(const std::string&)> log_error; // errors and warnings
};

// "http://127.0.0.1:8000/" for the host the server listens on (a wildcard
// host gives 127.0.0.1).
std::string preview_base_url(const std::string& host, int port);

// Runs until SIGINT or SIGTERM; returns the exit status (0 after a signal,
// 1 when the server cannot start).
int run_serve(const ServeOptions& options);

} // namespace pp
