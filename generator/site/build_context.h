// What the rooms of one build share: the options, the report, the output
// store, the theme and site context, the site graph, the keys every output's
// inputs start from, the prompts, and the workers. The rooms:
//   site/output_store.h  the output folder: lock, records, writes, removal
//   site/assets.h        the theme's and site's static files, and KaTeX's
//   site/day_stage.h     the days: day pages, month data files and best-ofs
//   site/list_outputs.h  what the whole site graph makes: feed, lists, home
//   site/builder.cpp     the build that orders them
#pragma once

#include "site/output_store.h"
#include "site/pages.h"
#include "site/site_graph.h"
#include "site/theme.h"
#include "site/urls.h"
#include "util/thread_pool.h"

#include <functional>
#include <map>
#include <mutex>
#include <optional>

namespace pp {

struct Prompt {
    std::string text;
    std::string html;
    std::string site_path; // its page's (prompt_path_of)
    std::uint64_t hash = 0;
    std::optional<Error> error;
};

// Prompts by reference, each read once per build, shared by the workers.
class Prompts {
public:
    explicit Prompts(fs::path content) : content_(std::move(content)) {}
    const Prompt& get(const std::string& reference);
    bool any_failed();

private:
    fs::path content_;
    std::mutex mutex_;
    std::map<std::string, Prompt> prompts_;
    bool any_failed_ = false;
};

struct BuildContext {
    BuildContext(const BuildOptions& build_options, BuildReport& build_report)
        : options(build_options), config(build_options.config), report(build_report), store(build_options, report),
          urls(build_options.config.base_url), prompts(build_options.content_dir) {}

    const BuildOptions& options;
    const Config& config;
    SharedReport report;
    OutputStore store;
    SiteUrls urls;
    Prompts prompts;
    std::optional<Theme> theme;
    std::optional<SiteContext> site;
    SiteGraph graph;
    std::uint64_t program_key = 0; // the program's code alone (what counts, as the trends' tallies)
    std::uint64_t global_key = 0;  // pages: the program, the theme and the settings pages show
    std::uint64_t data_key = 0;    // JSON, feed, sitemap: the program and the settings, not the theme
    bool prompt_pages = false;     // the theme has a `prompt` layout: days link to their prompt's page
    std::optional<ThreadPool> workers;
    std::function<void(const Day&)> day_parsed; // told of each day the day stage parses (the search index)

    void error(Error e) { report.error(std::move(e)); }

    Hasher page_key(std::string_view kind) const {
        Hasher h;
        h.add(global_key).add(kind);
        return h;
    }

    // Renders the layout with data() unless the page is up to date.
    template <class Data>
    void produce_page(const std::string& layout, const std::string& site_path, std::uint64_t key, Data&& data) {
        store.produce(site_path, key, [&]() -> std::optional<std::string> {
            auto html = render_layout(*theme, layout, data());
            if (!html) {
                error(html.error());
                return std::nullopt;
            }
            return std::move(*html);
        });
    }

    // The link to a prompt's page; "" when the day names none or it cannot be read.
    std::string prompt_href(const Prompt& prompt) const {
        return prompt.text.empty() || prompt.error ? std::string() : urls.href(prompt.site_path);
    }
};

} // namespace pp
