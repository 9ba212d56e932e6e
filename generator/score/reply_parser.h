// Reads an LLM's scoring reply, tolerantly: models wrap JSON in code fences,
// prepend <think> blocks or prose, answer in JSONL or as a JSON array, and
// leave trailing commas. Whatever the wrapping, every JSON object that has
// an arXiv ID is found.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pp {

// A reply is read up to this many bytes (after its reasoning); a batch's
// answer is a few tens of kilobytes.
inline constexpr std::size_t max_reply_bytes = 4u << 20;

struct ScoreReply {
    std::string id;               // version-less arXiv ID
    std::optional<int> relevance; // clamped to 1-10
    std::optional<int> novelty;   // clamped to 1-10
    std::string comment;
    std::string topic = {}; // the topics prompt's section it fits best, as answered (a number or a name)
};

std::vector<ScoreReply> parse_score_reply(std::string_view reply);

// The IDs in a reply to the title pre-filter: a JSON list of IDs to drop,
// possibly wrapped the same ways.
std::vector<std::string> parse_id_list_reply(std::string_view reply);

} // namespace pp
