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
    std::map<std::string, ScoreReply> scores;    // by paper ID
    std::map<std::string, std::string> unscored; // paper ID -> why
    std::set<std::string> dropped_by_titles;     // the title pre-filter's drops
    Tokens tokens;                               // summed over every call
    int requests = 0;
    int failed_requests = 0;
    int cache_hits = 0;
    int unknown_cost_calls = 0; // replies without usage and timed-out attempts: possibly billed, tokens unknown
    int rate_limited = 0;       // 429 answers (not billed), each waited out
    // Why the LLM stopped serving: quota or billing, a refused key, a rejected
    // request, or an outage longer than llm.max_wait_minutes, with the
    // provider's words; empty when it served to the end.
    std::string stopped;
    LlmEndpoint sent; // the parameters the last requests went with (temperature, seed, format, ...)
    // A scoring reply to a structured format came back as something else: the endpoint ignored it.
    bool format_ignored = false;
};

// The reply format the endpoint honoured, as a day records it: empty without
// requests; "text" when no format was sent, when a reply showed it ignored,
// or when the endpoint documents that it ignores response_format
// (ignores_response_format).
std::string honoured_format(const LlmScoring& scoring);

// What an endpoint's error reply says: OpenAI's envelope {"error": {"message",
// "type", "code", "param"}}, which DeepSeek, OpenRouter, vLLM, Ollama and
// Anthropic also use; Google's {"error": {"code": 429, "message", "status",
// "details": [...]}}, which Gemini's OpenAI-compatible endpoint wraps in an
// array. Fields are empty when the body is something else (docs/scoring.md).
struct ProviderError {
    std::string message, type, code, param;
    std::string status;      // Google's canonical code: RESOURCE_EXHAUSTED, INVALID_ARGUMENT
    std::string reason;      // google.rpc.ErrorInfo's reason: API_KEY_INVALID
    bool quota_gone = false; // google.rpc.QuotaFailure: a quota per day, or one whose limit is 0
    std::optional<std::chrono::milliseconds> retry_delay; // google.rpc.RetryInfo, or "Please retry in 11.1s."
};
ProviderError read_provider_error(std::string_view body);

// What a failed call means for the calls after it (docs/pipeline.md has the
// table and the providers' pages it follows).
enum class LlmFailure {
    billing,      // 402, a 429 whose code says quota or credit is used up, a quota for the day: stop at once
    refused,      // 401, 403, a key the provider calls invalid: stop at once
    rejected,     // 400, 404, 422 and other 4xx: the request is wrong: stop at once
    rate_limited, // any other 429: wait as asked, within the day's budget
    outage,       // 5xx, 408, no answer: retry with backoff, within the day's budget
};
// `status` 0: no HTTP answer (refused connection, timeout).
LlmFailure classify_llm_failure(long status, const ProviderError& error);

// The endpoint as llm: configures it: temperature 0 (unless configured
// otherwise) where the model takes it, and the seed, so that papers near the
// cutoff do not flip between runs; the reply format asked first.
LlmEndpoint llm_endpoint(const LlmSettings& llm, const std::string& api_key);

struct LlmScorerOptions {
    LlmSettings settings;
    LlmEndpoint endpoint;
    // Called after each batch: papers settled so far, out of all.
    std::function<void(size_t done, size_t total)> on_progress;
    std::function<void(const std::string&)> on_log; // retries and failures
    Clock* clock = nullptr;                         // times backoff and rate limits; nullptr: real_clock()
    // Waits for rate limits and outages, summed over the whole run, end here:
    // then the LLM stops and `stopped` says why (llm.max_wait_minutes).
    Clock::duration max_wait = std::chrono::minutes(60);
    // Why the LLM already stopped serving earlier in the run (a quota error
    // holds for the run): then only the cache serves, and no call is made.
    std::string stopped_before;
    ReplyKind reply = ReplyKind::scores; // what the structured formats' schema asks for
};

LlmScoring score_with_llm(const std::vector<Paper>& papers, const PromptSet& prompts, const LlmScorerOptions& options,
                          ScoreCache* cache);

// One request a paper, `messages(paper)`, through the scorer's session: its
// reply format with the fallbacks, limits, retries, stops, the budget for
// waiting, and the accounting of tokens in the result. `on_reply` gets each
// paper's reply or why it has none (called under a lock); a paper a stop
// left unasked gets no call, and the result's `stopped` says why.
LlmScoring ask_each_paper(const std::vector<Paper>& papers, const LlmScorerOptions& options,
                          const std::function<std::vector<ChatMessage>(const Paper&)>& messages,
                          const std::function<void(const Paper&, const Result<ChatReply>&)>& on_reply);

} // namespace pp
