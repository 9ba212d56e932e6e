// The embedded scorer: offline and deterministic. Relevance comes from the
// topics prompt's keyword lines ("- Relevant: a, b" / "- Irrelevant: c");
// it gives no novelty score (it cannot judge novelty) and its comment names
// what matched. The default when no LLM endpoint is configured, and an
// optional cheap pre-filter before the LLM.
#pragma once

#include "core/paper.h"

#include <string>
#include <vector>

namespace pp {

struct TopicKeywords {
    std::vector<std::vector<std::string>> relevant; // each keyword with its aliases ("mixture of experts", "moe")
    std::vector<std::vector<std::string>> irrelevant;
};

// Reads every "Relevant:" and "Irrelevant:" line of a topics prompt.
TopicKeywords parse_topic_keywords(std::string_view topics_prompt);

struct EmbeddedScore {
    int relevance = 1;   // 1-10
    std::string comment; // "Matches pruning, quantization (title); against: diffusion models"
};

EmbeddedScore embedded_score(const Paper& paper, const TopicKeywords& keywords);

} // namespace pp
