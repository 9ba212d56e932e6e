// The selection prompt: the user's prompt files, assembled so that the
// unchanging part (system prompt, topics, criteria, instructions) comes
// first and the papers last, which lets providers cache the prefix.
#pragma once

#include "config/config.h"
#include "score/llm_client.h"

#include <string>
#include <vector>

namespace pp {

struct PromptSet {
    std::string system;
    std::string topics;
    std::string criteria;
    std::string postfix;        // instructions for the scoring reply
    std::string title_postfix;  // instructions for the title pre-filter reply
};

Result<PromptSet> load_prompts(const ScoringSettings& settings);

std::vector<ChatMessage> scoring_messages(const PromptSet& prompts, const std::vector<Paper>& batch);
std::vector<ChatMessage> title_filter_messages(const PromptSet& prompts, const std::vector<Paper>& batch);

// The prompt as it is sent, with a placeholder for the papers: what the day
// records under content/prompts/ and what keys the score cache.
std::string prompt_record(const PromptSet& prompts);

} // namespace pp
