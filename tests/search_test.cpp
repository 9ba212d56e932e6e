// The month data (site/feeds.h, util/gzip.h): one gzip'd JSON file a month
// serves the data API and the search page. Listed newest first in
// data/index.json, deterministic, escaped; the first month a browser loads
// is small; an incremental build remakes only the months whose days changed.
#include "content/content_tree.h"
#include "search/index.h"
#include "search/query.h"
#include "search/words.h"
#include "site/builder.h"
#include "site/feeds.h"
#include "site/urls.h"
#include "test_support.h"
#include "util/gzip.h"

#include <doctest/doctest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <set>
#include <vector>

using namespace pp;
using namespace pp::test;

namespace {

Date date(const char* iso) { return *parse_iso_date(iso); }

Paper paper(const std::string& id, const std::string& title, const std::string& abstract) {
    Paper p;
    p.id = id;
    p.title = title;
    p.authors = {"Ada Lovelace", "Alan Turing"};
    p.abstract = abstract;
    p.relevance = 7;
    p.novelty = 6;
    return p;
}

Day make_day(const char* iso, std::vector<Paper> papers) {
    Day day;
    day.date = date(iso);
    day.model = "gpt-4o";
    day.counts = Counts{500, 400, static_cast<long long>(papers.size())};
    day.papers = std::move(papers);
    return day;
}

rapidjson::Document parse(const std::string& text) {
    rapidjson::Document doc;
    doc.Parse(text.c_str());
    REQUIRE_MESSAGE(!doc.HasParseError(), text);
    return doc;
}

// The scorer's comment on the newest month's one paper.
constexpr const char* newest_comment = "Matches criterion 2: widgets under load";

// A few months of days, many papers in the old months and one in the newest.
struct Archive {
    TempDir dir;
    Config config;
    Archive() {
        fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
        config.title = "Search";
        config.base_url = "/";
        config.feed_days = 2;
        for (const char* iso : {"2024-11-04", "2024-11-05", "2024-12-02", "2025-01-06", "2025-01-07"}) {
            std::vector<Paper> papers;
            for (int i = 0; i < 30; ++i)
                papers.push_back(
                    paper("2411." + std::to_string(10000 + std::stoi(std::string(iso).substr(8)) * 100 + i),
                          "Filler paper " + std::to_string(i) + " of " + iso,
                          "We study filler number " + std::to_string(i) + " at length."));
            save(make_day(iso, std::move(papers)));
        }
        Paper newest = paper("2502.00001", "Quantum <b>widgets</b> & \"gadgets\"",
                             "Self-supervised widgets bound $x_1 < y^2$ with \\mathcal{O}(n) work.");
        newest.comment = newest_comment;
        save(make_day("2025-02-03", {newest}));
    }
    void save(const Day& day) const { REQUIRE(save_day(dir / "content", day)); }
    BuildReport build() const {
        BuildOptions options;
        options.content_dir = dir / "content";
        options.out_dir = dir / "site";
        options.site_dir = dir.path();
        options.themes_dir = dir / "themes";
        options.config = config;
        auto report = build_site(options);
        std::string errors;
        for (const auto& e : report.errors) errors += e.to_string() + "\n";
        REQUIRE_MESSAGE(report.ok(), errors);
        return report;
    }
    std::string file(const std::string& site_path) const { return read_text(dir / "site" / site_path); }
    // A month file's JSON.
    std::string month(const std::string& name) const { return file("data/" + name + ".json"); }
};

} // namespace

TEST_CASE("data: gzip gives the same bytes each time and reads back; gunzip refuses what is not one gzip file within "
          "its limit") {
    const std::string text = "{\"month\":\"2025-02\"} " + std::string(5000, 'x');
    const std::string packed(gzip(text).view());
    CHECK(packed == gzip(text).view()); // no time or name in the header
    CHECK(packed.size() < text.size() / 10);
    auto back = gunzip(packed, text.size());
    REQUIRE(back.has_value());
    CHECK(*back == text);
    CHECK_FALSE(gunzip(packed, text.size() - 1).has_value()); // over the limit: refused before inflating
    CHECK_FALSE(gunzip(text, 1 << 20).has_value());
    CHECK_FALSE(gunzip(packed.substr(0, packed.size() - 9) + packed.substr(packed.size() - 8), 1 << 20).has_value());
    CHECK_FALSE(gunzip(packed + packed, 1 << 20).has_value()); // two members: not what the build writes
    std::string damaged = packed;
    damaged[damaged.size() / 2] ^= 0x55;
    CHECK_FALSE(gunzip(damaged, 1 << 20).has_value());
}

TEST_CASE("data: the build writes one gzip'd file a month, listed newest first, and the first is small") {
    Archive archive;
    archive.build();
    auto index = parse(archive.file("data/index.json"));
    const auto& months = index["months"];
    REQUIRE(months.Size() == 4);
    std::vector<std::string> names;
    for (const auto& month : months.GetArray()) names.push_back(month["month"].GetString());
    CHECK(names == std::vector<std::string>{"2025-02", "2025-01", "2024-12", "2024-11"});
    CHECK(std::string(months[0]["url"].GetString()) == "2025-02.json");
    CHECK(months[0]["days"].GetInt() == 1);
    CHECK(months[0]["papers"].GetInt() == 1);
    CHECK(months[3]["days"].GetInt() == 2);
    CHECK(months[3]["papers"].GetInt() == 60);
    CHECK_FALSE(fs::exists(archive.dir / "site/data/days")); // per-day files only with `data: day`

    // The newest month holds only its month: far less than the whole archive.
    const auto first = archive.file("data/2025-02.json");
    std::size_t total = 0;
    for (const auto& name : names) total += archive.file("data/" + name + ".json").size();
    CHECK(first.size() < 700);
    CHECK(first.size() * 4 < total);
    const auto json = archive.month("2025-02");
    CHECK(json.find('<') == std::string::npos);
    CHECK(json.find('&') == std::string::npos);
    auto month = parse(json);
    CHECK(std::string(month["month"].GetString()) == "2025-02");
    REQUIRE(month["days"].Size() == 1);
    auto day = day_from_json(json.substr(json.find("\"days\":[") + 8, json.size() - json.find("\"days\":[") - 8 - 3));
    REQUIRE(day.has_value());
    CHECK(day->date == date("2025-02-03"));
    REQUIRE(day->papers.size() == 1);
    CHECK(day->papers[0].title == "Quantum <b>widgets</b> & \"gadgets\"");
    CHECK(day->papers[0].abstract.empty()); // on the day page and at arXiv; in the data only with `data: full`
    CHECK(day->papers[0].authors == std::vector<std::string>{"Ada Lovelace", "Alan Turing"});

    auto november = parse(archive.month("2024-11"));
    REQUIRE(november["days"].Size() == 2);
    CHECK(std::string(november["days"][0]["date"].GetString()) == "2024-11-04"); // oldest day first
    CHECK(std::string(november["days"][1]["papers"][29]["title"].GetString()) == "Filler paper 29 of 2024-11-05");

    // The search page exists for the themes that have the layout, and reads the word index
    // (search_index: true); without it, the month data.
    const auto page = archive.file("search/index.html");
    CHECK(page.find("data-index=\"/search/index.json\"") != std::string::npos);
    CHECK(page.find("static/search-index.js?v=") != std::string::npos);
    archive.config.search_index = false;
    archive.build();
    const auto months_page = archive.file("search/index.html");
    CHECK(months_page.find("data-index=\"/data/index.json\"") != std::string::npos);
    CHECK(months_page.find("static/search.js?v=") != std::string::npos);
    CHECK_FALSE(fs::exists(archive.dir / "site" / search::manifest_path)); // the word index is removed
}

TEST_CASE("data: a paper's data holds the fields that say something, and nothing that follows from the others") {
    Archive archive;
    archive.build();
    auto month = parse(archive.month("2025-02"));
    const auto& paper = month["days"][0]["papers"][0];
    std::vector<std::string> keys;
    for (const auto& member : paper.GetObject()) keys.emplace_back(member.name.GetString());
    // No empty comment, topic or note, no false author match, no score (the
    // sum), no arXiv links (they follow from the ID: docs/data.md).
    CHECK(keys == std::vector<std::string>{"id", "title", "authors", "relevance", "novelty"});
    CHECK(paper["relevance"].GetInt() == 7);

    Paper unscored = ::paper("2502.00002", "Not scored", "Text.");
    unscored.relevance.reset();
    unscored.novelty.reset();
    unscored.unscored = "the LLM's reply had no score";
    unscored.author_match = true;
    unscored.topic = "Widgets";
    unscored.also_topics = {"Gadgets"};
    archive.save(make_day("2025-02-04", {unscored}));
    archive.build();
    month = parse(archive.month("2025-02"));
    const auto& second = month["days"][1]["papers"][0];
    keys.clear();
    for (const auto& member : second.GetObject()) keys.emplace_back(member.name.GetString());
    CHECK(keys ==
          std::vector<std::string>{"id", "title", "authors", "author_match", "topic", "also_topics", "unscored"});
    auto back = day_from_json(day_json(SiteUrls("/"), make_day("2025-02-04", {unscored})));
    REQUIRE(back);
    CHECK(back->papers.at(0) == unscored);
}

TEST_CASE(
    "data: `data: full` keeps the abstracts and comments in the month data; the search page searches them either way") {
    Archive lean;
    lean.build();
    CHECK(lean.month("2025-02").find("Self-supervised widgets") == std::string::npos);
    CHECK(lean.month("2025-02").find("\"comment\"") == std::string::npos);
    CHECK(lean.file("search/index.html").find("abstracts, topics, comments") != std::string::npos); // the word index
    for (const char* on_the_page : {"Self-supervised widgets", newest_comment})
        CHECK(lean.file("2025/02/03/index.html").find(on_the_page) != std::string::npos);

    Archive full;
    full.config.data = "full";
    full.build();
    CHECK(full.month("2025-02").find("Self-supervised widgets") != std::string::npos);
    CHECK(full.month("2025-02").find(newest_comment) != std::string::npos);
    CHECK(full.file("search/index.html") == lean.file("search/index.html"));
    CHECK(full.file("data/2025-01.json").size() > lean.file("data/2025-01.json").size());
    CHECK_FALSE(fs::exists(full.dir / "site/data/days")); // per-day files only with `data: day`
}

TEST_CASE("pages: a paper arXiv has no HTML of (before 2312) gets no HTML link, in either theme") {
    for (const char* theme : {"default", "classic"}) {
        CAPTURE(theme);
        Archive archive;
        archive.config.theme = theme;
        archive.save(make_day("2024-12-03", {paper("1706.03762", "An older paper", "Listed again.")}));
        archive.build();
        const auto old = archive.file("2024/12/03/index.html");
        CHECK(old.find("arxiv.org/html/") == std::string::npos);
        CHECK(old.find("arxiv.org/pdf/1706.03762") != std::string::npos);
        CHECK(archive.file("2025/02/03/index.html").find("https://arxiv.org/html/2502.00001") != std::string::npos);
    }
}

TEST_CASE("data: a clean build parses each day once; the month pages' best-of comes from the month data's days") {
    Archive archive;
    auto report = archive.build();
    CHECK(report.parsed == 6);
    CHECK(archive.file("2024/11/index.html").find("Filler paper 0 of 2024-11-04") != std::string::npos);
}

TEST_CASE("data: with no month data (`data: none`) a clean build still parses each day once for the best-of") {
    Archive archive;
    archive.config.data = "none";
    archive.config.feed_days = 1; // the newest 5 days are kept for the feed; the oldest is not
    auto report = archive.build();
    // Once each, and the trends page reads back the one day nothing kept (site/trends.h).
    CHECK(report.parsed == 7);
    CHECK(archive.file("2024/11/index.html").find("Filler paper 0 of 2024-11-04") != std::string::npos);
}

TEST_CASE("data: an incremental build remakes only the month files of changed months") {
    Archive archive;
    archive.build();
    const auto january = archive.file("data/2025-01.json");
    archive.save(make_day("2025-02-04", {paper("2502.00009", "Appended paper", "Brand new words.")}));
    auto report = archive.build();
    std::set<std::string> written(report.written_files.begin(), report.written_files.end());
    CHECK(written.contains("data/2025-02.json"));
    CHECK(written.contains("data/index.json"));
    CHECK_FALSE(written.contains("data/2025-01.json"));
    CHECK_FALSE(written.contains("data/2024-11.json"));
    CHECK(archive.file("data/2025-01.json") == january);
    auto month = parse(archive.month("2025-02"));
    REQUIRE(month["days"].Size() == 2);
    CHECK(std::string(month["days"][1]["papers"][0]["title"].GetString()) == "Appended paper");

    // A clean build gives the same bytes.
    Archive clean;
    clean.save(make_day("2025-02-04", {paper("2502.00009", "Appended paper", "Brand new words.")}));
    clean.build();
    CHECK(clean.file("data/2025-02.json") == archive.file("data/2025-02.json"));

    // Removing the month's days removes its file.
    fs::remove(day_path(archive.dir / "content", date("2025-02-03")));
    fs::remove(day_path(archive.dir / "content", date("2025-02-04")));
    report = archive.build();
    CHECK(std::find(report.removed_files.begin(), report.removed_files.end(), "data/2025-02.json") !=
          report.removed_files.end());
    auto index = parse(archive.file("data/index.json"));
    CHECK(std::string(index["months"][0]["month"].GetString()) == "2025-01");
}

TEST_CASE("data: `data: day` adds a file per day; `data: none` writes no month data and no search page") {
    Archive day_files;
    day_files.config.data = "day";
    day_files.build();
    CHECK(fs::is_regular_file(day_files.dir / "site/data/2025-02.json"));
    auto day = day_from_json(day_files.file("data/days/2025-02-03.json"));
    REQUIRE(day.has_value());
    CHECK(day->papers.at(0).id == "2502.00001");

    Archive none;
    none.config.data = "none";
    none.build();
    CHECK_FALSE(fs::exists(none.dir / "site/data/2025-02.json"));
    CHECK_FALSE(parse(none.file("data/index.json")).HasMember("months")); // the list of days stays
    CHECK_FALSE(fs::exists(none.dir / "site/search"));
    CHECK(none.file("2025/02/03/index.html").find("role=\"search\"") == std::string::npos); // no search box to nowhere
}

TEST_CASE("data: a day's data nested 200,000 deep is an error, not a stack overflow") {
    for (const std::string& json : {std::string(200000, '['), std::string(200000, '{'),
                                    "{\"papers\":" + std::string(200000, '[') + std::string(200000, ']') + "}"})
        CHECK_FALSE(day_from_json(json).has_value());
}

TEST_CASE("data: a number rapidjson's full-precision parser would read out of bounds for is an error, not a crash") {
    // Found by fuzzing: many digits and a large negative exponent walk rapidjson 1.1 off its table of powers of ten.
    const std::string number = "8888888888888." + std::string(200, '8') + "E-0403";
    CHECK_FALSE(day_from_json("{\"date\":\"2025-02-03\",\"x\":" + number + "}").has_value());
    CHECK_FALSE(month_days_from_json("{\"days\":[],\"x\":1e-999}").has_value());
    // What the writer writes reads back, and strings may hold anything.
    Day day =
        make_day("2025-02-03", {paper("2502.00001", "1e-999 and 8888888888888888888888888888888888888888888", "a")});
    day.cost.total = 0.1;
    day.cost.prompt = 1e-7;
    auto back = day_from_json(day_json(SiteUrls("/"), day));
    REQUIRE(back.has_value());
    CHECK(*back == day);
}

TEST_CASE("data: a day's data read back refuses a score beyond int instead of wrapping it") {
    Day day = make_day("2025-02-03", {paper("2502.00001", "A", "alpha")});
    std::string json = day_json(SiteUrls("/"), day);
    REQUIRE(day_from_json(json).has_value());
    const std::string relevance = "\"relevance\":7";
    REQUIRE(json.find(relevance) != std::string::npos);
    json.replace(json.find(relevance), relevance.size(), "\"relevance\":4294967303"); // 7 + 2^32
    auto read = day_from_json(json);
    REQUIRE_FALSE(read.has_value());
    CHECK(read.error().message == "expected 'relevance' to be a whole number");
}

TEST_CASE("data: control bytes in a title are escaped, so the day's data and its month are JSON") {
    // rapidjson's SSE2 writer left 0x1A-0x1F raw: the browser's JSON.parse and the read-back refused the file.
    Day day = make_day("2025-02-03", {paper("2502.00001", "Red \x1b[31m title\x1f, long enough for SSE", "alpha")});
    const std::string json = day_json(SiteUrls("/"), day);
    CHECK(json.find('\x1b') == std::string::npos);
    // rapidjson's plain writer spells it \u001B, the escape after its SSE2 writer \u001b: both are JSON.
    CHECK((json.find("\\u001b[31m") != std::string::npos || json.find("\\u001B[31m") != std::string::npos));
    auto read = day_from_json(json);
    REQUIRE(read.has_value());
    CHECK(read->papers.at(0).title == day.papers[0].title);
    auto month = gunzip(gzip(month_data_json(2025, 2, {json})), 1 << 20);
    REQUIRE(month.has_value());
    CHECK(parse(*month)["days"][0]["papers"][0]["title"].GetString() == day.papers[0].title);
}

// The word index (search/index.h, search/query.h): every paper's title,
// authors, abstract, topics and comment, read a few files at a time.
namespace {

std::vector<std::string> ids_of(const search::Found& found) {
    std::vector<std::string> ids;
    for (const auto& hit : found.hits) ids.push_back(hit.id);
    return ids;
}

// The files of the word index that a build wrote.
std::set<std::string> search_files_written(const BuildReport& report) {
    std::set<std::string> written;
    for (const auto& path : report.written_files)
        if (path.starts_with("search/")) written.insert(path);
    return written;
}

// The site paths of a period's chunks, as the site's list of periods names them.
std::set<std::string> chunks_of(const Archive& archive, const std::string& period) {
    auto heads = search::read_manifest(read_text(archive.dir / "site" / search::manifest_path));
    REQUIRE_MESSAGE(heads, heads.error().to_string());
    std::set<std::string> paths;
    for (const auto& head : *heads)
        if (head.name == period)
            for (const auto& word : head.first_words) paths.insert(search::chunk_path(period, word));
    return paths;
}

// The one chunk of a period that small days give.
std::string chunk_of(const Archive& archive, const std::string& period) {
    const auto paths = chunks_of(archive, period);
    REQUIRE(paths.size() == 1);
    return *paths.begin();
}

std::set<std::string> with(std::set<std::string> paths, std::initializer_list<std::string> more) {
    paths.insert(more.begin(), more.end());
    return paths;
}

search::Found find(const Archive& archive, const std::string& query, std::size_t limit = 20) {
    auto found = search::search_site(archive.dir / "site", query, limit);
    REQUIRE_MESSAGE(found.has_value(), found.error().to_string());
    return *found;
}

// A month of the archive's newest year with papers that share words.
void add_ranked_papers(const Archive& archive) {
    Paper in_title = paper("2502.00100", "Grokking in small transformers", "We train small models.");
    Paper in_abstract = paper("2502.00101", "Delayed generalization", "We observe grokking after long training.");
    in_abstract.relevance = 9;
    Paper by_name = paper("2502.00102", "Kernel methods revisited", "Kernels.");
    by_name.authors = {"Bernhard Schölkopf", "Jonas Peters"};
    by_name.topic = "Causal inference";
    archive.save(make_day("2025-02-05", {in_abstract, in_title, by_name}));
    Paper older = paper("2502.00050", "Sparse widgets", "Grokking of widgets, older.");
    archive.save(make_day("2025-02-04", {older}));
}

} // namespace

TEST_CASE("search: a word of a paper's abstract finds it, with its day, score and topic, reading only the files its "
          "word needs") {
    Archive archive;
    archive.build();
    auto found = find(archive, "self-supervised");
    REQUIRE(found.total == 1);
    CHECK(ids_of(found) == std::vector<std::string>{"2502.00001"});
    CHECK(found.hits[0].date == "2025-02-03");
    CHECK(found.hits[0].score == 13);
    CHECK(found.hits[0].title == "Quantum <b>widgets</b> & \"gadgets\"");
    // The list of periods, one chunk per period (the newest week, from Monday 2025-02-03, 2025 before it, 2024),
    // and the one day's results.
    std::vector<std::string> paths;
    for (const auto& read : found.reads) paths.push_back(read.path);
    REQUIRE(paths.size() >= 5);
    CHECK(paths.front() == search::manifest_path);
    CHECK(paths.back() == "search/days/2025-02-03.json.gz");
    std::map<std::string, int> chunks_read; // by period: a chunk for each of the query's two words at most
    for (std::size_t i = 1; i + 1 < paths.size(); ++i)
        for (const char* period : {"2025-02-03", "2025", "2024"})
            if (chunks_of(archive, period).contains(paths[i])) ++chunks_read[period];
    CHECK(chunks_read.size() == 3);
    for (const auto& [period, read] : chunks_read) CHECK((read >= 1 && read <= 2));
    CHECK(paths.size() == 2 + chunks_read["2024"] + chunks_read["2025"] + chunks_read["2025-02-03"]);
    // A word of the scorer's comment, as you type (a prefix), and a word nowhere.
    CHECK(ids_of(find(archive, "criter")) == std::vector<std::string>{"2502.00001"});
    CHECK(find(archive, "zebra").total == 0);
    // The abstract is not in the month data, and the index is smaller than the day pages.
    CHECK(archive.month("2025-02").find("Self-supervised") == std::string::npos);
}

TEST_CASE("search: accents and case fold on both sides; a word in the title ranks above one in the abstract, then "
          "newer, then higher-scored") {
    Archive archive;
    add_ranked_papers(archive);
    archive.build();
    for (const char* query : {"Scholkopf", "schölkopf", "SCHÖLKOPF", "scholk"}) {
        CAPTURE(query);
        CHECK(ids_of(find(archive, query)) == std::vector<std::string>{"2502.00102"});
    }
    CHECK(ids_of(find(archive, "causal")) == std::vector<std::string>{"2502.00102"});
    auto found = find(archive, "grokking");
    CHECK(ids_of(found) == std::vector<std::string>{"2502.00100", "2502.00101", "2502.00050"});
    CHECK(ids_of(find(archive, "grok")) == ids_of(found));
    CHECK(ids_of(find(archive, "the grokking of")) == ids_of(found)); // "the" and "of" are not indexed, and ignored
    // Every word must match; an ID finds its paper; a date lists its day, and limits the words to it.
    CHECK(ids_of(find(archive, "grokking widgets")) == std::vector<std::string>{"2502.00050"});
    CHECK(ids_of(find(archive, "arXiv:2502.00101")) == std::vector<std::string>{"2502.00101"});
    CHECK(find(archive, "2025-02-05").total == 3);
    CHECK(ids_of(find(archive, "grokking 2025-02-04")) == std::vector<std::string>{"2502.00050"});
    CHECK(find(archive, "filler 2024-11").total == 60);
    CHECK(find(archive, "filler", 5).hits.size() == 5);
}

// Issue 46's mutant: within a day and a kind of match, the higher-scored paper comes first, wherever the day
// file lists it.
TEST_CASE("search: of one day's papers that match alike, the higher-scored comes first") {
    Archive archive;
    Paper low = paper("2502.00201", "Lattice gauge low", "Lattices.");
    low.relevance = 5;
    Paper high = paper("2502.00202", "Lattice gauge high", "Lattices.");
    high.relevance = 10;
    archive.save(make_day("2025-02-05", {low, high}));
    archive.build();
    CHECK(ids_of(find(archive, "lattice")) == std::vector<std::string>{"2502.00202", "2502.00201"});
    archive.save(make_day("2025-02-05", {high, low}));
    archive.build();
    CHECK(ids_of(find(archive, "lattice")) == std::vector<std::string>{"2502.00202", "2502.00201"});
}

// Issue 46: the index's ASCII fast path lower-cases as utf8proc's folding does, every capital included
// (a capitalised word is found by its lower-case query, and the other way round).
TEST_CASE("search: the word index folds every ASCII capital as the full folding does") {
    const std::string capitals = "ABCDEFGHIJKLMNOPQRSTUVWXYZ Zeta QUIZ Yak Xenon MoE 3D";
    std::vector<std::string> folded;
    search::for_each_folded_word(capitals, [&](std::string_view w) { folded.emplace_back(w); });
    CHECK(search::words_of(capitals) == folded);
    CHECK(folded ==
          std::vector<std::string>{"abcdefghijklmnopqrstuvwxyz", "zeta", "quiz", "yak", "xenon", "moe", "3d"});
}

TEST_CASE("search: an append rewrites only its week's part of the index; the result equals a clean build's") {
    Archive archive;
    archive.build();
    add_ranked_papers(archive);
    CHECK(search_files_written(archive.build()) ==
          with(chunks_of(archive, "2025-02-03"),
               {search::manifest_path, "search/days/2025-02-04.json.gz", "search/days/2025-02-05.json.gz"}));
    CHECK(ids_of(find(archive, "grokking")) == std::vector<std::string>{"2502.00100", "2502.00101", "2502.00050"});

    Archive clean;
    add_ranked_papers(clean);
    clean.build();
    auto tree = file_tree(archive.dir / "site"), clean_tree = file_tree(clean.dir / "site");
    for (auto it = tree.begin(); it != tree.end();)
        it = it->first.starts_with("search/") ? std::next(it) : tree.erase(it);
    for (auto it = clean_tree.begin(); it != clean_tree.end();)
        it = it->first.starts_with("search/") ? std::next(it) : clean_tree.erase(it);
    CHECK(tree.size() > 5);
    CHECK(tree == clean_tree);

    // A day removed by hand leaves the index; a no-change build writes nothing.
    fs::remove(day_path(archive.dir / "content", date("2025-02-05")));
    archive.build();
    CHECK(ids_of(find(archive, "grokking")) == std::vector<std::string>{"2502.00050"});
    CHECK(archive.build().written_files.empty());
}

TEST_CASE("search: `paperpress search` finds a paper by a word of its abstract and says what it read") {
    Archive archive;
    archive.build();
    auto result = run_paperpress("search supervised --site site", archive.dir.path());
    CAPTURE(result.out);
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("2025-02-03  13  Quantum <b>widgets</b>") != std::string::npos);
    CHECK(result.out.find("arXiv:2502.00001") != std::string::npos);
    CHECK(result.out.find("1 paper found; read 5 files") != std::string::npos);
    CHECK(result.out.find("search/days/2025-02-03.json.gz") != std::string::npos);
    auto missing = run_paperpress("search supervised --site nowhere", archive.dir.path());
    CHECK(missing.exit_code == 1);
    CHECK(missing.err.find("nowhere/search/index.json") != std::string::npos);
}

TEST_CASE("search: the first day of a new month folds the month before into its year, as a clean build has it") {
    Archive archive;
    archive.build();
    const std::string old_week = chunk_of(archive, "2025-02-03");
    archive.save(make_day("2025-03-03", {paper("2503.00001", "March widgets", "Springtime grokking.")}));
    auto report = archive.build();
    std::set<std::string> written(report.written_files.begin(), report.written_files.end());
    CHECK(written.contains(chunk_of(archive, "2025-03-03")));
    // Now January and February: the chunks whose words February added to (a chunk of January's words alone
    // is the same file, and not written again).
    const auto year = chunks_of(archive, "2025");
    CHECK(std::any_of(year.begin(), year.end(), [&](const std::string& chunk) { return written.contains(chunk); }));
    CHECK(std::find(report.removed_files.begin(), report.removed_files.end(), old_week) != report.removed_files.end());
    CHECK(ids_of(find(archive, "widgets")) == std::vector<std::string>{"2503.00001", "2502.00001"});

    Archive clean;
    clean.save(make_day("2025-03-03", {paper("2503.00001", "March widgets", "Springtime grokking.")}));
    clean.build();
    auto tree = file_tree(archive.dir / "site/search");
    CHECK(tree.contains(chunks_of(archive, "2025").begin()->substr(7)));
    CHECK(tree == file_tree(clean.dir / "site/search"));
    // Plain text, all but the days' files (written once): what changes can be stored as a delta.
    for (const auto& [path, bytes] : tree) {
        CAPTURE(path);
        CHECK((path.ends_with(".gz") == path.starts_with("days/")));
        if (!path.ends_with(".gz")) CHECK(bytes.find('\0') == std::string::npos);
    }
}

TEST_CASE("search: an index whose list of days is not dates, or claims more papers than a day can have, is an error") {
    auto query = [](const std::string& days, const std::string& text) {
        const std::string manifest = R"({"version":)" + std::to_string(search::format_version) +
                                     R"(,"periods":[{"name":"2024","days":")" + days + R"(","chunks":["a"]}]})";
        return search::run_query(
            [&](const std::string& path) -> Result<std::string> {
                if (path == search::manifest_path) return manifest;
                return gzip_small(R"({"date":"2024-02-30","papers":[["2402.00001","T","A",5,"x"]]})");
            },
            text, 20);
    };
    for (const char* days : {"0230:1", "1301:1", "0101:1x", "0101:-1", "01:1", "0101:2000000000"}) {
        CAPTURE(days);
        auto found = query(days, "2024");
        REQUIRE_FALSE(found);
        CHECK(found.error().message.find("expected days as MMDD:papers") != std::string::npos);
    }
    auto listed = query("0101:1,0102:3", "2024-01-01");
    REQUIRE(listed);
    CHECK(listed->total == 1); // a date lists its own day's papers only
}

TEST_CASE("search: the newest month's newest week is a period of its own, from its Monday or from the 1st") {
    const Date wednesday = date("2025-02-05");
    CHECK(search::period_of(date("2025-02-05"), wednesday) == "2025-02-03");
    CHECK(search::period_of(date("2025-02-03"), wednesday) == "2025-02-03");
    CHECK(search::period_of(date("2025-02-02"), wednesday) == "2025-02");
    CHECK(search::period_of(date("2025-01-31"), wednesday) == "2025");
    CHECK(search::period_of(date("2024-12-31"), wednesday) == "2024");
    const Date saturday = date("2025-03-01"); // its week began in February
    CHECK(search::period_of(date("2025-03-01"), saturday) == "2025-03-01");
    CHECK(search::period_of(date("2025-02-28"), saturday) == "2025");
    const Date monday = date("2025-02-10");
    CHECK(search::period_of(date("2025-02-10"), monday) == "2025-02-10");
    CHECK(search::period_of(date("2025-02-07"), monday) == "2025-02");
    const Date sunday = date("2025-02-16"); // the last day of its week
    CHECK(search::period_of(date("2025-02-10"), sunday) == "2025-02-10");
    CHECK(search::period_of(date("2025-02-09"), sunday) == "2025-02");
    const Date new_year = date("2025-01-01"); // a Wednesday: its Monday was in 2024
    CHECK(search::period_of(date("2025-01-01"), new_year) == "2025-01-01");
    CHECK(search::period_of(date("2024-12-30"), new_year) == "2024");
}

TEST_CASE("search: the first day of a new week folds the week before into its month, as a clean build has it; a "
          "date finds its days in either") {
    Archive archive;
    archive.save(make_day("2025-02-04", {paper("2502.00002", "Tuesday widgets", "Grokking on a Tuesday.")}));
    archive.build();
    const Day monday = make_day("2025-02-10", {paper("2502.00003", "Monday widgets", "Grokking on a Monday.")});
    archive.save(monday);
    const std::string old_week = chunk_of(archive, "2025-02-03");
    auto report = archive.build();
    CHECK(search_files_written(report) == std::set<std::string>{search::manifest_path, chunk_of(archive, "2025-02-10"),
                                                                chunk_of(archive, "2025-02"),
                                                                "search/days/2025-02-10.json.gz"});
    CHECK(std::find(report.removed_files.begin(), report.removed_files.end(), old_week) != report.removed_files.end());
    CHECK(ids_of(find(archive, "grokking")) == std::vector<std::string>{"2502.00003", "2502.00002"});
    CHECK(ids_of(find(archive, "grokking 2025-02-04")) == std::vector<std::string>{"2502.00002"});
    CHECK(ids_of(find(archive, "widgets 2025-02")) ==
          std::vector<std::string>{"2502.00003", "2502.00002", "2502.00001"});
    CHECK(find(archive, "2025-02-10").total == 1);

    // Another day of the same week rewrites only the week's chunks.
    archive.save(make_day("2025-02-11", {paper("2502.00004", "Tuesday again", "More grokking.")}));
    CHECK(search_files_written(archive.build()) ==
          with(chunks_of(archive, "2025-02-10"), {search::manifest_path, "search/days/2025-02-11.json.gz"}));
    CHECK(ids_of(find(archive, "grokking 2025-02-11")) == std::vector<std::string>{"2502.00004"}); // in 2025-02-10

    Archive clean;
    clean.save(make_day("2025-02-04", {paper("2502.00002", "Tuesday widgets", "Grokking on a Tuesday.")}));
    clean.save(monday);
    clean.save(make_day("2025-02-11", {paper("2502.00004", "Tuesday again", "More grokking.")}));
    clean.build();
    auto tree = file_tree(archive.dir / "site/search");
    CHECK(tree.contains(chunk_of(archive, "2025-02").substr(7)));
    CHECK(tree == file_tree(clean.dir / "site/search"));

    // The week's days removed by hand: the week before is the newest again, as a clean build has it.
    fs::remove(day_path(archive.dir / "content", date("2025-02-10")));
    fs::remove(day_path(archive.dir / "content", date("2025-02-11")));
    archive.build();
    Archive fresh;
    fresh.save(make_day("2025-02-04", {paper("2502.00002", "Tuesday widgets", "Grokking on a Tuesday.")}));
    fresh.build();
    tree = file_tree(archive.dir / "site/search");
    CHECK(tree.contains(chunk_of(archive, "2025-02-03").substr(7)));
    CHECK(chunks_of(archive, "2025-02-10").empty());
    CHECK_FALSE(fs::exists(archive.dir / "site/search/2025-02-10"));
    CHECK(tree == file_tree(fresh.dir / "site/search"));
    CHECK(ids_of(find(archive, "grokking")) == std::vector<std::string>{"2502.00002"});
}

TEST_CASE("search: a period without a paper (a quiet Monday) is up to date like any other: a no-change build redoes "
          "nothing") {
    Archive archive;
    archive.save(make_day("2025-02-10", {}));
    archive.build();
    const auto again = archive.build();
    CHECK(again.rendered == 0);
    CHECK(again.written_files.empty());
    CHECK(ids_of(find(archive, "widgets")) == std::vector<std::string>{"2502.00001"});
    CHECK(find(archive, "2025-02-10").total == 0);
}

TEST_CASE("search: an index of another format version is refused, saying which it is and what to do") {
    const auto found = search::run_query(
        [](const std::string&) -> Result<std::string> { return std::string(R"({"version":1,"periods":[]})"); },
        "grokking", 20);
    REQUIRE_FALSE(found);
    CHECK(found.error().message.find("version " + std::to_string(search::format_version) + ", got 1") !=
          std::string::npos);
    CHECK(found.error().message.find("build it again") != std::string::npos);
}
