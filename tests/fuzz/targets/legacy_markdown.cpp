// A daily page of the reference system (content/legacy_markdown.h), and the
// importer's promise: whatever page it reads, the day it writes from it
// (after make_importable) reads back as a day file.
#include "content/legacy_markdown.h"
#include "content/day_file.h"
#include "content/importer.h"
#include "target.h"

#include <cstdlib>

PAPERPRESS_FUZZ_TARGET(legacy_markdown) {
    auto page = pp::parse_legacy_markdown(input, "fuzz.md");
    if (!page) return;
    pp::Day day = page->day;
    day.date = page->header_date.value_or(pp::Date{2025, 5, 20});
    std::vector<std::string> warnings;
    pp::make_importable(
        day, "fuzz.md", [](const std::string&) { return std::string("fuzz.md"); }, warnings);
    auto written = pp::read_day(pp::write_day(day), "imported.md");
    if (!written) std::abort();
    if (written->papers.size() != day.papers.size()) std::abort();
}
