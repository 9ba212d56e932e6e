// Reads the reference system's JSON files (gpt_paper_assistant and forks):
//   DATE-output.json        arxiv_id -> paper, in page order (every era)
//   DATE-daily-papers.json  {meta: {usage: ...}, papers, topic_sections}
#pragma once

#include "core/paper.h"
#include "util/error.h"

#include <string>
#include <vector>

namespace pp {

Result<std::vector<Paper>> parse_output_json(std::string_view text, const std::string& file);

struct LegacyUsage {
    std::string model;
    std::optional<Tokens> tokens;
    Cost cost;
    Counts counts;
};

Result<LegacyUsage> parse_daily_papers_json(std::string_view text, const std::string& file);

} // namespace pp
