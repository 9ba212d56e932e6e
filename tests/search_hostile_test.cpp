// `paperpress search` over a hostile search/ folder (search/query.h): a site
// folder can come from anyone's fork. Each case is a small file of the
// index, built here, that once took gigabytes, seconds, or a file outside the
// site; now it is an error naming the index file, within bounded memory.
#include "search/index.h"
#include "search/query.h"
#include "test_support.h"
#include "util/gzip.h"

#include <doctest/doctest.h>

#include <chrono>
#include <set>

using namespace pp;
using namespace pp::test;

namespace {

std::string manifest(const std::string& periods) {
    return R"({"version":)" + std::to_string(search::format_version) + R"(,"periods":[)" + periods + "]}";
}

std::string period(const std::string& name, const std::string& days, const std::string& chunks = R"("a")") {
    return R"({"name":")" + name + R"(","days":")" + days + R"(","chunks":[)" + chunks + "]}";
}

std::string repeated(const std::string& text, std::size_t times, const std::string& between = "") {
    std::string out;
    out.reserve((text.size() + between.size()) * times);
    for (std::size_t i = 0; i < times; ++i) out += (i ? between : "") + text;
    return out;
}

// A day's results file: `papers` papers of that date, in number order.
std::string day_file(const std::string& date, std::size_t papers) {
    std::string json = R"({"date":")" + date + R"(","papers":[)";
    for (std::size_t i = 0; i < papers; ++i)
        json += (i ? "," : "") + std::string(R"([")") + std::to_string(2401'00000 + i) + R"(","Paper )" +
                std::to_string(i) + R"(","Ada Lovelace, Alan Turing",)" + std::to_string(i % 21) + R"(,"Widgets"])";
    return json + "]}";
}

// A file of the index as the build writes it: a day's file gzip'd, the rest plain.
std::string as_written(const std::string& site_path, const std::string& text) {
    return site_path.ends_with(".gz") ? gzip_small(text) : text;
}

// A site folder whose search/ files a test writes.
struct Site {
    TempDir dir;
    void put(const std::string& site_path, const std::string& text) const {
        write_text(dir / "site" / site_path, as_written(site_path, text));
    }
    // `paperpress search` in a child: at most 60 s, and (without AddressSanitizer, which
    // reserves terabytes of address space) 1 GiB of it, so a query that wants gigabytes aborts.
    CommandResult search(const std::string& args) const {
#if defined(__SANITIZE_ADDRESS__)
        const std::string limits = "timeout 60";
#else
        const std::string limits = "timeout 60 prlimit --as=" + std::to_string(1u << 30) + " --";
#endif
        return run_paperpress_env(limits, "search " + args + " --site site", dir.path());
    }
};

// The reads of a query over `files` (site path -> text, as written when read).
Result<search::Found> query(const std::map<std::string, std::string>& files, const std::string& text,
                            std::size_t limit = 20, std::vector<std::string>* paths = nullptr) {
    return search::run_query(
        [&](const std::string& path) -> Result<std::string> {
            if (paths) paths->push_back(path);
            auto it = files.find(path);
            if (it == files.end()) return fail("no such file", path);
            return as_written(path, it->second);
        },
        text, limit);
}

} // namespace

TEST_CASE("search, hostile: a list of periods that repeats a day, or a period, is refused at once, naming the file") {
    // 20,000 times a day of 5,000 papers in a few hundred bytes gzip'd: the old reader listed 10^8 papers.
    Site site;
    site.put(search::manifest_path, manifest(period("2024", repeated("0101:5000", 20000, ","))));
    auto result = site.search("2024-01");
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("site/search/index.json") != std::string::npos);
    CHECK(result.err.find("each a day of period '2024', in date order") != std::string::npos);

    site.put(search::manifest_path, manifest(repeated(period("2024", "0101:5000,0102:5000"), 20000, ",")));
    result = site.search("2024-01");
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("site/search/index.json") != std::string::npos);
    CHECK(result.err.find("expected each period once, newest first") != std::string::npos);

    // A day outside its period, or in two of them.
    for (const auto& periods :
         {period("2024-12", "1130:1"), period("2024-12-24", "1223:1"), period("2024-12-23", "1230:1"),
          period("2024-12", "1202:1") + "," + period("2024", "1202:1")}) {
        CAPTURE(periods);
        auto found = query({{search::manifest_path, manifest(periods)}}, "2024");
        REQUIRE_FALSE(found);
        CHECK(found.error().file == search::manifest_path);
    }
    // What the build writes reads: the newest week, the month's days before it, its year, a year before.
    auto found =
        query({{search::manifest_path,
                manifest(period("2024-12-23", "1223:1,1224:0") + "," + period("2024-12", "1202:1") + "," +
                         period("2024", "0101:2,1129:1") + "," + period("2023", "") + "," + period("2022", "0103:1"))},
               {"search/days/2024-12-02.json.gz", day_file("2024-12-02", 1)}},
              "2024-12-02");
    REQUIRE_MESSAGE(found, found.error().to_string());
    CHECK(found->total == 1);
}

TEST_CASE("search, hostile: a chunk of 64 MB of postings, or a list of periods of 64 MB of '[', is an error, not "
          "gigabytes") {
    Site site;
    site.put(search::manifest_path, manifest(period("2024", "0101:1", R"("widget")")));
    site.put(search::chunk_path("2024", "widget"), "widget\t" + repeated("E", 30u << 20));
    auto result = site.search("widget");
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("site/" + search::chunk_path("2024", "widget")) != std::string::npos);
    CHECK(result.err.find("expected postings below the period's 1 papers") != std::string::npos);

    site.put(search::manifest_path, std::string(64u << 20, '['));
    result = site.search("widget");
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("site/search/index.json") != std::string::npos);
    // Refused as it is read: the list of periods is read no further than its limit.
    CHECK(result.err.find(std::to_string(search::max_manifest_bytes) + " bytes") != std::string::npos);

    // Within its limit, nesting the writer never writes is refused before rapidjson stacks it up.
    auto found = query({{search::manifest_path, std::string(1u << 20, '[')}}, "widget");
    REQUIRE_FALSE(found);
    CHECK(found.error().message.find("nested at most 4 deep") != std::string::npos);
}

TEST_CASE("search, hostile: a period named with ../ or a link out of the site reads nothing outside the site") {
    Site site;
    write_text(site.dir / "secret" / (search::chunk_name("widget") + ".txt"), "widget\tE\n");
    site.put("search/days/2024-01-01.json.gz", day_file("2024-01-01", 1));
    site.put(search::manifest_path, manifest(period("2024/../../../secret", "0101:1", R"("widget")")));
    fs::create_directories(site.dir / "site/search/2024"); // so that the path resolves
    auto result = site.search("widget");
    CAPTURE(result.out);
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("site/search/index.json") != std::string::npos);
    CHECK(result.err.find("expected period names as the build writes them") != std::string::npos);
    CHECK(result.out.find("secret") == std::string::npos);

    // A period's folder that is a link to a folder outside the site.
    site.put(search::manifest_path, manifest(period("2024", "0101:1", R"("widget")")));
    fs::remove(site.dir / "site/search/2024");
    fs::create_directory_symlink(site.dir / "secret", site.dir / "site/search/2024");
    result = site.search("widget");
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("site/" + search::chunk_path("2024", "widget")) != std::string::npos);
    CHECK(result.out.find("1 paper found") == std::string::npos);
    fs::remove(site.dir / "site/search/2024");
    site.put(search::chunk_path("2024", "widget"), "widget\tE\n");
    result = site.search("widget");
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("1 paper found") != std::string::npos);
}

TEST_CASE("search, hostile: --limit 5000 reads and parses each day's file once") {
    // A day of 5,000 papers, all matching: the old reader parsed its file again for every hit (4.5-13 s).
    std::map<std::string, std::string> files{
        {search::manifest_path, manifest(period("2024", "0101:5000", R"("widget")"))},
        {search::chunk_path("2024", "widget"), "widget\t" + repeated("E", 5000) + "\n"},
        {"search/days/2024-01-01.json.gz", day_file("2024-01-01", 5000)}};
    std::vector<std::string> paths;
    const auto started = std::chrono::steady_clock::now();
    auto found = query(files, "widget", 5000, &paths);
    const auto took = std::chrono::steady_clock::now() - started;
    REQUIRE_MESSAGE(found, found.error().to_string());
    CHECK(took < std::chrono::seconds(2));
    CHECK(found->total == 5000);
    REQUIRE(found->hits.size() == 5000);
    CHECK(found->hits[0].title == "Paper 4999"); // higher number first
    CHECK(found->hits[4999].title == "Paper 0");
    CHECK(found->hits[0].score == 4999 % 21);
    CHECK(paths == std::vector<std::string>{search::manifest_path, search::chunk_path("2024", "widget"),
                                            "search/days/2024-01-01.json.gz"});
    CHECK(found->unpacked > files["search/days/2024-01-01.json.gz"].size());
}

TEST_CASE("search, hostile: a query unpacks at most max_query_bytes in all, and says which file went past it") {
    // Three chunks of 48 MB of text each, each under any one file's limit.
    const std::string filler = repeated("x", 48u << 20);
    std::map<std::string, std::string> files{
        {search::manifest_path, manifest(period("2024", "0101:1", R"("abc0","abc1","abc2")"))}};
    for (int c = 0; c < 3; ++c)
        files[search::chunk_path("2024", "abc" + std::to_string(c))] = "abc" + std::to_string(c) + "\tE\n" + filler;
    auto found = query(files, "abc");
    REQUIRE_FALSE(found);
    CHECK(found.error().file == search::chunk_path("2024", "abc2"));
    CHECK(found.error().message.find("what is left of a query's " + std::to_string(search::max_query_bytes)) !=
          std::string::npos);
    files.erase(search::chunk_path("2024", "abc2"));
    files[search::manifest_path] = manifest(period("2024", "0101:1", R"("abc0","abc1")"));
    files["search/days/2024-01-01.json.gz"] = day_file("2024-01-01", 1);
    found = query(files, "abc");
    REQUIRE_MESSAGE(found, found.error().to_string());
    CHECK(found->total == 1);
    CHECK(found->unpacked <= search::max_query_bytes);
}

TEST_CASE("search, hostile: postings not as append_posting() writes them are an error naming the chunk") {
    for (const auto& [postings, why] : std::vector<std::pair<std::string, std::string>>{
             {"4,5", "expected postings (0-9a-z, then A-Z)"},                           // the format before version 3
             {"EF1", "expected each posting to end in a capital"},                      // digits with no last one
             {"A", "at least 1 past the last"},                                         // a gap of 0
             {"1000000E", "expected postings of at most 7 characters"},                 // 7 digits
             {repeated("z", 40) + "E", "expected postings of at most 7 characters"}}) { // no overflow
        CAPTURE(postings);
        auto found = query({{search::manifest_path, manifest(period("2024", "0101:3", R"("widget")"))},
                            {search::chunk_path("2024", "widget"), "widget\t" + postings + "\n"}},
                           "widget");
        REQUIRE_FALSE(found);
        CHECK(found.error().file == search::chunk_path("2024", "widget"));
        CHECK(found.error().message.find(why) != std::string::npos);
    }
}
