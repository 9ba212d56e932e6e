#include "cli/commands.h"

#include "cli/cli_common.h"
#include "util/redact.h"
#include "util/text.h"
#include "util/thread_pool.h"
#include "util/version.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <optional>

namespace pp {

using namespace cli;

namespace {

// Every command's arguments, and its subcommand (parsed() says which ran).
struct Commands {
    GlobalOptions global;
    std::vector<std::string> sources;
    bool as_json = false;
    BuildArgs build_args;
    RunArgs run_args;
    PublishArgs publish_args;
    NotifyArgs notify_args;
    ServeArgs serve_args;
    std::string theme_name;
    CLI::App *import = nullptr, *ls = nullptr, *check = nullptr, *build = nullptr, *run = nullptr, *publish = nullptr,
             *notify = nullptr, *serve = nullptr, *theme_new = nullptr, *search = nullptr, *feedback = nullptr;
};

void add_archive_commands(CLI::App& app, Commands& p) {
    p.import = app.add_subcommand("import", "Import the reference system's output tree (out/ with md/ and json/)");
    p.import->add_option("SRC", p.sources, "Output tree(s), or single daily Markdown pages")->required();

    p.ls = app.add_subcommand("ls", "List the archive's days: date, status, paper count");
    p.ls->add_flag("--json", p.as_json, "Print a JSON array: date, status, count, papers (IDs in page order)");

    p.check = app.add_subcommand("check", "Validate the whole content tree");
}

// --jobs, as build, run and serve take it.
void add_jobs_option(CLI::App& command, unsigned& jobs) {
    command
        .add_option("--jobs,-j", jobs,
                    "Build threads (default: $PAPERPRESS_JOBS, else the CPUs this process may use: its affinity mask "
                    "and cgroup CPU quota)")
        ->check(CLI::Range(1, 256));
}

void add_build_command(CLI::App& app, Commands& p) {
    p.build = app.add_subcommand(
        "build", "Render the content tree into a static site: day, month, year and archive pages, Atom feed, "
                 "sitemap and JSON data, with a mustache theme");
    p.build->add_option("--out", p.build_args.out, "Output folder")->capture_default_str();
    p.build->add_option("--theme", p.build_args.theme, "Theme name under themes/ (overrides the config's 'theme')");
    p.build->add_option("--base-url", p.build_args.base_url,
                        "URL the site is served under, e.g. https://user.github.io/repo/ (overrides 'base_url'; "
                        "use / for a local preview)");
    p.build->add_flag("--force", p.build_args.force,
                      "Build even when that removes more than half of the pages the last build made (a content tree "
                      "that shrank on purpose)");
    add_jobs_option(*p.build, p.build_args.jobs);
}

void add_run_command(CLI::App& app, Commands& p) {
    p.run = app.add_subcommand(
        "run", "The nightly job: fetch the arXiv announcement (or back-fill missed days), score the papers, write "
               "the day into the content tree and build the site. Exit 0 also when there is no announcement.");
    p.run->add_option("--date", p.run_args.date,
                      "Redo this day (YYYY-MM-DD); back-filled through the API when the "
                      "feed no longer holds it");
    p.run->add_option("--from", p.run_args.from, "Back-fill every missing weekday from this date (YYYY-MM-DD)");
    p.run->add_option("--to", p.run_args.to, "... up to this date (YYYY-MM-DD; default: today)");
    p.run->add_flag("--offline", p.run_args.offline,
                    "No network: the sample announcement (arxiv.offline_feed) and the embedded scorer");
    p.run->add_flag("--resume", p.run_args.resume,
                    "With --date: score only the unscored papers of that partial day (exit 3 if some stay unscored)");
    p.run->add_flag("--no-build", p.run_args.no_build, "Write the day but do not build the site");
    p.run->add_option("--summary", p.run_args.summary,
                      "Only (re)write this month's overview (YYYY-MM) with the LLM, over an existing summary.md, and "
                      "build the site");
    p.run->add_option("--out", p.run_args.out, "Site output folder")->capture_default_str();
    p.run
        ->add_option("--push-every-days", p.run_args.push_every_days,
                     "With publish.commit_content: build, commit and push the site after every N days written "
                     "(overrides publish.push_every_days; 0: only at the end)")
        ->check(CLI::Range(0, 366));
    add_jobs_option(*p.run, p.run_args.jobs);
}

void add_publish_commands(CLI::App& app, Commands& p) {
    p.publish = app.add_subcommand(
        "publish", "Commit the built site to the site branch (default gh-pages) without touching your working "
                   "tree, index or HEAD; --push pushes it (and, with publish.commit_content, the current branch)");
    p.publish->add_option("--branch", p.publish_args.branch,
                          "Branch to commit the site on (overrides publish.branch, "
                          "default gh-pages)");
    p.publish->add_flag("--push", p.publish_args.push,
                        "Push the branch to the remote afterwards (fast-forward only; with git's own client where it "
                        "is installed, else libgit2: publish.push_with)");
    p.publish->add_option("--remote", p.publish_args.remote,
                          "Remote to push to (overrides publish.remote, default origin)");
    p.publish->add_option("--site", p.publish_args.site,
                          "Built site folder to publish (overrides publish.site_dir, "
                          "default site)");

    p.notify = app.add_subcommand(
        "notify", "Send a day's picks again to the channels in the config's notify: section (Slack, webhook, "
                  "email); exit 1 when a channel failed");
    p.notify->add_option("--date", p.notify_args.date, "The day to send (YYYY-MM-DD); default the latest day");
    p.notify->add_flag("--dry-run", p.notify_args.dry_run, "Print each channel's message instead of sending it");
}

void add_serve_command(CLI::App& app, Commands& p) {
    p.serve = app.add_subcommand(
        "serve", "Preview the site: build it for http://127.0.0.1:PORT/ into its own folder, serve it, rebuild when "
                 "content, themes or config change, and reload open pages");
    p.serve->add_option("--port", p.serve_args.port, "Port to listen on; 0 picks a free one (printed)")
        ->capture_default_str()
        ->check(CLI::Range(0, 65535));
    p.serve->add_option("--host", p.serve_args.host, "Address to listen on (anything but loopback is warned about)")
        ->capture_default_str();
    p.serve
        ->add_option("--out", p.serve_args.out,
                     "Output folder of the preview build (apart from site/, which publish commits)")
        ->capture_default_str();
    p.serve->add_flag("--no-watch", p.serve_args.no_watch, "Build and serve once; do not watch for changes");
    p.serve
        ->add_option("--poll-interval", p.serve_args.poll_ms,
                     "Poll for edits every MS milliseconds instead of watching by inotify (which falls back to 300 ms "
                     "polling where it is unavailable); for network file systems")
        ->check(CLI::Range(10, 60000));
    add_jobs_option(*p.serve, p.serve_args.jobs);
}

void add_theme_command(CLI::App& app, Commands& p) {
    auto* theme = app.add_subcommand("theme", "Work with themes (see docs/themes.md)");
    theme->require_subcommand(1);
    p.theme_new = theme->add_subcommand(
        "new", "Start a theme: copy themes/default to themes/NAME (never overwrites), then edit its layouts/, "
               "partials/ and static/");
    p.theme_new->add_option("NAME", p.theme_name, "The new theme's folder name under themes/")->required();
    p.theme_new->fallthrough();
}

// Runs the command parsed, with the config loaded and validated.
int dispatch(const Commands& p, bool config_given) {
    const GlobalOptions& global = p.global;
    // Every command validates the whole config, so a mistake in any section
    // shows the day it is made, not at night. `check` goes on to check the
    // content too.
    auto config = load_checked_config(global.config, config_given);
    if (!config) {
        print_error(config.error());
        if (p.check->parsed()) cmd_check(global, Config{});
        return exit_problems;
    }
    const Secrets secrets = read_secrets(*config);
    config->publish.token = secrets.push_token; // publish and run's pushes hand it to libgit2
    if (auto jobs = jobs_from_environment(); !jobs)
        print_warning(jobs.error().message + "; using the CPUs this process may use");
    if (p.import->parsed()) return cmd_import(global, p.sources);
    if (p.ls->parsed()) return cmd_ls(global, p.as_json);
    if (p.check->parsed()) return cmd_check(global, *config);
    if (p.build->parsed()) return cmd_build(global, *config, p.build_args);
    if (p.theme_new->parsed()) return cmd_theme_new(global, p.theme_name);
    if (p.search->parsed()) return cmd_search();
    if (p.feedback->parsed()) return cmd_feedback(global);
    if (p.run->parsed()) return cmd_run(global, *config, secrets, p.run_args);
    if (p.publish->parsed()) return cmd_publish(global, *config, p.publish_args);
    if (p.notify->parsed()) return cmd_notify(global, *config, secrets, p.notify_args);
    if (p.serve->parsed()) return cmd_serve(global, config_given, p.serve_args);
    return exit_usage;
}

// The first word that is neither an option nor a global option's value, when
// it names no command: CLI11 would say "A subcommand is required", or print
// the main help and exit 0 when --help follows it.
std::optional<std::string> unknown_command(const CLI::App& app, int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg == "--content" || arg == "--config") {
            ++i;
            continue;
        }
        if (arg.starts_with("-")) continue;
        std::vector<std::string> names;
        for (const auto* sub : app.get_subcommands({})) names.push_back(sub->get_name());
        if (std::ranges::find(names, arg) != names.end()) return std::nullopt;
        std::string message = "paperpress: unknown command '" + std::string(arg) + "'";
        if (auto near = closest_name(arg, names); !near.empty()) message += "; did you mean '" + near + "'?";
        return message + " (paperpress --help lists the commands)";
    }
    return std::nullopt;
}

} // namespace

int run_cli(int argc, char** argv) {
    CLI::App app{"paperpress: a personalized daily arXiv digest, published as a static site."};
    app.require_subcommand(1);
    Commands p;
    GlobalOptions& global = p.global;
    app.add_option("--content", global.content, "Content folder (the archive)")->capture_default_str();
    app.add_option("--config", global.config, "Config file; may be absent")->capture_default_str();
    app.set_version_flag("--version", std::string("paperpress ") + program_version);
    add_archive_commands(app, p);
    add_build_command(app, p);
    add_run_command(app, p);
    add_publish_commands(app, p);
    add_serve_command(app, p);
    add_theme_command(app, p);
    p.search = add_search_command(app);
    p.feedback = add_feedback_command(app);
    // Global options are accepted, and listed in --help, on every command.
    for (auto* sub : app.get_subcommands({})) {
        sub->add_option("--content", global.content, "Content folder (the archive)")->capture_default_str();
        sub->add_option("--config", global.config, "Config file; may be absent")->capture_default_str();
    }

    if (auto unknown = unknown_command(app, argc, argv)) {
        RedactedOutput err(std::cerr);
        std::cerr << *unknown << "\n";
        return exit_usage;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return exit_usage;
    }

    bool config_given = app.count("--config") > 0;
    for (auto* sub : app.get_subcommands({})) config_given = config_given || sub->count("--config") > 0;
    // Every line the command prints passes here: the one redaction of stdout and stderr.
    RedactedOutput out(std::cout), err(std::cerr);
    return dispatch(p, config_given);
}

} // namespace pp
