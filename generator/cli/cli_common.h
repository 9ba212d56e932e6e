// What the command files share: global options, exit codes, output helpers,
// and one function per command (cli/commands.cpp parses, the others run).
// Every command gets the one Config, loaded and validated before it runs.
#pragma once

#include "notify/channel.h"

#include "config/config.h"
#include "util/error.h"
#include "util/lock.h"

#include <optional>

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace pp::cli {

constexpr int exit_ok = 0;
constexpr int exit_problems = 1;
constexpr int exit_usage = 2;
constexpr int exit_incomplete = 3; // `run`: a partial or stale day (written, but not complete)

struct GlobalOptions {
    std::string content = "content";
    std::string config = "paperpress.yaml";
};

// On stderr, which run_cli redacts line by line (util/redact.h RedactedOutput),
// as all the commands print: an error may quote a URL or a reply.
void print_error(const Error& error);
void print_warning(const std::string& warning);

// The secrets the commands pass down, read from the variables the config
// names once, here: no module under the CLI reads a secret from the
// environment.
struct Secrets {
    std::string llm_api_key; // llm.api_key_env; empty: unset
    std::string push_token;  // publish.token_env; empty: unset
    NotifySecrets notify;    // the notification channels' variables, by name
};

// Reads the secrets, and registers the value of every variable the config
// names as holding one, for redact() to hide wherever it would be printed or sent.
Secrets read_secrets(const Config& config);

// Holds the content tree's writer lock for `run` and `import`: a second
// writer waits, and says for whom. Nothing (the error printed) when the
// lock file cannot be made.
std::optional<TreeLock> lock_content_tree(const GlobalOptions& global);

// Archive commands (cli/archive_commands.cpp).
int cmd_import(const GlobalOptions& global, const std::vector<std::string>& sources);
int cmd_ls(const GlobalOptions& global, bool as_json);
int cmd_check(const GlobalOptions& global, const Config& config);

// Site commands (cli/site_commands.cpp).
struct BuildArgs {
    std::string out = "site";
    std::string theme;
    std::string base_url;
    bool force = false;
    unsigned jobs = 0; // --jobs; 0: $PAPERPRESS_JOBS, else the CPUs this process may use
};
int cmd_build(const GlobalOptions& global, Config config, const BuildArgs& args);
int cmd_theme_new(const GlobalOptions& global, const std::string& name);
// `search` (cli/search_command.cpp): registers itself, then runs.
CLI::App* add_search_command(CLI::App& app);
int cmd_search();
// `feedback star|hide|import` (cli/feedback_command.cpp): registers itself, then runs.
CLI::App* add_feedback_command(CLI::App& app);
int cmd_feedback(const GlobalOptions& global);

// Pipeline commands (cli/pipeline_commands.cpp).
struct RunArgs {
    std::string date, from, to;
    bool offline = false;
    bool resume = false;
    bool no_build = false;
    std::string out = "site";
    int push_every_days = -1; // -1: publish.push_every_days (the command line overrides the config)
    std::string summary;      // YYYY-MM: write that month's overview again (pipeline/month_summary.h)
    unsigned jobs = 0;
};
int cmd_run(const GlobalOptions& global, Config config, const Secrets& secrets, const RunArgs& args);
struct NotifyArgs {
    std::string date;
    bool dry_run = false;
};
int cmd_notify(const GlobalOptions& global, const Config& config, const Secrets& secrets, const NotifyArgs& args);
struct PublishArgs {
    std::string branch;
    std::string remote;
    std::string site;
    bool push = false;
};
int cmd_publish(const GlobalOptions& global, const Config& config, const PublishArgs& args);

// Preview (cli/serve_command.cpp).
struct ServeArgs {
    int port = 8000;
    std::string host = "127.0.0.1";
    std::string out = ".cache/serve/site";
    bool no_watch = false;
    unsigned jobs = 0;
    int poll_ms = 0; // 0: inotify (polling every 300 ms where it is unavailable)
};
int cmd_serve(const GlobalOptions& global, bool config_given, const ServeArgs& args);

} // namespace pp::cli
