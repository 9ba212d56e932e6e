// `paperpress serve`: a local preview. Builds the site into its own output
// folder for http://127.0.0.1:PORT/, serves it (serve/server.h), watches the
// content, the themes, the layouts/ and static/ overrides and the config
// file (serve/watcher.h), rebuilds with build_site when something changed
// and makes open pages reload. A failed build is logged and shown on the
// pages; the server keeps running. SIGINT and SIGTERM stop it.
#pragma once

#include "util/files.h"

#include <chrono>
#include <functional>
#include <string>

namespace pp {

struct ServeOptions {
    fs::path content_dir = "content";
    fs::path config_path = "paperpress.yaml";
    bool config_required = false; // --config was given: the file must exist
    fs::path out_dir = ".cache/serve/site";
    std::string host = "127.0.0.1";
    int port = 8000; // 0: any free port
    bool watch = true;
    unsigned jobs = 0; // build threads; 0: job_count() (util/thread_pool.h)
    std::chrono::milliseconds poll_interval{300};
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
