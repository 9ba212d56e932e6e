// Which candidates make the day, and in what order. Author matches are
// always kept; scored papers pass both cutoffs (a missing novelty, as from
// the embedded scorer, is not held against a paper); papers that could not
// be scored by the LLM are kept and say why, with the embedded scorer's
// score when it passes (a stand-in pick until the LLM scores them). Order:
// author matches, the LLM's picks by score, relevance and ID (deterministic),
// the stand-in picks likewise, then the unscored.
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
    std::map<std::string, std::string> unscored; // ID -> why the LLM gave no score (`scores` may hold a stand-in)
};

struct Cutoffs {
    int relevance = 0;
    int novelty = 0;
};

std::vector<Paper> select_papers(const std::vector<Paper>& candidates, const Verdicts& verdicts, Cutoffs cutoffs);

} // namespace pp
