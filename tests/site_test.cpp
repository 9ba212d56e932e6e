// site/: `paperpress build` end to end, on a small archive written into a
// temp folder (gaps, a month and a year change, a failed day, a remedial
// day, hostile text) and on the real sample archive. The output is checked
// the way a visitor or a feed reader would see it.
#include "content/content_tree.h"
#include "content/prompt_store.h"
#include "site/builder.h"
#include "site/feeds.h"
#include "site/theme.h"
#include "site/urls.h"
#include "test_support.h"

#include <doctest/doctest.h>
#include <pugixml.hpp>
#include <rapidjson/document.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include <sched.h>

using namespace pp;
using namespace pp::test;

namespace {

const std::string base_url = "https://user.github.io/repo/";
const std::string base_path = "/repo/";
const std::string hostile = "<script>alert(1)</script> \"quotes\" & ampersands";

Date date(const char* iso) { return *parse_iso_date(iso); }

Paper paper(const std::string& id, const std::string& title, int relevance, int novelty) {
    Paper p;
    p.id = id;
    p.title = title;
    p.authors = {"Ada Lovelace", "Alan Turing"};
    p.abstract = "An abstract about " + title + ".";
    p.comment = "Matches the topic.";
    p.relevance = relevance;
    p.novelty = novelty;
    return p;
}

Day announced(const char* iso, std::vector<Paper> papers) {
    Day day;
    day.date = date(iso);
    day.model = "gpt-4o";
    day.tokens = Tokens{1000, 200, 0};
    day.cost = Cost{0.01, 0.02, 0.03};
    day.counts = Counts{500, 400, static_cast<long long>(papers.size())};
    day.papers = std::move(papers);
    return day;
}

// The fixture archive, oldest first:
//   2024-12-30                      first day, year 2024
//   2025-01-02  hostile text         year change
//   2025-01-03  failed run
//   2025-01-08  remedial (gap: 01-06, 01-07 missing)
//   2025-02-03  unknown cost         month change, last day
struct Fixture {
    TempDir dir;
    std::string prompt_reference; // the selection prompt the 2025-01-02 day names
    fs::path root() const { return dir.path(); }

    Fixture() {
        fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
        write_text(dir / "paperpress.yaml", "title: Test digest\nbase_url: " + base_url + "\nfeed_days: 3\n");
        const fs::path content = dir / "content";
        auto prompt = store_prompt(content, "Pick papers about *learning*.\n\n" + hostile + "\n");
        REQUIRE(prompt);
        prompt_reference = *prompt;

        std::vector<Day> days;
        days.push_back(announced("2024-12-30", {paper("2412.00001", "Winter paper", 9, 8),
                                                paper("2412.00002", "Second winter paper", 7, 6)}));
        Day bad = announced("2025-01-02", {});
        bad.model = hostile;
        Paper evil = paper("2501.00001", hostile, 8, 7);
        evil.authors = {hostile, "O'Brien & \"Sons\""};
        evil.abstract = "We bound $x_1 < y^2$ and \\[ a*b*c \\] exactly.\n\n" + hostile;
        evil.comment = hostile;
        evil.topic = hostile;
        bad.papers.push_back(evil);
        Paper match = paper("2501.00002", "Followed author's paper", 0, 0);
        match.relevance.reset();
        match.novelty.reset();
        match.comment.clear();
        match.author_match = true;
        bad.papers.push_back(match);
        bad.prompt = *prompt;
        days.push_back(bad);

        Day failed;
        failed.date = date("2025-01-03");
        failed.status = DayStatus::failed;
        failed.model = "gpt-4o";
        days.push_back(failed);

        Day remedial = announced("2025-01-08", {paper("2501.00003", "Back-filled paper", 6, 6)});
        remedial.remedial = Remedial{date("2025-01-06"), date("2025-01-07"), date("2025-01-10")};
        days.push_back(remedial);

        Day unknown_cost = announced("2025-02-03", {paper("2502.00001", "February paper", 9, 9)});
        unknown_cost.model = "mystery-model";
        unknown_cost.cost = Cost{};
        days.push_back(unknown_cost);

        for (const auto& day : days) {
            auto saved = save_day(content, day);
            REQUIRE_MESSAGE(saved, (saved ? "" : saved.error().to_string()));
            auto loaded = load_day(day_path(content, day.date));
            REQUIRE(loaded);
            REQUIRE(*loaded == day);
        }
    }

    CommandResult build(const std::string& extra = "") const {
        return run_paperpress("build --out site " + extra, root());
    }
    fs::path site() const { return root() / "site"; }
    std::string page(const std::string& site_path) const { return read_text(site() / output_file_of(site_path)); }
};

std::vector<fs::path> files_under(const fs::path& root) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(root))
        if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), root));
    std::sort(files.begin(), files.end());
    return files;
}

std::string unescape_attribute(std::string value) {
    for (auto [from, to] : {std::pair{"&amp;", "&"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&apos;", "'"}}) {
        for (auto at = value.find(from); at != std::string::npos; at = value.find(from, at + 1))
            value.replace(at, std::string_view(from).size(), to);
    }
    return value;
}

// Values of every `name="..."` attribute in the HTML.
std::vector<std::string> attributes(const std::string& html, const std::string& name) {
    std::vector<std::string> values;
    const std::string needle = " " + name + "=";
    for (auto at = html.find(needle); at != std::string::npos; at = html.find(needle, at + 1)) {
        auto start = at + needle.size();
        const bool quoted = start < html.size() && html[start] == '"'; // else unquoted, as HTML allows
        if (quoted) ++start;
        auto end = quoted ? html.find('"', start) : html.find_first_of(" \t\n>", start);
        if (end == std::string::npos) break;
        values.push_back(unescape_attribute(html.substr(start, end - start)));
    }
    return values;
}

bool has_attribute(const std::string& html, const std::string& name, const std::string& value) {
    const auto values = attributes(html, name);
    return std::find(values.begin(), values.end(), value) != values.end();
}

// Checks every internal href and src of every HTML file under `site`, served
// under the base URL's path; returns the broken ones ("page: link").
std::vector<std::string> broken_links(const fs::path& site) {
    std::vector<std::string> broken;
    for (const auto& file : files_under(site)) {
        if (file.extension() != ".html") continue;
        const std::string html = read_text(site / file);
        auto ids = attributes(html, "id");
        std::vector<std::string> links = attributes(html, "href");
        for (const char* name : {"src", "data-katex", "data-auto-render"}) // the last two: site.js loads them
            for (auto& src : attributes(html, name)) links.push_back(src);
        for (std::string link : links) {
            const std::string where = file.generic_string() + ": " + link;
            if (link.starts_with(base_url)) link = base_path + link.substr(base_url.size());
            if (link.starts_with("https://arxiv.org/") || link.starts_with("http://arxiv.org/")) continue;
            if (link.starts_with("data:")) continue; // inline (the classic theme's favicon)
            if (link == "#") continue;               // the page's top: a link site.js points elsewhere on a click
            if (link.starts_with("#")) {
                if (std::find(ids.begin(), ids.end(), link.substr(1)) == ids.end()) broken.push_back(where);
                continue;
            }
            if (!link.starts_with(base_path)) {
                // Links from outside the page's own content (e.g. in an abstract) may go anywhere.
                if (link.starts_with("https://") || link.starts_with("http://")) continue;
                broken.push_back(where + " (not under the base path)");
                continue;
            }
            std::string path = link.substr(base_path.size());
            path = path.substr(0, path.find_first_of("?#"));
            if (!fs::is_regular_file(site / output_file_of(path))) broken.push_back(where);
        }
    }
    return broken;
}

// The href of the navigation link with rel="<rel>", if the page has one.
std::optional<std::string> rel_link(const std::string& html, const std::string& rel) {
    for (const std::string& needle : {"rel=" + rel + " href=\"", "rel=\"" + rel + "\" href=\""}) {
        auto at = html.find(needle);
        if (at == std::string::npos) continue;
        auto start = at + needle.size();
        return html.substr(start, html.find('"', start) - start);
    }
    return std::nullopt;
}

pugi::xml_document parse_xml(const fs::path& path) {
    pugi::xml_document doc;
    auto parsed = doc.load_file(path.c_str());
    REQUIRE_MESSAGE(parsed, path.string() << ": " << parsed.description());
    return doc;
}

} // namespace

TEST_CASE("site: builds every page of the fixture archive, and every internal link resolves") {
    Fixture fixture;
    auto result = fixture.build();
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    CHECK(result.out.find("5 days") != std::string::npos);

    for (const char* expected :
         {"index.html", "404.html", "archive/index.html", "2024/index.html", "2025/index.html", "2024/12/index.html",
          "2025/01/index.html", "2025/02/index.html", "2024/12/30/index.html", "2025/01/02/index.html",
          "2025/01/03/index.html", "2025/01/08/index.html", "2025/02/03/index.html", "feed.xml", "sitemap.xml",
          ".nojekyll", "data/index.json", "data/2025-01.json", "static/style.css"})
        CHECK_MESSAGE(fs::is_regular_file(fixture.site() / expected), expected);
    CHECK_FALSE(fs::exists(fixture.site() / "2025/01/06"));

    auto broken = broken_links(fixture.site());
    CHECK_MESSAGE(broken.empty(), "broken: " << (broken.empty() ? "" : broken.front()) << " (+"
                                             << (broken.empty() ? 0 : broken.size() - 1) << " more)");
    // Links are absolute paths under the base URL's sub-path, so they work at any depth.
    const auto day = fixture.page("2025/01/08/");
    CHECK(day.find("href=\"/repo/static/style.css?v=") != std::string::npos);
    CHECK(day.find("href=\"/repo/archive/\"") != std::string::npos);
    CHECK(day.find("href=\"/2025/") == std::string::npos);
}

TEST_CASE("site: navigation steps over gaps and has no dead ends at the first and last pages") {
    Fixture fixture;
    REQUIRE(fixture.build().exit_code == 0);

    auto first = fixture.page("2024/12/30/");
    CHECK_FALSE(rel_link(first, "prev"));
    CHECK(rel_link(first, "next") == "/repo/2025/01/02/");
    CHECK(rel_link(first, "up") == "/repo/2024/12/");

    auto failed = fixture.page("2025/01/03/");
    CHECK(rel_link(failed, "prev") == "/repo/2025/01/02/");
    CHECK(rel_link(failed, "next") == "/repo/2025/01/08/"); // 01-06 and 01-07 have no file

    auto after_gap = fixture.page("2025/01/08/");
    CHECK(rel_link(after_gap, "prev") == "/repo/2025/01/03/");
    CHECK(rel_link(after_gap, "next") == "/repo/2025/02/03/");

    auto last = fixture.page("2025/02/03/");
    CHECK(rel_link(last, "prev") == "/repo/2025/01/08/");
    CHECK_FALSE(rel_link(last, "next"));
    CHECK(rel_link(last, "up") == "/repo/2025/02/");

    auto first_month = fixture.page("2024/12/");
    CHECK_FALSE(rel_link(first_month, "prev"));
    CHECK(rel_link(first_month, "next") == "/repo/2025/01/");
    CHECK(rel_link(first_month, "up") == "/repo/2024/");
    auto last_month = fixture.page("2025/02/");
    CHECK(rel_link(last_month, "prev") == "/repo/2025/01/");
    CHECK_FALSE(rel_link(last_month, "next"));

    auto first_year = fixture.page("2024/");
    CHECK_FALSE(rel_link(first_year, "prev"));
    CHECK(rel_link(first_year, "next") == "/repo/2025/");
    auto last_year = fixture.page("2025/");
    CHECK(rel_link(last_year, "prev") == "/repo/2024/");
    CHECK_FALSE(rel_link(last_year, "next"));

    // Home: the latest day in full, links to the recent days.
    auto home = fixture.page("");
    CHECK(home.find("February paper") != std::string::npos);
    CHECK(rel_link(home, "prev") == "/repo/2025/01/08/");
    for (const char* day : {"/repo/2025/02/03/", "/repo/2025/01/08/", "/repo/2024/12/30/"})
        CHECK_MESSAGE(home.find(std::string("href=\"") + day + "\"") != std::string::npos, day);
}

// Issue 46's mutants: counts a reader reads on the archive and month pages, each from the archive's days.
TEST_CASE("site: the archive counts each year's days, and a month lists each day's three best titles") {
    Fixture fixture;
    std::vector<Paper> five;
    for (const char* title : {"Top one", "Top two", "Top three", "Top four", "Top five"})
        five.push_back(paper("2502.0001" + std::to_string(five.size()), title, 9 - static_cast<int>(five.size()), 6));
    REQUIRE(save_day(fixture.root() / "content", announced("2025-02-04", five)));
    REQUIRE(fixture.build().exit_code == 0);
    const std::string archive = fixture.page("archive/");
    CHECK(archive.find(">2024</a> <span class=\"count\">1 day, 2 papers</span>") != std::string::npos);
    CHECK(archive.find(">2025</a> <span class=\"count\">5 days (1 failed), 9 papers</span>") != std::string::npos);
    const std::string month = fixture.page("2025/02/");
    CHECK(month.find("<ul class=titles><li>Top one<li>Top two<li>Top three</ul>") != std::string::npos); // no fourth
}

TEST_CASE("site: month calendar is Sunday-first and links the days that have a page") {
    Fixture fixture;
    REQUIRE(fixture.build().exit_code == 0);
    auto month = fixture.page("2025/01/");
    // 2025-01-01 is a Wednesday: three empty cells, then 1 (no page: plain text).
    CHECK(month.find("<tr><td><td><td><td>1<td") != std::string::npos);
    CHECK(month.find(">2</a>") != std::string::npos);
    CHECK(month.find(">6</a>") == std::string::npos);
    CHECK(month.find("href=\"/repo/2025/01/08/\"") != std::string::npos);
    CHECK(month.find("Back-filled paper") != std::string::npos); // top titles in the day list
    auto year = fixture.page("2025/");
    CHECK(year.find("January") != std::string::npos);
    CHECK(year.find("December") != std::string::npos); // all twelve months, with or without days
    CHECK(year.find("href=\"/repo/2025/02/\"") != std::string::npos);
    auto archive = fixture.page("archive/");
    for (const char* link : {"/repo/2024/", "/repo/2025/", "/repo/2024/12/", "/repo/2025/01/", "/repo/2025/02/"})
        CHECK_MESSAGE(archive.find(std::string("href=\"") + link + "\"") != std::string::npos, link);
}

// Issue 17: every byte of a day page earns its place.
TEST_CASE("site: a day page is lean: each title once, no blank lines, no optional end tags") {
    Fixture fixture;
    REQUIRE(fixture.build().exit_code == 0);
    for (const char* path : {"2024/12/30/", "2025/01/02/", "2025/01/03/", "2025/02/03/"}) {
        const auto day = fixture.page(path);
        CAPTURE(path);
        CHECK(day.find("\n\n") == std::string::npos);
        for (const char* optional : {"</p>", "</li>", "</td>", "</tr>", "</th>", "</dt>", "</dd>"})
            CHECK_MESSAGE(day.find(optional) == std::string::npos, optional);
    }
    // The title is the heading's link, and a short day's contents list in the page (issue 43: a list
    // site.js added moved the papers down after the first paint); a big day's list is site.js's.
    const auto day = fixture.page("2024/12/30/");
    std::size_t titles = 0;
    for (auto at = day.find(">Winter paper</a>"); at != std::string::npos; at = day.find(">Winter paper</a>", at + 1))
        ++titles;
    CHECK(titles == 2);
}

TEST_CASE("site: a day page shows what the reference page shows") {
    Fixture fixture;
    REQUIRE(fixture.build().exit_code == 0);
    auto day = fixture.page("2024/12/30/");
    CHECK(day.find("<title>arXiv papers for 2024-12-30") != std::string::npos);
    CHECK(day.find("gpt-4o") != std::string::npos);
    CHECK(day.find("1000") != std::string::npos); // prompt tokens
    CHECK(day.find("cost $0.03 ($0.01 prompt, $0.02 completion)\n") != std::string::npos);
    CHECK(day.find("arXiv papers <b>500</b> · scanned <b>400</b>") != std::string::npos);
    CHECK(day.find("<nav class=toc aria-label=Contents><h2>Contents</h2>") != std::string::npos);
    CHECK(has_attribute(day, "id", "p-2412.00001"));
    CHECK(has_attribute(day, "href", "https://arxiv.org/abs/2412.00001"));
    CHECK(has_attribute(day, "href", "https://arxiv.org/pdf/2412.00001"));
    CHECK(has_attribute(day, "href", "https://arxiv.org/html/2412.00001"));
    CHECK(day.find("Ada Lovelace, Alan Turing") != std::string::npos);
    CHECK(day.find("Relevance 9 + Novelty 8 = 17") != std::string::npos);

    auto with_prompt = fixture.page("2025/01/02/");
    CHECK(with_prompt.find("Author match") != std::string::npos);
    // The selection prompt has its own page, linked from the day.
    const std::string prompt_page = prompt_path_of(fixture.prompt_reference);
    CHECK(with_prompt.find("href=\"" + base_path + prompt_page + "\"") != std::string::npos);
    CHECK(with_prompt.find("<em>learning</em>") == std::string::npos);
    CHECK(fixture.page(prompt_page).find("<em>learning</em>") != std::string::npos); // the prompt is Markdown
    // LaTeX stays intact for a math renderer.
    CHECK(with_prompt.find("$x_1 &lt; y^2$") != std::string::npos);
    CHECK(with_prompt.find("\\[ a*b*c \\]") != std::string::npos);

    auto unknown = fixture.page("2025/02/03/");
    CHECK(unknown.find("· cost unknown\n") != std::string::npos);
    CHECK(unknown.find("$0") == std::string::npos);
}

TEST_CASE("site: a failed run and a remedial run render as such") {
    Fixture fixture;
    REQUIRE(fixture.build().exit_code == 0);
    auto failed = fixture.page("2025/01/03/");
    CHECK(failed.find("run for this day failed") != std::string::npos);
    CHECK(failed.find("No papers were selected") == std::string::npos);
    auto remedial = fixture.page("2025/01/08/");
    CHECK(remedial.find("Remedial run") != std::string::npos);
    CHECK(remedial.find("from 2025-01-06 to 2025-01-07") != std::string::npos);
    CHECK(remedial.find("2025-01-10") != std::string::npos);
    auto month = fixture.page("2025/01/");
    CHECK(month.find("run failed") != std::string::npos);

    rapidjson::Document index;
    index.Parse(read_text(fixture.site() / "data/index.json").c_str());
    REQUIRE_FALSE(index.HasParseError());
    const auto& days = index["days"];
    REQUIRE(days.Size() == 5);
    CHECK(std::string(days[2]["status"].GetString()) == "failed");
    CHECK(days[3]["remedial"].GetBool());
    CHECK(std::string(days[4]["url"].GetString()) == base_url + "2025/02/03/");
    CHECK(days[4]["counts"]["arxiv"].GetInt() == 500);
}

TEST_CASE("site: the Atom feed parses, holds the latest feed_days days, and the sitemap lists every page") {
    Fixture fixture;
    REQUIRE(fixture.build().exit_code == 0);
    auto feed = parse_xml(fixture.site() / "feed.xml");
    auto root = feed.child("feed");
    REQUIRE(root);
    CHECK(std::string(root.attribute("xmlns").value()) == "http://www.w3.org/2005/Atom");
    CHECK(std::string(root.child_value("title")) == "Test digest");
    CHECK(std::string(root.child_value("updated")) == "2025-02-03T00:00:00Z");
    std::vector<std::string> entries;
    for (auto entry : root.children("entry")) {
        CHECK(std::string(entry.child_value("id")).starts_with(base_url));
        CHECK(*entry.child_value("updated"));
        entries.push_back(entry.child("link").attribute("href").value());
    }
    // The newest days with papers: the failed 2025-01-03, older than them, is left out.
    CHECK(entries ==
          std::vector<std::string>{base_url + "2025/02/03/", base_url + "2025/01/08/", base_url + "2025/01/02/"});

    auto map = parse_xml(fixture.site() / "sitemap.xml");
    std::set<std::string> listed;
    for (auto url : map.child("urlset").children("url")) listed.insert(url.child_value("loc"));
    std::set<std::string> pages;
    for (const auto& file : files_under(fixture.site()))
        if (file.filename() == "index.html" && !file.generic_string().starts_with("search/") &&
            !file.generic_string().starts_with("starred/") && !file.generic_string().starts_with("prompts/") &&
            !file.generic_string().starts_with("trends/") && !file.generic_string().starts_with("range/") &&
            !file.generic_string().starts_with("preferences/")) { // the reader's own pages: not for crawlers
            std::string dir = file.parent_path().generic_string();
            pages.insert(base_url + (dir.empty() ? "" : dir + "/"));
        }
    CHECK(pages.size() == 12); // home, archive, 2 years, 3 months, 5 days
    CHECK(listed == pages);
}

TEST_CASE("site: hostile text shows as text in every output and survives in the JSON") {
    Fixture fixture;
    const fs::path config = fixture.root() / "paperpress.yaml";
    write_text(config, read_text(config) + "data: full\n"); // the month data with the abstracts
    REQUIRE(fixture.build().exit_code == 0);
    for (const auto& file : files_under(fixture.site())) {
        const auto text = read_text(fixture.site() / file);
        CHECK_MESSAGE(text.find("<script>alert") == std::string::npos, file.generic_string());
        CHECK_MESSAGE(text.find("\"quotes\" & ampersands") == std::string::npos, file.generic_string());
    }
    auto day = fixture.page("2025/01/02/");
    const std::string shown = "&lt;script&gt;alert(1)&lt;/script&gt; &quot;quotes&quot; &amp; ampersands";
    auto count = [&](const std::string& haystack, const std::string& needle) {
        int n = 0;
        for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
        return n;
    };
    // title (TOC, heading), author, abstract, comment, topic, model: each shown as text
    CHECK(count(day, shown) >= 7);
    CHECK(day.find("O&apos;Brien &amp; &quot;Sons&quot;") != std::string::npos);
    CHECK(fixture.page("2025/01/").find(shown) != std::string::npos); // top titles

    rapidjson::Document january;
    january.Parse(read_text(fixture.site() / "data/2025-01.json").c_str());
    REQUIRE_FALSE(january.HasParseError());
    const auto& json = january["days"][0]; // 2025-01-02
    CHECK(json["model"].GetString() == hostile);
    const auto& evil = json["papers"][0];
    CHECK(evil["title"].GetString() == hostile);
    CHECK(evil["authors"][0].GetString() == hostile);
    CHECK(evil["authors"][1].GetString() == std::string("O'Brien & \"Sons\""));
    CHECK(evil["comment"].GetString() == hostile);
    CHECK(evil["abstract"].GetString() == "We bound $x_1 < y^2$ and \\[ a*b*c \\] exactly.\n\n" + hostile);
    CHECK(evil["relevance"].GetInt() == 8);
    CHECK(json["papers"][1]["author_match"].GetBool());
    CHECK_FALSE(json["papers"][1].HasMember("relevance")); // unknown: left out, as is anything empty
    rapidjson::Document february;
    february.Parse(read_text(fixture.site() / "data/2025-02.json").c_str());
    CHECK(february["days"][0]["cost"]["total"].IsNull()); // unknown, not $0
}

TEST_CASE("site: every day's JSON data reads back as the day it was made from, abstracts and comments only with `data: "
          "full`") {
    Fixture fixture;
    const fs::path config = fixture.root() / "paperpress.yaml";
    const std::string settings = read_text(config);
    for (const std::string data : {"month", "full"}) {
        CAPTURE(data);
        write_text(config, settings + "data: " + data + "\n");
        REQUIRE(fixture.build().exit_code == 0);
        int days = 0;
        for (const auto& file : scan_content(fixture.root() / "content").days) {
            auto day = load_day(file.path);
            REQUIRE(day);
            auto month =
                month_days_from_json(read_text(fixture.site() / month_data_path(file.date.year, file.date.month)));
            REQUIRE_MESSAGE(month, (month ? "" : month.error().to_string()));
            auto back = std::find_if(month->begin(), month->end(), [&](const Day& d) { return d.date == file.date; });
            REQUIRE(back != month->end());
            day->prompt.clear(); // the JSON names no prompt
            if (data == "month")
                for (auto& paper : day->papers) {
                    paper.abstract.clear();
                    paper.comment.clear();
                }
            CHECK_MESSAGE(*back == *day, file.date.iso());
            ++days;
        }
        CHECK(days == 5);
    }

    Day full = announced("2025-03-04", {paper("2503.00001", "Topics", 3, 9)});
    full.tokens = Tokens{12, 34, 5};
    full.cost = Cost{0.1, std::nullopt, 1.0 / 3};
    full.counts = Counts{7, std::nullopt, 1};
    full.papers[0].topic = "Diffusion";
    full.papers[0].also_topics = {"Robotics", "Vision"};
    full.papers[0].topic_note = "Fits both.";
    full.papers[0].unscored = "timeout";
    full.remedial = Remedial{date("2025-03-01"), date("2025-03-03"), std::nullopt};
    auto back = day_from_json(day_json(SiteUrls(base_url), full));
    REQUIRE(back);
    CHECK(*back == full);

    auto wrong = day_from_json(R"({"date": "2025-03-04", "status": "announced", "papers": [{"relevance": "high"}]})");
    REQUIRE_FALSE(wrong);
    CHECK(wrong.error().message == "expected 'relevance' to be a number");
    CHECK_FALSE(day_from_json("{not json"));
}

TEST_CASE("site: under an affinity mask of one CPU the build runs on one thread; --jobs overrides it") {
    Fixture fixture;
    BuildOptions options;
    options.content_dir = fixture.root() / "content";
    options.out_dir = fixture.site();
    options.site_dir = fixture.root();
    options.themes_dir = fixture.root() / "themes";
    options.config.base_url = base_url;
    cpu_set_t before, one;
    REQUIRE(::sched_getaffinity(0, sizeof before, &before) == 0);
    CPU_ZERO(&one);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &before)) {
            CPU_SET(cpu, &one);
            break;
        }
    REQUIRE(::sched_setaffinity(0, sizeof one, &one) == 0); // as under `taskset -c 0`
    const char* env = std::getenv("PAPERPRESS_JOBS");
    const std::string saved = env ? env : "";
    ::unsetenv("PAPERPRESS_JOBS");
    auto pinned = build_site(options);
    options.jobs = 3;
    auto asked = build_site(options);
    ::sched_setaffinity(0, sizeof before, &before);
    if (env) ::setenv("PAPERPRESS_JOBS", saved.c_str(), 1);
    CHECK(pinned.ok());
    CHECK(pinned.jobs == 1);
    CHECK(asked.jobs == 3);
    CHECK(asked.rendered == 0); // the second build found everything up to date
}

TEST_CASE("site: a partial day's reason is in its JSON data and reads back") {
    Day partial = announced("2025-03-05", {paper("2503.00002", "Half-scored paper", 5, 5)});
    partial.status = DayStatus::partial;
    partial.reason = "the LLM timed out on 12 of 40 papers";
    const std::string json = day_json(SiteUrls(base_url), partial);
    CHECK(json.find("\"reason\":\"the LLM timed out on 12 of 40 papers\"") != std::string::npos);
    auto back = day_from_json(json);
    REQUIRE(back);
    CHECK(back->reason == partial.reason);
    CHECK(*back == partial);
}

TEST_CASE("site: the selection prompt is one page, linked from every day that used it, not repeated on each") {
    Fixture fixture;
    REQUIRE(fixture.build().exit_code == 0);
    const std::string prompt_page = prompt_path_of(fixture.prompt_reference);
    CHECK(prompt_page.starts_with("prompts/"));
    auto prompt = fixture.page(prompt_page);
    CHECK(prompt.find("<em>learning</em>") != std::string::npos);
    CHECK(prompt.find(hostile) == std::string::npos); // escaped
    auto day = fixture.page("2025/01/02/");
    CHECK(day.find("<details") == std::string::npos);
    const auto files = files_under(fixture.site());
    CHECK(std::count_if(files.begin(), files.end(),
                        [](const fs::path& p) { return p.generic_string().starts_with("prompts/"); }) == 1);
    // The day page's pager is there once, not repeated at the bottom.
    std::size_t pagers = 0;
    for (auto at = day.find("class=pager"); at != std::string::npos; at = day.find("class=pager", at + 1)) ++pagers;
    CHECK(pagers == 1);
}

TEST_CASE("site: data: none leaves out the data files and their links; the feed still has every day in full") {
    Fixture fixture;
    write_text(fixture.root() / "paperpress.yaml",
               "title: Test digest\nbase_url: " + base_url + "\nfeed_days: 3\ndata: none\n");
    REQUIRE(fixture.build().exit_code == 0);
    CHECK_FALSE(fs::exists(fixture.site() / "data/days"));
    CHECK_FALSE(fs::exists(fixture.site() / "data/2025-02.json"));
    auto index = fixture.page(data_index_path());
    CHECK(index.find("\"data\"") == std::string::npos);
    CHECK(index.find("2025-02-03") != std::string::npos);
    auto feed = fixture.page(feed_path());
    CHECK(feed.find("February paper") != std::string::npos);
    CHECK(fixture.page("").find("February paper") != std::string::npos); // the home page's latest day
    write_text(fixture.root() / "paperpress.yaml", "base_url: /\ndata: monthly\n");
    auto wrong = fixture.build();
    CHECK(wrong.exit_code != 0);
    CHECK(wrong.err.find("none, month, full or day") != std::string::npos);
}

TEST_CASE("site: hostile text in the feed is HTML-escaped inside the XML") {
    Fixture fixture;
    write_text(fixture.root() / "paperpress.yaml",
               "title: Test <digest> & co\nbase_url: " + base_url + "\nfeed_days: 10\n");
    REQUIRE(fixture.build().exit_code == 0);
    auto feed = parse_xml(fixture.site() / "feed.xml");
    auto root = feed.child("feed");
    CHECK(std::string(root.child_value("title")) == "Test <digest> & co");
    std::string html;
    for (auto entry : root.children("entry"))
        if (std::string(entry.child_value("id")) == base_url + "2025/01/02/") html = entry.child_value("content");
    REQUIRE_FALSE(html.empty());
    // After XML parsing the content is HTML in which the title is text, not markup.
    CHECK(html.find("&lt;script&gt;alert(1)&lt;/script&gt; &quot;quotes&quot; &amp; ampersands") != std::string::npos);
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("<li><a href=\"https://arxiv.org/abs/2501.00001\">") != std::string::npos);
}

TEST_CASE("site: two builds of the same input are byte-identical, and a rebuild writes nothing") {
    Fixture fixture;
    REQUIRE(fixture.build().exit_code == 0);
    REQUIRE(run_paperpress("build --out second", fixture.root()).exit_code == 0);
    auto first = files_under(fixture.site());
    auto second = files_under(fixture.root() / "second");
    REQUIRE(first == second);
    for (const auto& file : first)
        CHECK_MESSAGE(read_text(fixture.site() / file) == read_text(fixture.root() / "second" / file),
                      file.generic_string());

    auto before = fs::last_write_time(fixture.site() / "2025/01/02/index.html");
    auto again = fixture.build();
    CHECK(again.exit_code == 0);
    CHECK(again.out.find("(0 written") != std::string::npos);
    CHECK(fs::last_write_time(fixture.site() / "2025/01/02/index.html") == before);
}

TEST_CASE("site: --base-url / builds a site for local preview at the server root") {
    Fixture fixture;
    REQUIRE(fixture.build("--base-url /").exit_code == 0);
    auto day = fixture.page("2025/01/08/");
    CHECK(rel_link(day, "next") == "/2025/02/03/");
    CHECK(day.find("/repo/") == std::string::npos);
}

TEST_CASE("site: the site's layouts/ folder overrides theme files; template errors name the file") {
    Fixture fixture;
    write_text(fixture.root() / "layouts/404.mustache",
               "{{> head}}<h1>Lost in {{site.title}}</h1><a href=\"{{site.base}}no-such-page/\">x</a>{{> foot}}\n");
    REQUIRE(fixture.build().exit_code == 0);
    // The link checker of the other tests does see a dead link.
    CHECK(broken_links(fixture.site()) == std::vector<std::string>{"404.html: /repo/no-such-page/"});
    CHECK(fixture.page("404.html").find("<h1>Lost in Test digest</h1>") != std::string::npos);
    CHECK(fixture.page("404.html").find("/repo/static/style.css") != std::string::npos); // theme partials still used

    write_text(fixture.root() / "layouts/partials/paper.mustache", "<h2>{{#title}}{{title}}</h2>\n");
    auto broken = fixture.build();
    CHECK(broken.exit_code == 1);
    CHECK(broken.err.find("layouts/partials/paper.mustache") != std::string::npos);

    fs::remove(fixture.root() / "layouts/partials/paper.mustache");
    write_text(fixture.root() / "layouts/day.mustache", "{{> head}}{{> no_such_partial}}{{> foot}}\n");
    auto missing = fixture.build();
    CHECK(missing.exit_code == 1);
    CHECK(missing.err.find("no_such_partial") != std::string::npos);
    CHECK(missing.err.find("layouts/day.mustache") != std::string::npos);

    auto unknown_theme = run_paperpress("build --out other --theme nope", fixture.root());
    CHECK(unknown_theme.exit_code == 1);
    CHECK(unknown_theme.err.find("themes/nope") != std::string::npos);
    CHECK_FALSE(fs::exists(fixture.root() / "other"));
}

TEST_CASE("site: an empty archive (a new site) builds a home page, archive, 404 and a valid empty feed") {
    TempDir dir;
    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    fs::create_directories(dir / "content"); // a missing one is a mistake (see below)
    auto result = run_paperpress("build --out site --base-url " + base_url, dir.path());
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    CHECK(read_text(dir / "site/index.html").find("No days have been published yet") != std::string::npos);
    CHECK(fs::is_regular_file(dir / "site/archive/index.html"));
    CHECK(fs::is_regular_file(dir / "site/404.html"));
    auto feed = parse_xml(dir / "site/feed.xml");
    CHECK(feed.child("feed").child("entry").empty());
    CHECK(broken_links(dir / "site").empty());
}

TEST_CASE("site: build with a mistyped --content, or once the content is emptied, fails and removes nothing") {
    TempDir dir;
    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    write_text(dir / "content/2025/01/2025-01-17.md", read_text(source_dir() / "content/2025/01/2025-01-17.md"));
    fs::copy(source_dir() / "content/prompts", dir / "content/prompts", fs::copy_options::recursive);
    REQUIRE(run_paperpress("build", dir.path()).exit_code == 0);
    const auto pages =
        std::distance(fs::recursive_directory_iterator(dir / "site"), fs::recursive_directory_iterator());
    auto typo = run_paperpress("--content contnet build", dir.path());
    CHECK(typo.exit_code == 1);
    CHECK(typo.err.find("contnet: expected the content folder") != std::string::npos);
    fs::remove(dir / "content/2025/01/2025-01-17.md");
    auto emptied = run_paperpress("build", dir.path());
    CHECK(emptied.exit_code == 1);
    CHECK(emptied.err.find("it has none") != std::string::npos);
    CHECK(std::distance(fs::recursive_directory_iterator(dir / "site"), fs::recursive_directory_iterator()) == pages);
    CHECK(fs::exists(dir / "site/2025/01/17/index.html"));
}

TEST_CASE("site: build --help describes the command and its options") {
    TempDir dir;
    auto help = run_paperpress("build --help", dir.path());
    CHECK(help.exit_code == 0);
    for (const char* option : {"--out", "--theme", "--base-url", "static site"})
        CHECK_MESSAGE(help.out.find(option) != std::string::npos, option);
    CHECK(run_paperpress("build --no-such-option", dir.path()).exit_code == 2);
}

TEST_CASE("site: the real sample archive builds and every internal link resolves") {
    TempDir out;
    import_sample_archive(out.path());
    fs::copy(source_dir() / "themes", out / "themes", fs::copy_options::recursive);
    auto result = run_paperpress("build --out '" + (out / "site").string() + "' --base-url " + base_url, out.path());
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    CHECK(result.out.find("96 days") != std::string::npos);
    auto broken = broken_links(out / "site");
    CHECK_MESSAGE(broken.empty(), "broken: " << (broken.empty() ? "" : broken.front()) << " (+"
                                             << (broken.empty() ? 0 : broken.size() - 1) << " more)");
    auto remedial = read_text(out / "site/2025/05/20/index.html");
    CHECK(remedial.find("Remedial run") != std::string::npos);
    CHECK(remedial.find("Selection prompt</a>") != std::string::npos); // a link to the prompt's page
    auto feed = parse_xml(out / "site/feed.xml");
    auto entries = feed.child("feed").children("entry");
    CHECK(std::distance(entries.begin(), entries.end()) == 20); // the default feed_days
}

TEST_CASE("site: both shipped themes build, pass the link check and link prev/up/next") {
    Fixture fixture;
    for (const std::string theme : {"default", "classic"}) {
        CAPTURE(theme);
        const fs::path out = fixture.root() / ("site-" + theme);
        auto result = run_paperpress("build --theme " + theme + " --out site-" + theme, fixture.root());
        INFO(result.err);
        REQUIRE(result.exit_code == 0);
        auto broken = broken_links(out);
        CHECK_MESSAGE(broken.empty(), "broken: " << (broken.empty() ? "" : broken.front()) << " (+"
                                                 << (broken.empty() ? 0 : broken.size() - 1) << " more)");
        auto page = [&](const std::string& site_path) { return read_text(out / output_file_of(site_path)); };
        auto day = page("2025/01/08/");
        CHECK(rel_link(day, "prev") == "/repo/2025/01/03/");
        CHECK(rel_link(day, "up") == "/repo/2025/01/");
        CHECK(rel_link(day, "next") == "/repo/2025/02/03/");
        CHECK(rel_link(page("2025/01/"), "up") == "/repo/2025/");
        CHECK(rel_link(page("2025/"), "prev") == "/repo/2024/");
        CHECK(rel_link(page(""), "prev") == "/repo/2025/01/08/");
        CHECK(has_attribute(day, "id", "p-2501.00003")); // the anchor search results link to
        // A toggle that remembers the choice, set before the first paint (without one, the
        // stylesheet follows prefers-color-scheme).
        CHECK(day.find(theme == std::string("default") ? "data-theme-toggle" : "class=\"theme-toggle\"") !=
              std::string::npos);
        CHECK(day.find("localStorage.getItem") < day.find("<body"));
        // The search box in the header (in the default theme, a link site.js
        // turns into the box: the search needs JavaScript), and the search page.
        CHECK(day.find(theme == std::string("default") ? "class=search-box href=\"/repo/search/\""
                                                       : "action=\"/repo/search/\"") != std::string::npos);
        CHECK(fs::is_regular_file(out / "search/index.html"));
        // The feed is announced where readers subscribe (the home page), and the data on the archive.
        const std::string feed_link = "type=application/atom+xml";
        CHECK(read_text(out / "index.html")
                  .find(theme == std::string("default") ? "rel=alternate " + feed_link : "application/atom+xml") !=
              std::string::npos);
        CHECK(day.find("application/atom+xml") != std::string::npos); // every page, days too (issue 33)
        if (theme == std::string("default")) {
            CHECK(read_text(out / "archive/index.html").find("href=\"/repo/data/index.json\"") != std::string::npos);
        }
        CHECK(fs::is_regular_file(out / "data/2025-01.json")); // what the search reads
        CHECK(fs::is_regular_file(out / "static/search.js"));
        CHECK(fs::is_regular_file(out / "static/site.js"));
        // KaTeX (the tests' stub) only on pages with math: this day has none.
        CHECK(day.find("katex") == std::string::npos);
    }
    const auto classic = read_text(fixture.root() / "site-classic/2025/01/index.html");
    CHECK(classic.find("Personalized Monthly ArXiv Paper Summary 2025/01") != std::string::npos);
    CHECK(classic.find("<caption>2025/01</caption>") != std::string::npos);
    CHECK(classic.find("<tr><td></td><td></td><td></td><td>1</td>") != std::string::npos); // Sunday-first
    CHECK(classic.find("Yearly Overview") != std::string::npos);
    const auto classic_day = read_text(fixture.root() / "site-classic/2025/01/08/index.html");
    CHECK(classic_day.find("Previous Day") != std::string::npos);
    CHECK(classic_day.find("Monthly Overview") != std::string::npos);
    CHECK(classic_day.find("arxiv_site_color_mode") != std::string::npos); // the reference site's key
    CHECK(read_text(fixture.root() / "site-classic/2025/index.html").find(">January</a></th>") != std::string::npos);
    CHECK(read_text(fixture.root() / "site-default/static/style.css").find("@media print") != std::string::npos);
}

TEST_CASE("site: templates escape exactly as kainjow does, with and without partials written in place") {
    // The build installs its own (faster) escaper; the bytes must be kainjow's.
    TempDir dir;
    for (const auto& layout : required_layouts())
        write_text(dir / "themes/t/layouts" / (layout + ".mustache"), "[{{x}}]{{> p}}");
    write_text(dir / "themes/t/partials/p.mustache", "({{x}}|{{{x}}})");
    const std::string text = "a&b<c>d\"e'f&amp; \xC3\xA9 and a longer tail past sixteen bytes: <'\">&";
    TemplateData data;
    data.set("x", text);
    const std::string escaped = kainjow::mustache::html_escape<std::string>(text);
    const std::string expected = "[" + escaped + "](" + escaped + "|" + text + ")";
    auto theme = load_theme(dir / "themes", "t", dir.path());
    REQUIRE(theme.has_value());
    REQUIRE(theme->expanded.contains("day"));
    CHECK(render_layout(*theme, "day", data).value() == expected);
    // Set delimiters keep a layout's partials out of place: rendered through kainjow's partials.
    write_text(dir / "themes/t/layouts/day.mustache", "{{=<% %>=}}[<%x%>]<%> p%>");
    theme = load_theme(dir / "themes", "t", dir.path());
    REQUIRE(theme.has_value());
    REQUIRE_FALSE(theme->expanded.contains("day"));
    CHECK(render_layout(*theme, "day", data).value() == expected);
}

TEST_CASE("site: a theme keeps its parsed layouts, rendered from many threads at once, each theme its own") {
    TempDir dir;
    for (const auto& layout : required_layouts())
        write_text(dir / "themes/t/layouts" / (layout + ".mustache"), layout + ":{{#items}}{{> p}}{{/items}}");
    write_text(dir / "themes/t/partials/p.mustache", "[{{name}}]");
    write_text(dir / "themes/u/layouts/day.mustache", "other:{{#items}}<{{name}}>{{/items}}");
    for (const auto& layout : required_layouts())
        if (layout != "day") write_text(dir / "themes/u/layouts" / (layout + ".mustache"), "u");
    auto theme = load_theme(dir / "themes", "t", dir.path());
    auto other = load_theme(dir / "themes", "u", dir.path());
    REQUIRE(theme);
    REQUIRE(other);
    REQUIRE(theme->parsed);
    std::vector<TemplateData> items;
    for (int i = 0; i < 50; ++i) {
        TemplateData item;
        item.set("name", "a&" + std::to_string(i));
        items.push_back(item);
    }
    TemplateData data;
    data.set("items", list_data(std::move(items)));
    std::string expected = "day:", expected_other = "other:";
    for (int i = 0; i < 50; ++i) {
        expected += "[a&amp;" + std::to_string(i) + "]";
        expected_other += "<a&amp;" + std::to_string(i) + ">";
    }
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < 40; ++i) {
                if (render_layout(*theme, "day", data).value_or("") != expected) ++wrong;
                if (render_layout(*other, "day", data).value_or("") != expected_other) ++wrong;
            }
        });
    for (auto& thread : threads) thread.join();
    CHECK(wrong == 0);
    const Theme copy = *theme; // shares the parsed layouts
    CHECK(render_layout(copy, "day", data).value() == expected);
    CHECK(render_layout(*theme, "home", data).value() == "home:" + expected.substr(4));
}

TEST_CASE("site: a mustache syntax error names the theme file and line") {
    Fixture fixture;
    write_text(fixture.root() / "layouts/partials/paper.mustache",
               "<section>\n<h2>{{title}}</h2>\n{{#authors}}{{authors}}\n</section>\n");
    auto broken = fixture.build();
    CHECK(broken.exit_code == 1);
    CHECK_MESSAGE(broken.err.find("layouts/partials/paper.mustache:3:") != std::string::npos, broken.err);
    CHECK(broken.err.find("authors") != std::string::npos);
    CHECK_FALSE(fs::exists(fixture.site()));

    fs::remove(fixture.root() / "layouts/partials/paper.mustache");
    write_text(fixture.root() / "themes/classic/layouts/month.mustache", "{{> head}}\n\n{{/calendar}}\n{{> foot}}\n");
    auto classic = run_paperpress("build --theme classic --out site", fixture.root());
    CHECK(classic.exit_code == 1);
    CHECK_MESSAGE(classic.err.find("themes/classic/layouts/month.mustache:3:") != std::string::npos, classic.err);
}

TEST_CASE("site: a theme with math ships KaTeX from node_modules, and builds without it") {
    Fixture fixture;
    const fs::path dist = fixture.root() / "node_modules/katex/dist";
    write_text(dist / "katex.min.js", "/* katex */\n");
    write_text(dist / "katex.min.css", ".katex{}\n");
    write_text(dist / "contrib/auto-render.min.js", "/* auto-render */\n");
    write_text(dist / "fonts/KaTeX_Main-Regular.woff2", "font");
    write_text(dist / "README.md", "not copied");
    // From node_modules, not from the tests' stub ($PAPERPRESS_KATEX_DIR would come first).
    auto build = [&] { return run_paperpress_env("PAPERPRESS_KATEX_DIR=", "build --out site", fixture.root()); };
    auto result = build();
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    CHECK(result.err.find("KaTeX") == std::string::npos);
    for (const char* file : {"static/katex/katex.min.js", "static/katex/katex.min.css",
                             "static/katex/contrib/auto-render.min.js", "static/katex/fonts/KaTeX_Main-Regular.woff2"})
        CHECK_MESSAGE(fs::is_regular_file(fixture.site() / file), file);
    CHECK_FALSE(fs::exists(fixture.site() / "static/katex/README.md"));
    auto day = fixture.page("2025/01/02/");
    CHECK(day.find("href=\"/repo/static/katex/katex.min.css?v=") != std::string::npos);
    // site.js loads the scripts when a formula comes near the viewport (docs/themes.md, "Math").
    CHECK(day.find("data-katex=\"/repo/static/katex/katex.min.js?v=") != std::string::npos);
    CHECK(day.find("data-auto-render=\"/repo/static/katex/contrib/auto-render.min.js?v=") != std::string::npos);
    CHECK(day.find("$x_1 &lt; y^2$") != std::string::npos); // typeset in the browser, from the LaTeX as written
    CHECK(broken_links(fixture.site()).empty());

    // node_modules gone: Debian's libjs-katex, when installed (scripts/setup installs it).
    fs::remove_all(fixture.root() / "node_modules");
    const fs::path system_katex = "/usr/share/javascript/katex";
    if (fs::exists(system_katex / "katex.min.js")) {
        auto system = run_paperpress_env("PAPERPRESS_KATEX_DIR=", "build --out site-system", fixture.root());
        CHECK_MESSAGE(system.exit_code == 0, system.err);
        CHECK(read_text(fixture.root() / "site-system/static/katex/katex.min.js") ==
              read_text(system_katex / "katex.min.js"));
    }
    // No KaTeX where it is named: an error while math is on (not pages of raw LaTeX); with math off,
    // KaTeX's files are removed and the pages stop linking them.
    auto without_katex = [&] {
        return run_paperpress_env("PAPERPRESS_KATEX_DIR=/nonexistent", "build --out site", fixture.root());
    };
    auto without = without_katex();
    CHECK(without.exit_code != 0);
    CHECK(without.err.find("KaTeX") != std::string::npos);
    write_text(fixture.root() / "paperpress.yaml", read_text(fixture.root() / "paperpress.yaml") + "math: false\n");
    without = without_katex();
    CHECK(without.exit_code == 0);
    CHECK_FALSE(fs::exists(fixture.site() / "static/katex"));
    CHECK(fixture.page("2025/01/02/").find("katex") == std::string::npos);
    CHECK(broken_links(fixture.site()).empty());
}

TEST_CASE("site: theme new copies the default theme, never overwrites, and builds") {
    Fixture fixture;
    auto help = run_paperpress("theme new --help", fixture.root());
    CHECK(help.exit_code == 0);
    CHECK(help.out.find("NAME") != std::string::npos);
    CHECK(help.out.find("themes/default") != std::string::npos);
    CHECK(run_paperpress("theme --help", fixture.root()).out.find("new") != std::string::npos);

    auto made = run_paperpress("theme new mine", fixture.root());
    INFO(made.err);
    CHECK(made.exit_code == 0);
    CHECK(fs::is_regular_file(fixture.root() / "themes/mine/layouts/day.mustache"));
    CHECK(fs::is_regular_file(fixture.root() / "themes/mine/static/style.css"));
    const auto yaml = read_text(fixture.root() / "themes/mine/theme.yaml");
    CHECK(yaml.starts_with("name: mine\n"));
    CHECK(yaml.find("math: true") != std::string::npos);

    write_text(fixture.root() / "themes/mine/layouts/404.mustache", "{{> head}}<h1>Mine</h1>{{> foot}}\n");
    auto again = run_paperpress("theme new mine", fixture.root());
    CHECK(again.exit_code == 1);
    CHECK(again.err.find("already exists") != std::string::npos);
    CHECK(read_text(fixture.root() / "themes/mine/layouts/404.mustache").find("Mine") != std::string::npos);
    CHECK(run_paperpress("theme new ../evil", fixture.root()).exit_code == 1);
    CHECK(run_paperpress("theme new", fixture.root()).exit_code == 2);

    auto built = fixture.build("--theme mine");
    CHECK(built.exit_code == 0);
    CHECK(fixture.page("404.html").find("<h1>Mine</h1>") != std::string::npos);
    CHECK(broken_links(fixture.site()).empty());
}

TEST_CASE("site: a static file in the site's static/ folder overrides the theme's of the same name") {
    Fixture fixture;
    write_text(fixture.root() / "static/style.css", "body { color: rebeccapurple; }\n");
    write_text(fixture.root() / "static/extra/logo.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n");
    REQUIRE(fixture.build("--theme classic").exit_code == 0);
    CHECK(read_text(fixture.site() / "static/style.css") == "body { color: rebeccapurple; }\n");
    CHECK(fs::is_regular_file(fixture.site() / "static/extra/logo.svg"));
    CHECK(fs::is_regular_file(fixture.site() / "static/site.js")); // the theme's other files stay
    CHECK(broken_links(fixture.site()).empty());
}

TEST_CASE("site: a theme shares another theme's static files with static_from, and its own files win") {
    TempDir dir;
    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    auto theme = load_theme(dir / "themes", "classic", dir.path());
    REQUIRE_MESSAGE(theme.has_value(), theme.error().to_string());
    std::map<std::string, fs::path> assets;
    for (const auto& asset : theme->assets) assets[asset.site_path] = asset.source;
    CHECK(assets.at("static/search.js") == dir / "themes/default/static/search.js");
    CHECK(assets.at("static/style.css") == dir / "themes/classic/static/style.css");
    write_text(dir / "themes/classic/theme.yaml", "name: classic\nstatic_from: nowhere\n");
    auto broken = load_theme(dir / "themes", "classic", dir.path());
    REQUIRE_FALSE(broken.has_value());
    CHECK(broken.error().to_string().find("expected 'static_from' to name another theme") != std::string::npos);
}

namespace {

// A theme `x` in `dir`/themes whose layouts all include partial `a` (or
// `layout` instead), with the partials given.
void write_theme(const fs::path& dir, const std::map<std::string, std::string>& partials,
                 const std::string& layout = "<main>{{> a}}</main>\n") {
    for (const auto& name : required_layouts()) write_text(dir / "themes/x/layouts" / (name + ".mustache"), layout);
    for (const auto& [name, text] : partials) write_text(dir / "themes/x/partials" / (name + ".mustache"), text);
}

std::string theme_error(const fs::path& dir) {
    auto theme = load_theme(dir / "themes", "x", dir);
    REQUIRE_FALSE(theme.has_value());
    return theme.error().to_string();
}

} // namespace

TEST_CASE("theme: a partial that includes itself is refused, naming the file and the chain") {
    TempDir dir;
    write_theme(dir.path(), {{"a", "<p>{{#more}}{{> a}}{{/more}}</p>"}});
    CHECK(theme_error(dir.path()) == (dir / "themes/x/partials/a.mustache").string() + ": partial 'a' includes itself");

    TempDir cycle;
    write_theme(cycle.path(), {{"a", "{{> b}}"}, {"b", "x{{> c}}"}, {"c", "{{#k}}{{> a}}{{/k}}"}});
    CHECK(theme_error(cycle.path()) ==
          (cycle / "themes/x/partials/a.mustache").string() + ": partial 'a' includes itself: 'a' > 'b' > 'c' > 'a'");

    // Set delimiters do not hide an inclusion: kainjow would follow it.
    TempDir hidden;
    write_theme(hidden.path(), {{"a", "{{=<% %>=}}<%> a%>"}});
    CHECK(theme_error(hidden.path()).ends_with("partial 'a' includes itself"));
}

TEST_CASE("theme: partials that expand past 4 MiB or nest too deep are refused before rendering") {
    // Ten inclusions a level, seven levels: 10^7 copies of a partial.
    TempDir wide;
    std::map<std::string, std::string> partials{{"p7", "a line of text in the innermost partial\n"}};
    for (int level = 0; level < 7; ++level) {
        std::string text;
        for (int i = 0; i < 10; ++i) text += "{{> p" + std::to_string(level + 1) + "}}";
        partials["p" + std::to_string(level)] = text;
    }
    partials["a"] = "{{> p0}}";
    write_theme(wide.path(), partials);
    std::string message = theme_error(wide.path());
    CHECK_MESSAGE(message.find("expected its partials to expand to at most 4 MiB") != std::string::npos, message);

    TempDir deep;
    std::map<std::string, std::string> chain;
    for (int i = 0; i < 20; ++i) chain["p" + std::to_string(i)] = "{{> p" + std::to_string(i + 1) + "}}";
    chain["p20"] = "end";
    write_theme(deep.path(), chain, "{{> p0}}");
    CHECK(theme_error(deep.path()).find("expected partials nested at most 16 deep") != std::string::npos);

    TempDir sections;
    std::string nested;
    for (int i = 0; i < 100'000; ++i) nested += "{{#s}}";
    for (int i = 0; i < 100'000; ++i) nested += "{{/s}}";
    write_theme(sections.path(), {}, nested);
    CHECK(theme_error(sections.path()).find("expected sections nested at most 100 deep") != std::string::npos);
}

TEST_CASE("theme: templates and theme.yaml may start with a UTF-8 byte order mark") {
    TempDir dir;
    write_theme(dir.path(), {{"a", "\xEF\xBB\xBF<b>{{title}}</b>"}}, "\xEF\xBB\xBF<main>{{> a}}</main>");
    write_text(dir / "themes/x/theme.yaml", "\xEF\xBB\xBF"
                                            "description: With a BOM\nmath: true\n");
    auto theme = load_theme(dir / "themes", "x", dir.path());
    REQUIRE_MESSAGE(theme.has_value(), theme.error().to_string());
    CHECK(theme->description == "With a BOM");
    CHECK(theme->math);
    TemplateData data(TemplateData::type::object);
    data.set("title", "T");
    auto page = render_layout(*theme, "day", data);
    REQUIRE(page.has_value());
    CHECK(*page == "<main><b>T</b></main>");
}

TEST_CASE("theme: themes with set delimiters render their partials, within the same bounds") {
    TempDir dir;
    write_theme(dir.path(), {{"a", "{{=<% %>=}}<b><%title%></b><%={{ }}=%>{{> b}}"}, {"b", "<i>{{title}}</i>"}});
    auto theme = load_theme(dir / "themes", "x", dir.path());
    REQUIRE_MESSAGE(theme.has_value(), theme.error().to_string());
    TemplateData data(TemplateData::type::object);
    data.set("title", "T");
    auto page = render_layout(*theme, "home", data);
    REQUIRE(page.has_value());
    CHECK(*page == "<main><b>T</b><i>T</i></main>\n");
}

TEST_CASE("theme: sections over lists nested deep stop at a budget with an Error, not hours of rendering") {
    TempDir dir;
    std::string nested;
    for (int i = 0; i < 24; ++i) nested += "{{#items}}";
    nested += ".";
    for (int i = 0; i < 24; ++i) nested += "{{/items}}";
    write_theme(dir.path(), {}, nested);
    auto theme = load_theme(dir / "themes", "x", dir.path());
    REQUIRE_MESSAGE(theme.has_value(), theme.error().to_string());
    TemplateData data(TemplateData::type::object);
    data.set("items", list_data({TemplateData(TemplateData::type::object), TemplateData(TemplateData::type::object)}));
    auto page = render_layout(*theme, "day", data); // 2^24 entries
    REQUIRE_FALSE(page.has_value());
    CHECK(page.error().to_string() == (dir / "themes/x/layouts/day.mustache").string() +
                                          ": expected the layout to render within bounds: sections repeat too often "
                                          "(lists within lists?)");
}

TEST_CASE("site: a pick's summary shows on the day page (TL;DR under the title, the rest folded) and in the feed, "
          "escaped, in both themes; a failed one says so") {
    for (const char* theme : {"default", "classic"}) {
        CAPTURE(theme);
        Fixture fixture;
        Paper summarized = paper("2502.00002", "Summarized paper", 8, 8);
        summarized.summary = {.tldr = hostile + " in one line",
                              .motivation = "Why it matters",
                              .method = "What they do",
                              .result = "What they find",
                              .conclusion = "What it means"};
        Paper without = paper("2502.00003", "Paper without a summary", 7, 7);
        without.summary.failed = "the reply was cut at the length limit (finish_reason: length)";
        Day day = announced("2025-02-04", {summarized, without});
        REQUIRE(save_day(fixture.root() / "content", day));
        REQUIRE(fixture.build(std::string("--theme ") + theme).exit_code == 0);
        const std::string page = fixture.page("2025/02/04/");
        const auto title = page.find("Summarized paper</a></h2>");
        const auto tldr = page.find("TL;DR:", title);
        const auto folded = page.find("<summary>Summary</summary>", title);
        const auto abstract = page.find("An abstract about Summarized paper", title);
        REQUIRE(title != std::string::npos);
        REQUIRE(tldr != std::string::npos);
        REQUIRE(folded != std::string::npos);
        CHECK((title < tldr && tldr < folded && folded < page.find("Why it matters") && folded < abstract));
        CHECK(page.find("&lt;script&gt;alert(1)&lt;/script&gt; &quot;quotes&quot; &amp; ampersands in one line") !=
              std::string::npos);
        CHECK(page.find("<script>alert") == std::string::npos);
        for (const char* part : {"What they do", "What they find", "What it means"}) CHECK(page.find(part) > folded);
        CHECK(page.find("No summary:") != std::string::npos);
        CHECK(page.find("cut at the length limit") != std::string::npos);
        // A day without summaries says nothing of them.
        CHECK(fixture.page("2025/02/03/").find("TL;DR") == std::string::npos);
        CHECK(fixture.page("2025/02/03/").find("class=summary") == std::string::npos);
        CHECK(fixture.page("2025/02/03/").find("class=\"summary\"") == std::string::npos);

        auto feed = parse_xml(fixture.site() / "feed.xml");
        std::string html;
        for (auto entry : feed.child("feed").children("entry"))
            if (std::string(entry.child_value("id")) == base_url + "2025/02/04/") html = entry.child_value("content");
        CHECK(html.find("TL;DR: &lt;script&gt;alert(1)&lt;/script&gt; &quot;quotes&quot; &amp; ampersands in one "
                        "line") != std::string::npos);
        CHECK(html.find("<script") == std::string::npos);
    }
}
