// content/day_file and content_tree: the day file contract.
#include "content/content_tree.h"
#include "content/day_file.h"
#include "content/front_matter.h"
#include "test_support.h"

#include <doctest/doctest.h>

using namespace pp;
using namespace pp::test;

namespace {

Paper hostile_paper() {
    Paper p;
    p.id = "2505.13447";
    p.title = "$\\mathcal{O}(n)$ <script>alert(1)</script> [x] *y* _z_ | w";
    p.authors = {"Lenka Zdeborov\\'a", "Kuan-Ming Liu (National Chengchi University, College of Commerce)",
                 "Peter Bühlmann"};
    p.abstract = "We show $\\mathcal{O}(n)$ time for x_1 * y_2 < z.\n\n# Not a heading\n1. not a list";
    p.comment = "Relevant: matches [Compression] & <sparsity>.";
    p.relevance = 9;
    p.novelty = 8;
    p.topic = "Efficiency, Compression, and Large-Scale Training";
    p.also_topics = {"Architecture and Training Dynamics", "Representation Learning"};
    p.topic_note = "Squarely on topic | pipes too";
    return p;
}

Day full_day() {
    Day day;
    day.date = *parse_iso_date("2025-05-20");
    day.model = "gpt-4o";
    day.tokens = Tokens{54622, 7163, 1200};
    day.cost = Cost{0.14, 0.07, 0.21};
    day.counts = Counts{472, 472, 49};
    day.remedial =
        Remedial{*parse_iso_date("2025-05-19"), *parse_iso_date("2025-05-19"), *parse_iso_date("2025-05-26")};
    day.prompt = "prompts/0123456789abcdef.md";
    day.papers.push_back(hostile_paper());
    Paper author;
    author.id = "hep-th/9901001";
    author.title = "An author match";
    author.authors = {"Kaiming He"};
    author.author_match = true;
    day.papers.push_back(author);
    Paper unscored;
    unscored.id = "math.CA/0611800";
    unscored.title = "Unscored";
    unscored.unscored = "the LLM gave no score after 3 tries";
    day.papers.push_back(unscored);
    return day;
}

std::string error_of(const std::string& text) {
    auto day = read_day(text, "content/2025/05/2025-05-20.md");
    REQUIRE_FALSE(day.has_value());
    auto through_cmark = read_day_through_cmark(text, "content/2025/05/2025-05-20.md");
    REQUIRE_FALSE(through_cmark.has_value());
    CHECK(day.error().to_string() == through_cmark.error().to_string()); // the shortcut never changes an error
    return day.error().to_string();
}

// read_day and read_day_through_cmark agree: the same day, or the same error.
void check_same_as_cmark(const std::string& text) {
    CAPTURE(text);
    auto day = read_day(text, "day.md");
    auto through_cmark = read_day_through_cmark(text, "day.md");
    REQUIRE(day.has_value() == through_cmark.has_value());
    if (day) CHECK(*day == *through_cmark);
    else CHECK(day.error().to_string() == through_cmark.error().to_string());
}

const std::string header = "---\ndate: 2025-05-20\nstatus: announced\n---\n\n# arXiv papers for 2025-05-20\n\n";

// `text` with its first `from` replaced by `to`; as it is for an empty `from`.
std::string with_edit(std::string text, const std::string& from, const std::string& to) {
    if (!from.empty()) text.replace(text.find(from), from.size(), to);
    return text;
}

} // namespace

TEST_CASE("writing then reading a day gives the same papers and metadata") {
    Day day = full_day();
    auto back = read_day(write_day(day), "day.md");
    REQUIRE(back.has_value());
    CHECK(back->papers == day.papers);
    CHECK(*back == day);
}

TEST_CASE("a day with no papers, failed status and no metadata round-trips") {
    Day day;
    day.date = *parse_iso_date("2026-06-08");
    day.status = DayStatus::failed;
    day.tokens = Tokens{};
    auto back = read_day(write_day(day), "day.md");
    REQUIRE(back.has_value());
    CHECK(*back == day);
    CHECK(back->status == DayStatus::failed);
}

TEST_CASE("reading then writing every day of the sample archive gives the same bytes") {
    TempDir dir;
    import_sample_archive(dir.path());
    auto scan = scan_content(dir / "content");
    REQUIRE(scan.days.size() > 90);
    for (const auto& file : scan.days) {
        std::string text = read_text(file.path);
        auto day = read_day(text, file.path.string());
        REQUIRE_MESSAGE(day.has_value(), day.error().to_string());
        CHECK_MESSAGE(write_day(*day) == text, file.path.string());
    }
}

TEST_CASE("a hand edit is honoured: a typo fixed, a paper's section deleted") {
    Day day = full_day();
    std::string text = write_day(day);
    // Fix a typo in the title of the author match.
    auto pos = text.find("An author match");
    REQUIRE(pos != std::string::npos);
    text.replace(pos, 15, "An author's match");
    // Delete the first paper's section, heading to the next heading.
    auto first = text.find("\n## ");
    auto second = text.find("\n## ", first + 1);
    text.erase(first, second - first);
    auto back = read_day(text, "day.md");
    REQUIRE_MESSAGE(back.has_value(), back.error().to_string());
    REQUIRE(back->papers.size() == 2);
    CHECK(back->papers[0].title == "An author's match");
    CHECK(back->papers[1].id == "math.CA/0611800");
}

TEST_CASE("hand-written Markdown is read by its syntax, not its spacing") {
    auto day = read_day(header + "## [A *nice* title](https://arxiv.org/abs/2501.00001)\n"
                                 "* **ID:**   2501.00001\n"
                                 "* **Authors:** A. One,B. Two\n\n"
                                 "An abstract\nover two lines.\n\n---\n",
                        "day.md");
    REQUIRE_MESSAGE(day.has_value(), day.error().to_string());
    REQUIRE(day->papers.size() == 1);
    CHECK(day->papers[0].title == "A nice title");
    CHECK(day->papers[0].id == "2501.00001");
    CHECK(day->papers[0].authors == std::vector<std::string>{"A. One", "B. Two"});
    CHECK(day->papers[0].abstract == "An abstract\nover two lines.");
}

TEST_CASE("sections as the writer writes them read as cmark reads them, near misses included") {
    check_same_as_cmark(write_day(full_day()));
    const std::string section = "## [A title](https://arxiv.org/abs/2501.00001)\n\n- **ID:** 2501.00001\n"
                                "- **Authors:** A. One, B. Two (X, Y)\n- **Relevance:** 7\n\nAn abstract.\n\nTwo.\n";
    const std::vector<std::pair<std::string, std::string>> edits = {
        {"", ""},
        {"A title", "A \\*title\\* \\\\ with \\_escapes\\_ and $\\mathcal{O}$"},
        {"A title", "A *title*"},
        {"A title", " A title "},
        {"A title", "A [nested] title"},
        {"A title", "A title\\"},
        {"A title", ""},
        {"A title", "Bad \xC3 UTF-8"},
        {"(https://arxiv.org/abs/2501.00001)", "(https://arxiv.org/abs/2501.00001)  "},
        {"(https://arxiv.org/abs/2501.00001)", "(https://arxiv.org/abs/2501\\.00001)"},
        {"(https://arxiv.org/abs/2501.00001)", "(https://arxiv.org/abs/2501.00002)"},
        {"(https://arxiv.org/abs/2501.00001)", "(https://arxiv.org/abs/2501.00001 \"t\")"},
        {"- **ID:** 2501.00001", "- **ID:**   2501.00001"},
        {"- **ID:** 2501.00001", "- **ID :** 2501.00001"},
        {"- **ID:** 2501.00001", "- ** ID:** 2501.00001"},
        {"- **ID:** 2501.00001", "- **ID:** 2501.00001  "},
        {"- **ID:** 2501.00001", "- **ID:**"},
        {"- **ID:** 2501.00001", "- **ID:** 2501.00001\n  continued"},
        {"- **ID:** 2501.00001", "* **ID:** 2501.00001"},
        {"- **ID:** 2501.00001", "- __ID:__ 2501.00001"},
        {"- **ID:** 2501.00001", "- **ID:** 2501.00001\n- **ID:** 2501.00001"},
        {"- **Relevance:** 7", "- **Relevance:** 11"},
        {"- **Relevance:** 7", "- **Mood:** good"},
        {"- **Relevance:** 7", "- **Relevance:** 7\n---"},
        {"- **Authors:** A. One", "- **Authors:** A. *One*"},
        {"\n\nAn abstract.", "\nAn abstract."},
        {"An abstract.", "1. An abstract."},
        {"An abstract.", "An abstract  \nwith a hard break."},
        {"Two.\n", "Two.\n\n> a quote\n"},
        {"Two.\n", "Two.\n\n```\ncode\n```\n"},
        {"Two.\n", ""},
    };
    for (const auto& [from, to] : edits) {
        const std::string edited = with_edit(section, from, to);
        check_same_as_cmark(header + edited);
        check_same_as_cmark(header + section + "\n" + edited); // after a section read either way
        check_same_as_cmark(header + edited + "\n" + section);
    }
}

// yaml-cpp's reading and the shortcut's give the same entries, lines included.
void check_same_entries(const MetaValue& a, const MetaValue& b) {
    CHECK(a.kind == b.kind);
    CHECK(a.line == b.line);
    CHECK(a.scalar == b.scalar);
    REQUIRE(a.entries.size() == b.entries.size());
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
        CHECK(a.entries[i].key == b.entries[i].key);
        CHECK(a.entries[i].key_line == b.entries[i].key_line);
        check_same_entries(a.entries[i].value, b.entries[i].value);
    }
}

TEST_CASE("front matter as the writer writes it reads as yaml-cpp reads it, near misses included") {
    Day day = full_day();
    day.temperature = 0.5;
    day.seed = 7;
    day.reason = "holiday";
    const std::string written = write_day(day);
    const std::string yaml = written.substr(4, written.find("\n---\n", 4) - 3); // between the '---' lines
    REQUIRE(yaml.starts_with("date: 2025-05-20\n"));
    REQUIRE(yaml.find("  seed: 7\n") != std::string::npos);
    CHECK(read_front_matter_as_written(yaml)); // the writer's form takes the shortcut
    const std::vector<std::pair<std::string, std::string>> edits = {
        {"", ""},
        {"model: gpt-4o", "model: gpt-4o # a comment"},
        {"model: gpt-4o", "model:  gpt-4o"},
        {"model: gpt-4o", "model: gpt-4o "},
        {"model: gpt-4o", "model:gpt-4o"},
        {"model: gpt-4o", "model: \"gpt-4o\""},
        {"model: gpt-4o", "model: null"},
        {"model: gpt-4o", "model: ~"},
        {"model: gpt-4o", "model: NULL"},
        {"model: gpt-4o", "model:"},
        {"model: gpt-4o", "model: -gpt"},
        {"model: gpt-4o", "model: gpt 4o"},
        {"model: gpt-4o", "model: gpt-4o\n  more"},
        {"model: gpt-4o", "model: gpt-4o\nmodel: gpt-5"},
        {"model: gpt-4o", "model: [gpt-4o]"},
        {"model: gpt-4o", "null: gpt-4o"},
        {"model: gpt-4o", "Model: gpt-4o"},
        {"model: gpt-4o", "model: gpt-4o\n"},
        {"model: gpt-4o", "model: gpt-4o\n# a comment"},
        {"model: gpt-4o", "model: gpt-4o\r"},
        {"model: gpt-4o", "model: gpt-4o\ttab"},
        {"model: gpt-4o", "model: Ωmega"},
        {"tokens:\n", "tokens: \n"},
        {"tokens:\n", "tokens:\n\n"},
        {"tokens:\n  prompt", "tokens:\n   prompt"},
        {"tokens:\n  prompt", "tokens:\n\tprompt"},
        {"  prompt: 54622", "  prompt: 54622\n    deeper: 1"},
        {"  prompt: 54622", "  prompt:\n    deeper: 1"},
        {"  prompt: 54622", "  prompt: 54622\n  prompt: 1"},
        {"  prompt: 54622", "  prompt: lots"},
        {"  prompt: 54622", "  colour: red"},
        {"cost:\n  prompt: 0.14", "cost: 0.14\n  prompt: 0.14"},
        {"date: 2025-05-20\n", ""},
        {"date: 2025-05-20\n", "- date: 2025-05-20\n"},
        {"date: 2025-05-20", "date: 2025-05-20\n..."},
        {"date: 2025-05-20", "date: 2025-05-20\n" + std::string(1025, 'k') + ": v"}, // no key to yaml-cpp
        {"  prompt: 54622", "  prompt: 54622\n  " + std::string(1025, 'k') + ": 1"},
        {"date: 2025-05-20", "date: 2025-05-20\n" + std::string(65, 'k') + ": v"},
    };
    for (const auto& [from, to] : edits) {
        const std::string edited = with_edit(yaml, from, to);
        CAPTURE(edited);
        auto shortcut = read_front_matter(edited);
        auto through_yaml_cpp = read_front_matter(edited, false);
        REQUIRE(shortcut.has_value() == through_yaml_cpp.has_value());
        if (shortcut) check_same_entries(*shortcut, *through_yaml_cpp);
        else CHECK(shortcut.error().to_string() == through_yaml_cpp.error().to_string());
        check_same_as_cmark("---\n" + edited + "---\n"); // the whole day: the same, or the same error
    }
    std::string many_keys = "date: 2025-05-20\n";
    for (int i = 0; i < 40; ++i) many_keys += "k" + std::string(1 + i / 26, static_cast<char>('a' + i % 26)) + ": v\n";
    CHECK_FALSE(read_front_matter_as_written(many_keys)); // left to yaml-cpp
    check_same_as_cmark("---\n" + many_keys + "---\n");
    for (const std::string& empty : {std::string(), std::string("\n")}) {
        auto value = read_front_matter(empty);
        REQUIRE(value);
        CHECK(value->kind != MetaValue::Kind::map);
        check_same_as_cmark("---\n" + empty + "---\n");
    }
}

TEST_CASE("bad input names the file, the line and what was expected") {
    CHECK(error_of("date: 2025-05-20\n") ==
          "content/2025/05/2025-05-20.md:1: expected YAML front matter: the file must start with a line '---'");
    CHECK(error_of("---\ndate: 2025-05-20\n").find(":1: expected a line '---' closing the front matter") !=
          std::string::npos);
    CHECK(error_of("---\ndate: 2025-05-20\nstatus: maybe\n---\n") ==
          "content/2025/05/2025-05-20.md:3: expected 'status' to be announced, partial, stale or failed, got 'maybe'");
    CHECK(error_of("---\ndate: 2025-13-20\n---\n").find(":2: expected 'date' to be a date YYYY-MM-DD") !=
          std::string::npos);
    CHECK(error_of("---\ndate: 2025-05-20\ncolour: red\n---\n").find(":3: unknown key 'colour'") != std::string::npos);
    CHECK(error_of("---\ndate: 2025-05-20\ntokens:\n  prompt: lots\n---\n")
              .find(":4: expected 'tokens.prompt' to be a whole number") != std::string::npos);
    CHECK(error_of("---\ndate: [2025\n---\n").find(":3: front matter is not valid YAML") != std::string::npos);
    CHECK(error_of(header + "Some text before any paper.\n").find(":8: expected a paper section") != std::string::npos);
    CHECK(error_of(header + "## Just a heading\n").find(":8: expected a paper heading of the form") !=
          std::string::npos);
    CHECK(error_of(header + "## [T](https://arxiv.org/abs/2501.00001)\n\n- **Authors:** X\n")
              .find(":8: expected a '- **ID:** ...' field") != std::string::npos);
    CHECK(error_of(header + "## [T](https://arxiv.org/abs/2501.00001)\n\n- **ID:** 2501.0001\n")
              .find(":10: field 'ID': expected an arXiv ID without version") != std::string::npos);
    CHECK(error_of(header + "## [T](https://arxiv.org/abs/2501.00001)\n\n- **ID:** 2501.00002\n")
              .find(":8: expected the title to link to https://arxiv.org/abs/2501.00002") != std::string::npos);
    CHECK(error_of(header + "## [T](https://arxiv.org/abs/2501.00001)\n\n- **ID:** 2501.00001\n- **Relevance:** high\n")
              .find(":11: field 'Relevance': expected a whole number from 0 to 10, got 'high'") != std::string::npos);
    // The edges of the ranges: 10 is a score, 11 is not; a count is never negative.
    CHECK(error_of(header + "## [T](https://arxiv.org/abs/2501.00001)\n\n- **ID:** 2501.00001\n- **Relevance:** 11\n")
              .find(":11: field 'Relevance': expected a whole number from 0 to 10, got '11'") != std::string::npos);
    CHECK(read_day(header + "## [T](https://arxiv.org/abs/2501.00001)\n\n- **ID:** 2501.00001\n- **Relevance:** 10\n",
                   "day.md")
              .has_value());
    CHECK(error_of("---\ndate: 2025-05-20\ntokens:\n  prompt: -5\n---\n")
              .find(":4: expected 'tokens.prompt' to be a whole number") != std::string::npos);
    CHECK(error_of(header + "## [T](https://arxiv.org/abs/2501.00001)\n\n- **ID:** 2501.00001\n- **Mood:** good\n")
              .find(":11: unknown field 'Mood'; expected one of: ID, Authors") != std::string::npos);
    CHECK(error_of(header + "## [T](https://arxiv.org/abs/2501.00001)\n\n- **ID:** 2501.00001\n- **ID:** 2501.00001\n")
              .find(":11: the field 'ID' appears twice") != std::string::npos);
    CHECK(error_of(header + "## [T](https://arxiv.org/abs/2501.00001)\n\n- **ID:** 2501.00001\n\n```\ncode\n```\n")
              .find(":12: unexpected code_block in a paper section") != std::string::npos);
    // In a later section (each section is read on its own): still the file's line.
    const std::string two =
        header + "## [T](https://arxiv.org/abs/2501.00001)\n\n- **ID:** 2501.00001\n\nAbstract.\n\n";
    CHECK(error_of(two + "## [U](https://arxiv.org/abs/2501.00002)\n\n- **ID:** 2501.00002\n- **Relevance:** high\n")
              .find(":17: field 'Relevance': expected a whole number from 0 to 10, got 'high'") != std::string::npos);
    CHECK(error_of(two + "## [U](https://arxiv.org/abs/2501.00002)\n\n- **ID:** 2501.00002\n\n> a quote\n")
              .find(":18: unexpected block_quote in a paper section") != std::string::npos);
}

TEST_CASE("the content tree places each day by its date and finds misplaced files") {
    TempDir dir;
    Day day = full_day();
    REQUIRE(save_day(dir.path(), day).has_value());
    CHECK(fs::exists(dir / "2025/05/2025-05-20.md"));
    CHECK(*save_day(dir.path(), day) == WriteOutcome::unchanged);
    write_text(dir / "2025/06/2025-05-21.md", write_day(day));
    write_text(dir / "2025/notes.md", "hello");
    write_text(dir / "prompts/0123456789abcdef.md", "a prompt");
    auto scan = scan_content(dir.path());
    REQUIRE(scan.days.size() == 1);
    CHECK(scan.days[0].date.iso() == "2025-05-20");
    REQUIRE(scan.misplaced.size() == 2);
    CHECK(scan.misplaced[0].message.find("expected " + (dir / "2025/05/2025-05-21.md").string()) != std::string::npos);

    // A name that is a date, but one digit off its folder, or in no month folder.
    for (const char* wrong : {"2025/05/2025-06-01.md", "2024/06/2025-06-01.md", "2025/6/2025-06-01.md", "2025-06-01.md",
                              "2025/06/x/2025-06-01.md"}) {
        TempDir other;
        write_text(other / wrong, write_day(day));
        auto found = scan_content(other.path());
        CHECK_MESSAGE(found.days.empty(), wrong);
        CHECK_MESSAGE(found.misplaced.size() == 1, wrong);
    }
}

TEST_CASE("a day's path in the content tree: YYYY/MM/YYYY-MM-DD.md, whatever the date") {
    CHECK(day_relative_path(Date{2025, 5, 20}) == "2025/05/2025-05-20.md");
    CHECK(day_relative_path(Date{987, 12, 1}) == "0987/12/0987-12-01.md");
    CHECK(day_relative_path(Date{12345, 1, 2}) == "12345/01/12345-01-02.md"); // never a valid day, still its digits
    CHECK(day_relative_path(Date{2025, 123, 4}) == "2025/123/2025-123-04.md");
}

TEST_CASE("property: any tidy text survives write then read (random papers)") {
    // Characters that mean something to Markdown, YAML, HTML or TeX, plus
    // non-ASCII, spaces and newlines.
    const std::vector<std::string> alphabet = {"a",
                                               "Z",
                                               "0",
                                               "7",
                                               " ",
                                               "  ",
                                               "\n",
                                               "\n\n",
                                               "$",
                                               "\\",
                                               "{",
                                               "}",
                                               "<",
                                               ">",
                                               "]",
                                               "[",
                                               "(",
                                               ")",
                                               "*",
                                               "_",
                                               "|",
                                               "#",
                                               "-",
                                               "+",
                                               "=",
                                               "1.",
                                               "2)",
                                               "`",
                                               "~",
                                               "!",
                                               "&",
                                               "&amp;",
                                               "&#32;",
                                               ":",
                                               "'",
                                               "\"",
                                               ",",
                                               ";",
                                               "é",
                                               "\\'a",
                                               "—",
                                               "∑",
                                               "http://x.org/a_b",
                                               "www.y.com",
                                               "---",
                                               "> ",
                                               "    ",
                                               "\t"};
    unsigned state = 12345;
    auto next = [&](unsigned bound) {
        state = state * 1103515245u + 12345u;
        return (state >> 8) % bound;
    };
    auto random_text = [&](int length) {
        std::string text;
        for (int i = 0; i < length; ++i) text += alphabet[next(static_cast<unsigned>(alphabet.size()))];
        return text;
    };
    for (int round = 0; round < 300; ++round) {
        Day day;
        day.date = *parse_iso_date("2025-05-20");
        day.model = tidy_line(random_text(3)) + "x";
        for (int k = 0; k < 3; ++k) {
            Paper p;
            p.id = "2505." + std::to_string(10000 + round * 3 + k);
            p.title = random_text(12);
            p.authors = {random_text(4), random_text(4)};
            p.abstract = random_text(40);
            p.comment = random_text(10);
            p.topic = random_text(4);
            p.topic_note = random_text(6);
            p.relevance = static_cast<int>(next(11));
            p.novelty = static_cast<int>(next(11));
            tidy_paper(p);
            // Authors are separated by commas outside parentheses (documented
            // in docs/content-format.md): keep commas and brackets out of names.
            for (auto& author : p.authors) {
                std::erase_if(author, [](char c) { return c == ',' || c == '(' || c == ')' || c == '[' || c == ']'; });
                author = tidy_line(author);
            }
            std::erase_if(p.authors, [](const std::string& a) { return a.empty(); });
            day.papers.push_back(p);
        }
        std::string text = write_day(day);
        auto back = read_day(text, "random.md");
        REQUIRE_MESSAGE(back.has_value(), ((back ? std::string() : back.error().to_string()) + "\n" + text));
        for (size_t k = 0; k < day.papers.size(); ++k) {
            CHECK_MESSAGE(back->papers[k].title == day.papers[k].title, text);
            CHECK_MESSAGE(back->papers[k].abstract == day.papers[k].abstract, text);
            CHECK_MESSAGE(back->papers[k] == day.papers[k], text);
        }
        CHECK(back->model == day.model);
        CHECK(write_day(*back) == text);
        check_same_as_cmark(text);
    }
}

TEST_CASE("a day file whose abstract nests 1,000,000 deep is read, not a stack overflow") {
    // 100,000 levels overflow the old recursive walk in debug and sanitizer builds; a
    // million (a 4 MB abstract) overflow it in every build.
    const std::string paper = "## [T](https://arxiv.org/abs/2501.00001)\n\n- **ID:** 2501.00001\n\n";
    for (const auto& [open, close] : std::vector<std::pair<std::string, std::string>>{{"![", "](u)"}, {"*", "*"}}) {
        INFO("nesting " << open);
        std::string abstract;
        for (int i = 0; i < 1'000'000; ++i) abstract += open;
        abstract += "deep";
        for (int i = 0; i < 1'000'000; ++i) abstract += close;
        auto day = read_day(header + paper + abstract + "\n", "content/2025/05/2025-05-20.md");
        REQUIRE_MESSAGE(day.has_value(), day.error().to_string());
        REQUIRE(day->papers.size() == 1);
        CHECK(day->papers[0].abstract == "deep");
    }
}

TEST_CASE("a UTF-8 byte order mark before the front matter is accepted") {
    const std::string text = write_day(full_day());
    auto day = read_day("\xEF\xBB\xBF" + text, "content/2025/05/2025-05-20.md");
    REQUIRE_MESSAGE(day.has_value(), day.error().to_string());
    CHECK(*day == full_day());
    CHECK(write_day(*day) == text); // written back without it
    // Only at the very start: elsewhere it is text.
    CHECK(error_of("\n\xEF\xBB\xBF" + text).find(":1: expected YAML front matter") != std::string::npos);
}

TEST_CASE("errors quote a short excerpt of a rejected value, never all of it") {
    const std::string huge(1 << 20, 'x');
    const std::string paper = "## [T](https://arxiv.org/abs/2501.00001)\n\n- **ID:** 2501.00001\n";
    for (const std::string& text : {
             "---\ndate: 2025-05-20\nstatus: " + huge + "\n---\n",
             "---\ndate: " + huge + "\n---\n",
             "---\ndate: 2025-05-20\n? " + huge + "\n: 1\n---\n",
             "---\ndate: 2025-05-20\ncounts:\n  ? " + huge + "\n  : 1\n---\n",
             "---\ndate: 2025-05-20\ntokens:\n  prompt: " + huge + "\n---\n",
             header + paper + "- **Relevance:** " + huge + "\n",
             header + paper + "- **" + huge + ":** 1\n",
         }) {
        std::string message = error_of(text);
        CHECK_MESSAGE(message.size() < 400, message.substr(0, 400)); // an excerpt and the known fields, not 1 MB
        CHECK(message.find(" bytes)") != std::string::npos);
    }
}

TEST_CASE("a cost that is not a finite amount is refused") {
    for (const char* amount : {"nan", "inf", "-inf", "-0.5"})
        CHECK(error_of("---\ndate: 2025-05-20\ncost:\n  total: " + std::string(amount) + "\n---\n")
                  .find(":4: expected 'cost.total' to be an amount in dollars") != std::string::npos);
}

TEST_CASE("a pick's summary, or why it has none, round-trips in its fields; check refuses both at once") {
    Day day = full_day();
    day.papers[0].summary = {.tldr = "Kurz: $O(n)$ <b>fast</b> & *sparse* | ok",
                             .motivation = "Warum: # not a heading",
                             .method = "Wie",
                             .result = "1. not a list",
                             .conclusion = "Also"};
    day.papers[1].summary.failed = "the reply was cut at the length limit (finish_reason: length)";
    const std::string text = write_day(day);
    CHECK(text.find("- **TL;DR:** Kurz: ") != std::string::npos);
    CHECK(text.find("- **Summary failed:** the reply was cut at the length limit") != std::string::npos);
    auto back = read_day(text, "day.md");
    REQUIRE_MESSAGE(back.has_value(), back.error().to_string());
    CHECK(*back == day);
    CHECK(write_day(*back) == text);
    check_same_as_cmark(text);

    const std::string section = "## [T](https://arxiv.org/abs/2501.00001)\n\n- **ID:** 2501.00001\n";
    CHECK(error_of(header + section + "- **TL;DR:** Short\n- **Summary failed:** refused\n")
              .find(":8: expected either the summary's fields (TL;DR, ...) or 'Summary failed' in paper 2501.00001, "
                    "not both") != std::string::npos);
    CHECK(error_of(header + section + "- **Method:** How\n")
              .find(":8: expected a 'TL;DR' field with the other parts of paper 2501.00001's summary") !=
          std::string::npos);
}

// Issue 44: the rest of the announcement, after the papers.
TEST_CASE("the papers not picked: a section of titles and links, after the papers, that round-trips") {
    Day day = full_day();
    day.unpicked = {{"2505.00002", "Plain title"}, {"hep-th/9901002", "$\\ell_1$ [bracket] *star* <b> | pipe"}};
    const std::string text = write_day(day);
    CAPTURE(text);
    CHECK(text.ends_with(
        "\n## Not picked\n\n- [Plain title](https://arxiv.org/abs/2505.00002)\n"
        "- [$\\\\ell\\_1$ \\[bracket\\] \\*star\\* \\<b\\> \\| pipe](https://arxiv.org/abs/hep-th/9901002)\n"));
    auto back = read_day(text, "day.md");
    REQUIRE_MESSAGE(back.has_value(), back.error().to_string());
    CHECK(back->unpicked == day.unpicked);
    CHECK(back->papers == day.papers);
    CHECK(write_day(*back) == text); // write(read(f)) == f
    check_same_as_cmark(text);
    // A day with no papers can list its candidates still; none: no section.
    Day quiet;
    quiet.date = *parse_iso_date("2025-05-21");
    quiet.unpicked = {{"2505.00003", "Only candidate"}};
    auto back_quiet = read_day(write_day(quiet), "day.md");
    REQUIRE(back_quiet.has_value());
    CHECK(*back_quiet == quiet);
    quiet.unpicked.clear();
    CHECK(write_day(quiet).find("Not picked") == std::string::npos);
}

TEST_CASE("the papers not picked, hand-written: read by their syntax; mistakes name the line") {
    const std::string paper =
        header + "## [T](https://arxiv.org/abs/2501.00001)\n\n- **ID:** 2501.00001\n\nAbstract.\n\n";
    auto day = read_day(paper + "## Not picked\n\n* [A *nice* one](https://arxiv.org/abs/2501.00002)\n"
                                "*   [Another  one](https://arxiv.org/abs/math.CA/0611800)  \n",
                        "day.md");
    REQUIRE_MESSAGE(day.has_value(), day.error().to_string());
    REQUIRE(day->unpicked.size() == 2);
    CHECK(day->unpicked[0] == Unpicked{"2501.00002", "A nice one"});
    CHECK(day->unpicked[1] == Unpicked{"math.CA/0611800", "Another one"});
    CHECK(day->papers.size() == 1);
    const std::string section = paper + "## Not picked\n\n";
    CHECK(error_of(section + "- [A](https://arxiv.org/abs/2501.00002)\n- just text\n")
              .find(":17: expected a paper not picked as '- [Title](https://arxiv.org/abs/ID)'") != std::string::npos);
    CHECK(error_of(section + "- [A](https://example.org/2501.00002)\n")
              .find(":16: expected the link of a paper not picked to be https://arxiv.org/abs/ and an arXiv ID") !=
          std::string::npos);
    CHECK(error_of(section + "- [A](https://arxiv.org/abs/2501.00002v2)\n").find(":16: expected the link") !=
          std::string::npos);
    CHECK(error_of(section + "- [](https://arxiv.org/abs/2501.00002)\n").find(":16: expected the title") !=
          std::string::npos);
    // The section comes last: a paper after it is an error naming both places.
    CHECK(error_of(section + "- [A](https://arxiv.org/abs/2501.00002)\n\n## [U](https://arxiv.org/abs/2501.00003)\n\n"
                             "- **ID:** 2501.00003\n")
              .find(":18: unexpected heading after the papers not picked (section '## Not picked' at line 14)") !=
          std::string::npos);
    CHECK(error_of(section + "Some words.\n").find(":16: unexpected paragraph after the papers not picked") !=
          std::string::npos);
}
