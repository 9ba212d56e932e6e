// core: arXiv IDs, dates, text tidying; util/text's escaping scan.
#include "core/arxiv_calendar.h"
#include "core/arxiv_id.h"
#include "core/date.h"
#include "core/paper.h"
#include "util/redact.h"
#include "util/text.h"

#include <doctest/doctest.h>

using namespace pp;

TEST_CASE("new-style arXiv IDs lose their version, never by splitting on 'v'") {
    CHECK(parse_arxiv_id("2505.13447")->id == "2505.13447");
    CHECK(parse_arxiv_id("2505.13447v2")->id == "2505.13447");
    CHECK(parse_arxiv_id("2505.13447v2")->version == 2);
    CHECK(parse_arxiv_id("0704.0001v1")->id == "0704.0001");
    CHECK(parse_arxiv_id("arXiv:2501.09412v1")->id == "2501.09412");
    CHECK(parse_arxiv_id("https://arxiv.org/abs/2501.09412v3")->id == "2501.09412");
    CHECK(parse_arxiv_id("https://arxiv.org/pdf/2501.09412v3.pdf")->id == "2501.09412");
}

TEST_CASE("old-style arXiv IDs keep archive and subject class") {
    CHECK(parse_arxiv_id("hep-th/9901001")->id == "hep-th/9901001");
    CHECK(parse_arxiv_id("hep-th/9901001v3")->id == "hep-th/9901001");
    CHECK(parse_arxiv_id("math.CA/0611800v2")->id == "math.CA/0611800");
    // An archive with a 'v' in its name: a split on "v" would cut it.
    CHECK(parse_arxiv_id("solv-int/9901001")->id == "solv-int/9901001");
    CHECK(parse_arxiv_id("solv-int/9901001v1")->id == "solv-int/9901001");
}

TEST_CASE("malformed arXiv IDs are rejected") {
    for (const char* bad : {"", "2505.1344", "2505.134478", "2513.13447", "1412.12345", "25051.3447", "hep-th/990100",
                            "HEP-TH/9901001", "math.CAX/0611800", "2505.13447v", "2505.13447vx", "abs/2505.13447"})
        CHECK_MESSAGE(!parse_arxiv_id(bad), bad);
    CHECK(is_canonical_arxiv_id("1412.1234"));
    CHECK_FALSE(is_canonical_arxiv_id("2505.13447v1"));
}

TEST_CASE("only papers submitted since December 2023 get a link to arXiv's HTML, which older ones lack") {
    CHECK(arxiv_html_url("2312.00001") == "https://arxiv.org/html/2312.00001");
    CHECK(arxiv_html_url("2505.13447") == "https://arxiv.org/html/2505.13447");
    CHECK(arxiv_html_url("2311.99999").empty());
    CHECK(arxiv_html_url("1706.03762").empty());
    CHECK(arxiv_html_url("hep-th/9901001").empty());
    CHECK(arxiv_abs_url("1706.03762") == "https://arxiv.org/abs/1706.03762");
}

TEST_CASE("the announce prefix of feed abstracts is removed") {
    CHECK(strip_announce_prefix("arXiv:2501.09412v1 Announce Type: new  Abstract: The rapid increase") ==
          "The rapid increase");
    CHECK(strip_announce_prefix("arXiv:2501.09412v1 Announce Type: cross \nAbstract: Text") == "Text");
    CHECK(strip_announce_prefix("Abstract: kept as is") == "Abstract: kept as is");
}

TEST_CASE("dates parse strictly and know their weekday") {
    CHECK(parse_iso_date("2025-05-20")->iso() == "2025-05-20");
    CHECK(Date{1999, 1, 2}.iso() == "1999-01-02");
    CHECK(Date{5, 12, 31}.iso() == "0005-12-31");
    CHECK(Date{2025, 10, 7}.iso() == "2025-10-07");
    CHECK(Date{12345, 1, 1}.iso() == "12345-01-01"); // out of range: still readable
    CHECK_FALSE(parse_iso_date("2025-02-29"));
    CHECK(parse_iso_date("2024-02-29"));
    CHECK_FALSE(parse_iso_date("2025-5-20"));
    CHECK_FALSE(parse_iso_date("2025-05-20x"));
    CHECK(parse_us_date("01/17/2025")->iso() == "2025-01-17");
    CHECK(parse_us_date("3/25/2025")->iso() == "2025-03-25");
    CHECK_FALSE(parse_us_date("13/25/2025"));
    CHECK(parse_iso_date("2025-05-18")->weekday() == 0); // a Sunday
    CHECK(parse_iso_date("2026-11-22")->weekday() == 0);
    CHECK(parse_iso_date("2000-03-01")->weekday() == 3);
}

TEST_CASE("tidy_text keeps paragraphs and interior spacing, drops noise") {
    CHECK(tidy_text("  a  b   \r\nc\n\n\n\nd\n\n") == "a  b\nc\n\nd");
    CHECK(tidy_text("first\n  indented second") == "first\n  indented second");
    CHECK(tidy_line(" A\n  title\twith  gaps ") == "A title with gaps");
}

TEST_CASE("escaping replaces every special byte wherever it stands, in short and long text") {
    // The scan looks at sixteen bytes at a time: specials at every offset of
    // a block, at block edges, at the very end, and in a short tail.
    constexpr ByteSet specials("<>&\"'");
    auto escape = [&](std::string_view text) {
        std::string out;
        append_replacing(out, text, specials, [](char c) { return c == '<' ? "[lt]" : c == '&' ? "[amp]" : "[x]"; });
        return out;
    };
    auto expected = [](std::string_view text) { // byte by byte
        std::string out;
        for (char c : text)
            out += c == '<'                            ? "[lt]"
                   : c == '&'                          ? "[amp]"
                   : c == '>' || c == '"' || c == '\'' ? "[x]"
                                                       : std::string(1, c);
        return out;
    };
    for (std::size_t length : {0, 1, 15, 16, 17, 31, 32, 33, 100}) {
        const std::string plain(length, 'a');
        CHECK(escape(plain) == plain);
        for (std::size_t at = 0; at < length; ++at)
            for (char special : {'<', '&', '\'', '"', '>'}) {
                std::string text = plain;
                text[at] = special;
                if (at + 17 < length) text[at + 17] = '<';
                CHECK_MESSAGE(escape(text) == expected(text), text);
            }
    }
    const std::string high = "\xC3\xA9\xF0\x9F\x98\x80 bytes above 0x7f are never special <";
    CHECK(escape(high) == expected(high));
    CHECK(find_first_of(high.data(), high.data() + high.size(), ByteSet("\x80")) == high.data() + 5);
    // A set too large to list (the ninth byte and on are not listed) is scanned through its table.
    const ByteSet many("0123456789");
    const std::string digits = "a 9 in the first block of sixteen, then 1 more";
    CHECK(find_first_of(digits.data(), digits.data() + digits.size(), many) == digits.data() + 2);
}

TEST_CASE("an excerpt quotes at most a short prefix on one line, cut at a character boundary") {
    CHECK(excerpt("short") == "'short'");
    CHECK(excerpt("a\nb\x01") == "'a\\nb?'");
    const std::string long_text(1'000'000, '[');
    const std::string quoted = excerpt(long_text);
    CHECK(quoted.size() < 100);
    CHECK(quoted.find("(1000000 bytes)") != std::string::npos);
    // "é" is two bytes: a cut inside it moves back before it.
    const std::string accents = std::string(59, 'x') + "\xC3\xA9" + "yyy";
    CHECK(excerpt(accents).substr(0, 63) == "'" + std::string(59, 'x') + "\xE2\x80\xA6");
}

TEST_CASE("valid_xml_text: controls XML 1.0 forbids become spaces, invalid UTF-8 U+FFFD, and nothing else changes") {
    const std::string fffd = "\xEF\xBF\xBD";
    CHECK(valid_xml_text("tab\t LF\n CR\r é € 𝔸 \x7F") == "tab\t LF\n CR\r é € 𝔸 \x7F");
    CHECK(first_invalid_xml_char("plain") == std::string::npos);
    CHECK(valid_xml_text("a\x01"
                         "b") == "a b");
    CHECK(first_invalid_xml_char("a\x01"
                                 "b") == 1);
    CHECK(valid_xml_text(std::string("a\0\x1F"
                                     "b",
                                     4)) == "a  b");
    CHECK(valid_xml_text("\xC0\x80") == fffd);                               // overlong NUL: one run, one replacement
    CHECK(valid_xml_text("x\xED\xA0\x80y") == "x" + fffd + "y");             // a lone surrogate
    CHECK(valid_xml_text("\xEF\xBF\xBE|\xEF\xBF\xBF") == fffd + "|" + fffd); // U+FFFE, U+FFFF
    CHECK(valid_xml_text("cut \xE2\x82") == "cut " + fffd);
    CHECK(valid_xml_text("\xF4\x90\x80\x80") == fffd); // beyond U+10FFFF
    CHECK(tidy_line("Title\x01with\x1F controls") == "Title with controls");
    CHECK(tidy_text("Abstract \xFF.") == "Abstract " + fffd + ".");
}

// Issue 46 (scripts/mutants.list): the edges of the calendar's rules that no other test reaches.
TEST_CASE("calendar: daylight time ends on the first Sunday of November; arXiv's date is New York's; a century is a "
          "leap year only by 400") {
    // 14:00 on Sunday 2 November 2025 is standard time again (the change is at 02:00).
    CHECK(us_eastern_daylight_time(*parse_iso_date("2025-11-01")));
    CHECK_FALSE(us_eastern_daylight_time(*parse_iso_date("2025-11-02")));
    // arXiv's date is New York's: 04:30 UTC on 15 January is 23:30 EST on the 14th, 03:30 UTC on
    // 15 July 23:30 EDT on the 14th; an hour later both are the 15th.
    using namespace std::chrono;
    CHECK(arxiv_date(sys_days{year{2025} / January / 15} + hours(4) + minutes(30)).iso() == "2025-01-14");
    CHECK(arxiv_date(sys_days{year{2025} / January / 15} + hours(5) + minutes(30)).iso() == "2025-01-15");
    CHECK(arxiv_date(sys_days{year{2025} / July / 15} + hours(3) + minutes(30)).iso() == "2025-07-14");
    CHECK(arxiv_date(sys_days{year{2025} / July / 15} + hours(4) + minutes(30)).iso() == "2025-07-15");
    CHECK(parse_iso_date("2000-02-29"));
    CHECK_FALSE(parse_iso_date("2100-02-29"));
    CHECK_FALSE(parse_iso_date("1900-02-29"));
}
