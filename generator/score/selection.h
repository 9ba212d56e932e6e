// Which candidates make the day, and in what order. Author matches are
// always kept; scored papers pass both cutoffs (a missing novelty, as from
// the embedded scorer, is not held against a paper); papers that could not
// be scored are kept and say why. Order: author matches, then score,
// relevance and ID (deterministic), then the unscored.
#pragma once

#include "core/paper.h"
#include "score/reply_parser.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace pp {

struct Verdicts {
    std::set<std::string> author_matches;
    std::map<std::string, ScoreReply> scores;
    std::map<std::string, std::string> unscored; // ID -> reason
};

struct Cutoffs {
    int relevance = 0;
    int novelty = 0;
};

std::vector<Paper> select_papers(const std::vector<Paper>& candidates, const Verdicts& verdicts, Cutoffs cutoffs);

} // namespace pp
