// `build` and `theme new`: the site.
#include "cli/cli_common.h"

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
    options.themes_dir = themes_dir(global.config);
    options.config = std::move(config);
    options.force = args.force;
    options.jobs = args.jobs;
    auto report = build_site(options);
    for (const auto& warning : report.warnings) print_warning(warning);
    for (const auto& error : report.errors) print_error(error);
    std::cout << build_summary(report, args.out) << "\n";
    return report.ok() ? exit_ok : exit_problems;
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

} // namespace pp::cli
