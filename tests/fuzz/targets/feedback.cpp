// A feedback file (content/feedback.h): judgements with well-formed IDs and
// dates, errors with a line inside the text; one judgement in force per paper.
#include "content/feedback.h"
#include "core/arxiv_id.h"
#include "target.h"

#include <algorithm>
#include <cstdlib>

PAPERPRESS_FUZZ_TARGET(feedback) {
    auto parsed = pp::parse_feedback(input, "fuzz.txt");
    const auto lines = static_cast<int>(std::count(input.begin(), input.end(), '\n')) + 1;
    for (const auto& error : parsed.errors)
        if (error.line < 1 || error.line > lines || error.file != "fuzz.txt") std::abort();
    for (const auto& judgement : parsed.judgements)
        if (!pp::is_canonical_arxiv_id(judgement.id) || !judgement.date.valid()) std::abort();
    auto in_force = pp::judgements_in_force(parsed.judgements);
    for (std::size_t i = 1; i < in_force.size(); ++i)
        if (!(in_force[i - 1].id < in_force[i].id)) std::abort();
}
