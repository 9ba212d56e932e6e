#include "score/llm_scorer.h"

#include "util/text.h"

#include <atomic>
#include <thread>

namespace pp {

RateLimiter::RateLimiter(int per_minute)
    : interval_(per_minute > 0 ? std::chrono::steady_clock::duration(std::chrono::minutes(1)) / per_minute
                               : std::chrono::steady_clock::duration::zero()) {}

void RateLimiter::acquire() {
    if (interval_ == std::chrono::steady_clock::duration::zero()) return;
    std::chrono::steady_clock::time_point slot;
    {
        std::lock_guard lock(mutex_);
        auto now = std::chrono::steady_clock::now();
        slot = std::max(now, next_);
        next_ = slot + interval_;
    }
    std::this_thread::sleep_until(slot);
}

namespace {

// HttpClient's errors for a status read "HTTP 401 from <url>: <body excerpt>".
long http_status(const std::string& message) {
    if (!message.starts_with("HTTP ")) return 0;
    auto status = parse_int(std::string_view(message).substr(5, 3));
    return status ? *status : 0;
}

// The parameter an OpenAI-style 400 names: "param":"temperature", or
// "Unsupported parameter: 'max_tokens'" / "Unsupported value: 'temperature'".
std::string rejected_parameter(const std::string& message) {
    for (std::string_view marker : {"\"param\":\"", "\"param\": \"", "parameter: '", "value: '"}) {
        auto at = message.find(marker);
        if (at == std::string::npos) continue;
        at += marker.size();
        auto end = message.find_first_of("\"'", at);
        if (end != std::string::npos && end > at) return message.substr(at, end - at);
    }
    return {};
}

bool timed_out(const std::string& message) {
    return message.find("timed out") != std::string::npos || message.find("Timeout") != std::string::npos;
}

} // namespace

std::string fatal_llm_error(const std::string& message) {
    long status = http_status(message);
    if (status == 401 || status == 403)
        return "the LLM endpoint refused the request (HTTP " + std::to_string(status) +
               "): check the API key and its permissions; stopped at once, no further calls";
    if (status == 400 || status == 404 || status == 422) {
        std::string parameter = rejected_parameter(message);
        return "the LLM endpoint rejected the request (HTTP " + std::to_string(status) + ")" +
               (parameter.empty() ? std::string() : ", parameter '" + parameter + "'") +
               ": check llm.model, llm.temperature and llm.max_tokens; stopped at once, no further calls (" +
               excerpt(message) + ")";
    }
    return {};
}

bool rejects_max_tokens(const std::string& message) {
    return http_status(message) == 400 && message.find("max_tokens") != std::string::npos &&
           message.find("max_completion_tokens") != std::string::npos;
}

namespace {

using Batch = std::vector<const Paper*>;

std::vector<Batch> make_batches(const std::vector<const Paper*>& papers, size_t size) {
    std::vector<Batch> batches;
    for (size_t i = 0; i < papers.size(); i += size)
        batches.emplace_back(papers.begin() + static_cast<std::ptrdiff_t>(i),
                             papers.begin() + static_cast<std::ptrdiff_t>(std::min(papers.size(), i + size)));
    return batches;
}

std::vector<Paper> copies(const Batch& batch) {
    std::vector<Paper> out;
    for (const Paper* p : batch) out.push_back(*p);
    return out;
}

// Runs `work(batch, http)` for every batch on `workers` threads, each with
// its own HTTP connection.
void run_batches(const std::vector<Batch>& batches, int workers, const LlmScorerOptions& options,
                 const std::function<void(const std::string&)>& log, const std::atomic<bool>& stop,
                 const std::function<void()>& on_timeout,
                 const std::function<void(const Batch&, HttpClient&)>& work) {
    std::atomic<size_t> next{0};
    auto worker = [&] {
        HttpOptions http_options;
        http_options.user_agent = "paperpress/0.1";
        http_options.timeout = std::chrono::seconds(static_cast<long>(options.settings.timeout));
        http_options.max_attempts = 3;
        http_options.backoff = std::chrono::milliseconds(1000);
        http_options.on_retry = [&](const std::string& line) {
            if (timed_out(line)) on_timeout();
            log(line);
        };
        HttpClient http(http_options);
        for (size_t i = next++; i < batches.size() && !stop; i = next++) work(batches[i], http);
    };
    std::vector<std::thread> threads;
    int count = std::max(1, std::min<int>(workers, static_cast<int>(batches.size())));
    for (int t = 0; t < count; ++t) threads.emplace_back(worker);
    for (auto& thread : threads) thread.join();
}

} // namespace

LlmScoring score_with_llm(const std::vector<Paper>& papers, const PromptSet& prompts,
                          const LlmScorerOptions& options, ScoreCache* cache) {
    LlmScoring result;
    std::mutex mutex; // guards result
    std::mutex log_mutex; // workers log too: one line at a time
    auto log = [&](const std::string& line) {
        std::lock_guard lock(log_mutex);
        if (options.on_log) options.on_log(line);
    };
    if (cache)
        for (const auto& warning : cache->warnings()) log("warning: " + warning);
    RateLimiter limiter(options.settings.requests_per_minute);
    const auto& settings = options.settings;

    LlmEndpoint endpoint = options.endpoint; // guarded by mutex: switches once to max_completion_tokens
    std::atomic<bool> stop{false};
    auto on_timeout = [&] {
        std::lock_guard lock(mutex);
        ++result.unknown_cost_calls;
    };
    auto call = [&](const std::vector<ChatMessage>& messages, HttpClient& http) -> Result<ChatReply> {
        for (;;) {
            limiter.acquire();
            LlmEndpoint current;
            {
                std::lock_guard lock(mutex);
                current = endpoint;
            }
            auto reply = chat_completion(http, current, messages);
            std::lock_guard lock(mutex);
            ++result.requests;
            if (reply) {
                result.tokens.prompt += reply->usage.prompt;
                result.tokens.completion += reply->usage.completion;
                result.tokens.cached += reply->usage.cached;
                if (!reply->usage_known) ++result.unknown_cost_calls;
                for (const auto& warning : reply->warnings) log("warning: the LLM reply's " + warning);
                return reply;
            }
            ++result.failed_requests;
            if (timed_out(reply.error().message)) ++result.unknown_cost_calls;
            if (rejects_max_tokens(reply.error().message) && !current.max_completion_tokens) {
                if (!endpoint.max_completion_tokens) {
                    endpoint.max_completion_tokens = true;
                    log("the model does not take max_tokens: asking again with max_completion_tokens");
                }
                continue; // once: the endpoint now sends max_completion_tokens
            }
            if (std::string fatal = fatal_llm_error(reply.error().message); !fatal.empty()) {
                if (result.stopped.empty()) {
                    result.stopped = fatal;
                    log(fatal);
                }
                stop = true;
            }
            return reply;
        }
    };

    // Cached scores first: they cost nothing.
    std::vector<const Paper*> pending;
    for (const auto& paper : papers) {
        if (cache)
            if (auto hit = cache->find(paper.id)) {
                result.scores[paper.id] = *hit;
                ++result.cache_hits;
                continue;
            }
        pending.push_back(&paper);
    }
    const size_t total = papers.size();
    auto progress = [&] {
        if (options.on_progress) options.on_progress(result.scores.size() + result.dropped_by_titles.size(), total);
    };
    progress();

    // Optional title pre-filter: a cheap pass that drops clearly off-topic
    // titles. A failed call drops nothing.
    if (settings.title_prefilter && !pending.empty()) {
        std::set<std::string> drop;
        run_batches(make_batches(pending, static_cast<size_t>(settings.batch_size) * 4), settings.concurrency, options, log, stop, on_timeout,
                    [&](const Batch& batch, HttpClient& http) {
                        auto reply = call(title_filter_messages(prompts, copies(batch)), http);
                        if (!reply) return;
                        std::set<std::string> in_batch;
                        for (const Paper* p : batch) in_batch.insert(p->id);
                        std::lock_guard lock(mutex);
                        for (const auto& id : parse_id_list_reply(reply->content))
                            if (in_batch.contains(id)) drop.insert(id);
                    });
        result.dropped_by_titles = drop;
        std::erase_if(pending, [&](const Paper* p) { return drop.contains(p->id); });
        progress();
    }

    // Scoring passes: each pass re-asks, in half-size batches, for the papers
    // the previous pass did not get a score for.
    std::map<std::string, std::string> last_problem;
    size_t batch_size = static_cast<size_t>(settings.batch_size);
    for (int pass = 0; pass <= settings.retries && !pending.empty() && !stop; ++pass) {
        run_batches(make_batches(pending, batch_size), settings.concurrency, options, log, stop, on_timeout,
                    [&](const Batch& batch, HttpClient& http) {
                        auto reply = call(scoring_messages(prompts, copies(batch)), http);
                        std::lock_guard lock(mutex);
                        if (!reply) {
                            for (const Paper* p : batch) last_problem[p->id] = reply.error().message;
                            log("LLM request failed: " + reply.error().message);
                            return;
                        }
                        std::map<std::string, std::string> problems; // this reply's, by ID
                        for (const Paper* p : batch) problems[p->id] = "missing from the LLM's reply";
                        for (const auto& score : parse_score_reply(reply->content)) {
                            if (!problems.contains(score.id)) continue; // an ID we did not ask about
                            if (!score.relevance || !score.novelty) {
                                problems[score.id] = "the reply had no relevance and novelty for it";
                                continue;
                            }
                            result.scores[score.id] = score;
                            problems.erase(score.id);
                            if (cache) cache->store(score);
                        }
                        for (auto& [id, problem] : problems) last_problem[id] = problem;
                    });
        std::erase_if(pending, [&](const Paper* p) { return result.scores.contains(p->id); });
        if (!pending.empty() && pass < settings.retries && !stop)
            log(std::to_string(pending.size()) + " papers had no score; asking again in batches of " +
                           std::to_string(std::max<size_t>(1, batch_size / 2)));
        batch_size = std::max<size_t>(1, batch_size / 2);
        progress();
    }
    for (const Paper* p : pending)
        result.unscored[p->id] = !result.stopped.empty() ? result.stopped : last_problem.count(p->id) ? last_problem[p->id] + " (after " +
                                                                 std::to_string(settings.retries + 1) + " tries)"
                                                           : "not scored";
    return result;
}

} // namespace pp
