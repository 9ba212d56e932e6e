// Scores papers with an LLM: batches sent several at once under a
// requests-per-minute limit, replies matched by ID, papers missing from a
// reply asked again in smaller batches, and after the retries a paper with
// no score is reported with the reason (never silently dropped).
#pragma once

#include "config/config.h"
#include "score/llm_client.h"
#include "score/prompt.h"
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
    std::string stopped;         // why scoring stopped at once (401/403, a rejected parameter); empty if it did not
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
};

LlmScoring score_with_llm(const std::vector<Paper>& papers, const PromptSet& prompts,
                          const LlmScorerOptions& options, ScoreCache* cache);

// Spaces request starts evenly: at most `per_minute` in any minute. Shared
// by all workers.
class RateLimiter {
public:
    explicit RateLimiter(int per_minute);
    void acquire();

private:
    std::mutex mutex_;
    std::chrono::steady_clock::duration interval_;
    std::chrono::steady_clock::time_point next_{};
};

} // namespace pp
