// site/trends: the trends page's numbers, checked against what `paperpress ls
// --json` lists of the same temporary archive, and its charts' SVG.
#include "content/content_tree.h"
#include "site/build_state.h"
#include "site/builder.h"
#include "site/trends.h"
#include "site/trends_cache.h"
#include "test_support.h"
#include "util/lock.h"

#include <doctest/doctest.h>
#include <rapidjson/document.h>

#include <cstdio>
#include <functional>
#include <map>
#include <regex>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace pp;
using namespace pp::test;

namespace {

const char* const hostile = "<b>Bold & \"Co\"</b>";

// 14 months of 5 days each, 0 to 3 papers a day; the first two months fall
// outside the page's 12 and have an author of their own.
std::vector<Day> archive_days() {
    std::vector<Day> days;
    int n = 0;
    for (int m = 0; m < 14; ++m) {
        for (int d : {3, 9, 14, 20, 27}) {
            Day day;
            day.date = Date{2025 + (m / 12), 1 + m % 12, d};
            day.model = "gpt-4o-mini";
            if (n % 3 != 0) day.cost.total = 0.05; // every third day's cost is unknown
            for (int p = 0; p < n % 4; ++p) {
                Paper paper;
                char id[16];
                std::snprintf(id, sizeof id, "%02d%02d.%05d", (2025 + m / 12) % 100, 1 + m % 12, n * 10 + p);
                paper.id = id;
                paper.title = "Paper " + std::to_string(n) + "." + std::to_string(p);
                // Gödel twice, in two spellings a reader sees as one name: counted once a paper.
                paper.authors = {"Ada Lovelace (Analytical Engines)", "Kurt G\\\"odel", "Kurt Gödel (IAS)"};
                if (m < 2) paper.authors.push_back("Old Author");
                if (p == 1) paper.authors.push_back(hostile);
                paper.relevance = paper.novelty = 5 + p;
                paper.topic = p == 0 ? "Theory" : p == 1 ? "Efficiency" : "";
                day.papers.push_back(paper);
            }
            days.push_back(day);
            ++n;
        }
    }
    return days;
}

// The rows of one chart's table: label -> cells.
std::map<std::string, std::vector<std::string>> table_of(const std::string& html, const std::string& id) {
    const auto start = html.find("<section class=chart aria-labelledby=" + id + ">");
    REQUIRE(start != std::string::npos);
    const std::string section = html.substr(start, html.find("</section>", start) - start);
    static const std::regex row_pattern(R"(<tr><th scope=row>([^<]*)</th>((?:<td>[^<]*</td>)*)</tr>)");
    static const std::regex cell_pattern(R"(<td>([^<]*)</td>)");
    std::map<std::string, std::vector<std::string>> rows;
    for (std::sregex_iterator it(section.begin(), section.end(), row_pattern), end; it != end; ++it) {
        const std::string cells = (*it)[2];
        auto& row = rows[(*it)[1]];
        for (std::sregex_iterator c(cells.begin(), cells.end(), cell_pattern); c != end; ++c) row.push_back((*c)[1]);
    }
    return rows;
}

} // namespace

TEST_CASE("trends: the page's numbers equal the archive's (ls --json), over its newest 12 months") {
    TempDir dir;
    const auto days = archive_days();
    for (const auto& day : days) REQUIRE(save_day(dir / "content", day).has_value());
    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    const auto built = run_paperpress("build", dir.path());
    REQUIRE_MESSAGE(built.exit_code == 0, built.err);
    const std::string html = read_text(dir / "site/trends/index.html");

    const auto listed = run_paperpress("ls --json", dir.path());
    REQUIRE(listed.exit_code == 0);
    rapidjson::Document json;
    json.Parse(listed.out.c_str());
    REQUIRE(json.IsArray());
    REQUIRE(json.Size() == 70);
    std::map<std::string, int> month_picks; // of the newest 12 months
    const auto per_day = table_of(html, "picks-per-day");
    CHECK(per_day.size() == 60);
    for (rapidjson::SizeType i = 10; i < json.Size(); ++i) {
        const std::string date = json[i]["date"].GetString();
        const int count = static_cast<int>(json[i]["count"].GetUint());
        month_picks[date.substr(0, 7)] += count;
        REQUIRE(per_day.contains(date));
        CHECK_MESSAGE(per_day.at(date) == std::vector<std::string>{std::to_string(count)}, date);
    }

    // Topics per month: the topics' cells add up to the month's picks.
    const auto topics = table_of(html, "topics-per-month");
    CHECK(topics.size() == 12);
    CHECK(!topics.contains("2025-02")); // outside the 12 months
    for (const auto& [month, picks] : month_picks) {
        REQUIRE(topics.contains(month));
        int sum = 0;
        for (const auto& cell : topics.at(month)) sum += std::stoi(cell);
        CHECK_MESSAGE(sum == picks, month);
    }
    CHECK(html.find("<th scope=col>Theory</th><th scope=col>Efficiency</th><th scope=col>Other topics</th>") !=
          std::string::npos);

    // Authors: as a reader sees the name (no affiliation, TeX as letters), escaped, counted once a paper.
    int papers = 0, second_papers = 0;
    for (std::size_t i = 10; i < days.size(); ++i) {
        papers += static_cast<int>(days[i].papers.size());
        second_papers += days[i].papers.size() > 1 ? 1 : 0;
    }
    const auto authors = table_of(html, "authors");
    CHECK(authors.at("Ada Lovelace") == std::vector<std::string>{std::to_string(papers)});
    CHECK(authors.at("Kurt Gödel") == std::vector<std::string>{std::to_string(papers)});
    CHECK(authors.at("&lt;b&gt;Bold &amp; &quot;Co&quot;&lt;/b&gt;") ==
          std::vector<std::string>{std::to_string(second_papers)});
    CHECK(!authors.contains("Old Author"));
    CHECK(html.find("<b>Bold") == std::string::npos);

    // Cost: the known days' sum, and how many days' cost is unknown.
    const auto cost = table_of(html, "cost-per-month");
    for (const auto& [month, cells] : cost) {
        int known = 0, unknown = 0;
        for (const auto& day : days) {
            if (day.date.iso().substr(0, 7) != month) continue;
            (day.cost.total ? known : unknown) += 1;
        }
        char dollars[16];
        std::snprintf(dollars, sizeof dollars, "$%.2f", known * 0.05);
        const std::vector<std::string> expected = {dollars, std::to_string(unknown)};
        CHECK_MESSAGE(cells == expected, month);
    }
    CHECK(cost.size() == 12);

    // Both themes have the page, linked from every page.
    CHECK(read_text(dir / "site/index.html").find("href=\"/trends/\">Trends</a>") != std::string::npos);
    const auto classic = run_paperpress("build --theme classic --out classic", dir.path());
    REQUIRE_MESSAGE(classic.exit_code == 0, classic.err);
    CHECK(read_text(dir / "classic/trends/index.html").find("<svg class=\"chart-svg\"") != std::string::npos);
}

TEST_CASE("trends: a change to a day outside the page's months leaves the page; one inside remakes it") {
    TempDir dir;
    auto days = archive_days();
    for (const auto& day : days) REQUIRE(save_day(dir / "content", day).has_value());
    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    REQUIRE(run_paperpress("build", dir.path()).exit_code == 0);
    const std::string before = read_text(dir / "site/trends/index.html");
    days[1].papers.front().authors.push_back("Edited Outside"); // January 2025: outside
    REQUIRE(save_day(dir / "content", days[1]).has_value());
    REQUIRE(run_paperpress("build", dir.path()).exit_code == 0);
    CHECK(read_text(dir / "site/trends/index.html") == before);
    days.back().papers.front().authors.push_back("Edited Inside");
    REQUIRE(save_day(dir / "content", days.back()).has_value());
    REQUIRE(run_paperpress("build", dir.path()).exit_code == 0);
    CHECK(read_text(dir / "site/trends/index.html").find("Edited Inside") != std::string::npos);
}

// An append reads a dozen month data files for the page, not a year of day files: the same page as the
// days give (`data: none` writes no month data), and a data file edited since it was written is not trusted.
TEST_CASE("trends: made from the months' data files, it is the page the days give; an edited one is not trusted") {
    TempDir with_data, without;
    auto days = archive_days();
    for (const TempDir* dir : {&with_data, &without}) {
        for (const auto& day : days) REQUIRE(save_day(*dir / "content", day).has_value());
        fs::copy(source_dir() / "themes", *dir / "themes", fs::copy_options::recursive);
    }
    write_text(without / "paperpress.yaml", "data: none\nsearch_index: false\n");
    REQUIRE(run_paperpress("build", with_data.path()).exit_code == 0);
    REQUIRE(run_paperpress("build", without.path()).exit_code == 0);
    REQUIRE_FALSE(fs::exists(without / "site/data/2025-06.json"));
    auto main_of = [](const std::string& html) { // the page's own part: the site's menu differs (no search)
        const auto from = html.find("<main"), to = html.find("</main>");
        REQUIRE((from != std::string::npos && to != std::string::npos));
        return html.substr(from, to - from);
    };
    const std::string page = main_of(read_text(with_data / "site/trends/index.html"));
    const std::string from_days = main_of(read_text(without / "site/trends/index.html"));
    CHECK(page.size() > 5000);
    if (page != from_days) {
        std::size_t at = 0;
        while (at < page.size() && at < from_days.size() && page[at] == from_days[at]) ++at;
        FAIL_CHECK("from the data files: " << page.substr(at, 200) << "\nfrom the days: " << from_days.substr(at, 200));
    }

    // June 2025's data edited by hand (same size), its tally no longer kept (so June is counted again from
    // its data file), then a day of the newest month changed: the page is made again, not from the edited file.
    std::string june = read_text(with_data / "site/data/2025-06.json");
    REQUIRE(june.find("Ada Lovelace") != std::string::npos);
    for (auto at = june.find("Lovelace"); at != std::string::npos; at = june.find("Lovelace", at))
        june.replace(at, 8, "Tampered");
    write_text(with_data / "site/data/2025-06.json", june);
    REQUIRE(fs::remove(trends_cache_path(with_data / "site")));
    days.back().papers.front().authors.push_back("Edited Inside");
    REQUIRE(save_day(with_data / "content", days.back()).has_value());
    const auto rebuilt = run_paperpress("build", with_data.path());
    REQUIRE(rebuilt.exit_code == 0);
    CHECK(rebuilt.err.find("was changed since it was written: built everything again") != std::string::npos);
    const std::string remade = read_text(with_data / "site/trends/index.html");
    CHECK(remade.find("Edited Inside") != std::string::npos);
    CHECK(remade.find("Tampered") == std::string::npos);
}

TEST_CASE("trends: the charts' SVG escapes its labels and title, and scales bars to the largest") {
    const std::vector<ChartBar> bars = {{"<script>alert(1)</script>", {2}}, {"A & \"B\"", {4, 4}}};
    for (const std::string& svg : {column_svg("Cost <per> month", bars), row_svg("Cost <per> month", bars)}) {
        CAPTURE(svg);
        CHECK(svg.find("<script>") == std::string::npos);
        CHECK(svg.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
        CHECK(svg.find("A &amp; &quot;B&quot;") != std::string::npos);
        CHECK(svg.find("aria-label=\"Cost &lt;per&gt; month\"") != std::string::npos);
        CHECK(svg.find("<title>Cost &lt;per&gt; month</title>") != std::string::npos);
        CHECK(svg.ends_with("</svg>"));
    }
    // Column chart: the plot is 144 high; the stacked bar (8) fills it, the first (2) a quarter.
    const std::string columns = column_svg("t", bars);
    CHECK(columns.find("height=\"36\"") != std::string::npos);
    CHECK(columns.find("class=\"s1\"") != std::string::npos); // the stack's second part
    CHECK(columns.find(">8</text>") != std::string::npos);    // the axis's top
}

namespace {

// A build of `dir`'s content into `out` through the library, for its report.
BuildReport build_into(const TempDir& dir, const fs::path& out) {
    BuildOptions options;
    options.content_dir = dir / "content";
    options.out_dir = out;
    options.site_dir = dir.path();
    options.themes_dir = dir / "themes";
    options.config.title = "Trends";
    options.config.math = false; // no KaTeX beside it
    options.katex_dir = dir / "no-katex";
    auto report = build_site(options);
    for (const auto& e : report.errors) FAIL_CHECK(e.to_string());
    return report;
}

// The trends page of a build from nothing into a fresh folder, and its tallies.
std::pair<std::string, std::string> fresh_trends(const TempDir& dir) {
    TempDir fresh;
    build_into(dir, fresh / "site");
    return {read_text(fresh / "site/trends/index.html"), read_text(trends_cache_path(fresh / "site"))};
}

} // namespace

// A night's build counted a year of picks again for the page (most of an append's time on the bench):
// now only the month whose days changed is counted, and the page is the one a build from nothing makes.
TEST_CASE("trends: a build counts only the months whose days changed; the page is a fresh build's") {
    TempDir dir;
    auto days = archive_days();
    for (const auto& day : days) REQUIRE(save_day(dir / "content", day).has_value());
    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    const fs::path out = dir / "site";
    CHECK(build_into(dir, out).trend_months_counted == 12);
    CHECK(build_into(dir, out).trend_months_counted == 0); // nothing changed: the page is not made

    auto night = [&](const Day& day, int counted, const char* what) {
        REQUIRE(save_day(dir / "content", day).has_value());
        CHECK_MESSAGE(build_into(dir, out).trend_months_counted == counted, what);
        const auto [page, tallies] = fresh_trends(dir);
        CHECK_MESSAGE(read_text(out / "trends/index.html") == page, what);
        CHECK_MESSAGE(read_text(trends_cache_path(out)) == tallies, what); // the same tallies, the same bytes
    };
    Day appended = days.back();
    appended.date = Date{2026, 2, 28};
    appended.papers.front().authors = {"Night Owl"};
    night(appended, 1, "a day appended to the newest month");
    days[41].papers.front().authors.push_back("Late Edit"); // 2025-09
    night(days[41], 1, "a day of an older month edited");
    Day next_month = appended;
    next_month.date = Date{2026, 3, 2}; // the window moves on: the new month is counted, the others kept
    night(next_month, 1, "the first day of a new month");
    CHECK(read_text(out / "trends/index.html").find("Late Edit") != std::string::npos);
    CHECK(read_text(out / "trends/index.html").find("2025-04 to 2026-03") != std::string::npos);
}

// The tallies are read back: a damaged, foreign, linked or other site's file is not used, and the page is
// still exact (counted again from the days).
TEST_CASE("trends: tallies that do not verify, or were counted from other days, are not used") {
    TempDir dir, other;
    auto days = archive_days();
    for (const auto& day : days) REQUIRE(save_day(dir / "content", day).has_value());
    days[61].papers.front().authors = {"Someone Else"};
    for (const auto& day : days) REQUIRE(save_day(other / "content", day).has_value());
    for (const TempDir* d : {&dir, &other})
        fs::copy(source_dir() / "themes", *d / "themes", fs::copy_options::recursive);
    const fs::path out = dir / "site", cache = trends_cache_path(out);
    build_into(dir, out);
    build_into(other, other / "site");
    const std::string kept = read_text(cache);
    REQUIRE(kept.find("Ada Lovelace") != std::string::npos);

    Day appended = archive_days().back();
    appended.date = Date{2026, 2, 28};
    int night = 0;
    auto check = [&](const std::function<void()>& spoil, int counted, const char* what) {
        REQUIRE(save_day(dir / "content", appended).has_value());
        spoil();
        CHECK_MESSAGE(build_into(dir, out).trend_months_counted == counted, what);
        CHECK_MESSAGE(read_text(out / "trends/index.html") == fresh_trends(dir).first, what);
        CHECK_MESSAGE(!fs::is_symlink(cache), what);
        fs::remove(dir / "content/2026/02/2026-02-28.md");
        build_into(dir, out);
        ++night;
    };
    auto tampered = [&] {
        std::string bytes = read_text(cache);
        bytes.replace(bytes.find("Ada Lovelace"), 12, "Ada Tampered"); // the checksum no longer verifies
        write_text(cache, bytes);
    };
    check(tampered, 12, "a tampered file");
    check([&] { fs::copy_file(trends_cache_path(other / "site"), cache, fs::copy_options::overwrite_existing); }, 2,
          "another site's tallies: the two months whose days differ are counted again");
    const TempDir elsewhere;
    write_text(elsewhere / "tallies", kept);
    check(
        [&] {
            fs::remove(cache);
            fs::create_symlink(elsewhere / "tallies", cache);
        },
        12, "a link to tallies elsewhere");
    CHECK(read_text(elsewhere / "tallies") == kept); // not written through
    const std::uint64_t program = std::stoull(kept.substr(kept.find("\nP\t") + 3, 16), nullptr, 16);
    REQUIRE(parse_tallies(kept, program).size() == 12);
    check([&] { write_text(cache, serialize_tallies(parse_tallies(kept, program), program + 1)); }, 12,
          "another program's");
    check([] {}, 1, "and the file as the build left it");
    CHECK(night == 5);

    // A month data file changed since it was written: the build that renders everything again, reading
    // nothing back, counts every month from its days, and takes no tally the first pass saved.
    fs::remove(cache);
    std::string june = read_text(out / "data/2025-06.json");
    june.replace(june.find("Lovelace"), 8, "Tampered");
    write_text(out / "data/2025-06.json", june);
    REQUIRE(save_day(dir / "content", appended).has_value());
    const BuildReport again = build_into(dir, out);
    REQUIRE(!again.warnings.empty());
    CHECK(again.warnings.front().find("built everything again") != std::string::npos);
    CHECK(again.trend_months_counted == 12);
    CHECK(read_text(out / "trends/index.html").find("Tampered") == std::string::npos);
}

// A build killed while it wrote the tallies leaves their temporary file beside the output folder, as it
// may leave the state's: the next build removes both.
TEST_CASE("trends: the temporary file of tallies a killed build was writing is removed by the next build") {
    TempDir dir;
    for (const auto& day : archive_days()) REQUIRE(save_day(dir / "content", day).has_value());
    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    const fs::path out = dir / "site";
    build_into(dir, out);
    const pid_t child = ::fork();
    if (child == 0) {
        auto held = TreeLock::acquire(lock_path(out), {});
        ::kill(::getpid(), SIGKILL); // a build killed holding the folder's lock
        ::_exit(1);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    REQUIRE(WIFSIGNALED(status));
    const fs::path left[] = {trends_cache_path(out).string() + ".tmp." + std::to_string(child),
                             state_path(out).string() + ".tmp." + std::to_string(child)};
    for (const auto& file : left) write_text(file, "half written");
    const BuildReport next = build_into(dir, out);
    for (const auto& file : left) CHECK_MESSAGE(!fs::exists(file), file);
    REQUIRE(!next.warnings.empty());
    CHECK(next.warnings.front().find("was interrupted: removed its 2 temporary files") != std::string::npos);
}

TEST_CASE("trends: tallies read back as written, and any that do not fit together are refused whole") {
    std::vector<Day> days = archive_days();
    std::vector<KeptTally> tallies;
    for (int m = 2; m < 14; ++m) {
        std::vector<Day> month(days.begin() + 5 * m, days.begin() + 5 * m + 5);
        tallies.push_back({static_cast<std::uint64_t>(1000 + m), tally_month(month)});
    }
    tallies[3].tally.trend.cost = 0.1 + 0.2; // not a short decimal: read back to the same double
    const std::string bytes = serialize_tallies(tallies, 42);
    const auto back = parse_tallies(bytes, 42);
    REQUIRE(back.size() == 12);
    CHECK(serialize_tallies(back, 42) == bytes);
    CHECK(back[3].tally.trend.cost == 0.1 + 0.2);
    CHECK(back[5].tally.authors == tallies[5].tally.authors);
    CHECK(parse_tallies(bytes, 43).empty()); // another program's

    // Each spoiled version has a valid checksum (written by serialize_tallies), so only the checks refuse it.
    auto spoiled = [&](const std::function<void(std::vector<KeptTally>&)>& spoil) {
        auto copy = tallies;
        spoil(copy);
        return parse_tallies(serialize_tallies(copy, 42), 42);
    };
    CHECK(spoiled([](auto& t) { std::swap(t[0], t[1]); }).empty());                     // months out of order
    CHECK(spoiled([](auto& t) { t[1] = t[0]; }).empty());                               // a month twice
    CHECK(spoiled([](auto& t) { t[2].tally.picks.front().first.month += 1; }).empty()); // a day of another month
    CHECK(spoiled([](auto& t) { t[2].tally.trend.days += 1; }).empty());                // days not its days
    CHECK(spoiled([](auto& t) { t[2].tally.trend.picks += 1; }).empty());               // picks not its days'
    CHECK(spoiled([](auto& t) { t[2].tally.picks.front().second = -1; }).empty());      // a negative count
    CHECK(spoiled([](auto& t) { t[4].tally.trend.cost = -1; }).empty());                // a negative cost
    CHECK(spoiled([](auto& t) { std::swap(t[4].tally.authors[0], t[4].tally.authors[1]); }).empty()); // unsorted
    CHECK(spoiled([](auto& t) { t[11].tally.trend.unknown_cost_days = 99; }).empty()); // the last month too
    CHECK(!spoiled([](auto& t) { t[4].tally.trend.cost = 7; }).empty());               // a cost alone is not checkable
    CHECK(parse_tallies("", 42).empty());
    CHECK(parse_tallies(bytes.substr(0, bytes.size() / 2), 42).empty());
}
