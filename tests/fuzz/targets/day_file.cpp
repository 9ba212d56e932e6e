// The day-file reader (content/day_file.h): its reading without cmark and
// yaml-cpp of what the writer writes gives what theirs gives; and whatever it
// accepts, the writer writes back into a file it accepts again, with the
// same papers and scores.
#include "content/day_file.h"
#include "target.h"

#include <cstdlib>

PAPERPRESS_FUZZ_TARGET(day_file) {
    auto day = pp::read_day(input, "fuzz.md");
    // Sections as the writer writes them are read without cmark: the same day, or the same error.
    auto through_cmark = pp::read_day_through_cmark(input, "fuzz.md");
    if (day.has_value() != through_cmark.has_value()) std::abort();
    if (day ? *day != *through_cmark : day.error().to_string() != through_cmark.error().to_string()) std::abort();
    if (!day) return;
    auto again = pp::read_day(pp::write_day(*day), "rewritten.md");
    if (!again) std::abort();
    if (again->date != day->date || again->status != day->status || again->papers.size() != day->papers.size())
        std::abort();
    for (std::size_t i = 0; i < day->papers.size(); ++i) {
        const pp::Paper &before = day->papers[i], &after = again->papers[i];
        if (after.id != before.id || after.relevance != before.relevance || after.novelty != before.novelty ||
            after.author_match != before.author_match)
            std::abort();
    }
}
