// content/importer: the reference system's archive comes over whole.
#include "content/content_tree.h"
#include "content/importer.h"
#include "content/legacy_json.h"
#include "content/prompt_store.h"
#include "test_support.h"

#include <doctest/doctest.h>
#include <rapidjson/document.h>

#include <map>
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

TEST_CASE("legacy JSON: scores, tokens and costs a day file cannot hold are errors naming the file") {
    auto output = [](const std::string& relevance) {
        return R"({"2501.00001": {"title": "T", "authors": ["A"], "abstract": "x", "RELEVANCE": )" + relevance +
               R"(, "NOVELTY": 5}})";
    };
    auto fine = parse_output_json(output("\"7\""), "2025-01-02-output.json");
    REQUIRE_MESSAGE(fine.has_value(), fine.error().to_string());
    CHECK(fine->at(0).relevance == 7);
    for (const std::string bad : {"15", "-3", "1e300", "\"nan\"", "\"inf\""}) {
        INFO("RELEVANCE " << bad);
        auto papers = parse_output_json(output(bad), "2025-01-02-output.json");
        REQUIRE_FALSE(papers.has_value());
        CHECK(papers.error().file == "2025-01-02-output.json");
        CHECK(papers.error().message.starts_with("expected RELEVANCE of '2501.00001' to be a number from 0 to 10"));
    }

    auto usage = [](const std::string& field) { return R"({"meta": {"usage": {"model": "m", )" + field + "}}}"; };
    auto good = parse_daily_papers_json(usage(R"("prompt_tokens": 1200.0, "completion_tokens": "30", "prompt_cost": 0.5)"),
                                        "daily.json");
    REQUIRE_MESSAGE(good.has_value(), good.error().to_string());
    CHECK(good->tokens == Tokens{1200, 30, 0});
    for (const std::string bad : {R"("prompt_tokens": -5)", R"("completion_tokens": 1e300)", R"("cached_tokens": "nan")",
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
