#include "serve/serve.h"

#include "config/config.h"
#include "serve/change_notifier.h"
#include "serve/server.h"
#include "serve/watcher.h"
#include "site/builder.h"

#include <csignal>
#include <exception>
#include <poll.h>
#include <pthread.h>
#include <sstream>
#include <sys/signalfd.h>
#include <unistd.h>

namespace pp {

namespace {

class Preview {
public:
    Preview(const ServeOptions& options, std::string base_url, PreviewServer& server, Clock& clock)
        : options_(options), base_url_(std::move(base_url)), server_(server), clock_(clock) {}

    // Builds, logs, and tells the server (and so the open pages).
    void build() {
        const auto started = clock_.now();
        std::string error_text;
        auto config = options_.load_config ? options_.load_config() : load_config(options_.config_path, false);
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
            const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(clock_.now() - started).count();
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
    Clock& clock_;
};

// Blocks SIGINT and SIGTERM in this thread and every thread it starts (the
// server's, the build's), so they stay pending until read from a signalfd,
// which a wait polls with the watcher's; restores the mask and SIGPIPE's
// action when done.
class SignalGuard {
public:
    SignalGuard() {
        sigemptyset(&set_);
        sigaddset(&set_, SIGINT);
        sigaddset(&set_, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &set_, &old_mask_);
        signal_fd_ = signalfd(-1, &set_, SFD_NONBLOCK | SFD_CLOEXEC);
        // A page closed mid-response must not kill the server.
        old_pipe_ = std::signal(SIGPIPE, SIG_IGN);
    }
    ~SignalGuard() {
        if (signal_fd_ >= 0) ::close(signal_fd_);
        std::signal(SIGPIPE, old_pipe_);
        pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
    }
    SignalGuard(const SignalGuard&) = delete;
    SignalGuard& operator=(const SignalGuard&) = delete;

    // Waits until SIGINT or SIGTERM came (returned), `other` is readable (if
    // not -1) or `limit` passed (none: no limit); 0 when no signal came.
    int wait(int other, std::optional<std::chrono::milliseconds> limit) const {
        pollfd fds[2] = {{signal_fd_, POLLIN, 0}, {other, POLLIN, 0}};
        int timeout = limit ? static_cast<int>(std::max<std::chrono::milliseconds::rep>(limit->count(), 0)) : -1;
        if (signal_fd_ < 0 && (timeout < 0 || timeout > 100)) timeout = 100; // no signalfd: look at the pending set
        ::poll(fds, other >= 0 ? 2 : 1, timeout);
        return pending();
    }
    // The signal that came, without waiting; 0 if none.
    int pending() const {
        signalfd_siginfo info{};
        if (signal_fd_ >= 0 && ::read(signal_fd_, &info, sizeof info) == static_cast<ssize_t>(sizeof info))
            return static_cast<int>(info.ssi_signo);
        timespec now{}; // no signalfd: ask the pending set
        const int signal = signal_fd_ < 0 ? sigtimedwait(&set_, nullptr, &now) : 0;
        return signal > 0 ? signal : 0;
    }

private:
    sigset_t set_{};
    sigset_t old_mask_{};
    int signal_fd_ = -1;
    void (*old_pipe_)(int) = SIG_DFL;
};

std::chrono::milliseconds until(Clock& clock, Clock::time_point when) {
    return std::chrono::ceil<std::chrono::milliseconds>(when - clock.now());
}

// Watches the roots by inotify, or by polling when it is unavailable or an
// interval was asked for, and tells when something changed.
class EditWatch {
public:
    EditWatch(const ServeOptions& options, std::vector<fs::path> roots, const SignalGuard& signals, Clock& clock,
              const std::function<void(const std::string&)>& warn)
        : watcher_(roots, {options.out_dir}), signals_(signals), clock_(clock),
          interval_(options.poll_interval.value_or(default_poll_interval)) {
        if (options.poll_interval || !options.watch) return;
        auto opened = ChangeNotifier::open(roots, {options.out_dir});
        if (opened) notifier_ = std::move(*opened);
        else
            warn("warning: " + opened.error().message + "; checking for edits every " +
                 std::to_string(interval_.count()) + " ms instead");
    }

    std::string how() const { return notifier_ ? "by inotify" : "every " + std::to_string(interval_.count()) + " ms"; }

    // Waits for the next change; `changes` gets it. Returns the signal that
    // ended the wait, or 0.
    int next(WatchChanges& changes) {
        for (;;) {
            const Snapshot before = watcher_.last();
            if (int signal = notifier_ ? wait_for_event() : wait_for_poll(); signal) return signal;
            if (int signal = settle(); signal) return signal;
            if (notifier_) watcher_.poll();
            changes = diff_snapshots(before, watcher_.last());
            if (!changes.empty()) return 0; // else e.g. a temp file that came and went
        }
    }

private:
    int wait_for_event() {
        for (;;) {
            if (int signal = signals_.wait(notifier_->fd(), std::nullopt); signal) return signal;
            if (notifier_->drain()) return 0;
        }
    }

    int wait_for_poll() {
        for (;;) {
            const auto next_look = clock_.now() + interval_;
            for (int signal = 0; clock_.now() < next_look;)
                if ((signal = signals_.wait(-1, until(clock_, next_look)))) return signal;
            if (!watcher_.poll().empty()) return 0;
        }
    }

    // Editors save in steps (write, rename, touch): waits until they are done.
    int settle() {
        const auto limit = clock_.now() + (notifier_ ? settle_limit : std::chrono::milliseconds(1000));
        do {
            clock_.sleep_for(notifier_ ? settle_quiet : std::chrono::milliseconds(100));
            if (int signal = signals_.pending(); signal) return signal;
        } while ((notifier_ ? notifier_->drain() : !watcher_.poll().empty()) && clock_.now() < limit);
        return 0;
    }

    Watcher watcher_;
    std::unique_ptr<ChangeNotifier> notifier_;
    const SignalGuard& signals_;
    Clock& clock_;
    std::chrono::milliseconds interval_;
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
    Clock& clock = options.clock ? *options.clock : real_clock();

    PreviewServerOptions server_options;
    server_options.clock = &clock;
    PreviewServer server(options.out_dir, error, server_options);
    auto port = server.bind(options.host, options.port);
    if (!port) {
        error("error: " + port.error().to_string());
        return 1;
    }
    const std::string base_url = preview_base_url(options.host, *port);
    Preview preview(options, base_url, server, clock);

    // Watched from before the first build, so nothing saved during it is missed.
    const fs::path site_dir = options.config_path.parent_path(); // "" is the working folder
    std::vector<fs::path> roots = {options.content_dir, themes_dir(options.config_path), site_dir / "layouts",
                                   site_dir / "static", options.config_path};
    EditWatch watch(options, roots, signals, clock, error);

    preview.build();
    server.start();
    preview.info("Serving " + base_url + " (Ctrl-C to stop)");
    if (options.watch) {
        std::string watched;
        for (const auto& root : roots) watched += (watched.empty() ? "" : ", ") + root.generic_string();
        preview.info("watching " + watched + " (" + watch.how() + ")");
    }

    int signal = 0;
    while (signal == 0) {
        if (!options.watch) {
            signal = signals.wait(-1, std::nullopt);
            continue;
        }
        WatchChanges changes;
        if ((signal = watch.next(changes))) break;
        preview.info(changes.describe());
        preview.build();
    }
    preview.info(std::string("serve: stopping (") + (signal == SIGINT ? "SIGINT" : "SIGTERM") + ")");
    server.stop();
    return 0;
}

} // namespace pp
