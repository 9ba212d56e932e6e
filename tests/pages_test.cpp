// site/pages: the data each layout gets. Mustache looks a key that a context
// lacks up in the enclosing contexts, so a month row without failed days
// would show its year's "(54 failed)". These tests render every layout of
// both themes with data in which inner contexts lack what others have.
#include "config/config.h"
#include "site/pages.h"
#include "site/site_graph.h"
#include "site/theme.h"
#include "site/trends.h"
#include "site/urls.h"
#include "test_support.h"
#include "util/text.h"

#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <set>
#include <vector>

using namespace pp;
using namespace pp::test;

namespace {

Paper make_paper(const std::string& id, const std::string& title, std::optional<int> score, const std::string& topic) {
    Paper p;
    p.id = id;
    p.title = title;
    p.authors = {"Ada Lovelace"};
    p.abstract = "About " + title + ".";
    if (score) p.relevance = p.novelty = *score;
    else p.author_match = true;
    p.topic = topic;
    if (!topic.empty()) p.comment = "On " + topic + ".";
    if (!topic.empty()) p.topic_note = "Best fit is efficiency_scaling, not x_1 or _private.";
    return p;
}

std::vector<Paper> many_papers(int n) {
    std::vector<Paper> papers;
    for (int i = 1; i <= n; ++i)
        papers.push_back(make_paper("2607.000" + std::to_string(10 + i), "Paper " + std::to_string(i), 5, ""));
    return papers;
}

Day make_day(const char* iso, std::vector<Paper> papers, DayStatus status = DayStatus::announced) {
    Day day;
    day.date = *parse_iso_date(iso);
    day.status = status;
    day.papers = std::move(papers);
    if (iso[9] == '1') day.tokens = Tokens{100, 20, 0}; // some days with usage, some without
    return day;
}

// Every page kind's data for an archive whose contexts differ in what they
// have: a year with failed days and a month without, papers with and without
// a score, a topic or a comment, days with and without neighbours.
struct Pages {
    Config config;
    SiteUrls urls{"https://example.org/repo/"};
    std::vector<Day> days = {
        make_day("2025-12-31", {make_paper("2512.00001", "Old year", 5, "")}),
        make_day("2026-05-04", {make_paper("2605.00001", "Scored", 8, "Theory"),
                                make_paper("2605.00002", "Followed", std::nullopt, "")}),
        make_day("2026-06-01", {make_paper("2606.00001", "June", 6, "Theory")}),
        make_day("2026-06-02", {}, DayStatus::failed),
        make_day("2026-06-03", {}),
        make_day("2026-06-04", {}, DayStatus::failed),
        make_day("2026-07-01", many_papers(21)),
    };
    SiteGraph graph;
    std::vector<std::pair<std::string, TemplateData>> pages; // layout, data

    Pages() {
        std::vector<DaySummary> summaries;
        for (const auto& day : days) summaries.push_back(day_summary(day));
        graph = build_site_graph(summaries);
        SiteContext site{page_settings(config), urls, graph, "/repo/static/style.css"};
        site.search_page = site.starred_page = site.trends_page = site.range_page = site.preferences_page = true;
        for (const auto& day : days) pages.emplace_back("day", day_page(site, day, "<p>prompt</p>"));
        pages.emplace_back("home", home_page(site, &days[2], "<p>prompt</p>"));
        for (std::size_t m = 0; m < graph.months.size(); ++m) {
            std::vector<Day> of_month;
            for (const auto& day : days)
                if (day.date.year == graph.months[m].year && day.date.month == graph.months[m].month)
                    of_month.push_back(day);
            MonthOverview overview;
            if (m == 1) overview = {"<p>May.</p>", true, "", ""}; // generated, no model or cost
            pages.emplace_back("month", month_page(site, m, month_best(of_month, 5), overview));
        }
        for (std::size_t y = 0; y < graph.years.size(); ++y) pages.emplace_back("year", year_page(site, y));
        pages.emplace_back("archive", archive_page(site));
        pages.emplace_back("404", not_found_page(site));
        pages.emplace_back("search", search_page(site));
        pages.emplace_back("starred", starred_page(site));
        pages.emplace_back("prompt", prompt_page(site, "prompts/x/", "<p>prompt</p>"));
        pages.emplace_back("trends", trends_page(site, trends_of(days)));
        pages.emplace_back("trends", trends_page(site, trends_of(std::vector<Day>{})));
        pages.emplace_back("range", range_page(site));
        pages.emplace_back("preferences",
                           home_linked_page(site, "preferences", "Preferences", preferences_page_path()));
    }
};

// Every name a theme's templates look up ("page.is_day" gives "page" and "is_day").
std::set<std::string> tag_names(const Theme& theme) {
    static const std::regex tag(R"(\{\{\{?\s*[#^/&]?\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}?\}\})");
    std::set<std::string> names;
    auto scan = [&](const std::string& text) {
        for (std::sregex_iterator it(text.begin(), text.end(), tag), end; it != end; ++it) {
            const std::string name = (*it)[1];
            for (std::size_t at = 0; at <= name.size();) {
                const auto dot = std::min(name.find('.', at), name.size());
                names.insert(name.substr(at, dot - at));
                at = dot + 1;
            }
        }
    };
    for (const auto& [_, file] : theme.layouts) scan(file.text);
    for (const auto& [_, file] : theme.partials) scan(file.text);
    return names;
}

// The keys (of `names`) each context defines, by where it sits: "archive:years[].months[]".
using Contexts = std::map<std::string, std::vector<std::set<std::string>>>;
void collect(const TemplateData& data, const std::string& path, const std::set<std::string>& names, Contexts& out) {
    std::set<std::string> keys;
    for (const auto& name : names) {
        const TemplateData* value = data.get(name);
        if (!value) continue;
        keys.insert(name);
        if (value->is_object()) collect(*value, path + "." + name, names, out);
        if (value->is_list())
            for (const auto& item : value->list_value())
                if (item.is_object()) collect(item, path + "." + name + "[]", names, out);
    }
    out[path].push_back(std::move(keys));
}

Theme shipped_theme(const std::string& name) {
    TempDir site_dir; // no overrides
    auto theme = load_theme(source_dir() / "themes", name, site_dir.path());
    REQUIRE_MESSAGE(theme, (theme ? "" : theme.error().to_string()));
    return std::move(*theme);
}

} // namespace

TEST_CASE("pages: every context of a kind defines every key the templates use there, false when it has no value") {
    Pages pages;
    for (const std::string name : {"default", "classic"}) {
        CAPTURE(name);
        const auto names = tag_names(shipped_theme(name));
        Contexts contexts;
        for (const auto& [layout, data] : pages.pages) collect(data, layout + ":", names, contexts);
        for (const auto& [path, all] : contexts) {
            std::set<std::string> every;
            for (const auto& keys : all) every.insert(keys.begin(), keys.end());
            for (const auto& keys : all) {
                std::vector<std::string> missing;
                std::set_difference(every.begin(), every.end(), keys.begin(), keys.end(), std::back_inserter(missing));
                CHECK_MESSAGE(missing.empty(), path << " lacks " << join(missing, ", "));
            }
        }
    }
}

TEST_CASE("pages: every layout renders without an outer context's value in an inner one") {
    // A key a context lacks would be found in an enclosing one: give the page
    // itself a marked value for every name the theme uses, and none may show.
    Pages pages;
    for (const std::string name : {"default", "classic"}) {
        CAPTURE(name);
        const Theme theme = shipped_theme(name);
        const auto names = tag_names(theme);
        for (auto [layout, data] : pages.pages) {
            CAPTURE(layout);
            if (!theme.layouts.contains(layout)) continue;
            for (const auto& key : names)
                if (!data.get(key)) data.set(key, "LEAK(" + key + ")");
            auto html = render_layout(theme, layout, data);
            REQUIRE(html);
            const auto leak = html->find("LEAK(");
            CHECK_MESSAGE(leak == std::string::npos, html->substr(leak == std::string::npos ? 0 : leak, 40));
        }
    }
}

TEST_CASE("pages: a month without failed days shows none, in a year with some (archive and year pages)") {
    Pages pages;
    for (const std::string name : {"default", "classic"}) {
        CAPTURE(name);
        const Theme theme = shipped_theme(name);
        for (const auto& [layout, data] : pages.pages) {
            if (layout != "archive" && layout != "year") continue;
            CAPTURE(layout);
            auto html = render_layout(theme, layout, data);
            REQUIRE(html);
            if (layout == "archive") CHECK(html->find("(2 failed, 1 quiet)") != std::string::npos); // 2026, June
            // May 2026 had papers every day: its row or cell, up to June's, says nothing of failures.
            const auto may = html->find("May<");
            const auto june = html->find("June<");
            REQUIRE(may < june);
            CHECK(html->substr(may, june - may).find("failed") == std::string::npos);
        }
    }
}

TEST_CASE("pages: day and month pages have a description and Open Graph tags; the feed is announced on every page") {
    Pages pages;
    for (const std::string name : {"default", "classic"}) {
        CAPTURE(name);
        const Theme theme = shipped_theme(name);
        const auto q = name == "classic" ? "\"" : "";
        for (const auto& [layout, data] : pages.pages) {
            CAPTURE(layout);
            auto html = render_layout(theme, layout, data);
            REQUIRE(html);
            CHECK(html->find(std::string("property=") + q + "og:title" + q) != std::string::npos);
            CHECK(html->find("application/atom+xml") != std::string::npos);
        }
        auto day = render_layout(theme, "day", pages.pages[1].second); // 2026-05-04
        REQUIRE(day);
        CHECK(day->find("content=\"2 papers for Monday, 4 May 2026: Scored; Followed.\"") != std::string::npos);
        CHECK(day->find("content=\"https://example.org/repo/2026/05/04/\"") != std::string::npos); // og:url
        std::string months;
        for (const auto& [layout, data] : pages.pages)
            if (layout == "month") months += *render_layout(theme, layout, data);
        CHECK(months.find("content=\"May 2026: 1 day, 2 papers. Best: Scored; Followed.\"") != std::string::npos);
        CHECK(months.find("content=\"June 2026: 4 days, 1 paper. Best: June.\"") != std::string::npos);
    }
}

TEST_CASE("pages: a topic note shows topic identifiers as words; year pages get the keyboard shortcuts") {
    Pages pages;
    const Theme theme = shipped_theme("default");
    auto day = render_layout(theme, "day", pages.pages[1].second);
    REQUIRE(day);
    CHECK(day->find("Best fit is efficiency scaling, not x_1 or _private.") != std::string::npos);
    for (const auto& [layout, data] : pages.pages) {
        if (layout != "year") continue;
        const TemplateData* keys = data.get("page")->get("keys");
        REQUIRE(keys);
        CHECK(keys->is_true());
    }
}

TEST_CASE("pages: classic collapses the contents list of a day with more than 20 papers") {
    Pages pages;
    const Theme theme = shipped_theme("classic");
    auto small = render_layout(theme, "day", pages.pages[1].second);
    auto big = render_layout(theme, "day", pages.pages[6].second); // 2026-07-01, 21 papers
    REQUIRE(small);
    REQUIRE(big);
    CHECK(small->find(
              "<details class=\"contents\" open><summary>Table of contents with paper titles (2 papers)</summary>") !=
          std::string::npos);
    CHECK(big->find("<details class=\"contents\"><summary>Table of contents with paper titles (21 papers)</summary>") !=
          std::string::npos);
}

// Issue 44: the rest of the announcement on the day page, and where the reading list's feedback goes.
// Written raw until KaTeX came, "$x_{1}$" wrapped a title to a line more than the typeset formula and
// the page moved (layout.mjs measures it): the build writes it in Unicode, and keeps the TeX for the
// reading list in the link's data-tex.
TEST_CASE("pages: a title's simple formulas are written in Unicode, the TeX kept in data-tex; KaTeX's stay") {
    Pages pages;
    Paper paper = make_paper("2606.00001", "June", 6, "Theory");
    paper.title = "Bounds on $x_{1}$ with \\& $\\mathcal{O}(1)$ <b>";
    Day day = make_day("2026-06-01", {paper, make_paper("2606.00003", "Plain title", 5, "Theory")});
    day.unpicked = {{"2606.00002", "Missed $\\phi$-Balancing"}};
    SiteContext site{page_settings(pages.config), pages.urls, pages.graph, "/repo/static/style.css"};
    for (const std::string name : {"default", "classic"}) {
        CAPTURE(name);
        auto html = render_layout(shipped_theme(name), "day", day_page(site, day, ""));
        REQUIRE(html);
        CHECK(
            html->find(" data-tex=\"Bounds on $x_{1}$ with &amp; $\\mathcal{O}(1)$ &lt;b&gt;\">Bounds on x₁ with &amp; "
                       "$\\mathcal{O}(1)$ &lt;b&gt;</a>") != std::string::npos);
        CHECK(html->find(" data-tex=\"Missed $\\phi$-Balancing\">Missed φ-Balancing</a>") != std::string::npos);
        CHECK(html->find("Plain title</a>") != std::string::npos);
        CHECK(html->find("data-tex=\"Plain") == std::string::npos); // only where the two differ
    }
}

TEST_CASE("pages: a day lists its papers not picked, closed, titles and links; the starred page names the repository") {
    Pages pages;
    Day day = make_day("2026-06-01", {make_paper("2606.00001", "June", 6, "Theory")});
    day.unpicked = {{"2606.00002", "Missed <b>bold</b> & \"quoted\""}, {"hep-th/9901001", "Old style"}};
    SiteContext site{page_settings(pages.config), pages.urls, pages.graph, "/repo/static/style.css"};
    site.starred_page = true;
    for (const std::string name : {"default", "classic"}) {
        CAPTURE(name);
        const Theme theme = shipped_theme(name);
        auto html = render_layout(theme, "day", day_page(site, day, ""));
        REQUIRE(html);
        const bool classic = name == "classic";
        CHECK(html->find(classic
                             ? "<details class=\"unpicked\"><summary>Papers not picked (2 papers)</summary>"
                             : "<details class=unpicked><summary>Not picked: 2 papers</summary>") != std::string::npos);
        CHECK(html->find(classic
                             ? "<li><a href=\"https://arxiv.org/abs/2606.00002\">Missed &lt;b&gt;bold&lt;/b&gt; &amp; "
                             : "<li><a href=https://arxiv.org/abs/2606.00002>Missed &lt;b&gt;bold&lt;/b&gt; &amp; ") !=
              std::string::npos);
        CHECK(html->find("abs/hep-th/9901001") != std::string::npos);
        CHECK(html->find("<b>bold") == std::string::npos);
        auto quiet = render_layout(theme, "day", day_page(site, pages.days[2], ""));
        REQUIRE(quiet);
        CHECK(quiet->find("unpicked") == std::string::npos); // no section, no list

        auto plain = render_layout(theme, "starred", starred_page(site));
        REQUIRE(plain);
        CHECK(plain->find("id=\"starred-feedback\" href=\"#\" hidden>") != std::string::npos);
        Config with = pages.config;
        with.repository = "octo-org/paper.digest";
        with.branch = "x\"><script>";
        SiteContext repo{page_settings(with), pages.urls, pages.graph, "/repo/static/style.css"};
        repo.starred_page = true;
        auto linked = render_layout(theme, "starred", starred_page(repo));
        REQUIRE(linked);
        CHECK(linked->find("data-repository=\"octo-org/paper.digest\" data-branch=\"x&quot;&gt;&lt;script&gt;\"") !=
              std::string::npos);
    }
}
