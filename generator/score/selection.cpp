#include "score/selection.h"

#include <algorithm>

namespace pp {

namespace {

bool passes(const ScoreReply& score, Cutoffs cutoffs) {
    if (!score.relevance || *score.relevance < cutoffs.relevance) return false;
    return !score.novelty || *score.novelty >= cutoffs.novelty;
}

// Followed authors, the LLM's picks, the embedded scorer's picks standing
// in for the LLM, then the papers kept unscored.
int rank_group(const Paper& p) {
    if (p.author_match) return 0;
    if (p.unscored.empty()) return 1;
    return p.relevance ? 2 : 3;
}

void take_score(Paper& paper, const ScoreReply& score) {
    paper.relevance = score.relevance;
    paper.novelty = score.novelty;
    paper.comment = score.comment;
}

} // namespace

std::vector<Paper> select_papers(const std::vector<Paper>& candidates, const Verdicts& verdicts, Cutoffs cutoffs) {
    std::vector<Paper> selected;
    for (Paper paper : candidates) {
        if (verdicts.author_matches.contains(paper.id)) {
            paper.author_match = true;
        } else if (auto reason = verdicts.unscored.find(paper.id); reason != verdicts.unscored.end()) {
            paper.unscored = reason->second; // kept, scored or not, so that the LLM can score it later
            if (auto score = verdicts.scores.find(paper.id);
                score != verdicts.scores.end() && passes(score->second, cutoffs))
                take_score(paper, score->second);
        } else if (auto score = verdicts.scores.find(paper.id); score != verdicts.scores.end()) {
            if (!passes(score->second, cutoffs)) continue;
            take_score(paper, score->second);
        } else {
            continue; // dropped by a pre-filter
        }
        selected.push_back(std::move(paper));
    }
    std::sort(selected.begin(), selected.end(), [](const Paper& a, const Paper& b) {
        if (rank_group(a) != rank_group(b)) return rank_group(a) < rank_group(b);
        int score_a = a.relevance.value_or(0) + a.novelty.value_or(0);
        int score_b = b.relevance.value_or(0) + b.novelty.value_or(0);
        if (score_a != score_b) return score_a > score_b;
        if (a.relevance != b.relevance) return a.relevance.value_or(0) > b.relevance.value_or(0);
        return a.id < b.id;
    });
    return selected;
}

} // namespace pp
