// core: arXiv IDs, dates, text tidying.
#include "core/arxiv_id.h"
#include "core/date.h"
#include "core/paper.h"

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

TEST_CASE("the announce prefix of feed abstracts is removed") {
    CHECK(strip_announce_prefix("arXiv:2501.09412v1 Announce Type: new  Abstract: The rapid increase") ==
          "The rapid increase");
    CHECK(strip_announce_prefix("arXiv:2501.09412v1 Announce Type: cross \nAbstract: Text") == "Text");
    CHECK(strip_announce_prefix("Abstract: kept as is") == "Abstract: kept as is");
}

TEST_CASE("dates parse strictly and know their weekday") {
    CHECK(parse_iso_date("2025-05-20")->iso() == "2025-05-20");
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
