#include "cli/commands.h"

#include "cli/cli_common.h"
#include "util/thread_pool.h"

#include <CLI/CLI.hpp>

namespace pp {

using namespace cli;

int run_cli(int argc, char** argv) {
    CLI::App app{"paperpress: a personalized daily arXiv digest, published as a static site."};
    app.require_subcommand(1);
    GlobalOptions global;
    app.add_option("--content", global.content, "Content folder (the archive)")->capture_default_str();
    app.add_option("--config", global.config, "Config file; may be absent")->capture_default_str();
    app.set_version_flag("--version", "paperpress " PAPERPRESS_VERSION);

    std::vector<std::string> sources;
    auto* import = app.add_subcommand("import", "Import the reference system's output tree (out/ with md/ and json/)");
    import->add_option("SRC", sources, "Output tree(s), or single daily Markdown pages")->required();

    bool as_json = false;
    auto* ls = app.add_subcommand("ls", "List the archive's days: date, status, paper count");
    ls->add_flag("--json", as_json, "Print a JSON array: date, status, count, papers (IDs in page order)");

    auto* check = app.add_subcommand("check", "Validate the whole content tree");

    BuildArgs build_args;
    auto* build = app.add_subcommand(
        "build", "Render the content tree into a static site: day, month, year and archive pages, Atom feed, "
                 "sitemap and JSON data, with a mustache theme");
    build->add_option("--out", build_args.out, "Output folder")->capture_default_str();
    build->add_option("--theme", build_args.theme, "Theme name under themes/ (overrides the config's 'theme')");
    build->add_option("--base-url", build_args.base_url,
                      "URL the site is served under, e.g. https://user.github.io/repo/ (overrides 'base_url'; "
                      "use / for a local preview)");
    build->add_flag("--force", build_args.force,
                    "Build even when that removes more than half of the pages the last build made (a content tree "
                    "that shrank on purpose)");
    build->add_option("--jobs,-j", build_args.jobs, "Build threads (default: $PAPERPRESS_JOBS, else the CPUs this process may use: its affinity mask and cgroup CPU quota)")->check(CLI::Range(1, 256));

    RunArgs run_args;
    auto* run = app.add_subcommand(
        "run", "The nightly job: fetch the arXiv announcement (or back-fill missed days), score the papers, write "
               "the day into the content tree and build the site. Exit 0 also when there is no announcement.");
    run->add_option("--date", run_args.date, "Redo this day (YYYY-MM-DD); back-filled through the API when the "
                                             "feed no longer holds it");
    run->add_option("--from", run_args.from, "Back-fill every missing weekday from this date (YYYY-MM-DD)");
    run->add_option("--to", run_args.to, "... up to this date (YYYY-MM-DD; default: today)");
    run->add_flag("--offline", run_args.offline,
                  "No network: the sample announcement (arxiv.offline_feed) and the embedded scorer");
    run->add_flag("--resume", run_args.resume,
                  "With --date: score only the unscored papers of that partial day (exit 3 if some stay unscored)");
    run->add_flag("--no-build", run_args.no_build, "Write the day but do not build the site");
    run->add_option("--summary", run_args.summary,
                    "Only (re)write this month's overview (YYYY-MM) with the LLM, over an existing summary.md, and "
                    "build the site");
    run->add_option("--out", run_args.out, "Site output folder")->capture_default_str();
    run->add_option("--push-every-days", run_args.push_every_days,
                    "With publish.commit_content: build, commit and push the site after every N days written "
                    "(overrides publish.push_every_days; 0: only at the end)")
        ->check(CLI::Range(0, 366));
    run->add_option("--jobs,-j", run_args.jobs, "Build threads (default: $PAPERPRESS_JOBS, else the CPUs this process may use: its affinity mask and cgroup CPU quota)")->check(CLI::Range(1, 256));

    PublishArgs publish_args;
    auto* publish = app.add_subcommand(
        "publish", "Commit the built site to the site branch (default gh-pages) without touching your working "
                   "tree, index or HEAD; --push pushes it (and, with publish.commit_content, the current branch)");
    publish->add_option("--branch", publish_args.branch, "Branch to commit the site on (overrides publish.branch, "
                                                         "default gh-pages)");
    publish->add_flag("--push", publish_args.push, "Push the branch to the remote afterwards (fast-forward only)");
    publish->add_option("--remote", publish_args.remote, "Remote to push to (overrides publish.remote, default origin)");
    publish->add_option("--site", publish_args.site, "Built site folder to publish (overrides publish.site_dir, "
                                                     "default site)");

    NotifyArgs notify_args;
    auto* notify = app.add_subcommand(
        "notify", "Send a day's picks again to the channels in the config's notify: section (Slack, webhook, "
                  "email); exit 1 when a channel failed");
    notify->add_option("--date", notify_args.date, "The day to send (YYYY-MM-DD); default the latest day");
    notify->add_flag("--dry-run", notify_args.dry_run, "Print each channel's message instead of sending it");

    ServeArgs serve_args;
    auto* serve = app.add_subcommand(
        "serve", "Preview the site: build it for http://127.0.0.1:PORT/ into its own folder, serve it, rebuild when "
                 "content, themes or config change, and reload open pages");
    serve->add_option("--port", serve_args.port, "Port to listen on; 0 picks a free one (printed)")
        ->capture_default_str()
        ->check(CLI::Range(0, 65535));
    serve->add_option("--host", serve_args.host, "Address to listen on (anything but loopback is warned about)")
        ->capture_default_str();
    serve->add_option("--out", serve_args.out,
                      "Output folder of the preview build (apart from site/, which publish commits)")
        ->capture_default_str();
    serve->add_flag("--no-watch", serve_args.no_watch, "Build and serve once; do not watch for changes");
    serve->add_option("--poll-interval", serve_args.poll_ms,
                      "Milliseconds between checks for edits (default 300; raise it on a slow network file system)")
        ->check(CLI::Range(10, 60000));
    serve->add_option("--jobs,-j", serve_args.jobs, "Build threads (default: $PAPERPRESS_JOBS, else the CPUs this process may use: its affinity mask and cgroup CPU quota)")->check(CLI::Range(1, 256));

    auto* search = add_search_command(app);

    std::string theme_name;
    auto* theme = app.add_subcommand("theme", "Work with themes (see docs/themes.md)");
    theme->require_subcommand(1);
    auto* theme_new = theme->add_subcommand(
        "new", "Start a theme: copy themes/default to themes/NAME (never overwrites), then edit its layouts/, "
               "partials/ and static/");
    theme_new->add_option("NAME", theme_name, "The new theme's folder name under themes/")->required();
    theme_new->fallthrough();

    // Global options are accepted, and listed in --help, on every command.
    for (auto* sub : app.get_subcommands({})) {
        sub->add_option("--content", global.content, "Content folder (the archive)")->capture_default_str();
        sub->add_option("--config", global.config, "Config file; may be absent")->capture_default_str();
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
    // Every command validates the whole config, so a mistake in any section
    // shows the day it is made, not at night. `check` goes on to check the
    // content too.
    auto config = load_config(global.config, config_given);
    if (!config) {
        print_error(config.error());
        if (check->parsed()) cmd_check(global, Config{});
        return exit_problems;
    }
    register_config_secrets(*config);
    if (auto jobs = jobs_from_environment(); !jobs)
        print_warning(jobs.error().message + "; using the CPUs this process may use");
    if (import->parsed()) return cmd_import(global, sources);
    if (ls->parsed()) return cmd_ls(global, as_json);
    if (check->parsed()) return cmd_check(global, *config);
    if (build->parsed()) return cmd_build(global, *config, build_args);
    if (theme_new->parsed()) return cmd_theme_new(global, theme_name);
    if (search->parsed()) return cmd_search();
    if (run->parsed()) return cmd_run(global, *config, run_args);
    if (publish->parsed()) return cmd_publish(global, *config, publish_args);
    if (notify->parsed()) return cmd_notify(global, *config, notify_args);
    if (serve->parsed()) return cmd_serve(global, config_given, serve_args);
    return exit_usage;
}

} // namespace pp
