#include "cli/commands.h"

#include "config/config.h"
#include "content/checker.h"
#include "content/content_tree.h"
#include "content/importer.h"
#include "site/builder.h"

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
              << report.files - report.written << " unchanged)";
    if (!report.errors.empty()) std::cout << "; " << report.errors.size() << " errors";
    std::cout << "\n";
    return report.ok() ? exit_ok : exit_problems;
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
    return exit_usage;
}

} // namespace pp
