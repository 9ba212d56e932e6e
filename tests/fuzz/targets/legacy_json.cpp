// The reference system's JSON files (content/legacy_json.h): an error, or
// values a day file can hold (scores 0-10, counts and costs not negative).
#include "content/legacy_json.h"
#include "core/arxiv_id.h"
#include "target.h"

#include <cmath>
#include <cstdlib>

namespace {

void check_score(const std::optional<int>& score) {
    if (score && (*score < 0 || *score > 10)) std::abort();
}

void check_count(const std::optional<long long>& count) {
    if (count && *count < 0) std::abort();
}

void check_money(const std::optional<double>& amount) {
    if (amount && (!std::isfinite(*amount) || *amount < 0)) std::abort();
}

} // namespace

PAPERPRESS_FUZZ_TARGET(legacy_json) {
    if (auto papers = pp::parse_output_json(input, "fuzz-output.json")) {
        for (const auto& paper : *papers) {
            if (!pp::is_canonical_arxiv_id(paper.id)) std::abort();
            check_score(paper.relevance);
            check_score(paper.novelty);
        }
    }
    if (auto usage = pp::parse_daily_papers_json(input, "fuzz-daily-papers.json")) {
        if (usage->tokens) {
            check_count(usage->tokens->prompt);
            check_count(usage->tokens->completion);
            check_count(usage->tokens->cached);
        }
        check_money(usage->cost.prompt);
        check_money(usage->cost.completion);
        check_money(usage->cost.total);
        check_count(usage->counts.arxiv);
        check_count(usage->counts.scanned);
        check_count(usage->counts.relevant);
    }
}
