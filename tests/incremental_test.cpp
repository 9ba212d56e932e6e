// site/: the incremental build. After each kind of change, a build over the
// previous output must give exactly the tree a clean build gives (every file's
// bytes, no stale file or folder), and an appended day must rewrite only the
// outputs that show it.
#include "content/content_tree.h"
#include "content/day_file.h"
#include "content/prompt_store.h"
#include "search/index.h"
#include "site/build_state.h"
#include "site/builder.h"
#include "site/render_markdown.h"
#include "site/trends_cache.h"
#include "site/urls.h"
#include "test_support.h"
#include "util/lock.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <future>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace pp;
using namespace pp::test;

namespace {

Date date(const char* iso) { return *parse_iso_date(iso); }

Day make_day(const char* iso, int papers, const std::string& prompt = {}) {
    Day day;
    day.date = date(iso);
    day.model = "gpt-4o";
    day.tokens = Tokens{1000, 200, 0};
    day.cost = Cost{0.01, 0.02, 0.03};
    day.counts = Counts{500, 400, papers};
    day.prompt = prompt;
    for (int i = 0; i < papers; ++i) {
        Paper p;
        p.id = "2501." + std::to_string(10000 + day.date.day * 100 + i);
        p.title = "Paper " + std::to_string(i) + " of " + std::string(iso);
        p.authors = {"Ada Lovelace", "Alan Turing"};
        p.abstract = "We bound $x_1 < y^2$ on " + std::string(iso) + ".\n\nSecond *paragraph*.";
        p.relevance = 5 + i % 5;
        p.novelty = 4 + i % 6;
        day.papers.push_back(p);
    }
    return day;
}

struct Site {
    TempDir dir;
    Config config;
    fs::path katex;     // BuildOptions::katex_dir
    Env* env = nullptr; // BuildOptions::env
    fs::path content() const { return dir / "content"; }
    fs::path out() const { return dir / "site"; }

    Site() {
        fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
        config.title = "Incremental";
        config.base_url = "https://user.github.io/repo/";
        config.feed_days = 3;
        config.home_days = 3;
        auto prompt = store_prompt(content(), "Pick *learning* papers.\n");
        REQUIRE(prompt);
        for (const char* iso : {"2024-12-30", "2025-01-02", "2025-01-03", "2025-01-08", "2025-02-03", "2025-02-04"})
            save(make_day(iso, 3, std::string(iso) == "2025-01-03" ? *prompt : std::string()));
    }

    void save(const Day& day) const { REQUIRE(save_day(content(), day)); }

    BuildReport build(const fs::path& out, const std::function<void(BuildOptions&)>& adjust = {}) const {
        BuildOptions options;
        options.content_dir = content();
        options.out_dir = out;
        options.site_dir = dir.path();
        options.themes_dir = dir / "themes";
        options.config = config;
        options.katex_dir = katex.empty() ? dir / "no-katex" : katex;
        options.env = env;
        if (katex.empty()) options.config.math = false; // without KaTeX's files, math must be off
        if (adjust) adjust(options);
        auto report = build_site(options);
        for (const auto& e : report.errors) INFO(e.to_string());
        return report;
    }
    BuildReport build() const { return build(out()); }

    // Builds incrementally into site/ and from nothing into a fresh folder,
    // and checks that both trees are the same (and that both builds report
    // the `errors` expected).
    BuildReport check_equals_clean(const char* what, std::size_t errors = 0) const {
        auto report = build();
        CHECK_MESSAGE(report.errors.size() == errors, what);
        TempDir clean_dir;
        auto clean = build(clean_dir / "site");
        REQUIRE(clean.errors.size() == errors);
        CHECK_MESSAGE(clean.parsed >= clean.days, what); // a clean build parses every day
        auto incremental = file_tree(out());
        auto expected = file_tree(clean_dir / "site");
        std::vector<std::string> differ;
        for (const auto& [name, bytes] : expected)
            if (!incremental.contains(name) || incremental.at(name) != bytes)
                differ.push_back("missing or different: " + name);
        for (const auto& [name, _] : incremental)
            if (!expected.contains(name)) differ.push_back("stale: " + name);
        CHECK_MESSAGE(differ.empty(), what << ": " << (differ.empty() ? "" : differ.front()) << " (+"
                                           << (differ.empty() ? 0 : differ.size() - 1) << " more)");
        // The state is deterministic too: the same inputs give the same bytes.
        CHECK_MESSAGE(read_text(state_path(out())) == read_text(state_path(clean_dir / "site")), what);
        CHECK_MESSAGE(read_text(trends_cache_path(out())) == read_text(trends_cache_path(clean_dir / "site")), what);
        return report;
    }
};

std::set<std::string> as_set(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

// The paths outside the word index (on by default; search_test.cpp checks what it writes), the search page kept.
std::set<std::string> outside_index(const std::vector<std::string>& v) {
    std::set<std::string> out;
    for (const auto& path : v)
        if (path == "search/" || !path.starts_with("search/")) out.insert(path);
    return out;
}

} // namespace

TEST_CASE("incremental: a rebuild of unchanged input renders, parses and writes nothing") {
    Site site;
    auto first = site.build();
    REQUIRE(first.ok());
    CHECK(first.days == 6);
    CHECK(first.written == first.files);
    auto again = site.check_equals_clean("unchanged");
    CHECK(again.written == 0);
    CHECK(again.rendered == 0);
    CHECK(again.removed == 0);
    CHECK(again.files == first.files);
}

TEST_CASE("incremental: appending a day rewrites only the outputs that show it") {
    Site site;
    REQUIRE(site.build().ok());
    site.save(make_day("2025-02-05", 2));
    auto report = site.check_equals_clean("append");
    CHECK(as_set(report.written_files).contains("search/days/2025-02-05.json.gz"));
    CHECK(outside_index(report.written_files) ==
          std::set<std::string>{"2025/02/05/", "2025/02/04/", "2025/02/", "2025/", "archive/", "", "feed.xml",
                                "sitemap.xml", "data/index.json", "data/2025-02.json", "trends/", "range/"});
    // The new day, the previous day and the month's other day (2025-02-03), each once:
    // the month data, the feed and the home page share what was parsed. The trends page
    // reads its months from their data files, not their days (it parsed 4 more before).
    CHECK(report.parsed == 3);
    CHECK(report.removed == 0);
}

TEST_CASE("incremental: switching `data` between day, month, full and none adds and removes its files; appends equal "
          "clean builds") {
    Site site;
    site.config.data = "day";
    REQUIRE(site.build().ok());
    CHECK(fs::is_regular_file(site.out() / "data/days/2025-01-02.json"));
    site.save(make_day("2025-02-05", 2));
    auto report = site.check_equals_clean("append with data: day");
    CHECK(as_set(report.written_files).contains("data/days/2025-02-05.json"));
    CHECK(as_set(report.written_files).contains("data/2025-02.json"));

    site.config.data = "month";
    auto switched = site.check_equals_clean("data: month");
    CHECK(switched.removed == 7); // data/days/*.json, one per day
    CHECK_FALSE(fs::exists(site.out() / "data/days"));

    // With or without the abstracts: the month files, no page else (the search page over the word index searches
    // the abstracts either way).
    site.config.data = "full";
    switched = site.check_equals_clean("data: full");
    CHECK(outside_index(switched.written_files) ==
          std::set<std::string>{"data/2024-12.json", "data/2025-01.json", "data/2025-02.json"});
    site.config.data = "month";
    switched = site.check_equals_clean("data: month again");
    CHECK(outside_index(switched.written_files) ==
          std::set<std::string>{"data/2024-12.json", "data/2025-01.json", "data/2025-02.json"});

    site.config.data = "none";
    switched = site.check_equals_clean("data: none");
    CHECK(as_set(switched.removed_files).contains(search::manifest_path)); // no search page, no index
    CHECK(outside_index(switched.removed_files) ==
          std::set<std::string>{"data/2024-12.json", "data/2025-01.json", "data/2025-02.json", "search/", "range/"});
    site.save(make_day("2025-02-06", 2));
    report = site.check_equals_clean("append with data: none");
    CHECK(as_set(report.written_files) == std::set<std::string>{"2025/02/06/", "2025/02/05/", "2025/02/", "2025/",
                                                                "archive/", "", "feed.xml", "sitemap.xml",
                                                                "data/index.json", "trends/"});
    CHECK(read_text(site.out() / "feed.xml").find("2025-02-06") != std::string::npos);
}

TEST_CASE("incremental: editing a day re-renders it and what lists it") {
    Site site;
    REQUIRE(site.build().ok());
    Day day = make_day("2025-01-02", 3);
    day.papers[0].title = "A new title";
    site.save(day);
    auto report = site.check_equals_clean("edit a day");
    auto written = as_set(report.written_files);
    CHECK(written.contains("2025/01/02/"));
    CHECK(written.contains("2025/01/")); // the top titles
    CHECK_FALSE(written.contains("2025/01/08/"));

    // Same size, same second: the content hash notices.
    day.papers[0].title = "A new Title";
    site.save(day);
    site.check_equals_clean("edit a day, same size");
}

namespace {

// The real clock and files, but for the stamps a test sets (ninja's VirtualFileSystem): by the path
// asked for, relative to its folder (the day files, the outputs) or whole (the build state).
struct SetStamps final : Env {
    std::map<std::string, FileStamp> stamps;
    std::optional<FileStamp> stamp_at(const Fd& dir, const std::string& path) override {
        if (auto it = stamps.find(path); it != stamps.end()) return it->second;
        return Env::stamp_at(dir, path);
    }
    std::optional<FileStamp> stamp_of(const fs::path& path) override {
        if (auto it = stamps.find(path.string()); it != stamps.end()) return it->second;
        return Env::stamp_of(path);
    }
};

constexpr std::int64_t second = 1'000'000'000;

} // namespace

// Issue 46: the day files' stamps decide what a build parses again. An edit that keeps the size and
// the exact timestamp (seconds and nanoseconds: a coarse clock, or an edit within one tick of the
// build) is caught by the content hash, as the state does not vouch for files stamped within a second
// of it; an edit of another size is caught by its size, whatever its timestamp says.
TEST_CASE("incremental: a day file's stamp is trusted only when its size and time are as recorded, and older") {
    Site site;
    SetStamps env;
    site.env = &env;
    const std::string day = day_relative_path(date("2025-01-08"));
    const std::int64_t at = 1'700'000'000 * second + 123'456'789; // the edit's stamp, as the day's before it
    Day edited = make_day("2025-01-08", 3);
    SUBCASE("same size, the very same stamp, in the build's second") {
        env.stamps[day] = {fs::file_size(day_path(site.content(), edited.date)), at};
        REQUIRE(site.build().ok());
        edited.papers[0].title = "Paper X of 2025-01-08"; // same size
        site.save(edited);
        env.stamps[state_path(site.out()).string()] = {fs::file_size(state_path(site.out())), at + second / 2};
    }
    SUBCASE("another size, the same old stamp") {
        env.stamps[day] = {fs::file_size(day_path(site.content(), edited.date)), at};
        REQUIRE(site.build().ok());
        edited.papers[0].title = "Paper X, longer, of 2025-01-08";
        site.save(edited);
        env.stamps[day].size = fs::file_size(day_path(site.content(), edited.date));
        env.stamps[state_path(site.out()).string()] = {fs::file_size(state_path(site.out())), at + 60 * second};
    }
    auto report = site.check_equals_clean("an edit the stamps alone do not show");
    CHECK(as_set(report.written_files).contains("2025/01/08/"));
    CHECK(read_text(site.out() / "2025/01/08/index.html").find(edited.papers[0].title) != std::string::npos);
}

// A list (the feed here) reads back the days it shows. When one of them cannot be read, the list is made
// without it but not recorded as made from these days, so the next build makes it again once the day reads: it
// never stays without the day. The day's file is damaged with its size and stamp unchanged (a disk's error, a
// sync tool that kept the time), so no build parses it again on its own account.
TEST_CASE("incremental: a list made without a day that cannot be read is made again once the day reads") {
    Site site;
    SetStamps env;
    site.env = &env;
    site.config.data = "none"; // the lists read the day files themselves
    site.config.feed_days = 5;
    const auto path = day_path(site.content(), date("2025-01-08"));
    env.stamps[day_relative_path(date("2025-01-08"))] = {fs::file_size(path), 1'700'000'000 * second};
    REQUIRE(site.build().ok());
    const std::string good = read_text(path);
    REQUIRE(read_text(site.out() / "feed.xml").find("Paper 1 of 2025-01-08") != std::string::npos);

    write_text(path, std::string(good.size(), '#')); // same size, same stamp: the day stage trusts it
    site.save(make_day("2025-02-05", 2));
    fs::remove(trends_cache_path(site.out())); // so the trends page counts January again, from its day files
    auto damaged = site.build();
    REQUIRE_FALSE(damaged.ok());
    CHECK(damaged.errors.front().to_string().find("2025-01-08") != std::string::npos);
    const std::string feed = read_text(site.out() / "feed.xml");
    CHECK(feed.find("Paper 1 of 2025-02-05") != std::string::npos);
    CHECK(feed.find("Paper 1 of 2025-01-08") == std::string::npos);

    write_text(path, good);
    auto report = site.check_equals_clean("the day reads again");
    CHECK(as_set(report.written_files).contains("feed.xml"));
    CHECK(read_text(site.out() / "feed.xml").find("Paper 1 of 2025-01-08") != std::string::npos);
}

// The same for the word index. On 1 March, February folds into the year's period, whose January days this build
// did not parse and reads now; with its list of periods unreadable, a build reads every period's days. A day that
// cannot be read is left out of its period's chunks (which agree with the day files that way), and the period and
// the list are recorded under no key of these days, so the next build indexes the period again once the day
// reads, even a period that the day's absence left with no chunk at all (2024's one day).
TEST_CASE("incremental: a word index period made without a day that cannot be read is made again once it reads") {
    for (const bool list_unread : {false, true}) {
        CAPTURE(list_unread);
        Site site;
        SetStamps env;
        site.env = &env;
        const Date damaged_day = date(list_unread ? "2024-12-30" : "2025-01-08");
        const auto path = day_path(site.content(), damaged_day);
        env.stamps[day_relative_path(damaged_day)] = {fs::file_size(path), 1'700'000'000 * second};
        REQUIRE(site.build().ok());
        const std::string good = read_text(path);
        const auto manifest = site.out() / search::manifest_path;

        write_text(path, std::string(good.size(), '#')); // same size, same stamp: the day stage trusts it
        site.save(make_day("2025-03-03", 2));
        if (list_unread) write_text(manifest, std::string(read_text(manifest).size(), ' '));
        auto damaged = site.build();
        REQUIRE_FALSE(damaged.ok());
        CHECK(damaged.errors.front().to_string().find(damaged_day.iso()) != std::string::npos);
        // The year is made of the days that read, February's included.
        const std::string year =
            list_unread ? "\"0102:3,0103:3,0108:3,0203:3,0204:3\"" : "\"0102:3,0103:3,0203:3,0204:3\"";
        CHECK(read_text(manifest).find(year) != std::string::npos);

        write_text(path, good);
        site.check_equals_clean("the day reads again");
    }
}

TEST_CASE("incremental: deleting a day removes its outputs and relinks its neighbours") {
    Site site;
    REQUIRE(site.build().ok());
    fs::remove(day_path(site.content(), date("2025-01-03")));
    auto report = site.check_equals_clean("delete a day");
    // The only day that used the prompt: its page goes too.
    std::string prompt_page;
    for (const auto& removed : report.removed_files)
        if (removed.starts_with("prompts/")) prompt_page = removed;
    CHECK(as_set(report.removed_files).contains("search/days/2025-01-03.json.gz"));
    CHECK(outside_index(report.removed_files) == std::set<std::string>{"2025/01/03/", prompt_page});
    CHECK(prompt_page.ends_with("/"));
    CHECK_FALSE(fs::exists(site.out() / "2025/01/03"));

    // The last day of a month and of a year: the month and year pages go too.
    fs::remove(day_path(site.content(), date("2024-12-30")));
    site.check_equals_clean("delete a year's only day");
    CHECK_FALSE(fs::exists(site.out() / "2024"));
}

TEST_CASE("incremental: a day file whose front matter names another day is refused; the rest equals a clean build") {
    Site site;
    REQUIRE(site.build().ok());
    // Copied to a later day without editing its date: in the site graph the
    // two would be one day.
    fs::copy_file(day_path(site.content(), date("2025-01-02")), day_path(site.content(), date("2025-01-05")));
    auto report = site.check_equals_clean("a copied day", 1);
    REQUIRE(report.errors.size() == 1);
    CHECK(report.errors[0].file == day_path(site.content(), date("2025-01-05")).string());
    CHECK(report.errors[0].message == "the front matter says 2025-01-02 but the file is the day 2025-01-05");
    CHECK(report.days == 6);
    CHECK_FALSE(fs::exists(site.out() / "2025/01/05"));
    CHECK(read_text(site.out() / "2025/01/03/index.html").find("2025/01/08/") != std::string::npos); // its next day

    // Dated before its neighbour: the order of the graph would differ from the files'.
    fs::remove(day_path(site.content(), date("2025-01-05")));
    Day early = make_day("2025-01-01", 2);
    REQUIRE(write_file_if_changed(day_path(site.content(), date("2025-01-04")), write_day(early)));
    report = site.check_equals_clean("a day dated before its neighbours", 1);
    REQUIRE(report.errors.size() == 1);
    CHECK(report.errors[0].message == "the front matter says 2025-01-01 but the file is the day 2025-01-04");

    fs::remove(day_path(site.content(), date("2025-01-04")));
    site.check_equals_clean("mended");
}

TEST_CASE("incremental: a day in a new month and a new year") {
    Site site;
    REQUIRE(site.build().ok());
    site.save(make_day("2025-03-03", 1));
    site.check_equals_clean("new month");
    site.save(make_day("2026-01-05", 2));
    site.check_equals_clean("new year");
    site.save(make_day("2023-06-01", 2)); // before everything: the old first day gets a prev link
    site.check_equals_clean("new first year");
}

TEST_CASE("incremental: editing a template or a partial re-renders the pages that use the theme") {
    Site site;
    REQUIRE(site.build().ok());
    auto layout = site.dir / "themes/default/layouts/month.mustache";
    write_text(layout, read_text(layout) + "<!-- edited month -->\n");
    auto report = site.check_equals_clean("edit a layout");
    CHECK(report.written_files.size() == 3); // the three month pages; other layouts' pages are unchanged
    CHECK(read_text(site.out() / "2025/02/index.html").find("edited month") != std::string::npos);

    auto partial = site.dir / "themes/default/partials/paper.mustache";
    write_text(partial, "<div class=\"edited\">{{title}}</div>\n" + read_text(partial));
    site.check_equals_clean("edit a partial");
    CHECK(read_text(site.out() / "2025/01/02/index.html").find("class=\"edited\"") != std::string::npos);

    // An override in the site's own layouts/ folder, then removing it again.
    write_text(site.dir / "layouts/partials/foot.mustache", "<footer>override</footer></body></html>\n");
    site.check_equals_clean("add an override");
    fs::remove_all(site.dir / "layouts");
    site.check_equals_clean("remove an override");

    auto css = site.dir / "themes/default/static/style.css";
    write_text(css, read_text(css) + "\nbody { color: black; }\n");
    site.check_equals_clean("edit the stylesheet");
}

TEST_CASE("incremental: changing the base URL, the title or the prompt") {
    Site site;
    REQUIRE(site.build().ok());
    site.config.base_url = "/";
    site.check_equals_clean("base URL");
    site.config.title = "Renamed";
    site.check_equals_clean("title");
    site.config.feed_days = 5;
    site.check_equals_clean("feed_days");
    // A prompt file edited in place (the day file does not change).
    auto prompts = site.content() / "prompts";
    for (const auto& entry : fs::directory_iterator(prompts)) write_text(entry.path(), "Edited prompt.\n");
    auto report = site.check_equals_clean("prompt edited");
    // The prompt's own page shows it; the day page that links to it stays as it was.
    CHECK(std::count_if(report.written_files.begin(), report.written_files.end(),
                        [](const std::string& f) { return f.starts_with("prompts/"); }) == 1);
    CHECK_FALSE(as_set(report.written_files).contains("2025/01/03/"));
}

TEST_CASE("incremental: switching the theme removes the old theme's files") {
    Site site;
    REQUIRE(site.build().ok());
    fs::copy(site.dir / "themes/default", site.dir / "themes/plain", fs::copy_options::recursive);
    write_text(site.dir / "themes/plain/layouts/404.mustache", "{{> head}}<h1>Plain 404</h1>{{> foot}}\n");
    fs::remove(site.dir / "themes/plain/static/style.css");
    write_text(site.dir / "themes/plain/static/plain.css", "body { margin: 0; }\n");
    site.config.theme = "plain";
    auto report = site.check_equals_clean("switch theme");
    CHECK(as_set(report.removed_files).contains("static/style.css"));
    CHECK_FALSE(fs::exists(site.out() / "static/style.css"));
    site.config.theme = "default";
    site.check_equals_clean("switch back");
}

TEST_CASE("incremental: KaTeX's copied files are tracked like the theme's") {
    Site site;
    site.katex = site.dir / "katex-dist";
    write_text(site.katex / "katex.min.js", "/* katex 1 */\n");
    write_text(site.katex / "katex.min.css", ".katex{}\n");
    write_text(site.katex / "contrib/auto-render.min.js", "/* auto-render */\n");
    write_text(site.katex / "fonts/KaTeX_Main-Regular.woff2", "font 1");
    REQUIRE(site.build().ok());
    CHECK(fs::is_regular_file(site.out() / "static/katex/fonts/KaTeX_Main-Regular.woff2"));
    CHECK(site.check_equals_clean("katex unchanged").written == 0);

    // A new KaTeX version: its files and every page (the links carry their hashes).
    write_text(site.katex / "katex.min.js", "/* katex 2 */\n");
    write_text(site.katex / "fonts/KaTeX_Math-Italic.woff2", "font 2");
    auto report = site.check_equals_clean("katex upgraded");
    auto written = as_set(report.written_files);
    CHECK(written.contains("static/katex/katex.min.js"));
    CHECK(written.contains("static/katex/fonts/KaTeX_Math-Italic.woff2"));
    CHECK(written.contains("2025/01/02/"));
    CHECK_FALSE(written.contains("static/katex/katex.min.css"));

    fs::remove(site.katex / "fonts/KaTeX_Main-Regular.woff2");
    report = site.check_equals_clean("a font removed");
    CHECK(as_set(report.removed_files) == std::set<std::string>{"static/katex/fonts/KaTeX_Main-Regular.woff2"});

    // KaTeX uninstalled while math is on: an error, not pages of raw LaTeX.
    fs::remove_all(site.katex);
    CHECK_FALSE(site.build().ok());
    // Math turned off: KaTeX's files go and the pages stop linking them.
    site.katex.clear();
    report = site.check_equals_clean("katex removed");
    CHECK(report.ok());
    CHECK_FALSE(fs::exists(site.out() / "static/katex"));
    CHECK(read_text(site.out() / "2025/01/02/index.html").find("katex") == std::string::npos);
}

TEST_CASE("incremental: outputs deleted by hand are rebuilt") {
    Site site;
    REQUIRE(site.build().ok());
    fs::remove(site.out() / "2025/01/08/index.html");
    fs::remove(site.out() / "feed.xml");
    auto report = site.check_equals_clean("two files deleted");
    CHECK(as_set(report.written_files) == std::set<std::string>{"2025/01/08/", "feed.xml"});
    fs::remove_all(site.out());
    report = site.check_equals_clean("output folder deleted");
    CHECK(report.written == report.files);
    fs::remove(state_path(site.out()));
    site.check_equals_clean("state deleted");
    write_text(state_path(site.out()), "garbage\n");
    site.check_equals_clean("state damaged");
}

// Issue 46: the up-to-date check compares an output's size with the size it was written at, so an
// output cut short or edited by hand to another length is made again. (A same-size edit of a page is
// not noticed: that would mean reading the whole site each build; the outputs a build reads back, the
// days' JSON, are checked by hash instead: "a same-size edit of a day's JSON data".)
TEST_CASE("incremental: outputs cut short or lengthened by hand are rebuilt") {
    Site site;
    REQUIRE(site.build().ok());
    const fs::path page = site.out() / "2025/01/08/index.html", feed = site.out() / "feed.xml";
    const std::string bytes = read_text(page);
    write_text(page, bytes.substr(0, bytes.size() / 2));   // a write cut short
    write_text(feed, read_text(feed) + "<!-- edited -->"); // an edit by hand
    auto report = site.check_equals_clean("two outputs of another size");
    CHECK(as_set(report.written_files) == std::set<std::string>{"2025/01/08/", "feed.xml"});
    CHECK(read_text(page) == bytes);
}

TEST_CASE(
    "incremental: a build state of another version, cut short or damaged is named and built again, byte for byte") {
    Site site;
    REQUIRE(site.build().ok());
    const std::string state = read_text(state_path(site.out()));
    REQUIRE(state.starts_with("paperpress build state 4\n#P\tprogram\n"));
    std::string damaged, why;
    SUBCASE("the positional version 3") {
        damaged = "paperpress build state 3\nP\t0123456789abcdef\nC\t0000000000000000\n";
        why = "does not read (line 1: expected version 4 of the paperpress build state format, found version '3')";
    }
    SUBCASE("cut short") {
        damaged = state.substr(0, state.size() / 2);
        why = "does not read (expected a checksum on the last line (the file is cut short))";
    }
    SUBCASE("a byte changed") {
        damaged = state;
        damaged[damaged.size() / 2] ^= 1;
        why = "does not read (expected the bytes its checksum sums (the file is damaged))";
    }
    write_text(state_path(site.out()), damaged);
    auto report = site.check_equals_clean("a state that does not read");
    REQUIRE(report.warnings.size() == 1);
    CHECK(report.warnings.front() ==
          "the build state " + state_path(site.out()).string() + " " + why + ": building everything again");
    CHECK(read_text(state_path(site.out())) == state);
}

TEST_CASE("incremental: a month's data file is remade from the day files, never from its damaged old version") {
    Site site;
    REQUIRE(site.build().ok());
    const fs::path month = site.out() / "data/2025-02.json";
    const std::string bytes = read_text(month);
    write_text(month, std::string(bytes.size(), ' ')); // same size, not JSON
    site.save(make_day("2025-02-05", 2));
    site.check_equals_clean("append after the month file was overwritten in place");
}

TEST_CASE("incremental: an append parses the month's days once, and no day of another month") {
    Site site;
    REQUIRE(site.build().ok());
    site.save(make_day("2025-01-09", 2));
    auto report = site.build();
    REQUIRE(report.ok());
    CHECK(as_set(report.written_files).contains("data/2025-01.json"));
    CHECK_FALSE(as_set(report.written_files).contains("data/2025-02.json"));
    // January's four days (the new one among them), 2025-02-03, whose page
    // links the new day, and 2025-02-04, which the new feed and home page
    // show: each once. The trends page reads its months' data files, no day.
    CHECK(report.parsed == 6);
}

namespace {

// Drops the capabilities that let root read any folder, so a folder with
// mode 000 cannot be listed (for a process that is not root this changes nothing).
void drop_dac_override() {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    if (::syscall(SYS_capget, &header, data) != 0) return;
    for (int cap : {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH}) data[cap / 32].effective &= ~(1u << (cap % 32));
    ::syscall(SYS_capset, &header, data);
}

} // namespace

TEST_CASE("incremental: a content folder that cannot be listed is an error, and the build removes nothing") {
    Site site;
    REQUIRE(site.build().ok());
    fs::create_directories(site.content() / "2025/locked");
    fs::permissions(site.content() / "2025/locked", fs::perms::none);
    fs::remove(day_path(site.content(), date("2025-01-03"))); // and a day goes

    // The build runs in a child process that may not read the folder; its
    // exit status says which of the checks held (all four: 15).
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        drop_dac_override();
        auto report = site.build();
        const bool one_error = report.errors.size() == 1;
        const bool named = one_error && report.errors[0].message.starts_with("cannot list this folder: ") &&
                           report.errors[0].file.ends_with("2025/locked");
        const bool kept =
            fs::exists(site.out() / "2025/01/03/index.html"); // kept while the archive cannot be read whole
        ::_exit(int(one_error) | int(named) << 1 | int(report.removed == 0) << 2 | int(kept) << 3);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 15);

    fs::permissions(site.content() / "2025/locked", fs::perms::owner_all);
    fs::remove(site.content() / "2025/locked");
    auto fixed = site.check_equals_clean("the folder is gone again");
    CHECK(as_set(fixed.removed_files).contains("2025/01/03/"));
}

TEST_CASE("incremental: content folders deeper than PATH_MAX are listed (each folder is opened below its parent)") {
    Site site;
    const std::string name(200, 'd');
    int dir = ::open((site.content() / "2025").c_str(), O_RDONLY | O_DIRECTORY);
    REQUIRE(dir >= 0);
    for (int depth = 0; depth < 25; ++depth) {
        REQUIRE(::mkdirat(dir, name.c_str(), 0755) == 0);
        int inner = ::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY);
        ::close(dir);
        REQUIRE(inner >= 0);
        dir = inner;
    }
    ::close(dir);
    auto report = site.build();
    CHECK(report.ok());
    CHECK(report.days == 6);
    REQUIRE(std::system(("rm -rf '" + (site.content() / "2025" / name).string() + "'").c_str()) == 0);
}

TEST_CASE("incremental: a day that stops parsing drops out, and comes back when fixed") {
    Site site;
    REQUIRE(site.build().ok());
    const auto path = day_path(site.content(), date("2025-01-08"));
    const auto good = read_text(path);
    write_text(path, good + "\n- **Relevance:** high\n");
    auto broken = site.build();
    CHECK_FALSE(broken.ok());
    CHECK(broken.days == 5);
    CHECK_FALSE(fs::exists(site.out() / "2025/01/08"));
    TempDir clean_dir;
    site.build(clean_dir / "site");
    CHECK(file_tree(site.out()) == file_tree(clean_dir / "site"));
    write_text(path, good);
    site.check_equals_clean("fixed");
}

TEST_CASE("incremental: Markdown renders the same on several threads at once (cmark-gfm's extensions share state)") {
    const std::string text = "See https://example.org/code and www.example.com, or write to a@b.org.";
    const std::string alone = markdown_to_html(text);
    REQUIRE(alone.find("<a href=\"https://example.org/code\">") != std::string::npos);
    std::vector<std::string> results(4 * 200);
    {
        std::vector<std::jthread> threads;
        for (std::size_t t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (std::size_t i = 0; i < 200; ++i) results[t * 200 + i] = markdown_to_html(text);
            });
    }
    CHECK(std::count(results.begin(), results.end(), alone) == static_cast<long>(results.size()));
}

// --- build safety (issue 14, part C) --------------------------------------

namespace {

// Every file under `root` whose bytes contain `needle`.
std::vector<std::string> files_containing(const fs::path& root, const std::string& needle) {
    std::vector<std::string> found;
    for (const auto& [name, bytes] : file_tree(root))
        if (bytes.find(needle) != std::string::npos) found.push_back(name);
    return found;
}

bool names_file(const BuildReport& report, const fs::path& file) {
    return std::any_of(report.errors.begin(), report.errors.end(),
                       [&](const Error& e) { return e.file == file.string(); });
}

} // namespace

TEST_CASE("build safety: links out of the content, prompt and theme trees are refused; no secret reaches the site") {
    Site site;
    const std::string secret = "PP-SECRET-7f3a91";
    ::setenv("PAPERPRESS_TEST_SECRET", secret.c_str(), 1); // as OPENAI_API_KEY would be
    TempDir elsewhere;
    write_text(elsewhere / "secret.txt", secret + "\n");

    SUBCASE("a prompt linked to /proc/self/environ") {
        auto prompt = store_prompt(site.content(), "Pick papers.\n");
        REQUIRE(prompt);
        fs::remove(site.content() / *prompt);
        fs::create_symlink("/proc/self/environ", site.content() / *prompt);
        site.save(make_day("2025-02-05", 2, *prompt));
        auto report = site.build();
        CHECK(names_file(report, site.content() / *prompt));
    }
    SUBCASE("a day file linked to a day outside the content folder") {
        Day day = make_day("2025-02-05", 2);
        day.papers[0].title = secret;
        REQUIRE(save_day(elsewhere.path(), day));
        const auto path = day_path(site.content(), day.date);
        fs::create_symlink(day_path(elsewhere.path(), day.date), path);
        auto report = site.build();
        CHECK(names_file(report, path));
    }
    SUBCASE("a layout of the site linked out of its folder") {
        write_text(elsewhere / "404.mustache", secret + " {{title}}\n");
        fs::create_directories(site.dir / "layouts");
        fs::create_symlink(elsewhere / "404.mustache", site.dir / "layouts/404.mustache");
        auto report = site.build();
        CHECK(names_file(report, site.dir / "layouts/404.mustache"));
    }
    SUBCASE("a static file of the theme linked out of the themes folder") {
        fs::create_symlink(elsewhere / "secret.txt", site.dir / "themes/default/static/notes.txt");
        auto report = site.build();
        CHECK(names_file(report, site.dir / "themes/default/static/notes.txt"));
    }
    const auto leaked = files_containing(site.out(), secret);
    CHECK_MESSAGE(leaked.empty(), (leaked.empty() ? "" : leaked.front()));
    CHECK(read_text(state_path(site.out())).find(secret) == std::string::npos);
    // Nor any value of this process's environment as /proc/self/environ shows it.
    std::string environ_bytes = read_text("/proc/self/environ");
    for (std::size_t at = 0, end; at < environ_bytes.size(); at = end + 1) {
        end = environ_bytes.find('\0', at);
        if (end == std::string::npos) end = environ_bytes.size();
        const std::string entry = environ_bytes.substr(at, end - at);
        const auto equals = entry.find('=');
        if (equals == std::string::npos || entry.size() - equals < 12 ||
            entry.find_first_of("<>&\"'") != std::string::npos)
            continue;
        CHECK_MESSAGE(files_containing(site.out(), entry).empty(), entry.substr(0, equals));
    }
    ::unsetenv("PAPERPRESS_TEST_SECRET");
}

TEST_CASE("build safety: links that stay inside the content tree are followed") {
    Site site;
    auto prompt = store_prompt(site.content(), "Pick *learning* papers.\n");
    REQUIRE(prompt);
    fs::rename(site.content() / *prompt, site.content() / "prompts/real.md");
    fs::create_symlink("real.md", site.content() / *prompt);
    auto report = site.build();
    for (const auto& e : report.errors) INFO(e.to_string());
    CHECK(report.ok());
}

TEST_CASE(
    "build safety: a missing content folder, a file in its place or an empty one is an error and removes nothing") {
    Site site;
    REQUIRE(site.build().ok());
    const auto before = file_tree(site.out());
    write_text(site.dir / "a-file", "not a folder\n");
    fs::create_directories(site.dir / "empty/2025/01");
    for (const char* wrong : {"contnet", "a-file", "empty"}) {
        auto report = site.build(site.out(), [&](BuildOptions& o) { o.content_dir = site.dir / wrong; });
        CHECK_MESSAGE(!report.ok(), wrong);
        CHECK_MESSAGE(names_file(report, site.dir / wrong), wrong);
        CHECK_MESSAGE(report.removed == 0, wrong);
        CHECK_MESSAGE(file_tree(site.out()) == before, wrong);
    }
    site.check_equals_clean("the right folder again");
}

TEST_CASE("build safety: a build that would remove more than half of the site is refused unless forced") {
    Site site;
    for (int d = 3; d <= 24; ++d)
        site.save(make_day(((d < 10 ? "2025-03-0" : "2025-03-") + std::to_string(d)).c_str(), 1));
    REQUIRE(site.build().ok());
    const auto before = file_tree(site.out());
    for (const auto& file : scan_content(site.content()).days)
        if (file.date != date("2025-02-04")) fs::remove(file.path);
    auto refused = site.build();
    CHECK_FALSE(refused.ok());
    CHECK(refused.removed == 0);
    REQUIRE_FALSE(refused.errors.empty());
    CHECK(refused.errors.back().message.find("--force") != std::string::npos);
    for (const auto& [name, bytes] : before) CHECK_MESSAGE(fs::exists(site.out() / name), name);
    CHECK(site.build().removed == 0); // refused again: the state still lists them

    auto forced = site.build(site.out(), [](BuildOptions& o) { o.force = true; });
    CHECK(forced.ok());
    CHECK(forced.removed > 0);
    site.check_equals_clean("forced");
}

TEST_CASE("build safety: a rebuild that cannot write a page keeps its previous version and names the file") {
    Site site;
    REQUIRE(site.build().ok());
    const auto before = file_tree(site.out());
    site.config.title = "Retitled"; // every page again
    // Writes past 2 KB fail, as on a full disk (EFBIG; the signal is ignored).
    auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit old_limit{};
    ::getrlimit(RLIMIT_FSIZE, &old_limit);
    rlimit small = old_limit;
    small.rlim_cur = 2048;
    ::setrlimit(RLIMIT_FSIZE, &small);
    auto report = site.build();
    ::setrlimit(RLIMIT_FSIZE, &old_limit);
    std::signal(SIGXFSZ, old_handler);

    CHECK_FALSE(report.ok());
    CHECK(names_file(report, site.out() / "2025/01/02/index.html"));
    const auto after = file_tree(site.out());
    for (const auto& [name, bytes] : before) {
        CHECK_MESSAGE(after.contains(name), "removed: " << name);
        if (after.contains(name) && bytes.size() > 2048) CHECK_MESSAGE(after.at(name) == bytes, "damaged: " << name);
    }
    site.check_equals_clean("room again");
}

TEST_CASE("build safety: a site whose files all got new names (a new format) loses the old ones, unforced") {
    // Issue 43: the word index's format 3 renamed every chunk, half of a large site's files; the first
    // build after the upgrade was refused as one that would remove most of the site.
    Site site;
    REQUIRE(site.build().ok());
    BuildState state = load_state(site.out());
    REQUIRE_MESSAGE(state.rejected.empty(), state.rejected);
    BuildState renamed = state;
    renamed.outputs.clear();
    for (const auto& [path, record] : state.outputs) {
        const std::string file = output_file_of(path), old = file + ".old";
        fs::rename(site.out() / file, site.out() / old);
        renamed.outputs[old] = record;
    }
    write_text(state_path(site.out()), serialize_state(renamed));
    auto report = site.build();
    CHECK_MESSAGE(report.ok(), (report.errors.empty() ? "" : report.errors.back().message));
    CHECK(report.removed == state.outputs.size());
    site.check_equals_clean("after the renaming");
}

TEST_CASE("build safety: a state line naming a path out of the output folder removes nothing there") {
    Site site;
    REQUIRE(site.build().ok());
    TempDir elsewhere;
    write_text(elsewhere / "victim.txt", "keep me\n");
    fs::create_symlink(elsewhere.path(), site.out() / "linked");
    BuildState state = load_state(site.out());
    REQUIRE_MESSAGE(state.rejected.empty(), state.rejected);
    std::string path;
    SUBCASE("up and out") { path = fs::relative(elsewhere / "victim.txt", site.out()).generic_string(); }
    SUBCASE("absolute") { path = (elsewhere / "victim.txt").string(); }
    SUBCASE("through a linked folder") { path = "linked/victim.txt"; }
    state.outputs[path] = OutputRecord{1, 8, 0, false};
    write_text(state_path(site.out()), serialize_state(state)); // a state whose checksum verifies
    auto report = site.build();
    CHECK(fs::exists(elsewhere / "victim.txt"));
    CHECK(report.removed == 0);
    fs::remove(site.out() / "linked");
    site.check_equals_clean("after the foreign state");
}

TEST_CASE("build safety: a build state that is a link is not read through, and is replaced, not written through") {
    // Issue 41: nothing read back is read through a link, the state included.
    Site site;
    REQUIRE(site.build().ok());
    TempDir elsewhere;
    const fs::path state = state_path(site.out());
    fs::rename(state, elsewhere / "state"); // a valid state, moved out and linked to
    fs::create_symlink(elsewhere / "state", state);
    const std::string outside = read_text(elsewhere / "state");
    auto report = site.build();
    CHECK(report.ok());
    CHECK(report.rendered > 0); // the linked state was not trusted: everything made again
    CHECK(read_text(elsewhere / "state") == outside);
    CHECK_FALSE(fs::is_symlink(state));
    site.check_equals_clean("after the linked state");
}

TEST_CASE("build safety: a same-size edit of a day's JSON data never reaches the feed") {
    Site site;
    site.config.data = "day"; // the feed reads the days' JSON back
    REQUIRE(site.build().ok());
    const auto json = site.out() / "data/days/2025-01-08.json"; // in the feed, in a month that does not change
    std::string bytes = read_text(json);
    const auto at = bytes.find("Paper 0 of 2025-01-08");
    REQUIRE(at != std::string::npos);
    bytes.replace(at, 5, "Forge"); // same size, same second
    write_text(json, bytes);
    Day day = make_day("2025-02-03", 3); // the feed is made again and reads 2025-01-08 back
    day.papers[0].title = "Edited";
    site.save(day);
    auto report = site.check_equals_clean("a forged day JSON");
    CHECK(read_text(site.out() / "feed.xml").find("Forge") == std::string::npos);
    CHECK_FALSE(report.warnings.empty());
}

TEST_CASE("build safety: 200 random changes to the build state give the clean site or an error, never another site") {
    Site site;
    REQUIRE(site.build().ok());
    TempDir clean_dir;
    REQUIRE(site.build(clean_dir / "site").ok());
    const auto clean = file_tree(clean_dir / "site");
    const std::string state = read_text(state_path(site.out()));
    std::mt19937 random(14);
    auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
    const std::string bytes_pool = "0123456789abcdef\t\n/.-OD ";
    int differ = 0;
    for (int i = 0; i < 200; ++i) {
        std::string damaged = state;
        switch (pick(4)) {
            case 0:
                damaged[pick(damaged.size())] = bytes_pool[pick(bytes_pool.size())];
                break;
            case 1:
                damaged[pick(damaged.size())] ^= static_cast<char>(1 << pick(8));
                break;
            case 2:
                damaged.erase(pick(damaged.size()), 1 + pick(40));
                break;
            default: {
                const auto from = damaged.rfind('\n', pick(damaged.size()));
                const auto line_start = from == std::string::npos ? 0 : from + 1;
                const auto line_end = damaged.find('\n', line_start);
                damaged.insert(pick(damaged.size()), damaged.substr(line_start, line_end - line_start + 1));
            }
        }
        write_text(state_path(site.out()), damaged);
        auto report = site.build();
        const bool same = file_tree(site.out()) == clean;
        if (report.ok() && !same) ++differ;
        CHECK_MESSAGE((same || !report.ok()), "mutation " << i);
        if (!same) { // start the next one from the clean site
            fs::remove_all(site.out());
            fs::copy(clean_dir / "site", site.out(), fs::copy_options::recursive);
        }
    }
    CHECK(differ == 0);
}

TEST_CASE("build safety: a second build of the same output waits for the first, says so, and builds the "
          "content as it is once the first is done") {
    Site site;
    REQUIRE(site.build().ok());
    std::promise<std::string> told;
    auto message = told.get_future();
    std::optional<std::jthread> second; // joined after the lock is let go
    BuildReport report;
    auto held = TreeLock::acquire(lock_path(site.out()), {});
    REQUIRE(held);
    second.emplace([&] {
        report = site.build(site.out(),
                            [&](BuildOptions& o) { o.on_wait = [&](const std::string& m) { told.set_value(m); }; });
    });
    REQUIRE(message.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
    const std::string text = message.get();
    CHECK(text.find("another paperpress is building") != std::string::npos);
    CHECK(text.find("(pid " + std::to_string(::getpid()) + ")") != std::string::npos);
    site.save(make_day("2025-02-05", 2)); // as a nightly run does before it builds
    held = fail("let go");                // the waiting build goes on
    second.reset();
    CHECK(report.ok());
    CHECK(fs::exists(site.out() / "2025/02/05/index.html"));
    CHECK(read_text(site.out() / "2025/02/04/index.html").find("2025/02/05/") != std::string::npos);
}
