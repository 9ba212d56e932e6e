// Scores papers with an LLM: batches sent several at once under the
// endpoint's limits (requests and tokens per minute, and every wait the
// endpoint asks for), replies matched by ID, papers missing from a reply
// asked again in smaller batches, and after the retries a paper with no
// score is reported with the reason (never silently dropped).
#pragma once

#include "config/config.h"
#include "score/llm_client.h"
#include "score/prompt.h"
#include "score/rate_limit.h"
#include "score/reply_parser.h"
#include "score/score_cache.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace pp {

struct LlmScoring {
    std::map<std::string, ScoreReply> scores;      // by paper ID
    std::map<std::string, std::string> unscored;   // paper ID -> why
    std::set<std::string> dropped_by_titles;       // the title pre-filter's drops
    Tokens tokens;                                 // summed over every call
    int requests = 0;
    int failed_requests = 0;
    int cache_hits = 0;
    int unknown_cost_calls = 0;  // replies without usage and timed-out attempts: possibly billed, tokens unknown
    int rate_limited = 0;        // 429 answers (not billed), each waited out
    std::string stopped;         // why scoring stopped at once (401/403, a rejected parameter); empty if it did not
    LlmEndpoint sent;            // the parameters the last requests went with (temperature, seed, ...)
};

// Why a failed call means no later call can succeed (a refused key, a
// parameter the model rejects); empty when retrying may help.
std::string fatal_llm_error(const std::string& message);

// True when `message` says the endpoint rejected `max_tokens` (use
// max_completion_tokens instead).
bool rejects_max_tokens(const std::string& message);

struct LlmScorerOptions {
    LlmSettings settings;
    LlmEndpoint endpoint;
    // Called after each batch: papers settled so far, out of all.
    std::function<void(size_t done, size_t total)> on_progress;
    std::function<void(const std::string&)> on_log; // retries and failures
    Clock* clock = nullptr; // times backoff and rate limits; nullptr: real_clock()
};

LlmScoring score_with_llm(const std::vector<Paper>& papers, const PromptSet& prompts,
                          const LlmScorerOptions& options, ScoreCache* cache);

} // namespace pp
