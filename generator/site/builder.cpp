#include "site/builder.h"

#include "content/content_tree.h"
#include "content/prompt_store.h"
#include "site/feeds.h"
#include "site/pages.h"
#include "site/site_graph.h"
#include "site/theme.h"
#include "site/urls.h"
#include "util/text.h"

#include <map>

namespace pp {

namespace {

class Output {
public:
    Output(const fs::path& root, BuildReport& report) : root_(root), report_(report) {}

    void write(const std::string& site_path, std::string_view bytes) {
        auto path = root_ / output_file_of(site_path);
        auto outcome = write_file_if_changed(path, bytes);
        ++report_.files;
        if (!outcome) report_.errors.push_back(outcome.error());
        else if (*outcome == WriteOutcome::written) ++report_.written;
    }

    void write_page(const Theme& theme, const std::string& layout, const TemplateData& data,
                    const std::string& site_path) {
        auto html = render_layout(theme, layout, data);
        if (!html) {
            report_.errors.push_back(html.error());
            return;
        }
        write(site_path, *html);
    }

private:
    fs::path root_;
    BuildReport& report_;
};

} // namespace

BuildReport build_site(const BuildOptions& options) {
    BuildReport report;
    auto theme = load_theme(options.themes_dir, options.config.theme, options.site_dir);
    if (!theme) {
        report.errors.push_back(theme.error());
        return report;
    }

    auto scan = scan_content(options.content_dir);
    for (const auto& misplaced : scan.misplaced) report.warnings.push_back(misplaced.to_string());
    std::vector<Day> days;
    days.reserve(scan.days.size());
    for (const auto& file : scan.days) {
        auto day = load_day(file.path);
        if (!day) {
            report.errors.push_back(day.error());
            continue;
        }
        days.push_back(std::move(*day));
    }
    std::vector<DaySummary> summaries;
    for (const auto& day : days) summaries.push_back(summarize_day(day));
    const SiteGraph graph = build_site_graph(std::move(summaries));
    report.days = static_cast<int>(days.size());
    for (const auto& day : days) report.papers += static_cast<int>(day.papers.size());

    const SiteUrls urls(options.config.base_url);
    Output out(options.out_dir, report);

    // Static files first; the stylesheet's link carries a hash of its bytes,
    // so browsers fetch it again exactly when it changes.
    std::string stylesheet;
    for (const auto& asset : theme->assets) {
        auto bytes = read_file(asset.source);
        if (!bytes) {
            report.errors.push_back(bytes.error());
            continue;
        }
        if (asset.site_path == "static/style.css")
            stylesheet = urls.href(asset.site_path) + "?v=" + fnv1a_hex(*bytes).substr(0, 10);
        out.write(asset.site_path, *bytes);
    }
    out.write(".nojekyll", "");

    const SiteContext site{options.config, urls, graph, stylesheet};

    std::map<std::string, std::string> prompts; // reference -> text, read once each
    auto prompt_of = [&](const Day& day) -> std::string {
        if (day.prompt.empty()) return {};
        if (auto it = prompts.find(day.prompt); it != prompts.end()) return it->second;
        auto text = load_prompt(options.content_dir, day.prompt);
        if (!text) {
            report.errors.push_back(in_file(text.error(), day_path(options.content_dir, day.date).string()));
            text = std::string();
        }
        return prompts.emplace(day.prompt, *text).first->second;
    };

    for (const auto& day : days) {
        out.write_page(*theme, "day", day_page(site, day, prompt_of(day)), day_path_of(day.date));
        out.write(day_data_path(day.date), day_json(urls, day));
    }
    const Day* latest = days.empty() ? nullptr : &days.back();
    out.write_page(*theme, "home", home_page(site, latest, latest ? prompt_of(*latest) : std::string()), home_path());
    for (std::size_t m = 0; m < graph.months.size(); ++m)
        out.write_page(*theme, "month", month_page(site, m),
                       month_path_of(graph.months[m].year, graph.months[m].month));
    for (std::size_t y = 0; y < graph.years.size(); ++y)
        out.write_page(*theme, "year", year_page(site, y), year_path_of(graph.years[y].year));
    out.write_page(*theme, "archive", archive_page(site), archive_path());
    out.write_page(*theme, "404", not_found_page(site), not_found_path());

    std::vector<const Day*> feed_days;
    for (auto it = days.rbegin(); it != days.rend() && feed_days.size() < static_cast<std::size_t>(options.config.feed_days); ++it)
        feed_days.push_back(&*it);
    out.write(feed_path(), atom_feed(options.config, urls, feed_days));
    out.write(sitemap_path(), sitemap(urls, graph));
    out.write(data_index_path(), index_json(options.config, urls, graph));
    return report;
}

} // namespace pp
