// The reader's feedback (content/feedback/*.txt): the format, which
// judgement is in force, `check`, `ls` and the `feedback` command.
#include "content/content_tree.h"
#include "content/feedback.h"
#include "core/arxiv_calendar.h"
#include "test_support.h"

#include <doctest/doctest.h>
#include <rapidjson/document.h>

using namespace pp;
using namespace pp::test;

namespace {

Date date(const char* iso) { return *parse_iso_date(iso); }

std::string month_file(const fs::path& content) { return read_text(feedback_month_path(content, arxiv_today())); }

} // namespace

TEST_CASE("a feedback file: dated stars and hides, comments and blank lines") {
    auto parsed = parse_feedback("\xEF\xBB\xBF# my stars\n"
                                 "2026-11-28 star 2511.01234  # A title # with a hash\r\n"
                                 "\n"
                                 "   \n"
                                 "2026-11-27   hide\thep-th/9901001\n",
                                 "f.txt");
    CHECK(parsed.errors.empty());
    REQUIRE(parsed.judgements.size() == 2);
    CHECK(parsed.judgements[0].date == date("2026-11-28"));
    CHECK(parsed.judgements[0].verdict == Verdict::star);
    CHECK(parsed.judgements[0].id == "2511.01234");
    CHECK(parsed.judgements[1].verdict == Verdict::hide);
    CHECK(parsed.judgements[1].id == "hep-th/9901001");
}

TEST_CASE("a bad feedback line is an error naming file:line and what was expected") {
    auto parsed = parse_feedback("2026-11-28 star 2511.01234\n"
                                 "2026-11-28 like 2511.01234\n"
                                 "2026-02-30 star 2511.01234\n"
                                 "2026-11-28 star 2511.01234v2\n"
                                 "2026-11-28 star\n"
                                 "2511.01234\n"
                                 "2026-11-28 star 2511.01234 2511.04321\n",
                                 "content/feedback/x.txt");
    CHECK(parsed.judgements.size() == 1);
    REQUIRE(parsed.errors.size() == 6);
    CHECK(parsed.errors[0].to_string().find("content/feedback/x.txt:2: expected the verdict 'star' or 'hide'") == 0);
    CHECK(parsed.errors[1].to_string().find("x.txt:3: expected the judgement's date as YYYY-MM-DD") !=
          std::string::npos);
    CHECK(parsed.errors[2].to_string().find("x.txt:4: expected an arXiv ID without version") != std::string::npos);
    for (int i : {3, 4, 5}) {
        CHECK(parsed.errors[i].line == i + 2);
        CHECK(parsed.errors[i].message.find("expected 'YYYY-MM-DD star|hide ARXIV-ID'") == 0);
    }
}

TEST_CASE("the judgement in force: the latest by date, then the later file, then the later line") {
    TempDir dir;
    const fs::path content = dir / "content";
    write_text(content / "feedback/2026-11.txt", "2026-11-20 star 2511.00001\n"
                                                 "2026-11-25 star 2511.00002\n"
                                                 "2026-11-25 hide 2511.00003\n"
                                                 "2026-11-25 star 2511.00003\n");
    // Sorted after 2026-11.txt by name: on equal dates it wins.
    write_text(content / "feedback/reader-2026-11-25-120000.txt", "2026-11-21 hide 2511.00001\n"
                                                                  "2026-11-25 hide 2511.00002\n"
                                                                  "2026-11-24 hide 2511.00003\n");
    write_text(content / "feedback/notes.md", "not feedback: ignored\n");
    auto all = read_feedback(content);
    REQUIRE(all.has_value());
    CHECK(all->size() == 7);
    auto in_force = judgements_in_force(*all);
    REQUIRE(in_force.size() == 3);
    CHECK(in_force[0].id == "2511.00001"); // a later hide un-stars it
    CHECK(in_force[0].verdict == Verdict::hide);
    CHECK(in_force[1].verdict == Verdict::hide); // same date: the later file
    CHECK(in_force[2].verdict == Verdict::star); // same date and file: the later line; an earlier date loses
    CHECK(in_force[2].date == date("2026-11-25"));
}

TEST_CASE("no feedback folder is no feedback; a file linked from outside the content tree is refused") {
    TempDir dir;
    CHECK(read_feedback(dir / "content")->empty());
    write_text(dir / "secret.txt", "2026-11-28 star 2511.01234\n");
    fs::create_directories(dir / "content/feedback");
    fs::create_symlink(dir / "secret.txt", dir / "content/feedback/linked.txt");
    auto read = read_feedback(dir / "content");
    REQUIRE_FALSE(read.has_value());
    CHECK(read.error().file.find("linked.txt") != std::string::npos);
}

TEST_CASE("check validates content/feedback/ and names the bad line; the day walk takes no day from it") {
    TempDir dir;
    write_text(dir / "content/feedback/2026-11.txt", "2026-11-28 star 2511.01234\n\n2026-11-28 stra 2511.01234\n");
    write_text(dir / "content/feedback/README.md", "Feedback files: see docs/content-format.md\n");
    auto result = run_paperpress("check", dir.path());
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("feedback/2026-11.txt:3: expected the verdict 'star' or 'hide', got 'stra'") !=
          std::string::npos);
    CHECK(result.err.find("README.md") == std::string::npos);
    CHECK(result.out.find("1 errors") != std::string::npos);

    write_text(dir / "content/feedback/2026-11.txt", "2026-11-28 star 2511.01234\n");
    auto fixed = run_paperpress("check", dir.path());
    CHECK_MESSAGE(fixed.exit_code == 0, fixed.err);
    CHECK(fixed.out.find("1 feedback lines") != std::string::npos);
}

TEST_CASE("ls shows the stars and hides in force, and ls --json each day's") {
    TempDir dir;
    Day day;
    day.date = date("2025-05-20");
    for (const char* id : {"2505.00001", "2505.00002", "2505.00003"}) {
        Paper paper;
        paper.id = id;
        paper.title = std::string("Paper ") + id;
        day.papers.push_back(paper);
    }
    REQUIRE(save_day(dir / "content", day).has_value());
    write_text(dir / "content/feedback/2025-05.txt", "2025-05-21 star 2505.00001\n"
                                                     "2025-05-21 hide 2505.00002\n"
                                                     "2025-05-22 star 2505.09999\n"
                                                     "2025-05-22 hide 2505.00001\n");
    auto plain = run_paperpress("ls", dir.path());
    CHECK(plain.exit_code == 0);
    CHECK(plain.out.find("feedback in force: 1 starred, 2 hidden") != std::string::npos);
    auto listed = run_paperpress("ls --json", dir.path());
    REQUIRE(listed.exit_code == 0);
    rapidjson::Document json;
    json.Parse(listed.out.c_str());
    REQUIRE(json.IsArray());
    REQUIRE(json.Size() == 1);
    CHECK(json[0]["starred"].GetUint() == 0);
    CHECK(json[0]["hidden"].GetUint() == 2);
}

TEST_CASE("feedback star and hide append dated lines to the month's file; a hide after a star un-stars") {
    TempDir dir;
    const fs::path content = dir / "content";
    auto starred = run_paperpress("feedback star 2511.01234 arXiv:2511.04321v2 2511.01234", dir.path());
    CHECK_MESSAGE(starred.exit_code == 0, starred.err);
    const std::string today = arxiv_today().iso();
    CHECK(month_file(content) == today + " star 2511.01234\n" + today + " star 2511.04321\n");
    CHECK(starred.out.find("2 star lines added") != std::string::npos);

    auto again = run_paperpress("feedback star 2511.01234", dir.path()); // already in force: nothing added
    CHECK(again.exit_code == 0);
    CHECK(again.out.find("1 already starred") != std::string::npos);
    CHECK(run_paperpress("feedback hide 2511.01234", dir.path()).exit_code == 0);
    CHECK(month_file(content).ends_with(today + " hide 2511.01234\n"));
    auto in_force = judgements_in_force(*read_feedback(content));
    REQUIRE(in_force.size() == 2);
    CHECK(in_force[0].verdict == Verdict::hide);
    CHECK(run_paperpress("check", dir.path()).exit_code == 0);
}

TEST_CASE("feedback refuses what is not an arXiv ID with exit 2 and writes nothing") {
    TempDir dir;
    auto wrong = run_paperpress("feedback star 2511.01234 not-an-id", dir.path());
    CHECK(wrong.exit_code == 2);
    CHECK(wrong.err.find("expected an arXiv ID (2511.01234 or hep-th/9901001), got 'not-an-id'") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "content/feedback"));
    CHECK(run_paperpress("feedback star", dir.path()).exit_code == 2);
    CHECK(run_paperpress("feedback", dir.path()).exit_code == 2);
    for (const char* help : {"feedback --help", "feedback star --help", "feedback import --help"}) {
        auto shown = run_paperpress(help, dir.path());
        CHECK_MESSAGE(shown.exit_code == 0, help);
        CHECK(shown.out.find("Usage:") != std::string::npos);
    }
}

TEST_CASE("feedback import stars the reading list's starred.txt, skipping papers already starred") {
    TempDir dir;
    write_text(dir / "content/feedback/2020-01.txt", "2020-01-02 star 2511.00001\n");
    // As site.js exports it: one ID a line.
    write_text(dir / "starred.txt", "2511.00001\n2511.00002\nhep-th/9901001\n\n2511.00002\n");
    auto imported = run_paperpress("feedback import starred.txt", dir.path());
    CHECK_MESSAGE(imported.exit_code == 0, imported.err);
    const std::string today = arxiv_today().iso();
    CHECK(month_file(dir / "content") == today + " star 2511.00002\n" + today + " star hep-th/9901001\n");

    write_text(dir / "bad.txt", "2511.00003\n\nsome title\n");
    auto bad = run_paperpress("feedback import bad.txt", dir.path());
    CHECK(bad.exit_code == 1);
    CHECK(bad.err.find("bad.txt:3: expected one arXiv ID a line") != std::string::npos);
    CHECK(judgements_in_force(*read_feedback(dir / "content")).size() == 3); // nothing of bad.txt
    CHECK(run_paperpress("feedback import missing.txt", dir.path()).exit_code == 1);
}

TEST_CASE("feedback refuses to add to a content tree whose feedback has a bad line") {
    TempDir dir;
    write_text(dir / "content/feedback/old.txt", "yesterday star 2511.00001\n");
    auto result = run_paperpress("feedback hide 2511.00002", dir.path());
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("old.txt:1:") != std::string::npos);
    CHECK_FALSE(fs::exists(feedback_month_path(dir / "content", arxiv_today())));
}
