#include "serve/serve.h"

#include "config/config.h"
#include "serve/server.h"
#include "serve/watcher.h"
#include "site/builder.h"

#include <csignal>
#include <exception>
#include <ctime>
#include <pthread.h>
#include <sstream>

namespace pp {

namespace {

class Preview {
public:
    Preview(const ServeOptions& options, std::string base_url, PreviewServer& server)
        : options_(options), base_url_(std::move(base_url)), server_(server) {}

    // Builds, logs, and tells the server (and so the open pages).
    void build() {
        const auto started = std::chrono::steady_clock::now();
        std::string error_text;
        auto config = load_config(options_.config_path, options_.config_required);
        if (!config) {
            error_text = config.error().to_string();
            error("error: " + error_text);
        } else {
            config->base_url = base_url_;
            BuildOptions build;
            build.content_dir = options_.content_dir;
            build.out_dir = options_.out_dir;
            build.site_dir = site_root(options_.config_path);
            build.themes_dir = themes_dir(options_.config_path);
            build.config = std::move(*config);
            build.jobs = options_.jobs;
            BuildReport report;
            try {
                report = build_site(build);
            } catch (const std::exception& e) { // the server outlives any build
                report.errors.push_back(Error{"", 0, std::string("the build stopped: ") + e.what()});
            }
            for (const auto& warning : report.warnings) error("warning: " + warning);
            for (const auto& problem : report.errors) {
                error("error: " + problem.to_string());
                if (!error_text.empty()) error_text += "\n";
                error_text += problem.to_string();
            }
            const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                                  started)
                                .count();
            info(build_summary(report, options_.out_dir, ms));
        }
        server_.build_finished(error_text);
    }

    void info(const std::string& line) const {
        if (options_.log) options_.log(line);
    }
    void error(const std::string& line) const {
        if (options_.log_error) options_.log_error(line);
    }

private:
    const ServeOptions& options_;
    std::string base_url_;
    PreviewServer& server_;
};

// Blocks SIGINT and SIGTERM in this thread and every thread it starts (the
// server's, the build's), so they stay pending until waited for; restores
// the mask and SIGPIPE's action when done.
class SignalGuard {
public:
    SignalGuard() {
        sigemptyset(&set_);
        sigaddset(&set_, SIGINT);
        sigaddset(&set_, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &set_, &old_mask_);
        // A page closed mid-response must not kill the server.
        old_pipe_ = std::signal(SIGPIPE, SIG_IGN);
    }
    ~SignalGuard() {
        std::signal(SIGPIPE, old_pipe_);
        pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
    }
    SignalGuard(const SignalGuard&) = delete;
    SignalGuard& operator=(const SignalGuard&) = delete;

    // Waits up to `timeout` for SIGINT or SIGTERM; returns the signal, or 0.
    int wait(std::chrono::milliseconds timeout) const {
        timespec span{};
        span.tv_sec = static_cast<std::time_t>(timeout.count() / 1000);
        span.tv_nsec = static_cast<long>(timeout.count() % 1000) * 1'000'000L;
        const int signal = sigtimedwait(&set_, nullptr, &span);
        return signal > 0 ? signal : 0;
    }

private:
    sigset_t set_{};
    sigset_t old_mask_{};
    void (*old_pipe_)(int) = SIG_DFL;
};

} // namespace

std::string preview_base_url(const std::string& host, int port) {
    std::string name = host;
    if (name.empty() || name == "0.0.0.0" || name == "::") name = "127.0.0.1";
    if (name.find(':') != std::string::npos) name = "[" + name + "]";
    return "http://" + name + ":" + std::to_string(port) + "/";
}

int run_serve(const ServeOptions& options) {
    auto error = [&](const std::string& line) {
        if (options.log_error) options.log_error(line);
    };
    if (!is_loopback_host(options.host))
        error("warning: --host " + options.host +
              ": the preview is reachable from other machines; it is meant for 127.0.0.1");

    SignalGuard signals; // before any thread starts

    PreviewServer server(options.out_dir, error);
    auto port = server.bind(options.host, options.port);
    if (!port) {
        error("error: " + port.error().to_string());
        return 1;
    }
    const std::string base_url = preview_base_url(options.host, *port);
    Preview preview(options, base_url, server);

    // Watched from before the first build, so nothing saved during it is missed.
    const fs::path site_dir = options.config_path.parent_path(); // "" is the working folder
    std::vector<fs::path> roots = {options.content_dir, themes_dir(options.config_path), site_dir / "layouts",
                                   site_dir / "static", options.config_path};
    Watcher watcher(roots, {options.out_dir});

    preview.build();
    server.start();
    preview.info("Serving " + base_url + " (Ctrl-C to stop)");
    if (options.watch) {
        std::string watched;
        for (const auto& root : roots) watched += (watched.empty() ? "" : ", ") + root.generic_string();
        preview.info("watching " + watched);
    }

    int signal = 0;
    while (signal == 0) {
        signal = signals.wait(options.poll_interval);
        if (signal || !options.watch) continue;
        const Snapshot before = watcher.last();
        if (watcher.poll().empty()) continue;
        // Editors save in steps (write, rename, touch): wait for quiet.
        for (int settle = 0; settle < 10 && signal == 0; ++settle) {
            signal = signals.wait(std::chrono::milliseconds(100));
            if (watcher.poll().empty()) break;
        }
        const WatchChanges changes = diff_snapshots(before, watcher.last());
        if (changes.empty()) continue; // e.g. a temp file that came and went
        if (signal) break;
        preview.info(changes.describe());
        preview.build();
    }
    preview.info(std::string("serve: stopping (") + (signal == SIGINT ? "SIGINT" : "SIGTERM") + ")");
    server.stop();
    return 0;
}

} // namespace pp
