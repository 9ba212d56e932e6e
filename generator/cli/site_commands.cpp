// `build`, `serve`, `theme new`, `publish`: the site.
#include "cli/cli_common.h"

#include "config/publish_config.h"
#include "publish/publish.h"
#include "serve/serve.h"
#include "site/builder.h"
#include "site/theme.h"

#include <iostream>

namespace pp::cli {

int cmd_build(const GlobalOptions& global, Config config, const BuildArgs& args) {
    if (!args.theme.empty()) config.theme = args.theme;
    if (!args.base_url.empty()) {
        config.base_url = args.base_url;
        if (config.base_url.back() != '/') config.base_url += '/';
    }
    BuildOptions options;
    options.content_dir = global.content;
    options.out_dir = args.out;
    options.site_dir = site_root(global.config);
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

int cmd_theme_new(const GlobalOptions& global, const std::string& name) {
    const fs::path themes_dir = site_root(global.config) / "themes";
    auto made = new_theme(themes_dir, name);
    if (!made) {
        print_error(made.error());
        return exit_problems;
    }
    std::cout << "theme: created " << made->string() << " from the default theme; build with --theme " << name
              << " or set 'theme: " << name << "' in the config\n";
    return exit_ok;
}

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

} // namespace pp::cli
