// The data each page kind hands to its mustache layout. Pure functions of
// their inputs (the day, the site graph, the site settings): no I/O, so
// pages can be rendered in any order, in parallel, or only when they change.
// docs/themes.md lists the variables.
#pragma once

#include "config/config.h"
#include "core/paper.h"
#include "site/month_best.h"
#include "site/page_settings.h"
#include "site/site_graph.h"
#include "site/theme.h"
#include "site/urls.h"

#include <map>
#include <string>

namespace pp {

struct SiteContext {
    PageSettings settings; // what pages may read of the config (site/page_settings.h)
    const SiteUrls& urls;
    const SiteGraph& graph;
    std::string stylesheet;           // href of the theme's stylesheet, with a content hash
    std::string script = {};          // static/site.js, likewise ("" when the theme has none)
    std::string search_script = {};   // static/search.js
    std::string search_words_js = {}; // static/search-words.js: how the page folds and splits words
    bool search_page = false;         // the theme has a `search` layout: search/ exists
    bool search_words = false;        // ... and it reads the word index (config.search_index), not the month data
    bool starred_page = false;        // the theme has a `starred` layout: starred/ exists
    // The theme has a `trends`, `range`, `preferences` layout: trends/, range/, preferences/ exist.
    bool trends_page = false, range_page = false, preferences_page = false;
    std::string prefs_script = {}; // static/prefs.js, versioned (the preferences and the date range)
    // KaTeX's files under static/katex/ (with content hashes), when the build shipped them.
    std::string katex_css = {}, katex_js = {}, katex_auto_render = {};
};

// `prompt_html` is the selection prompt rendered (render_prompt()), empty when
// unknown: the many days that share a prompt render it once. A theme with a
// `prompt` layout gets `prompt_url` instead (the prompt's own page, shared
// by every day that used it) and no `prompt_html`.
TemplateData day_page(const SiteContext& site, const Day& day, const std::string& prompt_html,
                      const std::string& prompt_url = {});

// `latest` is the newest day with papers (else the newest day; null for an
// empty archive). The newer days (failed, quiet or partial) are listed in a
// note above it.
TemplateData home_page(const SiteContext& site, const Day* latest, const std::string& prompt_html,
                       const std::string& prompt_url = {});

// The page of one selection prompt, at `site_path` (prompt_path_of()).
TemplateData prompt_page(const SiteContext& site, const std::string& site_path, const std::string& prompt_html);

std::string render_prompt(const std::string& prompt_markdown);

// The month's overview (content/YYYY/MM/summary.md), rendered.
struct MonthOverview {
    std::string html;
    bool generated = false;
    std::string model, cost;
};

TemplateData month_page(const SiteContext& site, std::size_t month, const MonthBest& best = {},
                        const MonthOverview& overview = {});
TemplateData starred_page(const SiteContext& site);
TemplateData year_page(const SiteContext& site, std::size_t year);
TemplateData archive_page(const SiteContext& site);
TemplateData not_found_page(const SiteContext& site);
TemplateData search_page(const SiteContext& site);

std::string starred_page_path(); // "starred/": the reading list, kept in the browser

// A page of only the common variables, its nav up to the home page (the
// pages that JavaScript fills: range/, preferences/; trends/ adds its charts).
TemplateData home_linked_page(const SiteContext& site, const std::string& kind, const std::string& title,
                              const std::string& site_path);
std::string trends_page_path();      // "trends/": charts of the newest months' picks (site/trends.h)
std::string range_page_path();       // "range/": the picks of a range of days, read from data/
std::string preferences_page_path(); // "preferences/": keywords and authors, kept in the browser
// The date range page (site/range.cpp): the newest day and the months with data
// files, for its script; and what its key is made from.
TemplateData range_page(const SiteContext& site);
std::vector<std::uint64_t> range_page_inputs(const SiteGraph& graph);

} // namespace pp
