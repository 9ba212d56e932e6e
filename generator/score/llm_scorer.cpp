#include "score/llm_scorer.h"

#include "util/backoff.h"
#include "util/json.h"
#include "util/text.h"
#include "util/version.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <thread>

using namespace std::chrono_literals;

namespace pp {

namespace {

// The parameter a 400 names in its text, for endpoints without a "param"
// field: "Unsupported parameter: 'max_tokens'" / "Unsupported value: 'temperature'".
std::string parameter_in_text(const std::string& message) {
    for (std::string_view marker : {"parameter: '", "value: '"}) {
        auto at = message.find(marker);
        if (at == std::string::npos) continue;
        at += marker.size();
        auto end = message.find('\'', at);
        if (end != std::string::npos && end > at) return message.substr(at, end - at);
    }
    return {};
}

// OpenAI's codes for a used-up quota or spending limit, or an account
// without billing (a 429 that waiting does not cure), and the billing errors
// other providers name (Anthropic's billing_error). Sources: docs/scoring.md.
bool billing_code(const std::string& code) {
    for (std::string_view known :
         {"insufficient_quota", "billing_not_active", "credit_balance_exhausted", "organization_spend_limit_exceeded",
          "project_spend_limit_exceeded", "organization_usage_limit_exceeded", "billing_hard_limit_reached",
          "billing_error", "payment_required"})
        if (code == known) return true;
    return false;
}

// Anthropic answers a used-up credit balance with a plain 400
// invalid_request_error; only its published words tell it from a bad request.
bool credit_too_low(long status, const ProviderError& error) {
    return status == 400 && error.message.starts_with("Your credit balance is too low");
}

std::string member_text(const rapidjson::Value& object, const char* key) {
    auto it = object.FindMember(key);
    if (it == object.MemberEnd()) return {};
    if (it->value.IsString()) return {it->value.GetString(), it->value.GetStringLength()};
    if (it->value.IsInt64()) return std::to_string(it->value.GetInt64());
    return {};
}

} // namespace

namespace {

// google.rpc's details (cloud.google.com/apis/design/errors): ErrorInfo's
// reason, QuotaFailure's violations (a quotaId "...PerDay...": a quota that
// waiting within the run does not bring back), RetryInfo's retryDelay ("26s").
void read_google_details(const rapidjson::Value& error, ProviderError& out) {
    auto details = error.FindMember("details");
    if (details == error.MemberEnd() || !details->value.IsArray()) return;
    for (const auto& detail : details->value.GetArray()) {
        if (!detail.IsObject()) continue;
        const std::string type = member_text(detail, "@type");
        if (type.ends_with("google.rpc.ErrorInfo")) out.reason = member_text(detail, "reason");
        if (type.ends_with("google.rpc.RetryInfo"))
            if (auto delay = parse_duration(member_text(detail, "retryDelay"))) out.retry_delay = delay;
        auto violations = detail.FindMember("violations");
        if (!type.ends_with("google.rpc.QuotaFailure") || violations == detail.MemberEnd() ||
            !violations->value.IsArray())
            continue;
        for (const auto& violation : violations->value.GetArray())
            if (violation.IsObject() && member_text(violation, "quotaId").find("PerDay") != std::string::npos)
                out.quota_gone = true;
    }
}

// What Gemini's message adds when its details are cut: "limit: 0" (a quota
// the plan does not have) and "Please retry in 45.57s."
void read_google_text(ProviderError& out) {
    const std::string lower = to_lower(out.message);
    for (size_t at = lower.find("limit: 0"); at != std::string::npos; at = lower.find("limit: 0", at + 1))
        if (at + 8 == lower.size() || !std::isdigit(static_cast<unsigned char>(lower[at + 8]))) out.quota_gone = true;
    if (auto at = lower.find("please retry in "); at != std::string::npos && !out.retry_delay)
        out.retry_delay = parse_duration(std::string_view(lower).substr(at + 16));
}

// A validation error of FastAPI/Pydantic, which Mistral's API and Azure's
// model endpoints answer with a 422: {"detail": [{"type": "extra_forbidden",
// "loc": ["body", "seed"], "msg": "Extra inputs are not permitted"}]}
// (mistralai/platform-docs-public#7, langchain-ai/langchain-azure#82). Mistral
// wraps it in "message", as an object or as JSON text. The parameter is the
// body's member the first item names.
bool read_validation_detail(const rapidjson::Value& holder, ProviderError& out, int depth = 0) {
    if (!holder.IsObject() || depth > 2) return false;
    auto detail = holder.FindMember("detail");
    if (detail == holder.MemberEnd()) {
        auto message = holder.FindMember("message");
        if (message == holder.MemberEnd()) return false;
        if (message->value.IsObject()) return read_validation_detail(message->value, out, depth + 1);
        rapidjson::Document inner; // JSON text in "message"
        return message->value.IsString() && parse_json(inner, member_text(holder, "message")) &&
               read_validation_detail(inner, out, depth + 1);
    }
    if (!detail->value.IsArray() || detail->value.Empty() || !detail->value[0].IsObject()) return false;
    const rapidjson::Value& first = detail->value[0];
    auto loc = first.FindMember("loc");
    if (loc != first.MemberEnd() && loc->value.IsArray() && loc->value.Size() >= 2 && loc->value[1].IsString() &&
        loc->value[0] == "body")
        out.param = loc->value[1].GetString();
    out.message = (out.param.empty() ? "" : out.param + ": ") + member_text(first, "msg");
    if (out.type.empty()) out.type = member_text(first, "type");
    return true;
}

} // namespace

ProviderError read_provider_error(std::string_view body) {
    rapidjson::Document doc;
    if (!parse_json(doc, body.substr(0, 64 * 1024))) return {};
    // Gemini's OpenAI-compatible endpoint answers [{"error": {...}}].
    const rapidjson::Value& root = doc.IsArray() && !doc.Empty() ? doc[0] : doc;
    if (!root.IsObject()) return {};
    auto error = root.FindMember("error");
    ProviderError said;
    if (error != root.MemberEnd() && error->value.IsString()) {
        said.message = member_text(root, "error");
        return said;
    }
    const rapidjson::Value& object = error != root.MemberEnd() && error->value.IsObject() ? error->value : root;
    said.message = member_text(object, "message");
    said.type = member_text(object, "type");
    said.code = member_text(object, "code");
    said.param = member_text(object, "param");
    said.status = member_text(object, "status");
    if (said.param.empty()) read_validation_detail(object, said);
    read_google_details(object, said);
    read_google_text(said);
    return said;
}

LlmEndpoint llm_endpoint(const LlmSettings& llm, const std::string& api_key) {
    LlmEndpoint endpoint{llm.base_url, api_key, llm.model, llm.temperature, llm.max_tokens, false, llm.seed};
    if (!endpoint.temperature && accepts_temperature(llm.model)) endpoint.temperature = 0.0;
    endpoint.format = parse_reply_format(llm.reply_format).value_or(ReplyFormat::json_schema);
    return endpoint;
}

LlmFailure classify_llm_failure(long status, const ProviderError& error) {
    if (status == 402 || billing_code(error.code) || billing_code(error.type) || credit_too_low(status, error) ||
        (status == 429 && error.quota_gone))
        return LlmFailure::billing;
    if (status == 401 || status == 403 || error.reason == "API_KEY_INVALID") return LlmFailure::refused;
    if (status == 429) return LlmFailure::rate_limited;
    if (status == 0 || status == 408 || status >= 500) return LlmFailure::outage;
    return LlmFailure::rejected;
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

// A failure without an answer that another attempt may mend (an outage);
// a reply over its cap or a redirect we refuse will not change.
bool answer_may_come(ErrorKind kind) { return kind == ErrorKind::network || kind == ErrorKind::timeout; }

// A request that timed out may have been billed: asked again this many
// times only. Refusals and server errors are not billed: they are retried
// for as long as the run's budget for waiting lasts.
constexpr int timeout_retries = 2;

std::string milliseconds_text(Clock::duration length) {
    return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(length).count()) + " ms";
}

// One scoring run's shared state: the result, the endpoint (which adapts
// once to a rejected parameter), the limits, the log.
class Session {
public:
    Session(const LlmScorerOptions& options, LlmScoring& into)
        : result(into), options_(options), endpoint_(options.endpoint), deadline_(clock().now() + options.max_wait),
          limiter_(options.settings.requests_per_minute, options.settings.tokens_per_minute, clock(), deadline_) {}

    Clock& clock() const { return options_.clock ? *options_.clock : real_clock(); }
    const LlmScorerOptions& options() const { return options_; }

    void log(const std::string& line) {
        std::lock_guard lock(log_mutex_);
        if (options_.on_log) options_.on_log(line);
    }

    // One request for `papers` papers, retried as its failure deserves.
    // `scores`: a scoring request, which asks for the endpoint's reply format.
    Result<ChatReply> call(const std::vector<ChatMessage>& messages, size_t papers, HttpClient& http,
                           bool scores = true);

    LlmScoring& result;
    std::mutex mutex; // guards `result` and the endpoint
    std::atomic<bool> stop{false};

private:
    LlmEndpoint current_endpoint();
    void learn_limits(const HttpResponse& response);
    void count_failure(bool possibly_billed);
    bool adapt_to_rejection(const LlmEndpoint& sent, long status, const ProviderError& error, const std::string& said);
    bool hold_off(const HttpResponse& response, const ProviderError& said, const Error& error, Backoff& throttled);
    void stop_with(const std::string& why);
    std::string budget() const;
    std::string out_of_budget(const std::string& last_error) const;
    std::string asked_too_long(std::chrono::milliseconds asked, const std::string& said) const;
    Result<ChatReply> account_reply(const HttpResponse& response, size_t prompt_bytes, size_t papers,
                                    long long charged);
    void check_format_honoured(const LlmEndpoint& sent, const ChatReply& reply);

    const LlmScorerOptions& options_;
    LlmEndpoint endpoint_;
    Clock::time_point deadline_; // no wait for an outage, a rate limit or the limiter ends after this
    RateLimiter limiter_;
    TokenEstimate estimate_;
    std::mutex log_mutex_;
};

// A structured reply is a JSON document and nothing else: one in a code
// fence or in prose means the endpoint took response_format and ignored it
// (as Anthropic's OpenAI-compatible endpoint documents), so the day records
// the format the reply came in, not the one asked for.
void Session::check_format_honoured(const LlmEndpoint& sent, const ChatReply& reply) {
    if (sent.format == ReplyFormat::text) return;
    const std::string_view content = trim(reply.content);
    if (content.starts_with('{') || content.starts_with('[')) return;
    std::lock_guard lock(mutex);
    if (std::exchange(result.format_ignored, true)) return;
    log(std::string("the endpoint took response_format ") + to_string(sent.format) +
        " but its reply is not JSON alone: it does not honour it (the day records format: text; the reply is read "
        "as text)");
}

LlmEndpoint Session::current_endpoint() {
    std::lock_guard lock(mutex);
    result.sent = endpoint_;
    result.sent.api_key.clear(); // the record never holds the key
    return endpoint_;
}

// OpenAI-style endpoints tell their token budget in every reply's headers.
void Session::learn_limits(const HttpResponse& response) {
    auto limit = parse_int(response.header("x-ratelimit-limit-tokens"));
    auto remaining = parse_int(response.header("x-ratelimit-remaining-tokens"));
    if (limit && remaining) limiter_.learn_token_budget(*limit, *remaining);
}

// `possibly_billed`: the request timed out, so the endpoint may have
// answered and charged for it; its tokens are unknown.
void Session::count_failure(bool possibly_billed) {
    std::lock_guard lock(mutex);
    ++result.failed_requests;
    if (possibly_billed) ++result.unknown_cost_calls;
}

// A 400 that names a parameter the endpoint can do without: asks again
// without it (max_tokens becomes max_completion_tokens; a reply format falls
// back from json_schema to json_object to text). Once each. `said`: the
// provider's own words (its error message, else its reply's text), which
// name the parameter when the reply has no "param" field.
bool Session::adapt_to_rejection(const LlmEndpoint& sent, long status, const ProviderError& error,
                                 const std::string& said) {
    if (status != 400 && status != 422) return false;
    const std::string parameter = !error.param.empty() ? error.param : parameter_in_text(said);
    auto names = [&](std::string_view what) { return parameter == what || said.find(what) != std::string::npos; };
    std::lock_guard lock(mutex);
    if (names("max_tokens") && said.find("max_completion_tokens") != std::string::npos && !sent.max_completion_tokens) {
        if (!endpoint_.max_completion_tokens) {
            endpoint_.max_completion_tokens = true;
            log("the model does not take max_tokens: asking again with max_completion_tokens");
        }
        return true;
    }
    if ((names("response_format") || names("json_schema") || names("json_object")) &&
        sent.format != ReplyFormat::text) {
        if (endpoint_.format == sent.format) {
            endpoint_.format = sent.format == ReplyFormat::json_schema ? ReplyFormat::json_object : ReplyFormat::text;
            log(std::string("the endpoint does not take response_format ") + to_string(sent.format) +
                ": asking again with " +
                (endpoint_.format == ReplyFormat::text ? "plain text" : to_string(endpoint_.format)));
        }
        return true;
    }
    if (parameter == "temperature" && sent.temperature) {
        if (endpoint_.temperature) {
            endpoint_.temperature.reset();
            log("the model does not take temperature: asking again without it");
        }
        return true;
    }
    if (parameter == "seed" && sent.seed) {
        if (endpoint_.seed) {
            endpoint_.seed.reset();
            log("the model does not take seed: asking again without it");
        }
        return true;
    }
    return false;
}

void Session::stop_with(const std::string& why) {
    std::lock_guard lock(mutex);
    if (result.stopped.empty()) {
        result.stopped = why;
        log(why);
    }
    stop = true;
}

// Counts a 2xx reply's tokens, even an empty reply's (they are billed),
// and corrects the budget and the estimate with them.
Result<ChatReply> Session::account_reply(const HttpResponse& response, size_t prompt_bytes, size_t papers,
                                         long long charged) {
    auto reply = read_chat_reply(response.body);
    if (!reply) {
        count_failure(false);
        return reply;
    }
    const long long used = reply->usage.prompt + reply->usage.completion;
    limiter_.settle(charged, reply->usage_known ? used : charged);
    if (reply->usage_known) estimate_.learn(prompt_bytes, papers, reply->usage.prompt, reply->usage.completion);
    {
        std::lock_guard lock(mutex);
        result.tokens.prompt += reply->usage.prompt;
        result.tokens.completion += reply->usage.completion;
        result.tokens.cached += reply->usage.cached;
        if (!reply->usage_known) ++result.unknown_cost_calls;
        for (const auto& warning : reply->warnings) log("warning: the LLM reply's " + warning);
    }
    if (reply->empty) {
        std::string why =
            "the LLM's reply was empty" +
            (reply->finish_reason.empty() ? std::string() : " (finish_reason: " + excerpt(reply->finish_reason) + ")");
        count_failure(false);
        return fail(why);
    }
    return reply;
}

// "llm.max_wait_minutes (1 min)": as configured, not what was left of it
// when this day's calls began (59.9 s printed "0 min").
std::string Session::budget() const {
    return "llm.max_wait_minutes (" + std::to_string(options_.settings.max_wait_minutes) + " min)";
}

std::string Session::out_of_budget(const std::string& last_error) const {
    return "the LLM endpoint did not recover within " + budget() + ", the last answer: " + excerpt(last_error, 200) +
           "; no further calls";
}

// A wait the endpoint asked for (Retry-After and its kin) that the budget cannot hold.
std::string Session::asked_too_long(std::chrono::milliseconds asked, const std::string& said) const {
    return "the LLM endpoint asked to wait " + std::to_string((asked.count() + 999) / 1000) +
           " s, more than what is left of " + budget() + ": the provider says " + excerpt(said, 200) +
           "; stopped, no further calls";
}

// What the log and the day say when the provider refuses for good: the
// kind, the status and the provider's own words.
std::string refusal(LlmFailure kind, long status, const ProviderError& error, const std::string& message) {
    const std::string said = "the provider says " + excerpt(error.message.empty() ? message : error.message, 300);
    // An identifier such as insufficient_quota or API_KEY_INVALID, or nothing: not a number ("HTTP 402 402").
    auto identifier = [](const std::string& code) {
        return !code.empty() && code.size() <= 60 && std::ranges::all_of(code, [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        }) && !std::ranges::all_of(code, [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    };
    std::string code;
    for (const std::string* candidate : {&error.code, &error.reason, &error.type, &error.status})
        if (code.empty() && identifier(*candidate)) code = *candidate;
    const std::string status_text = "HTTP " + std::to_string(status) + (code.empty() ? "" : " " + code);
    switch (kind) {
        case LlmFailure::billing:
            return "the LLM provider refused for quota or billing (" + status_text + "): " + said +
                   "; stopped at once, no further calls (add credit or raise the limit, then --resume the day)";
        case LlmFailure::refused:
            return "the LLM endpoint refused the request (" + status_text +
                   "): check the API key and its permissions: " + said + "; stopped at once, no further calls";
        default:
            return "the LLM endpoint rejected the request (" + status_text + ")" +
                   (error.param.empty() ? std::string() : ", parameter " + excerpt(error.param)) +
                   ": check llm.model, llm.temperature and llm.max_tokens: " + said +
                   "; stopped at once, no further calls";
    }
}

// The system prompt with the reply format's instruction.
std::vector<ChatMessage> with_format(std::vector<ChatMessage> messages, ReplyFormat format, ReplyKind kind) {
    const std::string instruction = reply_format_instruction(format, kind);
    if (!instruction.empty() && !messages.empty()) messages.front().content += "\n\n" + instruction;
    return messages;
}

// A 429: every worker holds off what the endpoint asks (a header first,
// else the body's word: google.rpc.RetryInfo, "Please retry in 11.1s"), else
// the jittered step. False: the wait would end past the run's deadline, and
// the LLM is stopped.
bool Session::hold_off(const HttpResponse& response, const ProviderError& said, const Error& error,
                       Backoff& throttled) {
    {
        std::lock_guard lock(mutex);
        ++result.rate_limited;
    }
    auto asked = server_retry_delay(response);
    if (!asked) asked = said.retry_delay;
    auto wait = throttled.next(clock(), asked);
    if (!wait) {
        const std::string words = said.message.empty() ? error.message : said.message;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - clock().now());
        stop_with(asked && *asked >= left ? asked_too_long(*asked, words) : out_of_budget(words));
        return false;
    }
    limiter_.hold_off(*wait); // every worker waits: the limit is the endpoint's, not this request's
    log("HTTP 429 from the LLM endpoint (rate limited); asking again in " + milliseconds_text(*wait));
    return true;
}

Result<ChatReply> Session::call(const std::vector<ChatMessage>& messages, size_t papers, HttpClient& http,
                                bool scores) {
    // Waits for an outage or a rate limit (what the endpoint asks, else the
    // jittered step), none ending after the run's deadline.
    Backoff outage({1s, 2min}, deadline_), throttled({2s, 2min}, deadline_);
    int timeouts = 0;
    for (;;) {
        if (stop) {
            std::lock_guard lock(mutex);
            return fail("the LLM stopped serving: " + result.stopped);
        }
        LlmEndpoint endpoint = current_endpoint();
        if (!scores) endpoint.format = ReplyFormat::text;
        const std::string url = chat_url(endpoint);
        const std::string body =
            chat_request_body(endpoint, with_format(messages, endpoint.format, options_.reply), options_.reply);
        const auto charged = limiter_.acquire(estimate_.estimate(body.size(), papers));
        if (!charged) {
            // The endpoint's announced budget, or its replies' usage, asks for a wait the budget cannot hold.
            stop_with("the LLM endpoint's limits ask for more than what is left of " + budget() + ": " +
                      charged.error().message + "; stopped, no further calls");
            return std::unexpected(charged.error());
        }
        if (stop) { // stopped by another worker while this one waited
            limiter_.settle(*charged, 0);
            continue;
        }
        auto response = http.send(url, &body, chat_headers(endpoint));
        {
            std::lock_guard lock(mutex);
            ++result.requests;
        }
        if (response) learn_limits(*response);
        if (response && response->status >= 200 && response->status < 300) {
            auto reply = account_reply(*response, body.size(), papers, *charged);
            if (reply && scores) check_format_honoured(endpoint, *reply);
            return reply;
        }
        const long status = response ? response->status : 0;
        const ProviderError said = response ? read_provider_error(response->body) : ProviderError{};
        Error error = response ? http_status_error(*response, url) : response.error();
        count_failure(error.kind == ErrorKind::timeout);
        if (status != 0 && status < 500) limiter_.settle(*charged, 0); // refused, not billed
        const std::string provider_text = !said.message.empty() ? said.message
                                          : response            ? response->body.substr(0, 4096)
                                                                : std::string();
        if (adapt_to_rejection(endpoint, status, said, provider_text)) continue;
        if (!response && !answer_may_come(error.kind)) {
            stop_with("the LLM endpoint cannot be used: " + error.message + "; stopped at once, no further calls");
            return std::unexpected(error);
        }
        const LlmFailure kind = classify_llm_failure(status, said);
        if (kind == LlmFailure::rate_limited) {
            if (!hold_off(*response, said, error, throttled)) return std::unexpected(error);
            continue;
        }
        if (kind == LlmFailure::outage) {
            if (error.kind == ErrorKind::timeout && ++timeouts > timeout_retries) return std::unexpected(error);
            auto wait = outage.next(clock());
            if (!wait) {
                stop_with(out_of_budget(said.message.empty() ? error.message : said.message));
                return std::unexpected(error);
            }
            log(error.message + "; asking again in " + milliseconds_text(*wait));
            clock().sleep_for(*wait);
            continue;
        }
        stop_with(refusal(kind, status, said, error.message));
        return std::unexpected(error);
    }
}

// Runs `work(batch, http)` for every batch on `workers` threads, each with
// its own HTTP connection (one attempt per send: Session::call retries).
void run_batches(const std::vector<Batch>& batches, Session& session,
                 const std::function<void(const Batch&, HttpClient&)>& work) {
    const auto& settings = session.options().settings;
    std::atomic<size_t> next{0};
    auto worker = [&] {
        HttpOptions http_options;
        http_options.peer = HttpPeer::llm();
        http_options.user_agent = user_agent();
        http_options.timeout = std::chrono::milliseconds(static_cast<long long>(settings.timeout * 1000));
        http_options.max_attempts = 1;
        http_options.clock = &session.clock();
        HttpClient http(http_options);
        for (size_t i = next++; i < batches.size() && !session.stop; i = next++) work(batches[i], http);
    };
    std::vector<std::thread> threads;
    int count = std::max(1, std::min<int>(settings.concurrency, static_cast<int>(batches.size())));
    for (int t = 0; t < count; ++t) threads.emplace_back(worker);
    for (auto& thread : threads) thread.join();
}

// Cached scores first: they cost nothing. Returns the papers still to score.
std::vector<const Paper*> take_cached(const std::vector<Paper>& papers, ScoreCache* cache, LlmScoring& result) {
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
    return pending;
}

// The optional title pre-filter: a cheap pass that drops clearly off-topic
// titles. A failed call drops nothing.
void filter_titles(Session& session, const PromptSet& prompts, std::vector<const Paper*>& pending) {
    std::set<std::string> drop;
    const size_t batch_size = static_cast<size_t>(session.options().settings.batch_size) * 4;
    run_batches(make_batches(pending, batch_size), session, [&](const Batch& batch, HttpClient& http) {
        auto reply = session.call(title_filter_messages(prompts, copies(batch)), batch.size(), http, false);
        if (!reply) return;
        std::set<std::string> in_batch;
        for (const Paper* p : batch) in_batch.insert(p->id);
        std::lock_guard lock(session.mutex);
        for (const auto& id : parse_id_list_reply(reply->content))
            if (in_batch.contains(id)) drop.insert(id);
    });
    session.result.dropped_by_titles = drop;
    std::erase_if(pending, [&](const Paper* p) { return drop.contains(p->id); });
}

// Takes the scores a reply holds for `batch`; the others get their problem.
void record_reply(const Batch& batch, const ChatReply& reply, LlmScoring& result, ScoreCache* cache,
                  std::map<std::string, std::string>& last_problem) {
    std::map<std::string, std::string> problems; // this reply's, by ID
    for (const Paper* p : batch) problems[p->id] = "missing from the LLM's reply";
    for (const auto& score : parse_score_reply(reply.content)) {
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
}

// One pass over `pending` in batches of `batch_size`; `progress` after each reply taken.
void scoring_pass(Session& session, const PromptSet& prompts, const std::vector<const Paper*>& pending,
                  size_t batch_size, ScoreCache* cache, std::map<std::string, std::string>& last_problem,
                  const std::function<void()>& progress) {
    run_batches(make_batches(pending, batch_size), session, [&](const Batch& batch, HttpClient& http) {
        auto reply = session.call(scoring_messages(prompts, copies(batch)), batch.size(), http);
        std::lock_guard lock(session.mutex);
        if (!reply) {
            for (const Paper* p : batch) last_problem[p->id] = reply.error().message;
            session.log("LLM request failed: " + reply.error().message);
            return;
        }
        record_reply(batch, *reply, session.result, cache, last_problem);
        progress();
    });
}

// Why each paper still pending has no score.
void record_unscored(const std::vector<const Paper*>& pending, int tries,
                     std::map<std::string, std::string>& last_problem, LlmScoring& result) {
    for (const Paper* p : pending) {
        if (!result.stopped.empty()) result.unscored[p->id] = result.stopped;
        else if (last_problem.contains(p->id))
            result.unscored[p->id] = last_problem[p->id] + " (after " + std::to_string(tries) + " tries)";
        else result.unscored[p->id] = "not scored";
    }
}

} // namespace

LlmScoring score_with_llm(const std::vector<Paper>& papers, const PromptSet& prompts, const LlmScorerOptions& options,
                          ScoreCache* cache) {
    LlmScoring result;
    Session session(options, result);
    if (cache)
        for (const auto& warning : cache->warnings()) session.log("warning: " + warning);
    const auto& settings = options.settings;
    std::vector<const Paper*> pending = take_cached(papers, cache, result);
    auto progress = [&] {
        if (options.on_progress)
            options.on_progress(result.scores.size() + result.dropped_by_titles.size(), papers.size());
    };
    progress();
    if (!options.stopped_before.empty()) {
        result.stopped = options.stopped_before;
        std::map<std::string, std::string> no_problems;
        record_unscored(pending, 0, no_problems, result);
        return result;
    }
    if (settings.title_prefilter && !pending.empty()) {
        filter_titles(session, prompts, pending);
        progress();
    }
    // Each pass re-asks, in half-size batches, for the papers the previous pass did not get a score for.
    std::map<std::string, std::string> last_problem;
    size_t batch_size = static_cast<size_t>(settings.batch_size);
    for (int pass = 0; pass <= settings.retries && !pending.empty() && !session.stop; ++pass) {
        scoring_pass(session, prompts, pending, batch_size, cache, last_problem, progress);
        std::erase_if(pending, [&](const Paper* p) { return result.scores.contains(p->id); });
        batch_size = std::max<size_t>(1, batch_size / 2);
        if (!pending.empty() && pass < settings.retries && !session.stop)
            session.log(std::to_string(pending.size()) + " papers had no score; asking again in batches of " +
                        std::to_string(batch_size));
    }
    record_unscored(pending, settings.retries + 1, last_problem, result);
    return result;
}

LlmScoring ask_each_paper(const std::vector<Paper>& papers, const LlmScorerOptions& options,
                          const std::function<std::vector<ChatMessage>(const Paper&)>& messages,
                          const std::function<void(const Paper&, const Result<ChatReply>&)>& on_reply) {
    LlmScoring result;
    Session session(options, result);
    std::vector<const Paper*> pending;
    for (const auto& paper : papers) pending.push_back(&paper);
    if (!options.stopped_before.empty()) {
        result.stopped = options.stopped_before;
        for (const Paper* p : pending) on_reply(*p, fail("the LLM stopped serving: " + result.stopped));
        return result;
    }
    run_batches(make_batches(pending, 1), session, [&](const Batch& batch, HttpClient& http) {
        auto reply = session.call(messages(*batch.front()), 1, http);
        if (!reply) session.log("LLM request failed: " + reply.error().message);
        std::lock_guard lock(session.mutex);
        on_reply(*batch.front(), reply);
    });
    return result;
}

std::string honoured_format(const LlmScoring& scoring) {
    if (scoring.requests == 0) return "";
    if (scoring.format_ignored || ignores_response_format(scoring.sent.base_url)) return to_string(ReplyFormat::text);
    return to_string(scoring.sent.format);
}

} // namespace pp
