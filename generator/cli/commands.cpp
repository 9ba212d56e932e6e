#include "cli/commands.h"

#include "config/config.h"
#include "content/checker.h"
#include "content/content_tree.h"
#include "content/importer.h"
#include "config/notify_config.h"
#include "notify/notifier.h"
#include "config/pipeline_config.h"
#include "pipeline/nightly.h"
#include "config/publish_config.h"
#include "publish/publish.h"
#include "serve/serve.h"
#include "site/builder.h"
#include "site/theme.h"

#include <CLI/CLI.hpp>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdio>
#include <iostream>

namespace pp {

namespace {

constexpr int exit_ok = 0;
constexpr int exit_problems = 1;
constexpr int exit_usage = 2;

struct GlobalOptions {
    std::string content = "content";
    std::string config = "paperpress.yaml";
};

void print_error(const Error& error) { std::cerr << "error: " << error.to_string() << "\n"; }
void print_warning(const std::string& warning) { std::cerr << "warning: " << warning << "\n"; }

int cmd_import(const GlobalOptions& global, const std::vector<std::string>& sources) {
    int errors = 0, written = 0, unchanged = 0, papers = 0;
    for (const auto& source : sources) {
        auto report = import_archive(source, global.content, [](const std::string& line) {
            std::cout << "imported " << line << "\n";
        });
        for (const auto& warning : report.warnings) print_warning(warning);
        for (const auto& error : report.errors) print_error(error);
        errors += static_cast<int>(report.errors.size());
        written += report.days_written;
        unchanged += report.days_unchanged;
        papers += report.papers;
    }
    std::cout << "import: " << written + unchanged << " days, " << papers << " papers into " << global.content
              << " (" << written << " written, " << unchanged << " unchanged)";
    if (errors) std::cout << "; " << errors << " files could not be read";
    std::cout << "\n";
    return errors ? exit_problems : exit_ok;
}

int cmd_ls(const GlobalOptions& global, bool as_json) {
    auto scan = scan_content(global.content);
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> json(buffer);
    json.StartArray();
    int errors = 0;
    for (const auto& file : scan.days) {
        auto day = load_day(file.path);
        if (!day) {
            print_error(day.error());
            ++errors;
            continue;
        }
        if (as_json) {
            json.StartObject();
            json.Key("date");
            json.String(day->date.iso().c_str());
            json.Key("status");
            json.String(to_string(day->status));
            json.Key("count");
            json.Uint(static_cast<unsigned>(day->papers.size()));
            json.Key("papers");
            json.StartArray();
            for (const auto& paper : day->papers) json.String(paper.id.c_str());
            json.EndArray();
            json.EndObject();
        } else {
            std::printf("%s  %-9s  %3zu papers%s\n", day->date.iso().c_str(), to_string(day->status),
                        day->papers.size(), day->remedial ? "  (remedial)" : "");
        }
    }
    json.EndArray();
    if (as_json) std::cout << buffer.GetString() << "\n";
    else std::cout << scan.days.size() << " days in " << global.content << "\n";
    return errors ? exit_problems : exit_ok;
}

int cmd_check(const GlobalOptions& global) {
    auto report = check_content(global.content);
    for (const auto& warning : report.warnings) print_warning(warning);
    for (const auto& error : report.errors) print_error(error);
    std::cout << "check: " << report.days << " days, " << report.papers << " papers, " << report.errors.size()
              << " errors, " << report.warnings.size() << " warnings\n";
    return report.errors.empty() ? exit_ok : exit_problems;
}

struct BuildArgs {
    std::string out = "site";
    std::string theme;
    std::string base_url;
};

int cmd_build(const GlobalOptions& global, Config config, const BuildArgs& args) {
    if (!args.theme.empty()) config.theme = args.theme;
    if (!args.base_url.empty()) {
        config.base_url = args.base_url;
        if (config.base_url.back() != '/') config.base_url += '/';
    }
    BuildOptions options;
    options.content_dir = global.content;
    options.out_dir = args.out;
    std::error_code ec;
    options.site_dir = fs::absolute(global.config, ec).parent_path();
    options.themes_dir = options.site_dir / "themes";
    options.config = std::move(config);
    auto report = build_site(options);
    for (const auto& warning : report.warnings) print_warning(warning);
    for (const auto& error : report.errors) print_error(error);
    std::cout << "build: " << report.days << " days, " << report.papers << " papers, " << report.files
              << " files into " << args.out << " (" << report.written << " written, "
              << report.files - report.written << " unchanged, " << report.removed << " removed; "
              << report.rendered << " rendered, " << report.parsed << " days parsed)";
    if (!report.errors.empty()) std::cout << "; " << report.errors.size() << " errors";
    std::cout << "\n";
    return report.ok() ? exit_ok : exit_problems;
}

struct RunArgs {
    std::string date, from, to;
    bool offline = false;
    bool no_build = false;
    std::string out = "site";
};

std::optional<Date> date_option(const std::string& text, const char* name, bool& bad) {
    if (text.empty()) return std::nullopt;
    auto date = parse_iso_date(text);
    if (!date) {
        std::cerr << "error: " << name << " expects a date YYYY-MM-DD, got '" << text << "'\n";
        bad = true;
    }
    return date;
}

int cmd_run(const GlobalOptions& global, const Config& config, const RunArgs& args) {
    bool bad = false;
    RunRequest request;
    request.date = date_option(args.date, "--date", bad);
    request.from = date_option(args.from, "--from", bad);
    request.to = date_option(args.to, "--to", bad);
    if (bad) return exit_usage;
    if (request.date && (request.from || request.to)) {
        std::cerr << "error: use either --date or --from/--to\n";
        return exit_usage;
    }
    request.offline = args.offline;
    request.content_dir = global.content;
    request.config_path = global.config;
    request.log = [](const std::string& line) { std::cout << line << std::endl; };

    auto pipeline = load_pipeline_config(global.config);
    if (!pipeline) {
        print_error(pipeline.error());
        return exit_problems;
    }
    auto publishing = load_publish_config(global.config);
    if (!publishing) {
        print_error(publishing.error());
        return exit_problems;
    }
    int commit_failures = 0;
    if (publishing->commit_content)
        request.after_write = [&](const std::vector<fs::path>& files, const std::string& message) {
            auto committed = commit_content_files(".", files, message, *publishing);
            if (!committed) {
                print_error(committed.error());
                ++commit_failures;
            } else if (committed->committed) {
                std::cout << "committed " << committed->commit.substr(0, 12) << " on " << committed->branch << ": "
                          << message << "\n";
            }
        };
    auto notifying = load_notify_config(global.config);
    if (!notifying) {
        print_error(notifying.error());
        return exit_problems;
    }
    RunResult result = run_nightly(request, *pipeline);
    for (const auto& warning : result.warnings) print_warning(warning);

    // Notifying never fails the run: a channel that cannot be reached is a warning.
    std::error_code ec;
    NotifyPaths paths;
    paths.site_dir = fs::absolute(global.config, ec).parent_path();
    paths.themes_dir = paths.site_dir / "themes";
    auto print_notify = [](const NotifyReport& report) {
        for (const auto& channel : report.sent) std::cout << "notified: " << channel << "\n";
        for (const auto& warning : report.warnings) print_warning("notify: " + warning);
    };
    auto stdout_log = [](const std::string& line) { std::cout << line << "\n"; };

    if (result.outcome == RunOutcome::failed) {
        print_error({"", 0, result.error});
        print_notify(notify_failure(request.date.value_or(request.to.value_or(today_utc())), result.error,
                                    *notifying, config, paths, false, stdout_log));
        return exit_problems;
    }
    if (commit_failures) return exit_problems;
    if (result.outcome != RunOutcome::written) return exit_ok;
    int status = args.no_build ? exit_ok : cmd_build(global, config, BuildArgs{args.out, {}, {}});
    for (const Date& date : result.days) {
        auto day = load_day(day_path(global.content, date));
        if (day) print_notify(notify_day(*day, *notifying, config, paths, false, stdout_log));
    }
    return status;
}

struct PublishArgs {
    std::string branch;
    std::string remote;
    std::string site;
    bool push = false;
};

int cmd_publish(const GlobalOptions& global, const PublishArgs& args) {
    auto loaded = load_publish_config(global.config);
    if (!loaded) {
        print_error(loaded.error());
        return exit_problems;
    }
    PublishConfig config = *loaded;
    if (!args.branch.empty()) config.branch = args.branch;
    if (!args.remote.empty()) config.remote = args.remote;
    if (!args.site.empty()) config.site_dir = args.site;

    const std::string content = global.content;
    auto outcome = publish_site(".", config.site_dir, config,
                                [&content](const TreeChanges& changes) { return site_publish_message(changes, content); });
    if (!outcome) {
        print_error(outcome.error());
        return exit_problems;
    }
    if (outcome->committed) {
        const auto& c = outcome->changes;
        std::cout << "publish: committed " << outcome->commit.substr(0, 12) << " on " << outcome->branch << ": "
                  << outcome->message.substr(0, outcome->message.find('\n')) << "\n  " << c.count()
                  << " files changed: " << c.added.size() << " added, " << c.modified.size() << " modified, "
                  << c.deleted.size() << " deleted\n";
    } else {
        std::cout << "publish: nothing changed in " << config.site_dir << " since "
                  << (outcome->commit.empty() ? std::string("(no commit)") : outcome->commit.substr(0, 12)) << " on "
                  << outcome->branch << "; no commit\n";
    }
    if (!args.push) return exit_ok;

    std::vector<std::string> branches = {config.branch};
    if (config.commit_content) {
        auto current = current_branch(".");
        if (!current) {
            print_error(current.error());
            return exit_problems;
        }
        if (*current != config.branch) branches.push_back(*current);
    }
    auto pushed = push_branches(".", branches, config);
    if (!pushed) {
        print_error(pushed.error());
        return exit_problems;
    }
    for (const auto& b : pushed->branches) {
        std::cout << "push: " << b.branch << " to " << pushed->remote << " (" << pushed->url << "): ";
        if (b.up_to_date) std::cout << "up to date\n";
        else if (b.old_id.empty()) std::cout << "new branch at " << b.new_id.substr(0, 12) << "\n";
        else std::cout << b.old_id.substr(0, 12) << ".." << b.new_id.substr(0, 12) << "\n";
    }
    return exit_ok;
}

struct NotifyArgs {
    std::string date;
    bool dry_run = false;
};

// `paperpress notify`: sends (or prints) a day's notification again.
int cmd_notify(const GlobalOptions& global, const Config& config, const NotifyArgs& args) {
    bool bad = false;
    auto date = date_option(args.date, "--date", bad);
    if (bad) return exit_usage;
    auto notify_config = load_notify_config(global.config);
    if (!notify_config) {
        print_error(notify_config.error());
        return exit_problems;
    }
    if (!notify_config->any_channel()) {
        print_error({global.config, 0, "expected a notification channel in section 'notify' (slack, webhook or "
                                       "email; see docs/notifications.md)"});
        return exit_problems;
    }
    auto scan = scan_content(global.content);
    const DayFile* file = nullptr;
    for (const auto& candidate : scan.days)
        if (!date || candidate.date == *date) file = &candidate;
    if (!file) {
        print_error({global.content, 0, date ? "expected a day file for " + date->iso() : "expected at least one day"});
        return exit_problems;
    }
    auto day = load_day(file->path);
    if (!day) {
        print_error(day.error());
        return exit_problems;
    }
    std::error_code ec;
    NotifyPaths paths;
    paths.site_dir = fs::absolute(global.config, ec).parent_path();
    paths.themes_dir = paths.site_dir / "themes";
    auto report = notify_day(*day, *notify_config, config, paths, args.dry_run,
                             [](const std::string& line) { std::cout << line << std::endl; });
    for (const auto& warning : report.warnings) print_warning(warning);
    if (args.dry_run) {
        std::cout << "notify: dry run for " << day->date.iso() << "; nothing sent\n";
        return report.ok() ? exit_ok : exit_problems;
    }
    std::cout << "notify: " << day->date.iso() << ": sent to " << report.sent.size() << " channel"
              << (report.sent.size() == 1 ? "" : "s") << ", " << report.warnings.size() << " failed\n";
    return report.ok() ? exit_ok : exit_problems;
}

struct ServeArgs {
    int port = 8000;
    std::string host = "127.0.0.1";
    std::string out = ".cache/serve/site";
    bool no_watch = false;
};

// `paperpress serve`: build, serve on loopback, rebuild on change, reload pages.
int cmd_serve(const GlobalOptions& global, bool config_given, const ServeArgs& args) {
    ServeOptions options;
    options.content_dir = global.content;
    options.config_path = global.config;
    options.config_required = config_given;
    options.out_dir = args.out;
    options.host = args.host;
    options.port = args.port;
    options.watch = !args.no_watch;
    options.log = [](const std::string& line) { std::cout << line << std::endl; };
    options.log_error = [](const std::string& line) { std::cerr << line << std::endl; };
    return run_serve(options);
}

// `paperpress theme new NAME`: a copy of the default theme to start from.
int cmd_theme_new(const GlobalOptions& global, const std::string& name) {
    std::error_code ec;
    const fs::path themes_dir = fs::absolute(global.config, ec).parent_path() / "themes";
    auto made = new_theme(themes_dir, name);
    if (!made) {
        print_error(made.error());
        return exit_problems;
    }
    std::cout << "theme: created " << made->string() << " from the default theme; build with --theme " << name
              << " or set 'theme: " << name << "' in the config\n";
    return exit_ok;
}

} // namespace

int run_cli(int argc, char** argv) {
    CLI::App app{"paperpress: a personalized daily arXiv digest, published as a static site."};
    app.require_subcommand(1);
    GlobalOptions global;
    app.add_option("--content", global.content, "Content folder (the archive)")->capture_default_str();
    app.add_option("--config", global.config, "Config file; may be absent")->capture_default_str();
    app.set_version_flag("--version", "paperpress 0.1.0");

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
    run->add_flag("--no-build", run_args.no_build, "Write the day but do not build the site");
    run->add_option("--out", run_args.out, "Site output folder")->capture_default_str();

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
    auto config = load_config(global.config, config_given);
    if (!config) {
        print_error(config.error());
        return exit_problems;
    }
    if (import->parsed()) return cmd_import(global, sources);
    if (ls->parsed()) return cmd_ls(global, as_json);
    if (check->parsed()) return cmd_check(global);
    if (build->parsed()) return cmd_build(global, *config, build_args);
    if (theme_new->parsed()) return cmd_theme_new(global, theme_name);
    if (run->parsed()) return cmd_run(global, *config, run_args);
    if (publish->parsed()) return cmd_publish(global, publish_args);
    if (notify->parsed()) return cmd_notify(global, *config, notify_args);
    if (serve->parsed()) return cmd_serve(global, config_given, serve_args);
    return exit_usage;
}

} // namespace pp
