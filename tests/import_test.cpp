// content/importer: the reference system's archive comes over whole.
#include "content/checker.h"
#include "content/content_tree.h"
#include "content/day_file.h"
#include "content/importer.h"
#include "content/legacy_json.h"
#include "content/prompt_store.h"
#include "test_support.h"

#include <doctest/doctest.h>
#include <rapidjson/document.h>

#include <map>
#include <random>
#include <set>

using namespace pp;
using namespace pp::test;

namespace {

ImportReport import_into(const fs::path& source, const fs::path& content) {
    return import_archive(source, content, [](const std::string&) {});
}

Day day_at(const fs::path& content, const char* date) {
    auto day = load_day(day_path(content, *parse_iso_date(date)));
    REQUIRE_MESSAGE(day.has_value(), day.error().to_string());
    return *day;
}

std::vector<std::string> ids_of(const Day& day) {
    std::vector<std::string> ids;
    for (const auto& paper : day.papers) ids.push_back(paper.id);
    return ids;
}

// A tree shared by the tests that only read the result.
const fs::path& imported_fixture() {
    static TempDir dir;
    static bool done = false;
    if (!done) {
        auto report = import_into(fixture_archive(), dir / "content");
        REQUIRE(report.errors.empty());
        done = true;
    }
    static fs::path content = dir / "content";
    return content;
}

} // namespace

TEST_CASE("importing the fixture archive loses no paper: every day's IDs match its JSON") {
    const fs::path& content = imported_fixture();
    int days = 0;
    for (const auto& entry : fs::recursive_directory_iterator(fixture_archive() / "json")) {
        std::string name = entry.path().filename().string();
        if (!name.ends_with("-output.json")) continue;
        ++days;
        rapidjson::Document json;
        json.Parse(read_text(entry.path()).c_str());
        REQUIRE(json.IsObject());
        std::set<std::string> expected;
        for (const auto& member : json.GetObject()) expected.insert(member.name.GetString());
        Day day = day_at(content, name.substr(0, 10).c_str());
        auto ids = ids_of(day);
        CHECK_MESSAGE(std::set<std::string>(ids.begin(), ids.end()) == expected, name);
        CHECK_MESSAGE(ids.size() == expected.size(), name);
        // Every paper keeps its text fields from the JSON.
        for (const auto& paper : day.papers) {
            const auto& entry_json = json[paper.id.c_str()];
            CHECK(paper.title == std::string(entry_json["title"].GetString()).substr(0, paper.title.size()));
            CHECK_FALSE(paper.abstract.empty());
            CHECK_FALSE(paper.abstract.starts_with("arXiv:"));
        }
    }
    CHECK(days == 93);
    CHECK(scan_content(content).days.size() == 93);
}

TEST_CASE("papers keep the page's order, and topic-era pages keep their topics") {
    const fs::path& content = imported_fixture();
    // 2026-04-06-latest.md groups papers by topic; output.json has another order.
    Day day = day_at(content, "2026-04-06");
    auto ids = ids_of(day);
    REQUIRE(ids.size() == 7);
    CHECK(ids[0] == "2604.03191");
    CHECK(ids[1] == "2604.02685");
    CHECK(day.papers[0].topic == "Architecture and Training Dynamics");
    CHECK(day.papers[0].also_topics == std::vector<std::string>{"Efficiency, Compression, and Large-Scale Training"});
    CHECK(day.papers[0].topic_note.starts_with("The central contribution"));
    CHECK(day.papers[0].relevance == 8);
    // The HTML usage table of the -latest.md era.
    CHECK(day.model == "gpt-5.4");
    REQUIRE(day.tokens.has_value());
    CHECK(day.tokens->prompt == 143446);
    CHECK(day.tokens->completion == 17111);
    CHECK(day.cost.total == doctest::Approx(0.62));
    CHECK(day.counts.arxiv == 455);
    CHECK(day.counts.scanned == 291);
    CHECK(day.counts.relevant == 7);
}

TEST_CASE("every historical header variant is read") {
    const fs::path& content = imported_fixture();
    SUBCASE("MM/DD/YYYY era with a 'Total cost:' line and link0 anchors") {
        Day day = day_at(content, "2025-01-17");
        CHECK(day.cost.total == doctest::Approx(0.980125));
        CHECK(day.counts.relevant == 25);
        CHECK(day.papers.size() == 25);
        CHECK(day.papers[0].id == "2501.09412");
        CHECK(day.papers[0].authors.size() == 6);
        // An author whose affiliation holds commas stays one author.
        CHECK(day.papers[1].authors[0] == "Kuan-Ming Liu (National Chengchi University, College of Commerce)");
        CHECK_FALSE(day.prompt.empty());
    }
    SUBCASE("token table without a model name") {
        Day day = day_at(content, "2025-01-23");
        CHECK(day.model.empty());
        REQUIRE(day.tokens.has_value());
        CHECK(day.tokens->prompt == 47901);
        CHECK(day.cost.prompt == doctest::Approx(1.19752));
        CHECK(day.cost.total == doctest::Approx(1.60512));
    }
    SUBCASE("centered table, remedial banner") {
        Day day = day_at(content, "2025-03-14");
        CHECK(day.model == "gpt-4o");
        REQUIRE(day.remedial.has_value());
        CHECK(day.remedial->from.iso() == "2025-03-13");
        CHECK(day.remedial->to.iso() == "2025-03-13");
        CHECK(day.remedial->generated->iso() == "2025-03-24");
        CHECK(day.counts.arxiv == 289);
        CHECK(day.tokens->completion == 6534);
    }
    SUBCASE("author matches carry no scores and are marked") {
        int matches = 0;
        for (const auto& file : scan_content(content).days) {
            auto day = load_day(file.path);
            REQUIRE(day.has_value());
            for (const auto& paper : day->papers)
                if (paper.author_match) {
                    ++matches;
                    CHECK(paper.comment.empty());
                }
        }
        CHECK(matches > 0);
    }
}

TEST_CASE("Markdown-only pages import whole: the seed pages") {
    TempDir dir;
    for (const char* seed : {"000_1e2b1ac32662209a.txt", "001_6a14256ee3d0d76c.txt", "002_ecafd45c053d9065.txt"}) {
        auto report = import_into(seeds_dir() / seed, dir / "content");
        CHECK(report.errors.empty());
        CHECK(report.days_written == 1);
    }
    Day day = day_at(dir / "content", "2025-05-20");
    CHECK(day.model == "gpt-4o");
    CHECK(day.tokens->prompt == 54622);
    CHECK(day.cost.total == doctest::Approx(0.21));
    CHECK(day.counts.arxiv == 472);
    CHECK(day.counts.relevant == 49);
    CHECK(day.papers.size() == 49);
    REQUIRE(day.remedial.has_value());
    CHECK(day.remedial->generated->iso() == "2025-05-26");
    CHECK(day.papers[0].title == "Mean Flows for One-step Generative Modeling");
    CHECK(day.papers[0].author_match);
    CHECK_FALSE(day.papers[0].relevance.has_value());
    CHECK(day.papers[1].relevance.has_value());
    auto prompt = load_prompt(dir / "content", day.prompt);
    REQUIRE(prompt.has_value());
    CHECK(prompt->find("Keywords") != std::string::npos);
    CHECK(scan_content(dir / "content").days.size() == 3);
}

TEST_CASE("importing twice changes nothing") {
    TempDir dir;
    auto first = import_into(fixture_archive(), dir / "content");
    std::map<fs::path, std::string> before;
    for (const auto& entry : fs::recursive_directory_iterator(dir / "content"))
        if (entry.is_regular_file()) before[entry.path()] = read_text(entry.path());
    auto second = import_into(fixture_archive(), dir / "content");
    CHECK(second.days_written == 0);
    CHECK(second.days_unchanged == first.days_written);
    std::map<fs::path, std::string> after;
    for (const auto& entry : fs::recursive_directory_iterator(dir / "content"))
        if (entry.is_regular_file()) after[entry.path()] = read_text(entry.path());
    CHECK(before == after);
}

TEST_CASE("failed runs, repeated papers and unreadable files are reported, and the rest is imported") {
    TempDir dir;
    fs::path source = dir / "out";
    // A failed run: the page has zero tokens and no papers.
    write_text(source / "md/2026-06-08/2026-06-08-latest.md",
               "# Personalized Daily ArXiv Papers 2026-06-08\n\n"
               "| *[gpt-5.4]* | Prompt | Completion | Total |\n|:--:|:--:|:--:|:--:|\n"
               "| **Token** | 0 | 0 | 0 |\n| **Cost** | $0.0 | $0.0 | $0.0 |\n\n"
               "Total arXiv papers: 500\n\nTotal scanned papers: 300\n\nTotal relevant papers: 0\n");
    // Two days listing the same paper.
    for (const char* date : {"2026-06-09", "2026-06-10"})
        write_text(source / "json/2026-06" / (std::string(date) + "-output.json"),
                   R"({"2606.00001": {"title": "T", "authors": ["A"], "abstract": "x", "arxiv_id": "2606.00001",
                        "COMMENT": "c", "RELEVANCE": 9, "NOVELTY": "8"}})");
    // A broken file.
    write_text(source / "json/2026-06/2026-06-11-output.json", "{\"2606.00002\": {\n  \"title\": }");

    auto report = import_into(source, dir / "content");
    REQUIRE(report.errors.size() == 1);
    CHECK(report.errors[0].file.ends_with("2026-06-11-output.json"));
    CHECK(report.errors[0].line == 2);
    CHECK(report.days_written == 3);

    Day failed = day_at(dir / "content", "2026-06-08");
    CHECK(failed.status == DayStatus::failed);
    CHECK(failed.counts.arxiv == 500);
    auto mentions = [&](const std::string& text) {
        for (const auto& warning : report.warnings)
            if (warning.find(text) != std::string::npos) return true;
        return false;
    };
    CHECK(mentions("2026-06-08: zero tokens and zero papers: recorded as a failed run"));
    CHECK(mentions("2026-06-10: 1 papers were already listed on an earlier day"));
    Day repeat = day_at(dir / "content", "2026-06-10");
    REQUIRE(repeat.papers.size() == 1);
    CHECK(repeat.papers[0].relevance == 9);
    CHECK(repeat.papers[0].novelty == 8);
}

// Issue 46: the failed-run rule needs both zero tokens and zero papers. A day the LLM read and found
// nothing relevant in is quiet, and one whose papers came without a token count (only the JSON) is not
// a failure either: both stay announced.
TEST_CASE("import: only a day with zero tokens and zero papers is a failed run; a quiet day is not") {
    TempDir dir;
    fs::path source = dir / "out";
    auto page = [&](const char* date, int tokens) {
        const std::string t = std::to_string(tokens);
        write_text(source / "md" / date / (std::string(date) + "-latest.md"),
                   "# Personalized Daily ArXiv Papers " + std::string(date) +
                       "\n\n| *[gpt-5.4]* | Prompt | Completion | Total |\n|:--:|:--:|:--:|:--:|\n"
                       "| **Token** | " +
                       t + " | 0 | " + t +
                       " |\n| **Cost** | $0.0 | $0.0 | $0.0 |\n\n"
                       "Total arXiv papers: 500\n\nTotal scanned papers: 300\n\nTotal relevant papers: 0\n");
    };
    page("2026-06-08", 0);     // failed: nothing read, nothing found
    page("2026-06-09", 12000); // quiet: read, nothing relevant
    write_text(source / "json/2026-06/2026-06-10-output.json",
               R"({"2606.00001": {"title": "T", "authors": ["A"], "abstract": "x", "arxiv_id": "2606.00001",
                   "COMMENT": "c", "RELEVANCE": 9, "NOVELTY": 8}})"); // papers, no token count
    auto report = import_into(source, dir / "content");
    REQUIRE(report.errors.empty());
    CHECK(report.days_written == 3);
    CHECK(day_at(dir / "content", "2026-06-08").status == DayStatus::failed);
    Day quiet = day_at(dir / "content", "2026-06-09");
    CHECK(quiet.status == DayStatus::announced);
    CHECK(quiet.papers.empty());
    CHECK(day_at(dir / "content", "2026-06-10").status == DayStatus::announced);
    int failed_warnings = 0;
    for (const auto& warning : report.warnings) failed_warnings += warning.find("failed run") != std::string::npos;
    CHECK(failed_warnings == 1);
}

namespace {

bool any_mentions(const std::vector<std::string>& warnings, std::initializer_list<std::string> parts) {
    for (const auto& warning : warnings) {
        bool all = true;
        for (const auto& part : parts) all = all && warning.find(part) != std::string::npos;
        if (all) return true;
    }
    return false;
}

// Every day file under `content` reads back, and `paperpress check` finds nothing wrong.
void check_all_readable(const fs::path& content) {
    auto scan = scan_content(content);
    REQUIRE_FALSE(scan.days.empty());
    for (const auto& file : scan.days) {
        auto day = load_day(file.path);
        CHECK_MESSAGE(day.has_value(), day.error().to_string());
    }
    auto checked = check_content(content);
    for (const auto& error : checked.errors) CHECK_MESSAGE(false, error.to_string());
}

std::string read_whole(const fs::path& path) { return read_text(path); }

} // namespace

TEST_CASE("values the reference wrote out of range are clamped or dropped, with a warning naming file and paper") {
    TempDir dir;
    const fs::path page = dir / "out/md/2026-06/2026-06-09-output.md";
    auto section = [](const char* id, const std::string& fields) {
        return std::string("## [Paper ") + id + "](https://arxiv.org/abs/" + id + ")\n\n**Authors:** A. Author\n\n" +
               fields + "**Abstract:** Text.\n\n---\n\n";
    };
    write_text(page, "# Personalized Daily ArXiv Papers 06/09/2026\n\n"
                     "Total arXiv papers: -5\n\nTotal relevant papers: 3\n\n" +
                         section("2606.00001", "**Relevance:** 11\n\n**Novelty:** -1\n\n") +
                         section("2606.00002", "**Relevance:** 1e300\n\n**Novelty:** 7\n\n") +
                         section("2606.00001", "**Relevance:** 5\n\n") +
                         section("2606.00003", "**Comment:** a\x01"
                                               "bell\x07 and a tab\x0b\n\n"));
    auto report = import_into(dir / "out", dir / "content");
    for (const auto& error : report.errors) CHECK_MESSAGE(false, error.to_string());
    REQUIRE(report.days_written == 1);

    Day day = day_at(dir / "content", "2026-06-09");
    CHECK(ids_of(day) == std::vector<std::string>{"2606.00001", "2606.00002", "2606.00003"});
    CHECK(day.papers[0].relevance == 10);
    CHECK(day.papers[0].novelty == 0);
    CHECK(day.papers[1].relevance == 10);
    CHECK_FALSE(day.counts.arxiv.has_value());
    CHECK(day.counts.relevant == 3);
    CHECK(day.papers[2].comment == "a bell  and a tab");

    const std::string file = page.string();
    CHECK(
        any_mentions(report.warnings, {file, "paper '2606.00001'", "Relevance 11 is outside 0 to 10; written as 10"}));
    CHECK(any_mentions(report.warnings, {file, "paper '2606.00001'", "Novelty -1 is outside 0 to 10; written as 0"}));
    CHECK(any_mentions(report.warnings, {file, "paper '2606.00002'", "Relevance 1000000 is outside"}));
    CHECK(any_mentions(report.warnings,
                       {file, "paper '2606.00001'", "is listed twice on 2026-06-09; the second is left out"}));
    CHECK(any_mentions(report.warnings, {file, "count of arXiv papers -5 is negative; left out"}));
    check_all_readable(dir / "content");
}

TEST_CASE("JSON scores out of range are clamped, with a warning naming the JSON file and the paper") {
    TempDir dir;
    const fs::path json = dir / "out/json/2026-06/2026-06-10-output.json";
    write_text(json, R"({"2606.00001": {"title": "T", "authors": ["A"], "abstract": "x", "arxiv_id": "2606.00001",
                          "COMMENT": "c", "RELEVANCE": 12, "NOVELTY": -3}})");
    auto report = import_into(dir / "out", dir / "content");
    for (const auto& error : report.errors) CHECK_MESSAGE(false, error.to_string());
    Day day = day_at(dir / "content", "2026-06-10");
    CHECK(ids_of(day) == std::vector<std::string>{"2606.00001"});
    CHECK(day.papers[0].relevance == 10);
    CHECK(day.papers[0].novelty == 0);
    CHECK(any_mentions(report.warnings, {json.string(), "paper '2606.00001'", "Relevance 12"}));
    check_all_readable(dir / "content");
}

TEST_CASE("a legacy page starting with a UTF-8 byte order mark imports as without it") {
    TempDir dir;
    const std::string seed = read_whole(seeds_dir() / "000_1e2b1ac32662209a.txt");
    write_text(dir / "plain.md", seed);
    write_text(dir / "bom.md", "\xEF\xBB\xBF" + seed);
    auto plain = import_into(dir / "plain.md", dir / "plain");
    auto bom = import_into(dir / "bom.md", dir / "bom");
    CHECK(bom.errors.empty());
    REQUIRE(plain.days_written == 1);
    REQUIRE(bom.days_written == 1);
    auto days = scan_content(dir / "plain").days;
    REQUIRE(days.size() == 1);
    CHECK(read_text(day_path(dir / "bom", days[0].date)) == read_text(days[0].path));
}

TEST_CASE("property: every imported fixture day, and hostile variants of each, pass the day-file reader") {
    // The fixtures as they are.
    check_all_readable(imported_fixture());

    // Each fixture page and JSON file with its scores replaced by random ones
    // (out of range too) and a paper section repeated: what a careless edit
    // of the reference's output could give.
    std::mt19937 random(20260609);
    std::uniform_int_distribution<int> score(-20, 30);
    TempDir dir;
    auto rewrite_numbers = [&](std::string text, const std::string& label) {
        for (std::size_t at = text.find(label); at != std::string::npos; at = text.find(label, at + 1)) {
            std::size_t start = at + label.size();
            std::size_t end = text.find_first_not_of("0123456789.", start);
            if (end != start) text.replace(start, end - start, std::to_string(score(random)));
        }
        return text;
    };
    int files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(fixture_archive())) {
        if (!entry.is_regular_file()) continue;
        std::string text = read_whole(entry.path());
        const std::string name = entry.path().filename().string();
        if (name.ends_with("-output.md") || name.ends_with("-latest.md")) {
            text = rewrite_numbers(rewrite_numbers(text, "**Relevance:** "), "**Novelty:** ");
            auto first = text.find("\n## ");
            auto second = first == std::string::npos ? first : text.find("\n## ", first + 1);
            if (second != std::string::npos)
                text.insert(second, text.substr(first, second - first)); // the first paper twice
        } else if (name.ends_with("-output.json")) {
            text = rewrite_numbers(rewrite_numbers(text, "\"RELEVANCE\": "), "\"NOVELTY\": ");
        }
        write_text(dir / "out" / fs::relative(entry.path(), fixture_archive()), text);
        ++files;
    }
    REQUIRE(files > 100);
    auto report = import_into(dir / "out", dir / "content");
    for (const auto& error : report.errors) CHECK_MESSAGE(false, error.to_string());
    CHECK(any_mentions(report.warnings, {"is outside 0 to 10"}));
    CHECK(any_mentions(report.warnings, {"is listed twice on"}));
    check_all_readable(dir / "content");
}

TEST_CASE("legacy JSON: scores, tokens and costs a day file cannot hold are errors naming the file") {
    auto output = [](const std::string& relevance) {
        return R"({"2501.00001": {"title": "T", "authors": ["A"], "abstract": "x", "RELEVANCE": )" + relevance +
               R"(, "NOVELTY": 5}})";
    };
    auto fine = parse_output_json(output("\"7\""), "2025-01-02-output.json");
    REQUIRE_MESSAGE(fine.has_value(), fine.error().to_string());
    CHECK(fine->at(0).relevance == 7);
    for (const std::string bad : {"\"nan\"", "\"inf\""}) {
        INFO("RELEVANCE " << bad);
        auto papers = parse_output_json(output(bad), "2025-01-02-output.json");
        REQUIRE_FALSE(papers.has_value());
        CHECK(papers.error().file == "2025-01-02-output.json");
        CHECK(papers.error().message.starts_with("expected RELEVANCE of '2501.00001' to be a number"));
    }
    // Out of range is read as written (bounded), for the importer to clamp with a warning.
    for (const auto& [written, read] : {std::pair<std::string, int>{"15", 15}, {"-3", -3}, {"1e300", 1000}}) {
        auto papers = parse_output_json(output(written), "2025-01-02-output.json");
        REQUIRE_MESSAGE(papers.has_value(), papers.error().to_string());
        CHECK(papers->at(0).relevance == read);
    }

    auto usage = [](const std::string& field) { return R"({"meta": {"usage": {"model": "m", )" + field + "}}}"; };
    auto good = parse_daily_papers_json(
        usage(R"("prompt_tokens": 1200.0, "completion_tokens": "30", "prompt_cost": 0.5)"), "daily.json");
    REQUIRE_MESSAGE(good.has_value(), good.error().to_string());
    CHECK(good->tokens == Tokens{1200, 30, 0});
    for (const std::string bad :
         {R"("prompt_tokens": -5)", R"("completion_tokens": 1e300)", R"("cached_tokens": "nan")",
          R"("prompt_cost": -1)", R"("completion_cost": "inf")", R"("total_arxiv_papers": -2)"}) {
        INFO("usage " << bad);
        auto parsed = parse_daily_papers_json(usage(bad), "daily.json");
        REQUIRE_FALSE(parsed.has_value());
        CHECK(parsed.error().file == "daily.json");
        CHECK(parsed.error().message.starts_with("expected '"));
    }
}

TEST_CASE("legacy JSON nested 200,000 deep is an error, not a stack overflow") {
    for (const std::string& text : {std::string(200000, '['), std::string(200000, '[') + std::string(200000, ']')}) {
        CHECK_FALSE(parse_daily_papers_json(text, "daily.json").has_value());
        auto papers = parse_output_json(text, "output.json");
        REQUIRE_FALSE(papers.has_value());
        CHECK(papers.error().file == "output.json");
    }
}
