// The selection prompt: the user's prompt files, assembled so that the
// unchanging part (system prompt, topics, criteria, instructions) comes
// first and the papers last. Providers that cache a repeated prefix of any
// length (DeepSeek) bill it as cached; OpenAI caches only prompts of 1,024
// tokens or more, and this part is about 520 (docs/scoring.md, "Tokens").
#pragma once

#include "config/config.h"
#include "score/llm_client.h"
#include "score/reader_feedback.h"

#include <string>
#include <vector>

namespace pp {

struct PromptSet {
    std::string system;
    std::string topics;
    std::string criteria;
    std::string postfix;       // instructions for the scoring reply
    std::string title_postfix; // instructions for the title pre-filter reply
    std::string examples;      // the reader's recent judgements (reader_examples()), after the topics; may be empty
};

// Reads the prompt files the settings name (read_prompt_file).
Result<PromptSet> load_prompts(const ScoringSettings& settings);

// A prompt file's text, read beneath the nearest folder of its path named
// prompts/ or content/, with no link leading out of it: a prompt is
// published with the days it scored, so /proc/self/environ, .git/config or
// a link to them is refused (issue 41).
Result<std::string> read_prompt_file(const fs::path& path);

// The examples section of the scoring prompt: the titles of the reader's
// latest stars and hides, newest first, as many as fit `max_bytes` (the
// section's size, at most `max_count` titles): a few hundred tokens a
// request at most (docs/scoring.md, "The reader's feedback"). "" for none.
struct ExampleBounds {
    std::size_t max_count = 12;
    std::size_t max_bytes = 1000;
};
std::string reader_examples(const std::vector<FeedbackExample>& newest_first, const ExampleBounds& bounds = {});

// How a paper is laid out in a request. The scoring criteria never ask
// about authors (followed authors are matched here, not by the LLM), so a
// few names are enough: 274 names cost a request 2,000 tokens.
struct PaperLayout {
    size_t max_authors = 3; // then "et al."
};

std::vector<ChatMessage> scoring_messages(const PromptSet& prompts, const std::vector<Paper>& batch,
                                          const PaperLayout& layout = {});
std::vector<ChatMessage> title_filter_messages(const PromptSet& prompts, const std::vector<Paper>& batch);

// The prompt as it is sent, with a placeholder for the papers: what the day
// records under content/prompts/ and what keys the score cache.
std::string prompt_record(const PromptSet& prompts);

} // namespace pp
