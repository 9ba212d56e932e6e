// site/search: the client-side search data. Shards are per month, newest
// first, deterministic, escaped; the first shard a browser loads is small;
// an incremental build remakes only the shards whose days changed.
#include "content/content_tree.h"
#include "site/builder.h"
#include "site/feeds.h"
#include "site/search.h"
#include "site/urls.h"
#include "test_support.h"

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
                papers.push_back(paper("2411." + std::to_string(10000 + std::stoi(std::string(iso).substr(8)) * 100 + i),
                                       "Filler paper " + std::to_string(i) + " of " + iso,
                                       "We study filler number " + std::to_string(i) + " at length."));
            save(make_day(iso, std::move(papers)));
        }
        save(make_day("2025-02-03", {paper("2502.00001", "Quantum <b>widgets</b> & \"gadgets\"",
                                           "Self-supervised widgets bound $x_1 < y^2$ with \\mathcal{O}(n) work.")}));
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
};

} // namespace

TEST_CASE("search: abstract words are distinct, lowercased, sorted, without stop words or LaTeX commands") {
    CHECK(search_words("We propose a Self-Supervised method; the method uses $\\mathcal{O}(n)$ memory. We win.") ==
          "memory self-supervised uses win");
    CHECK(search_words("Graphs, graphs and GRAPHS") == "graphs");
    CHECK(search_words("3D scenes in RL") == "3d rl scenes");
    CHECK(search_words("Über große Modelle") == "große modelle Über"); // UTF-8 bytes are word bytes (the browser lowercases them)
}

TEST_CASE("search: the whole abstract is indexed, not its first few hundred bytes") {
    std::string many;
    for (int i = 0; i < 500; ++i) many += "word" + std::to_string(i) + " ";
    many += "zebrafish";
    const auto words = search_words(many);
    CHECK(words.find("word499") != std::string::npos);
    CHECK(words.ends_with("zebrafish"));
    Day day = make_day("2025-02-03", {paper("2502.00001", "Long", many)});
    auto read = read_search_shard(search_shard_json(2025, 2, search_entries(day)));
    REQUIRE(read);
    REQUIRE(read->size() == 1);
    CHECK(read->front().words.ends_with("zebrafish")); // the last word of a 4,000-byte abstract
}

TEST_CASE("search: word positions are gap-coded in base-32 digits and read back") {
    CHECK(encode_positions({}) == "");
    CHECK(encode_positions({0, 1, 2}) == "011");
    CHECK(encode_positions({31}) == "v");
    CHECK(encode_positions({32}) == "x0"); // 1·32 + 0: 'x' is 1, going on
    CHECK(encode_positions({5, 5 + 1025}) == "5xw1"); // 1025 = 1·1024 + 0·32 + 1: x(1) w(0) go on, 1 ends
    std::vector<std::uint32_t> positions;
    for (std::uint32_t p = 0; p < 100000; p += 1 + p % 977) positions.push_back(p);
    positions.push_back(0xffffffffu);
    CHECK(decode_positions(encode_positions(positions)).value() == positions);
    for (const char* bad : {"w", "0!", "x"}) CHECK_FALSE(decode_positions(bad));
}

TEST_CASE("search: a shard is sorted newest day first, in page order, and escaped") {
    Day older = make_day("2025-02-03", {paper("2502.00001", "A", "alpha"), paper("2502.00002", "B", "beta")});
    Day newer = make_day("2025-02-04", {paper("2502.00003", "<script>x</script>", "gamma")});
    auto entries = search_entries(older);
    auto more = search_entries(newer);
    entries.insert(entries.end(), more.begin(), more.end());
    const auto text = search_shard_json(2025, 2, entries);
    CHECK(text.find("<script") == std::string::npos);
    CHECK(text.find("\\u003cscript\\u003e") != std::string::npos);
    auto doc = parse(text);
    CHECK(std::string(doc["name"].GetString()) == "2025-02");
    const auto& list = doc["entries"];
    REQUIRE(list.Size() == 3);
    CHECK(std::string(list[0][0].GetString()) == "2025-02-04");
    CHECK(std::string(list[0][2].GetString()) == "<script>x</script>");
    CHECK(std::string(list[1][1].GetString()) == "2502.00001");
    CHECK(std::string(list[2][1].GetString()) == "2502.00002");
    CHECK(std::string(list[1][3].GetString()) == "Ada Lovelace, Alan Turing");
    const std::string vocabulary = doc["vocabulary"].GetString();
    CHECK(vocabulary == "alpha beta gamma"); // the month's words, once
    CHECK(std::string(list[2][4].GetString()) == "1"); // "beta": position 1
    // The same entries in another order give the same bytes.
    std::reverse(entries.begin(), entries.end());
    std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.date < b.date; });
    auto again = search_entries(older);
    again.insert(again.end(), more.begin(), more.end());
    CHECK(search_shard_json(2025, 2, again) == text);
}

TEST_CASE("search: the build writes an index of monthly shards, newest first, and the first shard is small") {
    Archive archive;
    archive.build();
    auto index = parse(archive.file("search/index.json"));
    CHECK(index["version"].GetInt() == 2);
    CHECK(index["papers"].GetInt() == 151);
    const auto& shards = index["shards"];
    REQUIRE(shards.Size() == 4);
    std::vector<std::string> names;
    for (const auto& shard : shards.GetArray()) names.push_back(shard["name"].GetString());
    CHECK(names == std::vector<std::string>{"2025-02", "2025-01", "2024-12", "2024-11"});
    CHECK(std::string(shards[0]["url"].GetString()) == "2025-02.json");
    CHECK(shards[0]["days"].GetInt() == 1);
    CHECK(shards[0]["papers"].GetInt() == 1);
    CHECK(shards[3]["days"].GetInt() == 2);
    CHECK(shards[3]["papers"].GetInt() == 60);

    // The newest shard holds only its month: far less than the whole archive.
    const auto first = archive.file("search/2025-02.json");
    std::size_t total = 0;
    for (const auto& name : names) total += archive.file("search/" + name + ".json").size();
    CHECK(first.size() < 600);
    CHECK(first.size() * 20 < total);
    auto shard = parse(first);
    REQUIRE(shard["entries"].Size() == 1);
    const auto& entry = shard["entries"][0];
    CHECK(std::string(entry[0].GetString()) == "2025-02-03");
    CHECK(std::string(entry[1].GetString()) == "2502.00001");
    CHECK(std::string(entry[2].GetString()) == "Quantum <b>widgets</b> & \"gadgets\"");
    CHECK(std::string(entry[3].GetString()) == "Ada Lovelace, Alan Turing");
    CHECK(std::string(shard["vocabulary"].GetString()) == "bound self-supervised widgets work");
    CHECK(std::string(entry[4].GetString()) == "0111"); // all four words
    CHECK(first.find('<') == std::string::npos);
    CHECK(first.find('&') == std::string::npos);

    auto november = parse(archive.file("search/2024-11.json"));
    REQUIRE(november["entries"].Size() == 60);
    CHECK(std::string(november["entries"][0][0].GetString()) == "2024-11-05"); // newest day first
    CHECK(std::string(november["entries"][0][2].GetString()) == "Filler paper 0 of 2024-11-05");
    CHECK(std::string(november["entries"][59][2].GetString()) == "Filler paper 29 of 2024-11-04");

    // The search page exists for the themes that have the layout, and links the index.
    const auto page = archive.file("search/index.html");
    CHECK(page.find("/search/index.json") != std::string::npos);
    CHECK(page.find("static/search.js?v=") != std::string::npos);
}

TEST_CASE("search: an incremental build remakes only the shards of changed months") {
    Archive archive;
    archive.build();
    archive.save(make_day("2025-02-04", {paper("2502.00009", "Appended paper", "Brand new words.")}));
    auto report = archive.build();
    std::set<std::string> written(report.written_files.begin(), report.written_files.end());
    CHECK(written.contains("search/2025-02.json"));
    CHECK(written.contains("search/index.json"));
    CHECK_FALSE(written.contains("search/2025-01.json"));
    CHECK_FALSE(written.contains("search/2024-11.json"));
    CHECK(report.parsed <= 5); // the new day, its neighbour, the home page, the feed: no day for the shards
    auto shard = parse(archive.file("search/2025-02.json"));
    REQUIRE(shard["entries"].Size() == 2);
    CHECK(std::string(shard["entries"][0][2].GetString()) == "Appended paper");

    // Removing the month's days removes its shard.
    fs::remove(day_path(archive.dir / "content", date("2025-02-03")));
    fs::remove(day_path(archive.dir / "content", date("2025-02-04")));
    report = archive.build();
    CHECK(std::find(report.removed_files.begin(), report.removed_files.end(), "search/2025-02.json") !=
          report.removed_files.end());
    auto index = parse(archive.file("search/index.json"));
    CHECK(std::string(index["shards"][0]["name"].GetString()) == "2025-01");
}

TEST_CASE("search: a shard reads back into the entries it was made from") {
    Day older = make_day("2025-02-03", {paper("2502.00001", "A <b>&", "alpha \"quoted\""), paper("2502.00002", "B", "beta")});
    Day newer = make_day("2025-02-04", {paper("2502.00003", "Émile's\tpaper", "gamma")});
    auto entries = search_entries(newer);
    auto more = search_entries(older);
    entries.insert(entries.end(), more.begin(), more.end()); // newest day first, as a shard keeps them
    auto read = read_search_shard(search_shard_json(2025, 2, entries));
    REQUIRE(read.has_value());
    CHECK(*read == entries);

    for (const char* bad : {"", "[]", "{\"entries\":[[\"2025-02-03\",\"x\"]]}", "{\"entries\":[[\"Feb 3\",\"a\",\"b\",\"c\",\"d\"]]}"}) {
        auto failed = read_search_shard(bad);
        REQUIRE_FALSE(failed.has_value());
        CHECK(failed.error().message.starts_with("expected"));
    }
}

TEST_CASE("search: a shard or a day's data nested 200,000 deep is an error, not a stack overflow") {
    for (const std::string& json : {std::string(200000, '['), std::string(200000, '{'),
                                   "{\"entries\":" + std::string(200000, '[') + std::string(200000, ']') + "}"}) {
        CHECK_FALSE(read_search_shard(json).has_value());
        CHECK_FALSE(day_from_json(json).has_value());
    }
}

TEST_CASE("search: a day's data read back refuses a score beyond int instead of wrapping it") {
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

TEST_CASE("search: control bytes in a title are escaped, so the shard and the day's data are JSON") {
    // rapidjson's SSE2 writer left 0x1A-0x1F raw: the browser's JSON.parse and the read-back refused the file.
    Day day = make_day("2025-02-03", {paper("2502.00001", "Red \x1b[31m title\x1f, long enough for SSE", "alpha")});
    std::string shard = search_shard_json(2025, 2, search_entries(day));
    CHECK(shard.find('\x1b') == std::string::npos);
    // rapidjson's plain writer spells it \u001B, the escape after its SSE2 writer \u001b: both are JSON.
    CHECK((shard.find("\\u001b[31m") != std::string::npos || shard.find("\\u001B[31m") != std::string::npos));
    auto entries = read_search_shard(shard);
    REQUIRE(entries.has_value());
    CHECK(entries->at(0).title == day.papers[0].title);
    auto read = day_from_json(day_json(SiteUrls("/"), day));
    REQUIRE(read.has_value());
    CHECK(read->papers.at(0).title == day.papers[0].title);
}
