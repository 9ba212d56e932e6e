// pipeline: `paperpress run` end to end against real HTTP servers on
// loopback standing in for arXiv and for an OpenAI-compatible endpoint.
#include "config/arxiv_dates.h"
#include "config/config.h"
#include "content/content_tree.h"
#include "pipeline/nightly.h"
#include "test_support.h"
#include "util/text.h"

#include <doctest/doctest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>

using namespace pp;
using namespace pp::test;

namespace {

std::string item(const std::string& id, const std::string& type, const std::string& title,
                 const std::string& authors = "Ann Author, Bob Author", const std::string& abstract = "") {
    return "<item><title>" + title + "</title><link>https://arxiv.org/abs/" + id + "</link><description>arXiv:" + id +
           "v1 Announce Type: " + type + " \nAbstract: We study " + title + "." + abstract +
           "</description><category>cs.LG</category>"
           "<arxiv:announce_type>" +
           type + "</arxiv:announce_type><dc:creator>" + authors + "</dc:creator></item>";
}

std::string feed(const std::string& items, const std::string& date = "Wed, 28 May 2025 00:00:00 -0400") {
    return "<?xml version=\"1.0\"?><rss xmlns:arxiv=\"http://arxiv.org/schemas/atom\" "
           "xmlns:dc=\"http://purl.org/dc/elements/1.1/\" version=\"2.0\"><channel><title>cs.LG+cs.AI updates</title>"
           "<pubDate>" +
           date + "</pubDate>" + items + "</channel></rss>";
}

// 30 papers, one replacement (dropped by the default announce types), one
// by a followed author (with a TeX accent in the feed).
std::string thirty_papers() {
    std::string items;
    for (int i = 0; i < 30; ++i) {
        std::string id = "2505." + std::to_string(20000 + i);
        items += item(id, i == 7 ? "replace" : (i % 5 == 0 ? "cross" : "new"), "Paper number " + std::to_string(i),
                      i == 3 ? "Lenka Zdeborov\\'a, Other Person" : "Ann Author, Bob Author");
    }
    return items;
}

// Deterministic scores a test can predict: relevance and novelty from the ID.
int relevance_of(const std::string& id) { return 3 + (std::stoi(id.substr(5)) * 7) % 8; }
int novelty_of(const std::string& id) { return 4 + (std::stoi(id.substr(5)) * 3) % 7; }

struct ReplyUsage {
    long long prompt = 0, completion = 0;
    std::optional<long long> cached; // prompt_tokens_details.cached_tokens, when sent
};

// An OpenAI chat completion of `content`; `finish_reason` and `usage` when given.
std::string chat_completion(const std::string& content, const char* finish_reason, std::optional<ReplyUsage> usage) {
    rapidjson::Document reply(rapidjson::kObjectType);
    auto& a = reply.GetAllocator();
    rapidjson::Value message(rapidjson::kObjectType), choice(rapidjson::kObjectType), choices(rapidjson::kArrayType);
    message.AddMember("role", "assistant", a);
    message.AddMember("content", rapidjson::Value(content.c_str(), a), a);
    choice.AddMember("message", message, a);
    if (finish_reason) choice.AddMember("finish_reason", rapidjson::StringRef(finish_reason), a);
    choices.PushBack(choice, a);
    reply.AddMember("choices", choices, a);
    if (usage) {
        rapidjson::Value counts(rapidjson::kObjectType);
        counts.AddMember("prompt_tokens", static_cast<int64_t>(usage->prompt), a);
        counts.AddMember("completion_tokens", static_cast<int64_t>(usage->completion), a);
        if (usage->cached) {
            rapidjson::Value details(rapidjson::kObjectType);
            details.AddMember("cached_tokens", static_cast<int64_t>(*usage->cached), a);
            counts.AddMember("prompt_tokens_details", details, a);
        }
        reply.AddMember("usage", counts, a);
    }
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    reply.Accept(writer);
    return buffer.GetString();
}

// An OpenAI-compatible endpoint with knobs for misbehaviour.
struct FakeLlm {
    LoopbackServer http;
    std::mutex mutex;
    std::vector<std::vector<std::string>> batches; // IDs asked, per request
    std::set<std::string> never_answer;            // IDs always left out of replies
    std::set<std::string> skip_first_time;         // left out the first time they are asked
    bool garbage_first = false;                    // the very first reply is prose without JSON
    bool ignores_format = false;           // takes response_format and answers as if it were not sent (Anthropic's)
    bool rate_limit_first = false;         // the very first request gets 429
    bool always_fail = false;              // every request gets 500
    std::string empty_content;             // "null" or "\"\"": replies with no content ...
    int empty_replies = 0;                 // ... for this many requests (-1: all), finish_reason length
    int fail_status = 0;                   // every request gets this status ...
    std::string fail_body;                 // ... with this body
    bool reject_max_tokens = false;        // 400 for a request with max_tokens, as o-series models
    bool omit_usage = false;               // replies without a usage block
    bool reject_temperature = false;       // 400 for a request with temperature, as o-series models
    std::set<std::string> refused_formats; // response_format types answered with 400 naming response_format
    std::optional<Clock::time_point> outage_until; // every request gets 503 until `clock` reaches this
    // A provider's token budget (OpenAI tier 1: 30k tokens a minute for gpt-4o),
    // refilled continuously on `clock`: a request over it gets the 429 OpenAI sends.
    long long tokens_per_minute = 0;
    Clock* clock = nullptr;
    double budget = -1;
    Clock::time_point budget_at{};
    int rate_limited = 0;
    std::string topic;                                // when set, every answer's TOPIC
    std::map<std::string, std::string> reply_headers; // sent with every answer (x-ratelimit-*, retry-after)
    long long usage_tokens = -1;                      // when set, every reply's usage claims these prompt tokens
    std::string first_fail_body;                      // when set, the very first request gets 429 with this body
    std::vector<std::string> bodies;                  // every request's body
    std::string seen_authorization;
    std::atomic<int> arrivals{0}; // requests received, counted before any latency
    std::atomic<int> in_flight{0};
    std::atomic<int> max_in_flight{0};
    std::chrono::milliseconds latency{0};
    int requests = 0;
    std::vector<std::string> summarized; // IDs a summary was asked for, in order
    std::set<std::string> summary_cut;   // IDs whose summary reply is cut at the length limit

    FakeLlm() {
        http.server.Post("/v1/chat/completions", [this](const httplib::Request& req, httplib::Response& res) {
            ++arrivals;
            int now = ++in_flight;
            int seen = max_in_flight;
            while (now > seen && !max_in_flight.compare_exchange_weak(seen, now)) {}
            std::this_thread::sleep_for(latency);
            handle(req, res);
            --in_flight;
        });
        http.start();
    }

    // Handlers still running (a slow reply the client gave up on) use the
    // members below: they must finish before those are destroyed.
    ~FakeLlm() { http.stop(); }

    void handle(const httplib::Request& req, httplib::Response& res) {
        std::lock_guard lock(mutex);
        int n = ++requests;
        seen_authorization = req.get_header_value("Authorization");
        bodies.push_back(req.body);
        for (const auto& [name, value] : reply_headers) res.set_header(name, value);
        if (req.body.find("You write short summaries") != std::string::npos) return summarize(req, res);
        if (outage_until && clock->now() < *outage_until) {
            res.status = 503;
            res.set_content("{\"error\":{\"message\":\"The server is overloaded\",\"type\":\"server_error\"}}",
                            "application/json");
            return;
        }
        for (const auto& format : refused_formats)
            if (req.body.find("\"response_format\":{\"type\":\"" + format + "\"") != std::string::npos) {
                res.status = 400;
                res.set_content("{\"error\":{\"message\":\"Invalid parameter: 'response_format' of type '" + format +
                                    "' is not supported with this model.\",\"type\":\"invalid_request_error\","
                                    "\"param\":\"response_format\",\"code\":null}}",
                                "application/json");
                return;
            }
        if (fail_status) {
            res.status = fail_status;
            res.set_content(fail_body, "application/json");
            return;
        }
        if (reject_max_tokens && req.body.find("\"max_tokens\"") != std::string::npos) {
            res.status = 400;
            res.set_content("{\"error\":{\"message\":\"Unsupported parameter: 'max_tokens' is not supported with this "
                            "model. Use 'max_completion_tokens' instead.\",\"type\":\"invalid_request_error\","
                            "\"param\":\"max_tokens\",\"code\":\"unsupported_parameter\"}}",
                            "application/json");
            return;
        }
        if (reject_temperature && req.body.find("\"temperature\"") != std::string::npos) {
            res.status = 400;
            res.set_content("{\"error\":{\"message\":\"Unsupported value: 'temperature' does not support 0 with this "
                            "model. Only the default (1) value is supported.\",\"type\":\"invalid_request_error\","
                            "\"param\":\"temperature\",\"code\":\"unsupported_value\"}}",
                            "application/json");
            return;
        }
        if (always_fail) {
            res.status = 500;
            return;
        }
        if (!first_fail_body.empty() && n == 1) {
            res.status = 429;
            res.set_content(first_fail_body, "application/json");
            return;
        }
        if (rate_limit_first && n == 1) {
            res.status = 429;
            res.set_header("Retry-After", "0");
            return;
        }
        rapidjson::Document body;
        body.Parse(req.body.c_str());
        std::string user = body["messages"][1]["content"].GetString();
        std::vector<std::string> ids;
        for (size_t pos = user.find("ArXiv ID: "); pos != std::string::npos; pos = user.find("ArXiv ID: ", pos + 1))
            ids.push_back(user.substr(pos + 10, user.find('\n', pos) - pos - 10));
        std::string content = "```jsonl\n";
        if (!empty_content.empty() && (empty_replies < 0 || n <= empty_replies)) {
            batches.push_back(ids);
            res.set_content("{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":" + empty_content +
                                "},\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":900,"
                                "\"completion_tokens\":4000}}",
                            "application/json");
            return;
        }
        if (garbage_first && n == 1) content = "I am sorry, I cannot score papers today.";
        else {
            for (const auto& id : ids) {
                if (never_answer.contains(id)) continue;
                if (skip_first_time.contains(id)) {
                    skip_first_time.erase(id);
                    continue;
                }
                content += "{\"ARXIVID\": \"" + id +
                           "\", \"COMMENT\": \"Matches <b>MoE</b> & sparsity\", \"RELEVANCE\": " +
                           std::to_string(relevance_of(id)) + ", \"NOVELTY\": " + std::to_string(novelty_of(id)) +
                           (topic.empty() ? "" : ", \"TOPIC\": \"" + topic + "\"") + "},\n";
            }
            content += "```";
            if (!ignores_format && req.body.find("\"response_format\":{\"type\":\"json_") != std::string::npos) {
                // A structured reply: the same objects in {"papers": [...]}, no fences.
                std::string objects = content.substr(9, content.size() - 9 - 3);
                while (!objects.empty() && (objects.back() == '\n' || objects.back() == ',')) objects.pop_back();
                for (auto& c : objects)
                    if (c == '\n') c = ' ';
                content = "{\"papers\": [" + objects + "]}";
            }
        }
        // About 4 bytes a token, as for English text.
        const int64_t prompt_tokens = usage_tokens >= 0   ? usage_tokens
                                      : tokens_per_minute ? static_cast<int64_t>(req.body.size() / 4)
                                                          : 1000;
        const int64_t completion_tokens = tokens_per_minute ? static_cast<int64_t>(content.size() / 4) : 100;
        if (tokens_per_minute && !within_budget(prompt_tokens + completion_tokens, res)) return;
        batches.push_back(ids);
        const auto usage = omit_usage ? std::nullopt : std::optional(ReplyUsage{prompt_tokens, completion_tokens, 400});
        res.set_content(chat_completion(content, nullptr, usage), "application/json");
    }

    // A summary as asked: the language the prompt names echoed in its TL;DR,
    // with outside text a page must escape; or a reply cut at the length limit.
    void summarize(const httplib::Request& req, httplib::Response& res) {
        rapidjson::Document body;
        body.Parse(req.body.c_str());
        const std::string system = body["messages"][0]["content"].GetString();
        const std::string user = body["messages"][1]["content"].GetString();
        const auto at = user.find("ArXiv ID: ") + 10;
        const std::string id = user.substr(at, user.find('\n', at) - at);
        summarized.push_back(id);
        const auto language_at = system.find("Write every part in ") + 20;
        const std::string language = system.substr(language_at, system.find(',', language_at) - language_at);
        const bool cut = summary_cut.contains(id);
        const std::string content =
            cut ? "{\"tldr\": \"Half a sen"
                : "{\"tldr\": \"[" + language + "] <b>" + id + "</b> & co in one line\", \"motivation\": \"Why " + id +
                      "\", \"method\": \"How\", \"result\": \"What\", \"conclusion\": \"So what\"}";
        res.set_content(chat_completion(content, cut ? "length" : "stop", ReplyUsage{300, 120, std::nullopt}),
                        "application/json");
    }

    // Charges `tokens` to the minute's budget, or answers 429 as OpenAI does:
    // the x-ratelimit headers and "Please try again in 2.4s." in the body.
    bool within_budget(long long tokens, httplib::Response& res) {
        const double per_second = static_cast<double>(tokens_per_minute) / 60.0;
        const auto now = clock->now();
        if (budget < 0) budget = static_cast<double>(tokens_per_minute), budget_at = now;
        budget = std::min<double>(static_cast<double>(tokens_per_minute),
                                  budget + per_second * std::chrono::duration<double>(now - budget_at).count());
        budget_at = now;
        if (budget >= static_cast<double>(tokens)) {
            budget -= static_cast<double>(tokens);
            return true;
        }
        ++rate_limited;
        auto seconds = [](double s) {
            char text[32];
            std::snprintf(text, sizeof text, "%.3gs", s);
            return std::string(text);
        };
        const double until_fits = (static_cast<double>(tokens) - budget) / per_second;
        const double until_full = (static_cast<double>(tokens_per_minute) - budget) / per_second;
        res.status = 429;
        res.set_header("x-ratelimit-limit-tokens", std::to_string(tokens_per_minute));
        res.set_header("x-ratelimit-remaining-tokens", std::to_string(static_cast<long long>(budget)));
        res.set_header("x-ratelimit-reset-tokens", seconds(until_full));
        res.set_header("x-ratelimit-limit-requests", "500");
        res.set_header("x-ratelimit-remaining-requests", "499");
        res.set_header("x-ratelimit-reset-requests", "120ms");
        res.set_content(
            "{\"error\":{\"message\":\"Rate limit reached for gpt-4o in organization org-test on tokens per "
            "min (TPM): Limit " +
                std::to_string(tokens_per_minute) + ", Used " +
                std::to_string(tokens_per_minute - static_cast<long long>(budget)) + ", Requested " +
                std::to_string(tokens) + ". Please try again in " + seconds(until_fits) +
                ". Visit https://platform.openai.com/account/rate-limits to learn more.\",\"type\":\"tokens\","
                "\"param\":null,\"code\":\"rate_limit_exceeded\"}}",
            "application/json");
        return false;
    }
};

struct Fixture {
    TempDir dir;
    FakeClock clock; // backoff, rate limits and arXiv's interval take no real time
    LoopbackServer arxiv;
    std::string feed_body = feed(thirty_papers());
    int feed_status = 200;
    std::string feed_path = "cs.LG+cs.AI"; // the categories the feed is asked for
    std::atomic<int> feed_requests{0};
    std::function<std::string()> feed_now; // when set, the feed's body at each request (a feed that changes)
    Config config;
    std::vector<std::string> log;

    Fixture() {
        arxiv.server.Get(R"(/rss/(.*))", [this](const httplib::Request& req, httplib::Response& res) {
            ++feed_requests;
            CHECK(req.matches[1] == feed_path);
            res.status = feed_status;
            res.set_content(feed_now ? feed_now() : feed_body, "application/rss+xml");
        });
        arxiv.start();
        config.arxiv.rss_url = arxiv.url("/rss/");
        config.arxiv.api_url = arxiv.url("/api/query");
        config.arxiv.request_interval = 0;
        config.arxiv.cache_dir = (dir / "cache/arxiv").string();
        fs::create_directories(dir / "prompts"); // prompts are read beneath a prompts/ folder
        for (const char* part : {"system.md", "topics.md", "score_criteria.md", "postfix.md", "title_postfix.md"})
            fs::copy_file(source_dir() / "prompts" / part, dir / "prompts" / part);
        config.scoring.system_prompt = (dir / "prompts/system.md").string();
        config.scoring.topics = (dir / "prompts/topics.md").string();
        config.scoring.criteria = (dir / "prompts/score_criteria.md").string();
        config.scoring.postfix = (dir / "prompts/postfix.md").string();
        config.scoring.title_postfix = (dir / "prompts/title_postfix.md").string();
        config.scoring.authors = {"Lenka Zdeborová"};
        config.scoring.cache_dir = (dir / "cache/scores").string();
        config.scoring.relevance_cutoff = 6;
        config.scoring.novelty_cutoff = 5;
        config.llm.batch_size = 4;
        config.llm.concurrency = 4;
        config.llm.requests_per_minute = 0;
        config.llm.retries = 2;
        config.llm.api_key_env = "PAPERPRESS_TEST_KEY";
        config.llm.summaries = false;   // counted requests are scoring's; the summary tests turn it on
        config.arxiv.catch_up_days = 0; // the catch-up tests turn it on
    }

    ~Fixture() { arxiv.stop(); }

    void use(FakeLlm& llm) {
        config.llm.base_url = llm.http.url("/v1");
        config.llm.base_url_set = true;
        config.llm.model = "gpt-4o";
    }

    std::string api_key;                         // what the CLI read from llm.api_key_env
    Date today = *parse_iso_date("2025-05-28");  // the feed's day: the nightly run is on time
    std::optional<std::chrono::sys_seconds> now; // when set, the wall clock instead of `today`

    RunResult run(std::optional<Date> date = std::nullopt, bool offline = false, bool resume = false) {
        RunRequest request;
        request.llm_api_key = api_key;
        request.date = date;
        request.offline = offline;
        request.resume = resume;
        if (now) request.now = now;
        else request.today = today;
        request.clock = &clock;
        request.content_dir = dir / "content";
        request.log = [this](const std::string& line) { log.push_back(line); };
        return run_nightly(request, config);
    }

    Day day(const char* date) {
        auto loaded = load_day(day_path(dir / "content", *parse_iso_date(date)));
        REQUIRE_MESSAGE(loaded.has_value(), loaded.error().to_string());
        return *loaded;
    }
};

std::vector<std::string> ids_of(const Day& day) {
    std::vector<std::string> ids;
    for (const auto& p : day.papers) ids.push_back(p.id);
    return ids;
}

} // namespace

TEST_CASE("run: the announcement is fetched, scored by the LLM and written; nothing is lost") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    f.api_key = "sk-test-SECRET-1234";
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    Day day = f.day("2025-05-28");
    CHECK(day.status == DayStatus::announced);
    CHECK(day.counts.arxiv == 30);
    CHECK(day.counts.scanned == 29); // the replacement is not kept
    CHECK(day.model == "gpt-4o");
    CHECK(llm.seen_authorization == "Bearer sk-test-SECRET-1234");

    // The author match is first and was never sent to the LLM.
    REQUIRE_FALSE(day.papers.empty());
    CHECK(day.papers[0].id == "2505.20003");
    CHECK(day.papers[0].author_match);
    int asked = 0;
    for (const auto& batch : llm.batches) {
        asked += static_cast<int>(batch.size());
        for (const auto& id : batch) CHECK(id != "2505.20003");
    }
    CHECK(asked == 28);

    // Every other candidate is on the day exactly when it passes the cutoffs.
    std::set<std::string> on_day;
    for (const auto& p : day.papers) on_day.insert(p.id);
    for (int i = 0; i < 30; ++i) {
        std::string id = "2505." + std::to_string(20000 + i);
        if (i == 7 || i == 3) continue;
        bool passes = relevance_of(id) >= 6 && novelty_of(id) >= 5;
        CHECK_MESSAGE(on_day.contains(id) == passes, id);
    }
    CHECK_FALSE(on_day.contains("2505.20007"));

    // Order: score, then relevance, then ID.
    for (size_t i = 2; i < day.papers.size(); ++i) {
        const Paper& a = day.papers[i - 1];
        const Paper& b = day.papers[i];
        bool ordered = a.score() > b.score() || (a.score() == b.score() && *a.relevance > *b.relevance) ||
                       (a.score() == b.score() && a.relevance == b.relevance && a.id < b.id);
        CHECK_MESSAGE(ordered, (a.id + " before " + b.id));
    }
    CHECK(day.papers[1].comment == "Matches <b>MoE</b> & sparsity");

    // Tokens are summed over the requests; cost from the price table.
    long long requests = static_cast<long long>(llm.requests);
    CHECK(requests == 7); // 28 papers in batches of 4
    CHECK(day.tokens->prompt == 1000 * requests);
    CHECK(day.tokens->completion == 100 * requests);
    CHECK(day.tokens->cached == 400 * requests);
    double expected = (600.0 * 2.5 + 400.0 * 1.25 + 100.0 * 10.0) * static_cast<double>(requests) / 1e6;
    CHECK(*day.cost.total == doctest::Approx(expected));

    // Requests ran concurrently.
    CHECK(llm.max_in_flight >= 1);

    // The key is nowhere on disk.
    for (const auto& entry : fs::recursive_directory_iterator(f.dir.path()))
        if (entry.is_regular_file()) CHECK(read_text(entry.path()).find("SECRET") == std::string::npos);
    for (const auto& line : f.log) CHECK(line.find("SECRET") == std::string::npos);
}

// DeepSeek's V4 release note (api-docs.deepseek.com/news/news260424): deepseek-chat is
// "fully retired and inaccessible after Jul 24th, 2026, 15:59 (UTC Time)".
TEST_CASE("run: a model its provider retired is named in a warning with the source; its cost is unknown") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    f.api_key = "sk-test";
    f.config.llm.model = "deepseek-chat";
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    int warned = 0;
    for (const auto& w : result.warnings)
        warned += w.find("llm.model deepseek-chat was retired by DeepSeek on 2026-07-24") != std::string::npos &&
                  w.find("(source: https://api-docs.deepseek.com/") != std::string::npos;
    CHECK(warned == 1);
    CHECK_FALSE(f.day("2025-05-28").cost.total.has_value());
}

TEST_CASE("run: papers missing from replies are asked again in smaller batches, then recorded as unscored") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    llm.rate_limit_first = true;
    llm.garbage_first = true; // the first real reply (request 2) ... is fine; request 1 is the 429
    llm.skip_first_time = {"2505.20010", "2505.20011"};
    llm.never_answer = {"2505.20020"};
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    Day day = f.day("2025-05-28");
    std::map<std::string, Paper> by_id;
    for (const auto& p : day.papers) by_id[p.id] = p;
    // Asked again and scored.
    for (const char* id : {"2505.20010", "2505.20011"}) {
        bool passes = relevance_of(id) >= 6 && novelty_of(id) >= 5;
        CHECK(by_id.contains(id) == passes);
    }
    // Never answered: kept, with the reason.
    REQUIRE(by_id.contains("2505.20020"));
    CHECK(by_id["2505.20020"].unscored == "missing from the LLM's reply (after 3 tries)");
    CHECK(day.papers.back().id == "2505.20020");
    CHECK(day.counts.relevant == static_cast<long long>(day.papers.size()) - 1);
    // Re-asks use smaller batches: 4, then 2, then 1.
    bool saw_half = false, saw_single = false;
    for (const auto& batch : llm.batches) {
        if (batch == std::vector<std::string>{"2505.20020"}) saw_single = true;
        if (batch.size() == 2) saw_half = true;
    }
    CHECK(saw_half);
    CHECK(saw_single);
    bool warned = false;
    for (const auto& w : result.warnings) warned = warned || w.find("2505.20020 is unscored") != std::string::npos;
    CHECK(warned);
}

TEST_CASE("run: a re-run pays only for papers not yet scored (score cache)") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    REQUIRE(f.run().outcome == RunOutcome::written);
    std::string first = read_text(day_path(f.dir / "content", *parse_iso_date("2025-05-28")));
    int requests = llm.requests;
    CHECK(requests > 0);

    // The same announcement again: nothing new, no request.
    RunResult again = f.run();
    CHECK(again.outcome == RunOutcome::already_have);
    CHECK(llm.requests == requests);

    // Redo the day explicitly: every score comes from the cache, the day is replaced, not duplicated.
    RunResult redo = f.run(*parse_iso_date("2025-05-28"));
    REQUIRE_MESSAGE(redo.outcome == RunOutcome::written, redo.error);
    CHECK(llm.requests == requests);
    Day day = f.day("2025-05-28");
    CHECK(day.tokens->prompt == 0);
    CHECK(scan_content(f.dir / "content").days.size() == 1);
    bool cache_logged = false;
    for (const auto& line : f.log)
        cache_logged = cache_logged || line.find("28 scores from the cache") != std::string::npos;
    CHECK(cache_logged);
    (void)first;
}

TEST_CASE("run: papers an earlier day listed are dropped") {
    Fixture f;
    Day earlier;
    earlier.date = *parse_iso_date("2025-05-27");
    for (const char* id : {"2505.20001", "2505.20002"}) {
        Paper p;
        p.id = id;
        p.title = "Listed yesterday";
        earlier.papers.push_back(p);
    }
    REQUIRE(save_day(f.dir / "content", earlier).has_value());
    FakeLlm llm;
    f.use(llm);
    REQUIRE(f.run().outcome == RunOutcome::written);
    auto ids = ids_of(f.day("2025-05-28"));
    CHECK(std::find(ids.begin(), ids.end(), "2505.20001") == ids.end());
    CHECK(std::find(ids.begin(), ids.end(), "2505.20002") == ids.end());
    for (const auto& batch : llm.batches)
        for (const auto& id : batch) CHECK((id != "2505.20001" && id != "2505.20002"));
}

TEST_CASE("run: an empty feed writes nothing; a broken or unreachable feed is an error, never an empty day") {
    Fixture f;
    SUBCASE("weekend") {
        f.today = *parse_iso_date("2025-05-31");
        f.feed_body = feed("", "Sat, 31 May 2025 00:00:00 -0400");
        RunResult result = f.run();
        CHECK(result.outcome == RunOutcome::no_announcement);
        CHECK(run_exit_code(result) == 0);
        CHECK_FALSE(fs::exists(f.dir / "content"));
        CHECK(f.log.back().find("no announcement: the feed is empty (a Saturday)") != std::string::npos);
    }
    SUBCASE("an announcement day: the feed is late, and the run says so (exit 3)") {
        f.feed_body = feed("", "Wed, 28 May 2025 00:00:00 -0400");
        RunResult result = f.run();
        CHECK(result.outcome == RunOutcome::no_announcement);
        CHECK(run_exit_code(result) == 3);
        REQUIRE(result.incomplete.size() == 1);
        CHECK(result.incomplete[0].find("2025-05-28's announcement was expected: nothing written") !=
              std::string::npos);
    }
    SUBCASE("malformed XML") {
        f.feed_body = "<rss><channel><item>";
        RunResult result = f.run();
        CHECK(result.outcome == RunOutcome::failed);
        CHECK(result.error.find("malformed XML") != std::string::npos);
        CHECK_FALSE(fs::exists(f.dir / "content"));
    }
    SUBCASE("503 every time") {
        f.feed_status = 503;
        RunResult result = f.run();
        CHECK(result.outcome == RunOutcome::failed);
        CHECK(result.error.find("HTTP 503") != std::string::npos);
        CHECK(f.feed_requests == 4);
        CHECK_FALSE(fs::exists(f.dir / "content"));
    }
    SUBCASE("the LLM fails on every request: retried for llm.max_wait_minutes, then the embedded scorer stands in") {
        FakeLlm llm;
        f.use(llm);
        llm.always_fail = true;
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(run_exit_code(result) == 3);
        Day day = f.day("2025-05-28");
        CHECK(day.status == DayStatus::partial);
        CHECK(day.reason.find("did not recover within llm.max_wait_minutes (60 min)") != std::string::npos);
        CHECK(f.clock.slept() >= std::chrono::minutes(55));
        CHECK(f.clock.slept() <= std::chrono::minutes(61));
    }
}

TEST_CASE("run: the embedded scorer serves when no endpoint is configured") {
    Fixture f;
    f.feed_body = feed(item("2505.30001", "new", "Sparse Mixture of Experts with pruning") +
                       item("2505.30002", "new", "A policy for autonomous driving with reinforcement learning") +
                       item("2505.30003", "new", "Quantization of transformers"));
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    Day day = f.day("2025-05-28");
    CHECK(day.model == "embedded");
    CHECK(*day.cost.total == 0.0);
    CHECK(ids_of(day) == std::vector<std::string>{"2505.30001", "2505.30003"});
    CHECK_FALSE(day.papers[0].novelty.has_value()); // it does not invent novelty
    CHECK(day.papers[0].comment.find("title matches") != std::string::npos);
}

// Issue 44: the rest of the announcement is kept, so the day page can show it.
TEST_CASE("run: the candidates not picked are written after the papers, titles and links, none listed before") {
    Fixture f;
    Day earlier;
    earlier.date = *parse_iso_date("2025-05-27");
    Paper listed;
    listed.id = "2505.30004";
    listed.title = "Listed yesterday";
    earlier.papers.push_back(listed);
    REQUIRE(save_day(f.dir / "content", earlier).has_value());
    f.feed_body =
        feed(item("2505.30001", "new", "Sparse Mixture of Experts with pruning") +
             item("2505.30002", "new", "A policy for autonomous driving with reinforcement learning") +
             item("2505.30004", "new", "Listed yesterday") + item("2505.30003", "new", "Quantization of transformers") +
             item("2505.30005", "new", "Protein folding at scale"));
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    Day day = f.day("2025-05-28");
    CHECK(ids_of(day) == std::vector<std::string>{"2505.30001", "2505.30003"});
    CHECK(day.unpicked ==
          std::vector<Unpicked>{{"2505.30002", "A policy for autonomous driving with reinforcement learning"},
                                {"2505.30005", "Protein folding at scale"}});
    const std::string text = read_text(f.dir / "content/2025/05/2025-05-28.md");
    CHECK(text.ends_with(
        "\n## Not picked\n\n"
        "- [A policy for autonomous driving with reinforcement learning](https://arxiv.org/abs/2505.30002)\n"
        "- [Protein folding at scale](https://arxiv.org/abs/2505.30005)\n"));
}

// A day before the feed's on which the reader picked `titles`.
void seed_archive(const Fixture& f, const std::vector<std::string>& titles) {
    Day day;
    day.date = *parse_iso_date("2025-05-27");
    day.model = "gpt-4o";
    for (size_t i = 0; i < titles.size(); ++i) {
        Paper p;
        p.id = "2505.1000" + std::to_string(i);
        p.title = titles[i];
        p.abstract = "We study " + titles[i] + ".";
        p.relevance = 9;
        p.novelty = 8;
        day.papers.push_back(p);
    }
    REQUIRE(save_day(f.dir / "content", day).has_value());
}

TEST_CASE("run: the learned embedded scorer keeps what resembles the reader's earlier picks") {
    Fixture f;
    seed_archive(f, {"Oversquashing in message passing graph neural networks",
                     "Curvature of graphs and message passing", "Expressive power of graph neural networks"});
    f.feed_body =
        feed(item("2505.30001", "new", "Crop yield prediction from satellite images") +
             item("2505.30002", "new", "Graph rewiring against oversquashing in message passing neural networks") +
             item("2505.30003", "new", "Speech recognition for low-resource languages") +
             item("2505.30004", "new", "Protein folding with protein language models") +
             item("2505.30005", "new", "A benchmark of tabular data loaders") +
             item("2505.30006", "new", "Weather forecasting with station data") +
             item("2505.30007", "new", "Legal document retrieval for courts") +
             item("2505.30008", "new", "Robot grasping of deformable objects"));
    SUBCASE("learned (the default)") {
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        Day day = f.day("2025-05-28");
        CHECK(day.model == "embedded");
        REQUIRE_FALSE(day.papers.empty());
        CHECK(day.papers[0].id == "2505.30002");
        CHECK(day.papers[0].relevance == 10);
        CHECK(day.papers[0].comment.find("\"Oversquashing in message passing graph neural networks\" (2025-05-27)") !=
              std::string::npos);
        CHECK(fs::exists(f.dir / "cache/scores/taste-index.bin"));
    }
    SUBCASE("keywords: no topic keyword, nothing kept") {
        f.config.scoring.embedded = EmbeddedScorerKind::keywords;
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(f.day("2025-05-28").papers.empty());
    }
}

TEST_CASE("run: the learned pre-filter sends the LLM only the top of its ranking (the cascade)") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    f.config.scoring.prefilter = PrefilterKind::learned;
    seed_archive(f, {"Paper number 12 and more", "Paper number 14 and more"});
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    size_t asked = 0;
    for (const auto& batch : llm.batches) asked += batch.size();
    CHECK(asked == 10); // 35% of 28, rounded up
    CHECK(std::find(f.log.begin(), f.log.end(), "learned pre-filter: the top 10 of 28 papers go to the LLM") !=
          f.log.end());
}

TEST_CASE(
    "run: a topics prompt with no keyword never empties the day: the keyword pre-filter steps aside, and says so") {
    Fixture f;
    // The reference system's newer form: topics as "Keep:" and "Filter:" prose, no "- Relevant:" line.
    write_text(f.dir / "prompts/topics.md", "## Relevant Topics\n\n1. Architecture and Training Dynamics\n"
                                            "- Keep: work that analyzes attention variants or residual design.\n"
                                            "- Filter: papers that apply an existing architecture to a new task.\n");
    auto said = [&](const RunResult& result, const std::string& consequence) {
        return std::any_of(result.warnings.begin(), result.warnings.end(), [&](const std::string& w) {
            return w.find("prompts/topics.md: no \"- Relevant: a, b, c\" line") != std::string::npos &&
                   w.find(consequence) != std::string::npos;
        });
    };
    SUBCASE("with the LLM and the keyword pre-filter: every paper goes to the LLM") {
        FakeLlm llm;
        f.use(llm);
        f.config.scoring.prefilter = PrefilterKind::keywords;
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        size_t asked = 0;
        for (const auto& batch : llm.batches) asked += batch.size();
        CHECK(asked == 28); // all but the author match; before, none (each matched no keyword)
        CHECK_FALSE(f.day("2025-05-28").papers.empty());
        CHECK(said(result, "the keyword pre-filter (scoring.prefilter: keywords) is skipped"));
    }
    SUBCASE("without an LLM, the keyword scorer keeps nothing, and says why") {
        f.config.scoring.embedded = EmbeddedScorerKind::keywords;
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(said(result, "the keyword scorer (scoring.embedded: keywords) keeps no paper"));
    }
    SUBCASE("a prompt with keywords: no such warning") {
        write_text(f.dir / "prompts/topics.md", read_text(source_dir() / "prompts/topics.md"));
        f.config.scoring.embedded = EmbeddedScorerKind::keywords;
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK_FALSE(said(result, "keeps no paper"));
    }
}

TEST_CASE("run: the reader's stars and hides (content/feedback/) reach the LLM's prompt and the learned scorer") {
    Fixture f;
    seed_archive(f, {"Oversquashing in message passing graph neural networks",
                     "Curvature of graphs and message passing", "Expressive power of graph neural networks"});
    write_text(f.dir / "content/feedback/2025-05.txt", "2025-05-27 star 2505.10002\n"
                                                       "2025-05-27 hide 2505.10000  # oversquashing\n"
                                                       "2025-05-29 hide 2505.10002\n"); // after the run's day
    SUBCASE("the LLM's requests carry the titles, newest first, and so does the day's prompt record") {
        FakeLlm llm;
        f.use(llm);
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        REQUIRE_FALSE(llm.bodies.empty());
        for (const auto& body : llm.bodies) {
            CHECK(body.find("- hide: Oversquashing in message passing graph neural networks\\n- star: Expressive "
                            "power of graph neural networks") != std::string::npos);
        }
        const Day day = f.day("2025-05-28");
        CHECK(read_text(f.dir / "content" / day.prompt).find("- hide: Oversquashing") != std::string::npos);
    }
    SUBCASE("the learned scorer: with every earlier pick hidden, nothing resembles the reader's taste") {
        f.feed_body = feed(item("2505.30001", "new", "Crop yield prediction from satellite images") +
                           item("2505.30002", "new", "Graph rewiring against oversquashing in message passing") +
                           item("2505.30003", "new", "Speech recognition for low-resource languages"));
        write_text(f.dir / "content/feedback/2025-05.txt", "2025-05-27 hide 2505.10000\n2025-05-27 hide 2505.10001\n"
                                                           "2025-05-27 hide 2505.10002\n");
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(f.day("2025-05-28").papers.empty()); // without the hides, 2505.30002 is kept (the test above)
    }
    SUBCASE("a line that is not a judgement is left out with a warning naming it; the others count") {
        FakeLlm llm;
        f.use(llm);
        write_text(f.dir / "content/feedback/zz.txt", "2025-05-27 like 2505.10001\n");
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(std::any_of(result.warnings.begin(), result.warnings.end(), [](const std::string& w) {
            return w.find("feedback/zz.txt:1: expected the verdict 'star' or 'hide'") != std::string::npos;
        }));
        REQUIRE_FALSE(llm.bodies.empty());
        CHECK(llm.bodies[0].find("- hide: Oversquashing") != std::string::npos);
    }
}

TEST_CASE("run: back-fill of a missed day through the API is marked remedial") {
    Fixture f;
    std::vector<std::string> queries;
    f.arxiv.server.Get("/api/query", [&](const httplib::Request& req, httplib::Response& res) {
        queries.push_back(req.get_param_value("search_query"));
        std::string entries;
        if (req.get_param_value("start") == "0")
            for (const char* id : {"2505.40001", "2505.40002"})
                entries += std::string("<entry><id>http://arxiv.org/abs/") + id + "v1</id><title>Sparse pruning of " +
                           id + "</title><summary>About pruning.</summary><author><name>A B</name></author></entry>";
        res.set_content("<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:opensearch=\"x\"><opensearch:totalResults>2"
                        "</opensearch:totalResults>" +
                            entries + "</feed>",
                        "application/atom+xml");
    });
    RunResult result = f.run(*parse_iso_date("2025-05-20"));
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    Day day = f.day("2025-05-20");
    REQUIRE(day.remedial.has_value());
    // Tuesday's announcement: submitted from Friday 14:00 to Monday 14:00 US Eastern (EDT).
    CHECK(day.remedial->from.iso() == "2025-05-16");
    CHECK(day.remedial->to.iso() == "2025-05-19");
    CHECK(ids_of(day) == std::vector<std::string>{"2505.40001", "2505.40002"});
    REQUIRE(queries.size() == 1);
    CHECK(queries[0].find("submittedDate:[202505161800 TO 202505191759]") != std::string::npos);
    // A Monday's window is Thursday 14:00 to Friday 14:00.
    auto window = backfill_window(arxiv_calendar(ArxivSettings{}), *parse_iso_date("2025-05-26"));
    CHECK(window.from.iso() == "2025-05-22T18:00Z");
    CHECK(window.to.iso() == "2025-05-23T18:00Z");
}

TEST_CASE("paperpress run --offline: the embedded default needs no network and no key") {
    TempDir dir;
    fs::copy(source_dir() / "prompts", dir / "prompts");
    fs::copy(source_dir() / "samples", dir / "samples");
    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    auto result = run_paperpress_env("OPENAI_API_KEY= OPENAI_BASE_URL=", "run --offline", dir.path());
    CHECK_MESSAGE(result.exit_code == 0, result.err);
    CHECK(result.out.find("2025-05-28: 78 in the announcement, 71 scanned") != std::string::npos);
    CHECK(fs::exists(dir / "content/2025/05/2025-05-28.md"));
    CHECK(fs::exists(dir / "site/2025/05/28/index.html"));
    CHECK(fs::exists(dir / "site/index.html"));
    auto again = run_paperpress_env("OPENAI_API_KEY= OPENAI_BASE_URL=", "run --offline", dir.path());
    CHECK(again.exit_code == 0);
    CHECK(again.out.find("already in the archive") != std::string::npos);
    auto bad = run_paperpress("run --date 2025-13-01", dir.path());
    CHECK(bad.exit_code == 2);
}

TEST_CASE("paperpress run commits the day files, and nothing else, when publish.commit_content is on") {
    TempDir dir;
    fs::copy(source_dir() / "prompts", dir / "prompts");
    fs::copy(source_dir() / "samples", dir / "samples");
    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    write_text(dir / "paperpress.yaml", "publish:\n  commit_content: true\n");
    write_text(dir / "notes.txt", "the user's own uncommitted file\n");
    auto git = [&](const std::string& args) {
        return std::system(("cd '" + dir.path().string() + "' && git " + args + " > git.out 2>&1").c_str());
    };
    REQUIRE(git("init -q -b main") == 0);
    REQUIRE(git("-c user.name=T -c user.email=t@x commit -q --allow-empty -m start") == 0);
    auto result = run_paperpress_env("OPENAI_API_KEY= OPENAI_BASE_URL=", "run --offline", dir.path());
    REQUIRE_MESSAGE(result.exit_code == 0, result.err);
    CHECK(result.out.find("on main: Add 2025-05-28: ") != std::string::npos);
    REQUIRE(git("show --name-only --format=%s HEAD") == 0);
    std::string shown = read_text(dir / "git.out");
    CHECK(shown.starts_with("Add 2025-05-28: "));
    CHECK(shown.find("content/2025/05/2025-05-28.md") != std::string::npos);
    CHECK(shown.find("content/prompts/") != std::string::npos);
    CHECK(shown.find("notes.txt") == std::string::npos);
    CHECK(shown.find("site/") == std::string::npos);
    REQUIRE(git("status --porcelain") == 0);
    std::string status = read_text(dir / "git.out");
    CHECK(status.find("?? notes.txt") != std::string::npos);
    CHECK(status.find("content/") == std::string::npos);
}

TEST_CASE("paperpress run notifies after writing the day; an unreachable channel is only a warning") {
    TempDir dir;
    fs::copy(source_dir() / "prompts", dir / "prompts");
    fs::copy(source_dir() / "samples", dir / "samples");
    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    LoopbackServer hooks;
    std::vector<std::string> received;
    std::mutex mutex;
    hooks.server.Post("/good", [&](const httplib::Request& req, httplib::Response& res) {
        std::lock_guard lock(mutex);
        received.push_back(req.body);
        res.set_content("{}", "application/json");
    });
    hooks.server.Post("/down", [&](const httplib::Request&, httplib::Response& res) { res.status = 503; });
    hooks.start();
    write_text(dir / "paperpress.yaml",
               "notify:\n  attempts: 2\n  backoff: 0.01\n  webhook:\n    url_env: PP_TEST_HOOK\n");

    auto good = run_paperpress_env("OPENAI_API_KEY= OPENAI_BASE_URL= PP_TEST_HOOK=" + hooks.url("/good"),
                                   "run --offline", dir.path());
    CHECK_MESSAGE(good.exit_code == 0, good.err);
    REQUIRE(received.size() == 1);
    CHECK(received[0].find("2025-05-28") != std::string::npos);

    // The same day redone with the channel down: the day and the site are written all the same.
    fs::remove_all(dir / "site");
    auto down = run_paperpress_env("OPENAI_API_KEY= OPENAI_BASE_URL= PP_TEST_HOOK=" + hooks.url("/down"),
                                   "run --offline --date 2025-05-28", dir.path());
    CHECK_MESSAGE(down.exit_code == 0, down.err);
    CHECK(down.err.find("warning: notify:") != std::string::npos);
    CHECK(down.err.find(hooks.url("/down")) == std::string::npos); // the secret URL is not printed
    CHECK(fs::exists(dir / "content/2025/05/2025-05-28.md"));
    CHECK(fs::exists(dir / "site/2025/05/28/index.html"));
}

TEST_CASE("paperpress run shows the LLM's progress on stderr, a line a tenth of the work, apart from the log") {
    Fixture f;
    FakeLlm llm;
    fs::copy(source_dir() / "themes", f.dir / "themes", fs::copy_options::recursive);
    write_text(f.dir / "paperpress.yaml",
               "arxiv:\n  request_interval: 0\n  catch_up_days: 0\nllm:\n  batch_size: 4\n  concurrency: 1\n");
    auto result = run_paperpress_env("OPENAI_API_KEY=k OPENAI_BASE_URL=" + llm.http.url("/v1") +
                                         " PAPERPRESS_ARXIV_RSS_URL=" + f.arxiv.url("/rss/"),
                                     "run --date 2025-05-28", f.dir.path());
    REQUIRE_MESSAGE(result.exit_code == 0, result.err);
    // 29 candidates (no followed author here) in 8 batches of 4, a line when the work starts and after
    // each reply, as each crosses a tenth of the work: a long day's log shows that the run moves.
    CHECK(result.err.find("scoring 2025-05-28: 0/29\nscoring 2025-05-28: 4/29\n") != std::string::npos);
    CHECK(result.err.find("scoring 2025-05-28: 28/29\nscoring 2025-05-28: 29/29\n") != std::string::npos);
    size_t lines = 0;
    for (size_t at = result.err.find("scoring 2025-05-28: "); at != std::string::npos;
         at = result.err.find("scoring 2025-05-28: ", at + 1))
        ++lines;
    CHECK_MESSAGE(lines == 9, result.err);
    CHECK(result.out.find("scoring 2025-05-28") == std::string::npos); // the log is stdout's, the progress stderr's
}

TEST_CASE("run: a slow LLM endpoint is timed out and retried; a late reply never lands in the day") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    // Far apart, so that a loaded machine (CI runs browsers beside this test)
    // neither times out the sending of a request nor lets a slow reply land.
    llm.latency = std::chrono::milliseconds(2500);
    f.feed_body = feed(item("2505.50001", "new", "Sparse attention") + item("2505.50002", "new", "Pruning"));
    f.config.llm.timeout = 0.5; // seconds
    f.config.llm.retries = 0;
    f.config.llm.batch_size = 2;
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    CHECK(llm.arrivals == 3); // the first try and two retries of the same batch: a timeout may be billed
    Day day = f.day("2025-05-28");
    CHECK(day.status == DayStatus::partial); // the embedded scorer stood in
    CHECK(day.reason.find("2 of 2 candidates unscored by the LLM") != std::string::npos);
    for (const auto& p : day.papers)
        CHECK_MESSAGE((p.comment.find("LLM") == std::string::npos || !p.unscored.empty()), p.id);
    bool timed_out = false;
    for (const auto& line : f.log) timed_out = timed_out || line.find("timed out") != std::string::npos;
    CHECK(timed_out);
}

// ---------------------------------------------------------------- issue 15: the status is the truth --

TEST_CASE("run: unscored papers make the day partial, with the reason and counts, and exit code 3") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    llm.never_answer = {"2505.20020", "2505.20021"};
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    CHECK(run_exit_code(result) == 3);
    Day day = f.day("2025-05-28");
    CHECK(day.status == DayStatus::partial);
    CHECK(day.reason.find("2 of 28 candidates unscored") != std::string::npos);
    CHECK(day.reason.find("missing from the LLM's reply") != std::string::npos);
    // The status and reason survive the day file's round trip.
    CHECK(read_text(day_path(f.dir / "content", day.date)).find("status: partial\nreason: ") != std::string::npos);

    SUBCASE("--resume scores only the unscored papers and completes the day") {
        llm.never_answer.clear();
        llm.batches.clear();
        RunResult resumed = f.run(*parse_iso_date("2025-05-28"), false, true);
        REQUIRE_MESSAGE(resumed.outcome == RunOutcome::written, resumed.error);
        CHECK(run_exit_code(resumed) == 0);
        std::set<std::string> asked;
        for (const auto& batch : llm.batches) asked.insert(batch.begin(), batch.end());
        CHECK(asked == std::set<std::string>{"2505.20020", "2505.20021"});
        CHECK(f.feed_requests == 1); // the day file is the input, not the feed
        Day done = f.day("2025-05-28");
        CHECK(done.status == DayStatus::announced);
        CHECK(done.reason.empty());
        for (const auto& p : done.papers) CHECK(p.unscored.empty());
        for (const char* id : {"2505.20020", "2505.20021"}) {
            bool passes = relevance_of(id) >= 6 && novelty_of(id) >= 5;
            CHECK(std::ranges::count(ids_of(done), std::string(id)) == (passes ? 1 : 0));
        }
        CHECK(done.tokens->prompt > day.tokens->prompt); // the new calls are added to the day's
    }
    SUBCASE("--resume of a complete day is refused") {
        llm.never_answer.clear();
        REQUIRE(f.run(*parse_iso_date("2025-05-28")).outcome == RunOutcome::written);
        RunResult resumed = f.run(*parse_iso_date("2025-05-28"), false, true);
        CHECK(resumed.outcome == RunOutcome::failed);
        CHECK(resumed.error.find("not partial") != std::string::npos);
    }
}

TEST_CASE("run: yesterday's feed served again is stale (exit 3), not 'nothing new'") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    f.today = *parse_iso_date("2025-05-27");
    f.feed_body = feed(thirty_papers(), "Tue, 27 May 2025 00:00:00 -0400");
    REQUIRE(f.run().outcome == RunOutcome::written);
    // The next night arXiv's feed has not moved on.
    f.today = *parse_iso_date("2025-05-28");
    RunResult result = f.run();
    CHECK(result.outcome == RunOutcome::stale);
    CHECK(run_exit_code(result) == 3);
    CHECK_FALSE(fs::exists(day_path(f.dir / "content", *parse_iso_date("2025-05-28"))));
    bool said = false;
    for (const auto& line : f.log) said = said || line.find("stale feed") != std::string::npos;
    CHECK(said);
}

TEST_CASE("run: a feed dated after arXiv's next announcement by the clock is no fresh day: nothing written, exit 3") {
    Fixture f; // the embedded scorer
    f.today = *parse_iso_date("2025-05-28");
    f.feed_body = feed(thirty_papers(), "Fri, 01 Jan 2100 00:00:00 -0500");
    RunResult result = f.run();
    CHECK(result.outcome == RunOutcome::stale);
    CHECK(run_exit_code(result) == 3);
    CHECK(result.days.empty());
    CHECK_FALSE(fs::exists(day_path(f.dir / "content", *parse_iso_date("2100-01-01"))));
    REQUIRE(result.incomplete.size() == 1);
    CHECK(result.incomplete[0].starts_with(
        "the feed is dated 2100-01-01, after arXiv's next announcement (2025-05-29) by this machine's clock (today "
        "is 2025-05-28 UTC): not a fresh announcement, nothing written"));

    // A saved feed file so dated is refused too.
    write_text(f.dir / "future.xml", f.feed_body);
    f.config.arxiv.offline_feed = (f.dir / "future.xml").string();
    RunResult offline = f.run(std::nullopt, true);
    CHECK(offline.outcome == RunOutcome::failed);
    CHECK(offline.error.find("the feed is dated 2100-01-01") != std::string::npos);
    CHECK_FALSE(fs::exists(f.dir / "content"));

    // The next announcement's feed, ahead of this clock's UTC date, is taken
    // (a clock a little behind).
    f.today = *parse_iso_date("2025-05-27");
    f.feed_body = feed(thirty_papers());
    RunResult next = f.run();
    REQUIRE_MESSAGE(next.outcome == RunOutcome::written, next.error);
    CHECK(next.days == std::vector<Date>{*parse_iso_date("2025-05-28")});
}

TEST_CASE("run: Monday's items re-dated to Tuesday make a stale day, not '0 selected'") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    f.today = *parse_iso_date("2025-05-26");
    f.feed_body = feed(thirty_papers(), "Mon, 26 May 2025 00:00:00 -0400");
    REQUIRE(f.run().outcome == RunOutcome::written);
    f.today = *parse_iso_date("2025-05-27");
    f.feed_body = feed(thirty_papers(), "Tue, 27 May 2025 00:00:00 -0400");
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    CHECK(run_exit_code(result) == 3);
    Day day = f.day("2025-05-27");
    CHECK(day.status == DayStatus::stale);
    CHECK(day.reason.find("the feed repeats 2025-05-26's announcement") != std::string::npos);
    // A genuine next day with papers of its own is not stale.
    f.today = *parse_iso_date("2025-05-28");
    f.feed_body = feed(item("2505.60001", "new", "Sparse pruning") + item("2505.20001", "cross", "Paper number 1"));
    RunResult next = f.run();
    REQUIRE_MESSAGE(next.outcome == RunOutcome::written, next.error);
    CHECK(f.day("2025-05-28").status == DayStatus::announced);
}

TEST_CASE(
    "run: a late feed's earlier announcement is written as what it is; the run says the expected one is missing") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    f.today = *parse_iso_date("2025-05-30"); // Friday; the feed still holds Wednesday's, not yet archived
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    CHECK(run_exit_code(result) == 3);
    CHECK(f.day("2025-05-28").status == DayStatus::announced); // its papers are Wednesday's
    REQUIRE(result.incomplete.size() == 1);
    CHECK(result.incomplete[0].find("2025-05-30's announcement was expected") != std::string::npos);
    CHECK(result.incomplete[0].find("the next run's catch-up fetches 2025-05-30") != std::string::npos);
    // On the weekend the Friday announcement is the one expected; after Thanksgiving, Thursday's.
    const ArxivCalendar calendar = arxiv_calendar(ArxivSettings{});
    CHECK(expected_announcement(calendar, *parse_iso_date("2025-06-01")).iso() == "2025-05-30");
    CHECK(expected_announcement(calendar, *parse_iso_date("2025-11-28")).iso() == "2025-11-27");
    CHECK(expected_announcement(calendar, *parse_iso_date("2025-11-30")).iso() == "2025-11-27");
}

TEST_CASE("run: a complete day exits 0, a failure 1") {
    RunResult ok;
    ok.outcome = RunOutcome::written;
    CHECK(run_exit_code(ok) == 0);
    RunResult failed;
    CHECK(run_exit_code(failed) == 1);
}

TEST_CASE("run: empty replies (content null or \"\", finish_reason length) are failures, re-asked smaller") {
    for (const char* empty : {"null", "\"\""}) {
        CAPTURE(empty);
        Fixture f;
        FakeLlm llm;
        f.use(llm);
        f.config.llm.concurrency = 1;
        llm.empty_content = empty;
        llm.empty_replies = 1; // the first batch of 4 comes back empty
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        Day day = f.day("2025-05-28");
        CHECK(day.status == DayStatus::announced);
        for (const auto& p : day.papers) CHECK(p.unscored.empty());
        bool logged = false, halved = false;
        for (const auto& line : f.log)
            logged = logged || line.find("reply was empty (finish_reason: 'length')") != std::string::npos;
        for (const auto& batch : llm.batches) halved = halved || batch.size() == 2;
        CHECK(logged);
        CHECK(halved);
        // The empty reply's tokens were billed: 8 replies of 1000 + 100 tokens, and the empty one's 900 + 4000.
        CHECK(day.tokens->prompt == 8 * 1000 + 900);
        CHECK(day.tokens->completion == 8 * 100 + 4000);
    }
    SUBCASE("every reply empty: the embedded scorer stands in, the day is partial and says why") {
        Fixture f;
        FakeLlm llm;
        f.use(llm);
        llm.empty_content = "null";
        llm.empty_replies = -1;
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(run_exit_code(result) == 3);
        Day day = f.day("2025-05-28");
        CHECK(day.status == DayStatus::partial);
        CHECK(day.reason.find("28 of 28 candidates unscored by the LLM") != std::string::npos);
        CHECK(day.reason.find("reply was empty") != std::string::npos);
    }
}

TEST_CASE("run: llm.required makes a missing key fail the run; the log says which scorer served and why") {
    Fixture f;
    SUBCASE("not required: the embedded scorer, and why") {
        REQUIRE(f.run().outcome == RunOutcome::written);
        CHECK(f.log.front() ==
              "scorer: embedded, learned from the archive's picks (scoring.embedded: learned); no LLM: "
              "no PAPERPRESS_TEST_KEY and no llm.base_url or OPENAI_BASE_URL (set PAPERPRESS_TEST_KEY "
              "or OPENAI_BASE_URL to use one)");
        // The archive is empty: the learned scorer says what it falls back to.
        CHECK(std::ranges::count(f.log,
                                 "learned scorer: the archive holds no earlier picks yet, so the topics prompt's "
                                 "keywords rate the papers") == 1);
    }
    SUBCASE("scoring.embedded: keywords is named as the reason") {
        f.config.scoring.embedded = EmbeddedScorerKind::keywords;
        REQUIRE(f.run().outcome == RunOutcome::written);
        CHECK(f.log.front().starts_with(
            "scorer: embedded, the topics prompt's keywords (scoring.embedded: keywords); no LLM: "
            "no PAPERPRESS_TEST_KEY"));
    }
    SUBCASE("with an LLM, the log names the key and the pre-filter") {
        FakeLlm llm;
        f.use(llm);
        f.api_key = "sk-test-SECRET-1234";
        f.config.scoring.prefilter = PrefilterKind::learned;
        REQUIRE(f.run().outcome == RunOutcome::written);
        CHECK(f.log.front() == "scorer: LLM gpt-4o at " + llm.http.url("/v1") +
                                   " (PAPERPRESS_TEST_KEY is set); "
                                   "pre-filter: the top of the learned ranking (scoring.prefilter: learned)");
        for (const auto& line : f.log) CHECK(line.find("SECRET") == std::string::npos);
    }
    SUBCASE("required") {
        f.config.llm.required = true;
        RunResult result = f.run();
        CHECK(result.outcome == RunOutcome::failed);
        CHECK(result.error.find("llm.required is true") != std::string::npos);
        CHECK(f.feed_requests == 0);
        CHECK_FALSE(fs::exists(f.dir / "content"));
    }
    SUBCASE("--offline still means the embedded scorer") {
        f.config.llm.required = true;
        f.config.arxiv.offline_feed = (source_dir() / "samples/arxiv-feed.xml").string();
        RunResult result = f.run(std::nullopt, true);
        CHECK_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(f.log.front() ==
              "scorer: embedded, learned from the archive's picks (scoring.embedded: learned); no LLM: --offline");
    }
}

TEST_CASE("run: the LLM's key comes from the request (the CLI read it once), never from the environment") {
    Fixture f;
    setenv("PAPERPRESS_TEST_KEY", "sk-env-NOT-READ-HERE", 1);
    SUBCASE("the request's key is the one sent") {
        FakeLlm llm;
        f.use(llm);
        f.api_key = "sk-test-FROM-REQUEST";
        REQUIRE(f.run().outcome == RunOutcome::written);
        CHECK(llm.seen_authorization == "Bearer sk-test-FROM-REQUEST");
    }
    SUBCASE("no key in the request: no LLM, whatever the environment holds") {
        REQUIRE(f.run().outcome == RunOutcome::written);
        CHECK(f.log.front().starts_with("scorer: embedded, learned from the archive's picks (scoring.embedded: "
                                        "learned); no LLM: no PAPERPRESS_TEST_KEY"));
        CHECK(f.day("2025-05-28").model == "embedded");
    }
    unsetenv("PAPERPRESS_TEST_KEY");
}

TEST_CASE("paperpress run refuses impossible dates with exit 2 and the reason (issue 14)") {
    TempDir dir;
    auto swapped = run_paperpress("run --from 2025-05-10 --to 2025-05-01", dir.path());
    CHECK(swapped.exit_code == 2);
    CHECK(swapped.err.find("--from 2025-05-10 is after --to 2025-05-01") != std::string::npos);
    auto future = run_paperpress("run --date 2999-01-01", dir.path());
    CHECK(future.exit_code == 2);
    CHECK(future.err.find("in the future") != std::string::npos);
    auto long_window = run_paperpress("run --from 1990-01-01 --to 2025-01-01", dir.path());
    CHECK(long_window.exit_code == 2);
    CHECK(long_window.err.find("split it into runs of a year or less, e.g. --from 1990-01-01 --to 1990-12-31") !=
          std::string::npos);
    auto resume_alone = run_paperpress("run --resume", dir.path());
    CHECK(resume_alone.exit_code == 2);
    CHECK_FALSE(fs::exists(dir / "content"));
}

TEST_CASE("run: a refused key or a rejected parameter stops at once, naming it; no wasted calls") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    f.config.llm.concurrency = 1;
    SUBCASE("401") {
        llm.fail_status = 401;
        llm.fail_body = "{\"error\":{\"message\":\"Incorrect API key provided\",\"code\":\"invalid_api_key\"}}";
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(f.day("2025-05-28").reason.find("refused the request (HTTP 401 invalid_api_key)") != std::string::npos);
        CHECK(f.day("2025-05-28").reason.find("the provider says 'Incorrect API key provided'") != std::string::npos);
        CHECK(llm.arrivals == 1);
    }
    SUBCASE("403") {
        llm.fail_status = 403;
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(f.day("2025-05-28").reason.find("HTTP 403") != std::string::npos);
        CHECK(llm.arrivals == 1);
    }
    SUBCASE("a rejected temperature") {
        llm.fail_status = 400;
        llm.fail_body = "{\"error\":{\"message\":\"Unsupported value: 'temperature' does not support 0.2 with this "
                        "model. Only the default (1) value is supported.\",\"type\":\"invalid_request_error\","
                        "\"param\":\"temperature\",\"code\":\"unsupported_value\"}}";
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(f.day("2025-05-28").status == DayStatus::partial); // the embedded scorer stood in
        CHECK(f.day("2025-05-28").reason.find("parameter 'temperature'") != std::string::npos);
        CHECK(llm.arrivals == 2); // asked again once without temperature, which this endpoint refuses too
    }
}

TEST_CASE("run: an unsupported max_tokens is asked again once with max_completion_tokens") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    f.config.llm.concurrency = 1;
    f.config.llm.max_tokens = 4000;
    llm.reject_max_tokens = true;
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    CHECK(f.day("2025-05-28").status == DayStatus::announced);
    CHECK(llm.arrivals == 8); // 7 batches, and the one rejected request
    REQUIRE(llm.bodies.size() == 8);
    CHECK(llm.bodies[0].find("\"max_tokens\":4000") != std::string::npos);
    for (size_t i = 1; i < llm.bodies.size(); ++i)
        CHECK(llm.bodies[i].find("\"max_completion_tokens\":4000") != std::string::npos);
}

TEST_CASE("run: replies without usage give cost unknown, not $0.0000") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    llm.omit_usage = true;
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    Day day = f.day("2025-05-28");
    CHECK_FALSE(day.cost.total.has_value());
    CHECK(read_text(day_path(f.dir / "content", day.date)).find("cost:") == std::string::npos);
    bool said = false;
    for (const auto& line : f.log) said = said || line.find("cost unknown") != std::string::npos;
    CHECK(said);
}

TEST_CASE("run: an empty or blank API page is asked again; one that stays empty makes the back-filled day partial") {
    for (int bad_tries : {1, 100}) {
        for (bool blank : {false, true}) {
            CAPTURE(bad_tries);
            CAPTURE(blank);
            Fixture f;
            f.config.arxiv.api_page_size = 10;
            int bad_left = bad_tries;
            f.arxiv.server.Get("/api/query", [&](const httplib::Request& req, httplib::Response& res) {
                int start = std::stoi(req.get_param_value("start"));
                std::string entries;
                if (start == 10 && bad_left > 0) {
                    --bad_left;
                    if (blank) return res.set_content("", "application/atom+xml");
                } else {
                    for (int i = start; i < std::min(start + 10, 30); ++i)
                        entries += "<entry><id>http://arxiv.org/abs/2505." + std::to_string(70000 + i) +
                                   "v1</id><title>Sparse pruning " + std::to_string(i) +
                                   "</title><summary>About pruning.</summary><author><name>A B</name></author></entry>";
                }
                res.set_content("<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:opensearch=\"x\">"
                                "<opensearch:totalResults>30</opensearch:totalResults>" +
                                    entries + "</feed>",
                                "application/atom+xml");
            });
            RunResult result = f.run(*parse_iso_date("2025-05-20"));
            REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
            Day day = f.day("2025-05-20");
            if (bad_tries == 1) {
                CHECK(day.counts.arxiv == 30);
                CHECK(day.status == DayStatus::announced);
                CHECK(run_exit_code(result) == 0);
            } else {
                CHECK(day.counts.arxiv == 10);
                CHECK(day.status == DayStatus::partial);
                CHECK(day.reason.find("empty pages at 10") != std::string::npos);
                CHECK(run_exit_code(result) == 3);
            }
        }
    }
}

// ------------------------------------------------ issue 15: rate limits, sampling, windows, catch-up --

TEST_CASE("run: a tier-1 token budget (30k a minute) on a 500-paper day: nothing unscored, few wasted requests") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    llm.clock = &f.clock;
    llm.tokens_per_minute = 30000;
    // Abstracts of a real length (about 1,200 bytes, 300 tokens): a batch of 8 costs about 3,000 tokens.
    std::string abstract;
    for (int i = 0; i < 14; ++i)
        abstract += " Sparse mixtures of experts route each token to a few experts under budget.";
    std::string items;
    for (int i = 0; i < 500; ++i)
        items += item("2505." + std::to_string(30000 + i), "new", "Paper number " + std::to_string(i), "Ann Author",
                      abstract);
    f.feed_body = feed(items);
    f.config.scoring.authors.clear();
    f.config.llm.batch_size = 8; // the smallest batches this test has known (the default until issue 31)
    f.config.llm.concurrency = 4;
    f.config.llm.requests_per_minute = 60;
    SUBCASE("llm.tokens_per_minute set to the account's budget") { f.config.llm.tokens_per_minute = 30000; }
    SUBCASE("no budget configured: learnt from the 429s' headers") {}
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    Day day = f.day("2025-05-28");
    CHECK(day.status == DayStatus::announced);
    CHECK(std::ranges::count_if(day.papers, [](const Paper& p) { return !p.unscored.empty(); }) == 0);
    const int minimal = (500 + 7) / 8;
    MESSAGE("requests: " << llm.arrivals.load() << " (" << llm.rate_limited << " answered 429) for a minimum of "
                         << minimal << "; simulated time "
                         << std::chrono::duration_cast<std::chrono::seconds>(f.clock.now().time_since_epoch() -
                                                                             std::chrono::hours(1))
                                .count()
                         << " s");
    CHECK(llm.arrivals.load() < 1.3 * minimal);
}

TEST_CASE("run: temperature 0 and the seed are sent where the model takes them, and recorded on the day") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    f.config.llm.concurrency = 1;
    SUBCASE("gpt-4o") {
        REQUIRE(f.run().outcome == RunOutcome::written);
        for (const auto& body : llm.bodies) {
            CHECK(body.find("\"temperature\":0.0") != std::string::npos);
            CHECK(body.find("\"seed\":42") != std::string::npos);
        }
        Day day = f.day("2025-05-28");
        CHECK(day.temperature == 0.0);
        CHECK(day.seed == 42);
        CHECK(read_text(day_path(f.dir / "content", day.date)).find("sampling:\n  temperature: 0\n  seed: 42\n") !=
              std::string::npos);
    }
    SUBCASE("a reasoning model (o3-mini) is sent no temperature, the seed still") {
        f.config.llm.model = "o3-mini";
        REQUIRE(f.run().outcome == RunOutcome::written);
        for (const auto& body : llm.bodies) CHECK(body.find("\"temperature\"") == std::string::npos);
        Day day = f.day("2025-05-28");
        CHECK_FALSE(day.temperature.has_value());
        CHECK(day.seed == 42);
    }
    SUBCASE("a model that rejects temperature is asked again without it, once") {
        llm.reject_temperature = true;
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(llm.arrivals == 8); // 7 batches, and the one rejected request
        Day day = f.day("2025-05-28");
        CHECK(day.status == DayStatus::announced);
        CHECK_FALSE(day.temperature.has_value());
    }
}

namespace {

// A paper of a real listing (tests/fixtures/listings, from ../shared/listings:
// the cs.CV, cs.CL and cs.AI announcements of 2025-03-20 to 2025-03-25).
struct Listed {
    std::string id, title, day;
    std::vector<std::string> categories;
    long long submitted = 0; // UTC minutes since 1970
};

long long minutes_of(const std::string& stamp) { // "YYYYMMDDHHMM"
    using namespace std::chrono;
    year_month_day ymd{year{std::stoi(stamp.substr(0, 4))}, month{static_cast<unsigned>(std::stoi(stamp.substr(4, 2)))},
                       day{static_cast<unsigned>(std::stoi(stamp.substr(6, 2)))}};
    return sys_days(ymd).time_since_epoch().count() * 1440LL + std::stoi(stamp.substr(8, 2)) * 60 +
           std::stoi(stamp.substr(10, 2));
}

std::string xml_escaped(const std::string& text) {
    std::string out;
    for (char c : text) out += c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : std::string(1, c);
    return out;
}

// Each day's papers get submission times spread over its true window, from
// its first minute to its last: worked out by hand from arXiv's schedule
// (deadline 14:00 EDT = 18:00 UTC), not from the code under test. Tuesday's
// window holds the weekend.
std::vector<Listed> listed_papers() {
    const std::vector<std::array<std::string, 3>> windows = {{"2025-03-20", "202503181800", "202503191800"},
                                                             {"2025-03-21", "202503191800", "202503201800"},
                                                             {"2025-03-24", "202503201800", "202503211800"},
                                                             {"2025-03-25", "202503211800", "202503241800"}};
    std::vector<Listed> papers;
    for (const auto& [day, from, to] : windows) {
        std::vector<Listed> of_day;
        const std::string listing = read_text(source_dir() / "tests/fixtures/listings" / (day + ".tsv"));
        for (auto line : split(listing, '\n')) {
            auto fields = split(line, '\t');
            if (fields.size() != 3) continue;
            Listed paper{std::string(fields[0]), std::string(fields[2]), day, {}, 0};
            for (auto category : split(fields[1], ' ')) paper.categories.emplace_back(category);
            of_day.push_back(paper);
        }
        const long long start = minutes_of(from), length = minutes_of(to) - start;
        for (size_t i = 0; i < of_day.size(); ++i)
            of_day[i].submitted = i + 1 == of_day.size() ? start + length - 1 // the window's last minute
                                                         : start + static_cast<long long>(i) * length /
                                                                       static_cast<long long>(of_day.size());
        papers.insert(papers.end(), of_day.begin(), of_day.end());
    }
    return papers;
}

// arXiv's export API over `papers`: the categories and the submittedDate
// range ([from TO to], minutes, both included) of the query, paged.
void serve_replica_api(LoopbackServer& server, const std::vector<Listed>& papers) {
    server.server.Get("/api/query", [&papers](const httplib::Request& req, httplib::Response& res) {
        const std::string query = req.get_param_value("search_query");
        auto range = query.find("submittedDate:[");
        if (range == std::string::npos || query.size() < range + 43) {
            res.status = 400;
            return;
        }
        const long long from = minutes_of(query.substr(range + 15, 12)), to = minutes_of(query.substr(range + 31, 12));
        std::vector<const Listed*> hits;
        for (const auto& paper : papers) {
            bool category = std::ranges::any_of(paper.categories, [&](const std::string& c) {
                return query.find("cat:" + c + " ") != std::string::npos ||
                       query.find("cat:" + c + ")") != std::string::npos;
            });
            if (category && paper.submitted >= from && paper.submitted <= to) hits.push_back(&paper);
        }
        const size_t start = std::stoul(req.get_param_value("start")),
                     size = std::stoul(req.get_param_value("max_results"));
        std::string entries;
        for (size_t i = start; i < std::min(hits.size(), start + size); ++i) {
            entries += "<entry><id>http://arxiv.org/abs/" + hits[i]->id + "v1</id><title>" +
                       xml_escaped(hits[i]->title) +
                       "</title><summary>About it.</summary><author><name>A B</name></author>"
                       "<arxiv:primary_category term=\"" +
                       hits[i]->categories.front() + "\"/>";
            for (const auto& c : hits[i]->categories) entries += "<category term=\"" + c + "\"/>";
            entries += "</entry>";
        }
        res.set_content("<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:opensearch=\"x\" xmlns:arxiv=\"y\">"
                        "<opensearch:totalResults>" +
                            std::to_string(hits.size()) + "</opensearch:totalResults>" + entries + "</feed>",
                        "application/atom+xml");
    });
}

} // namespace

TEST_CASE("run: back-filled days hold the papers of their real listings (14:00 ET windows, weekend included)") {
    const std::vector<Listed> papers = listed_papers();
    Fixture f;
    serve_replica_api(f.arxiv, papers);
    FakeLlm llm;
    f.use(llm);
    f.config.arxiv.categories = {"cs.CV", "cs.CL", "cs.AI"};
    f.feed_path = "cs.CV+cs.CL+cs.AI";
    f.config.arxiv.api_page_size = 100;
    f.config.scoring.authors.clear();
    f.config.scoring.relevance_cutoff = 1; // every scored paper is kept: the day file lists them all
    f.config.scoring.novelty_cutoff = 1;
    f.config.llm.batch_size = 20;
    bool only_new = false;
    SUBCASE("announce types new and cross") {}
    SUBCASE("announce_types: [new]: cross-lists (a primary category not configured) are left out") {
        only_new = true;
        f.config.arxiv.announce_types = {"new"};
    }
    std::map<std::string, std::string> landed; // paper -> day
    for (const char* date : {"2025-03-20", "2025-03-21", "2025-03-24", "2025-03-25"}) {
        RunResult result = f.run(*parse_iso_date(date));
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        for (const auto& id : ids_of(f.day(date))) landed[id] = date;
    }
    size_t expected = 0, misplaced = 0;
    for (const auto& paper : papers) {
        const auto& configured = f.config.arxiv.categories;
        if (only_new && std::ranges::find(configured, paper.categories.front()) == configured.end()) {
            CHECK_MESSAGE(!landed.contains(paper.id), paper.id << " is a cross-list");
            continue;
        }
        ++expected;
        if (landed[paper.id] != paper.day) {
            ++misplaced;
            MESSAGE(paper.id << " of " << paper.day << " landed on '" << landed[paper.id] << "'");
        }
    }
    CHECK(misplaced == 0);
    CHECK(landed.size() == expected);
}

TEST_CASE("run: a nightly run catches up the weekdays it missed (not holidays), oldest first") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    std::vector<std::string> windows;
    f.arxiv.server.Get("/api/query", [&](const httplib::Request& req, httplib::Response& res) {
        std::string query = req.get_param_value("search_query");
        std::string from = query.substr(query.find("submittedDate:[") + 15, 12);
        windows.push_back(from);
        std::string entries;
        for (int i = 0; i < 2; ++i)
            entries += "<entry><id>http://arxiv.org/abs/2505.9" + from.substr(6, 2) + std::to_string(i) +
                       "0v1</id><title>Sparse pruning</title><summary>About pruning.</summary>"
                       "<author><name>A B</name></author></entry>";
        res.set_content("<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:opensearch=\"x\"><opensearch:totalResults>2"
                        "</opensearch:totalResults>" +
                            entries + "</feed>",
                        "application/atom+xml");
    });
    // Friday's run went well; the runs of Monday and Tuesday were dropped.
    f.today = *parse_iso_date("2025-05-23");
    f.feed_body = feed(thirty_papers(), "Fri, 23 May 2025 00:00:00 -0400");
    f.config.arxiv.catch_up_days = 5;
    REQUIRE(f.run().outcome == RunOutcome::written);
    CHECK(windows.empty()); // nothing before the archive's first day is caught up
    f.today = *parse_iso_date("2025-05-28");
    f.feed_body = feed(item("2505.60001", "new", "Sparse pruning") + item("2505.60002", "new", "Sparse attention"));
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    CHECK(run_exit_code(result) == 0);
    std::vector<std::string> days;
    for (const auto& d : result.days) days.push_back(d.iso());
    CHECK(days == std::vector<std::string>{"2025-05-21", "2025-05-22", "2025-05-26", "2025-05-27", "2025-05-28"});
    CHECK(f.day("2025-05-26").remedial.has_value());
    CHECK_FALSE(f.day("2025-05-28").remedial.has_value());
    // The next night has nothing to catch up.
    windows.clear();
    f.today = *parse_iso_date("2025-05-29");
    f.feed_body = feed(item("2505.60003", "new", "Sparse pruning"), "Thu, 29 May 2025 00:00:00 -0400");
    REQUIRE(f.run().outcome == RunOutcome::written);
    CHECK(windows.empty());

    // Thanksgiving has no announcement: never caught up.
    TempDir other;
    Day monday;
    monday.date = *parse_iso_date("2025-11-21");
    REQUIRE(save_day(other.path(), monday).has_value());
    std::vector<std::string> missing;
    const ArxivCalendar calendar = arxiv_calendar(ArxivSettings{});
    for (const auto& d : catch_up_days(other.path(), calendar, *parse_iso_date("2025-12-01"), 5))
        missing.push_back(d.date.iso());
    CHECK(missing == std::vector<std::string>{"2025-11-24", "2025-11-25", "2025-11-26", "2025-11-27"});
    CHECK(catch_up_days(f.dir / "empty", calendar, *parse_iso_date("2025-12-01"), 5).empty());
}

TEST_CASE("run: a feed of 2,000 entries (arXiv's cap) or more makes the day partial: possibly cut") {
    // The reason names the count and the cap apart: a feed of 6,000 once read as a cap of 6,000.
    for (int count : {2000, 6000}) {
        CAPTURE(count);
        Fixture f;
        f.config.scoring.embedded = EmbeddedScorerKind::keywords;
        std::string items;
        for (int i = 0; i < count; ++i)
            items += item("2505." + std::to_string(30000 + i), "new", "Paper " + std::to_string(i));
        f.feed_body = feed(items);
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(run_exit_code(result) == 3);
        Day day = f.day("2025-05-28");
        CHECK(day.status == DayStatus::partial);
        CHECK(day.reason.find("the feed holds " + std::to_string(count) +
                              " entries, at least arXiv's cap of 2000 for a feed: the announcement was possibly cut") !=
              std::string::npos);
    }
}

TEST_CASE("paperpress ls (text and --json) and check carry a partial day's status and reason") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    llm.never_answer = {"2505.20020", "2505.20021"};
    REQUIRE(f.run().outcome == RunOutcome::written);
    const std::string reason = "2 of 28 candidates unscored by the LLM ('missing from the LLM's reply";
    auto listed = run_paperpress("ls --json", f.dir.path());
    CHECK(listed.exit_code == 0);
    CHECK_MESSAGE(listed.out.find("\"status\":\"partial\",\"reason\":\"" + reason) != std::string::npos,
                  listed.out.substr(0, 400) << listed.err);
    auto plain = run_paperpress("ls", f.dir.path());
    CHECK(plain.out.find("2025-05-28  partial") != std::string::npos);
    CHECK(plain.out.find("[waits: the LLM scores its unscored papers]") != std::string::npos);
    CHECK(listed.out.find("\"waiting\":\"resume\"") != std::string::npos);
    CHECK(plain.out.find(reason) != std::string::npos);
    auto checked = run_paperpress("check", f.dir.path());
    CHECK(checked.exit_code == 0); // worth a look, not wrong
    CHECK(checked.err.find("2025-05-28 is partial: " + reason) != std::string::npos);
    CHECK(checked.out.find("1 warnings") != std::string::npos);
}

TEST_CASE("run: each kept paper gets a topic from the numbered sections of the topics prompt (issue 20)") {
    Fixture f;
    const std::set<std::string> sections = {"Model architecture", "Efficiency and compression",
                                            "Representation learning and theory"}; // prompts/topics.md
    SUBCASE("offline: the embedded scorers pick the nearest section") {
        f.config.arxiv.offline_feed = (source_dir() / "samples/arxiv-feed.xml").string();
        for (auto kind : {EmbeddedScorerKind::learned, EmbeddedScorerKind::keywords}) {
            f.config.scoring.embedded = kind;
            RunResult result = f.run(std::nullopt, true);
            REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
            Day day = f.day(result.days.front().iso().c_str());
            REQUIRE_FALSE(day.papers.empty());
            std::set<std::string> seen;
            for (const auto& p : day.papers) {
                CHECK_MESSAGE(sections.contains(p.topic), std::string(p.id + ": '" + p.topic + "'"));
                CHECK_FALSE(p.topic_note.empty());
                seen.insert(p.topic);
            }
            CHECK(seen.size() >= 2); // not one label for everything
            fs::remove_all(f.dir / "content");
        }
    }
    SUBCASE("with an LLM: the topic it answers, by the section's number") {
        FakeLlm llm;
        f.use(llm);
        llm.topic = "2";
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(llm.bodies.front().find("TOPIC") != std::string::npos); // the prompt asks for it
        Day day = f.day("2025-05-28");
        REQUIRE_FALSE(day.papers.empty());
        for (const auto& p : day.papers) {
            if (p.author_match)
                CHECK(p.topic.empty()); // not scored, and "Paper number 3" shares no word with a section
            else CHECK(p.topic == "Efficiency and compression");
        }
    }
}

// ------------------------------------------- issue 31: arXiv's real calendar, real provider failures --

namespace {

// An export API that answers every submission window with two papers of its
// own (IDs from the window's start) and records the windows asked for.
struct WindowApi {
    std::mutex mutex;
    std::vector<std::pair<std::string, std::string>> windows; // [from, to] as arXiv's stamps

    explicit WindowApi(LoopbackServer& server) {
        server.server.Get("/api/query", [this](const httplib::Request& req, httplib::Response& res) {
            std::string query = req.get_param_value("search_query");
            const auto at = query.find("submittedDate:[") + 15;
            std::string from = query.substr(at, 12), to = query.substr(at + 16, 12);
            std::string entries;
            for (int i = 0; i < 2; ++i)
                entries += "<entry><id>http://arxiv.org/abs/" + from.substr(2, 4) + "." + from.substr(6, 4) +
                           std::to_string(i) +
                           "v1</id><title>Sparse pruning</title><summary>About pruning.</summary>"
                           "<author><name>A B</name></author></entry>";
            std::lock_guard lock(mutex);
            if (req.get_param_value("start") == "0") windows.emplace_back(from, to);
            res.set_content(
                "<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:opensearch=\"x\"><opensearch:totalResults>2"
                "</opensearch:totalResults>" +
                    entries + "</feed>",
                "application/atom+xml");
        });
    }
};

// Complete (empty) days for [from, to]'s announcement days: a catch-up finds nothing to do there.
void archive_days(const fs::path& content, const char* from, const char* to) {
    const ArxivCalendar calendar = arxiv_calendar(ArxivSettings{});
    for (Date d = *parse_iso_date(from); d <= *parse_iso_date(to); d = next_day(d)) {
        if (!calendar.is_announcement_day(d)) continue;
        Day day;
        day.date = d;
        REQUIRE(save_day(content, day).has_value());
    }
}

UtcMinute minute_of(const std::string& stamp) {
    return {Date{std::stoi(stamp.substr(0, 4)), std::stoi(stamp.substr(4, 2)), std::stoi(stamp.substr(6, 2))},
            std::stoi(stamp.substr(8, 2)), std::stoi(stamp.substr(10, 2))};
}

std::vector<std::string> written_days(const RunResult& result) {
    std::vector<std::string> days;
    for (const auto& d : result.days) days.push_back(d.iso());
    return days;
}

std::string quota_body() {
    return "{\"error\":{\"message\":\"You exceeded your current quota, please check your plan and billing details. For "
           "more information on this error, read the docs: "
           "https://platform.openai.com/docs/guides/error-codes/api-errors.\","
           "\"type\":\"insufficient_quota\",\"param\":null,\"code\":\"insufficient_quota\"}}";
}

} // namespace

TEST_CASE("run: back-fills across arXiv's holidays write exactly its announcement days, their windows tiling") {
    struct Span {
        const char* from;
        const char* to;
        std::vector<std::string> days;
    };
    const std::vector<Span> spans = {
        // Thanksgiving 2025: no mailing on Thursday 27 November, so no feed dated Friday 28.
        {"2025-11-24",
         "2025-12-02",
         {"2025-11-24", "2025-11-25", "2025-11-26", "2025-11-27", "2025-12-01", "2025-12-02"}},
        // Christmas to New Year: no mailing on 25 and 30 December 2025 and 1 January 2026.
        {"2025-12-22",
         "2026-01-06",
         {"2025-12-22", "2025-12-23", "2025-12-24", "2025-12-25", "2025-12-29", "2025-12-30", "2026-01-01",
          "2026-01-05", "2026-01-06"}},
        // No mailing on Monday 19 January 2026: no feed dated Tuesday 20.
        {"2026-01-16", "2026-01-22", {"2026-01-16", "2026-01-19", "2026-01-21", "2026-01-22"}},
    };
    for (const Span& span : spans) {
        CAPTURE(span.from);
        Fixture f;
        WindowApi api(f.arxiv);
        f.config.scoring.embedded = EmbeddedScorerKind::keywords;
        f.today = *parse_iso_date("2026-11-26");
        RunRequest request;
        request.from = parse_iso_date(span.from);
        request.to = parse_iso_date(span.to);
        request.today = f.today;
        request.clock = &f.clock;
        request.content_dir = f.dir / "content";
        request.log = [&](const std::string& line) { f.log.push_back(line); };
        RunResult result = run_nightly(request, f.config);
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(written_days(result) == span.days);
        REQUIRE(api.windows.size() == span.days.size());
        for (size_t i = 1; i < api.windows.size();
             ++i) // no gap, no overlap: each starts the minute after the last ends
            CHECK_MESSAGE(minute_before(minute_of(api.windows[i].first)) == minute_of(api.windows[i - 1].second),
                          span.days[i]);
    }
    // Monday 1 December 2025 holds Wednesday 14:00 to Friday 14:00 US Eastern (EST: 19:00Z).
    Fixture f;
    WindowApi api(f.arxiv);
    f.config.scoring.embedded = EmbeddedScorerKind::keywords;
    REQUIRE(f.run(*parse_iso_date("2025-12-01")).outcome == RunOutcome::written);
    REQUIRE(api.windows.size() == 1);
    CHECK(api.windows[0] == std::pair<std::string, std::string>{"202511261900", "202511281859"});
}

TEST_CASE("run: the night after a holiday writes no phantom day, and the catch-up does not back-fill one") {
    Fixture f;
    WindowApi api(f.arxiv);
    f.config.scoring.embedded = EmbeddedScorerKind::keywords;
    f.config.arxiv.catch_up_days = 5;
    archive_days(f.dir / "content", "2026-11-16", "2026-11-25");
    // Thanksgiving 2026 is today: the feed of Thursday 26 November (Wednesday evening's mailing) is written.
    f.today = *parse_iso_date("2026-11-26");
    f.feed_body = feed(thirty_papers(), "Thu, 26 Nov 2026 00:00:00 -0500");
    REQUIRE(f.run().outcome == RunOutcome::written);
    SUBCASE("the feed re-serves Thursday's papers under Friday's date") {
        f.today = *parse_iso_date("2026-11-27");
        f.feed_body = feed(thirty_papers(), "Fri, 27 Nov 2026 00:00:00 -0500");
        RunResult result = f.run();
        CHECK(result.outcome == RunOutcome::no_announcement);
        CHECK(run_exit_code(result) == 0);
        CHECK_FALSE(fs::exists(day_path(f.dir / "content", *parse_iso_date("2026-11-27"))));
        CHECK(f.log.back().find("no mailing on the evening of Thursday 2026-11-26") != std::string::npos);
    }
    SUBCASE("the feed still holds Thursday's") {
        f.today = *parse_iso_date("2026-11-27");
        RunResult result = f.run();
        CHECK(result.outcome == RunOutcome::already_have);
        CHECK(run_exit_code(result) == 0);
    }
    SUBCASE("Monday's run catches up nothing") {
        f.today = *parse_iso_date("2026-11-30");
        f.feed_body = feed(item("2611.60001", "new", "Sparse pruning"), "Mon, 30 Nov 2026 00:00:00 -0500");
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(written_days(result) == std::vector<std::string>{"2026-11-30"});
        CHECK(api.windows.empty());
        CHECK(run_exit_code(result) == 0);
    }
}

namespace {

// A back-fill of the days from `from` to `to` (run --from/--to) on the fixture's clock and day.
RunResult back_fill(Fixture& f, const char* from, const char* to) {
    RunRequest request;
    request.from = parse_iso_date(from);
    request.to = parse_iso_date(to);
    request.today = f.today;
    request.clock = &f.clock;
    request.content_dir = f.dir / "content";
    return run_nightly(request, f.config);
}

} // namespace

// arXiv's 2023 list (github.com/arXiv/arxiv-docs, source/help/availability.md before commit 13add154):
// no mailing on Thursday 23 November 2023, so no announcement is dated Friday 24 November.
TEST_CASE("run: a back-fill over Thanksgiving 2023 writes no phantom day and knows 2023's holidays") {
    Fixture f;
    WindowApi api(f.arxiv);
    f.config.scoring.embedded = EmbeddedScorerKind::keywords;
    f.today = *parse_iso_date("2024-01-10");
    RunResult result = back_fill(f, "2023-11-20", "2023-11-28");
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    CHECK(written_days(result) ==
          std::vector<std::string>{"2023-11-20", "2023-11-21", "2023-11-22", "2023-11-23", "2023-11-27", "2023-11-28"});
    CHECK_FALSE(fs::exists(day_path(f.dir / "content", *parse_iso_date("2023-11-24"))));
    for (const auto& w : result.warnings) CHECK_MESSAGE(w.find("holidays here") == std::string::npos, w);
}

TEST_CASE("run: a stale day is fetched again through the API by the next night's catch-up; ls says it waits") {
    Fixture f;
    WindowApi api(f.arxiv);
    FakeLlm llm;
    f.use(llm);
    f.config.arxiv.catch_up_days = 5;
    archive_days(f.dir / "content", "2025-05-16", "2025-05-23");
    f.today = *parse_iso_date("2025-05-26");
    f.feed_body = feed(thirty_papers(), "Mon, 26 May 2025 00:00:00 -0400");
    REQUIRE(f.run().outcome == RunOutcome::written);
    // Tuesday: the feed re-serves Monday's papers under Tuesday's date: a stale day.
    f.today = *parse_iso_date("2025-05-27");
    f.feed_body = feed(thirty_papers(), "Tue, 27 May 2025 00:00:00 -0400");
    REQUIRE(f.run().outcome == RunOutcome::written);
    REQUIRE(f.day("2025-05-27").status == DayStatus::stale);
    auto listed = run_paperpress("ls --json", f.dir.path());
    CHECK(listed.out.find("\"date\":\"2025-05-27\",\"status\":\"stale\"") != std::string::npos);
    CHECK(listed.out.find("\"waiting\":\"fetch\"") != std::string::npos);
    CHECK(api.windows.empty());
    // Wednesday: the catch-up fetches Tuesday's real announcement before tonight's.
    f.today = *parse_iso_date("2025-05-28");
    f.feed_body = feed(item("2505.60001", "new", "Sparse pruning"), "Wed, 28 May 2025 00:00:00 -0400");
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    CHECK(written_days(result) == std::vector<std::string>{"2025-05-27", "2025-05-28"});
    REQUIRE(api.windows.size() == 1);
    CHECK(api.windows[0].first == "202505231800"); // Friday 14:00 EDT to Monday 14:00
    Day tuesday = f.day("2025-05-27");
    CHECK(tuesday.status == DayStatus::announced);
    CHECK(tuesday.remedial.has_value());
    CHECK(run_exit_code(result) == 0);
}

TEST_CASE("run: a late feed is polled for arxiv.wait_for_feed_minutes until it holds the expected announcement") {
    Fixture f;
    f.config.scoring.embedded = EmbeddedScorerKind::keywords;
    f.today = *parse_iso_date("2025-05-27");
    f.feed_body = feed(thirty_papers(), "Mon, 26 May 2025 00:00:00 -0400");
    f.today = *parse_iso_date("2025-05-26");
    REQUIRE(f.run().outcome == RunOutcome::written);
    f.today = *parse_iso_date("2025-05-27");
    const auto late_until = f.clock.now() + std::chrono::minutes(12);
    f.feed_now = [&] {
        return f.clock.now() < late_until
                   ? feed(thirty_papers(), "Mon, 26 May 2025 00:00:00 -0400")
                   : feed(item("2505.60001", "new", "Sparse pruning"), "Tue, 27 May 2025 00:00:00 -0400");
    };
    SUBCASE("within the wait") {
        f.config.arxiv.wait_for_feed_minutes = 30;
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(written_days(result) == std::vector<std::string>{"2025-05-27"});
        CHECK(run_exit_code(result) == 0);
        CHECK(f.feed_requests == 1 + 4); // Monday's run, then every 5 minutes: 0, 5, 10, 15
    }
    SUBCASE("no wait: nothing written, and the exit-3 line says so truly") {
        RunResult result = f.run();
        CHECK(result.outcome == RunOutcome::stale);
        REQUIRE(result.incomplete.size() == 1);
        CHECK(result.incomplete[0].find("nothing written") != std::string::npos);
        CHECK(result.incomplete[0].find("written and published") == std::string::npos);
    }
}

TEST_CASE("run: an LLM reply over its cap stops the LLM at once (no retry mends it); the day is partial") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    llm.fail_status = 200;
    llm.fail_body = std::string(5u << 20, ' '); // past the LLM's 4 MiB cap
    f.config.scoring.embedded = EmbeddedScorerKind::keywords;
    f.feed_body = feed(thirty_papers());
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    CHECK(f.clock.slept() == Clock::duration{}); // not waited on as an outage
    CHECK(llm.arrivals <= f.config.llm.concurrency);
    Day day = f.day("2025-05-28");
    CHECK(day.status == DayStatus::partial);
    CHECK_MESSAGE(day.reason.find("cannot be used") != std::string::npos, day.reason);
    CHECK_MESSAGE(day.reason.find("cap of 4 MiB") != std::string::npos, day.reason);
}

TEST_CASE("run: insufficient_quota (or a 402) stops the LLM at once; the embedded scorer writes the day, partial") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    llm.fail_status = 429;
    llm.fail_body = quota_body();
    f.config.scoring.embedded = EmbeddedScorerKind::keywords;
    f.feed_body =
        feed(thirty_papers() +
             item("2505.20100", "new", "Sparse Mixture of Experts Transformers: pruning, quantization and KV cache") +
             item("2505.20101", "new", "Scaling laws and training dynamics of sparse attention Transformers"));
    std::string words = "You exceeded your current quota";
    SUBCASE("DeepSeek's 402") {
        llm.fail_status = 402;
        llm.fail_body = "{\"error\":{\"message\":\"Insufficient Balance\",\"type\":\"unknown_error\",\"param\":null,"
                        "\"code\":\"invalid_request_error\"}}";
        words = "Insufficient Balance";
    }
    SUBCASE("OpenAI's 429 insufficient_quota") {}
    const auto started = std::chrono::steady_clock::now();
    RunResult result = f.run();
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(30));
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    CHECK(f.clock.slept() == Clock::duration{});     // no wait at all
    CHECK(llm.arrivals <= f.config.llm.concurrency); // the requests already on their way, no more
    CHECK(run_exit_code(result) == 3);
    Day day = f.day("2025-05-28");
    CHECK(day.status == DayStatus::partial);
    CHECK_MESSAGE(day.reason.find(words) != std::string::npos, day.reason);
    CHECK(day.reason.find("quota or billing") != std::string::npos);
    // The embedded scorer's picks stand in; every paper the LLM did not score is kept for --resume.
    size_t stand_ins = 0, kept = 0;
    for (const auto& p : day.papers) {
        if (p.author_match) continue;
        CHECK(!p.unscored.empty());
        ++kept;
        if (p.relevance) ++stand_ins;
    }
    CHECK(kept == 30);
    CHECK(stand_ins >= 2);
    CHECK(*day.counts.relevant == static_cast<long long>(stand_ins + 1)); // and the followed author's paper
    bool said = false;
    for (const auto& why : result.incomplete)
        said = said || why.find("written and published as such") != std::string::npos;
    CHECK(said);
    // Credit added: --resume scores every one of them with the LLM and completes the day.
    llm.fail_status = 0;
    RunResult resumed = f.run(*parse_iso_date("2025-05-28"), false, true);
    REQUIRE_MESSAGE(resumed.outcome == RunOutcome::written, resumed.error);
    CHECK(run_exit_code(resumed) == 0);
    Day done = f.day("2025-05-28");
    CHECK(done.status == DayStatus::announced);
    for (const auto& p : done.papers) {
        CHECK(p.unscored.empty());
        CHECK(p.comment.find("embedded scorer") == std::string::npos);
    }
}

TEST_CASE(
    "run: an LLM outage of ten minutes inside llm.max_wait_minutes gives a complete day; a longer one a partial") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    llm.clock = &f.clock;
    llm.outage_until = f.clock.now() + std::chrono::minutes(10);
    SUBCASE("inside the budget") {
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(run_exit_code(result) == 0);
        Day day = f.day("2025-05-28");
        CHECK(day.status == DayStatus::announced);
        for (const auto& p : day.papers) CHECK(p.unscored.empty());
        CHECK(f.clock.slept() >= std::chrono::minutes(10));
    }
    SUBCASE("longer than the budget") {
        f.config.llm.max_wait_minutes = 5;
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(run_exit_code(result) == 3);
        Day day = f.day("2025-05-28");
        CHECK(day.status == DayStatus::partial);
        CHECK(day.reason.find("did not recover within llm.max_wait_minutes (5 min)") != std::string::npos);
        CHECK(day.reason.find("The server is overloaded") != std::string::npos);
    }
}

TEST_CASE("run: scores are asked as structured output, falling back to JSON mode and plain text; the day records it") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    std::string expected = "json_schema";
    SUBCASE("json_schema taken") {}
    SUBCASE("only JSON mode") {
        llm.refused_formats = {"json_schema"};
        expected = "json_object";
    }
    SUBCASE("neither") {
        llm.refused_formats = {"json_schema", "json_object"};
        expected = "text";
    }
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    CHECK(run_exit_code(result) == 0);
    Day day = f.day("2025-05-28");
    CHECK(day.reply_format == expected);
    CHECK(read_text(day_path(f.dir / "content", day.date)).find("  format: " + expected + "\n") != std::string::npos);
    for (const auto& p : day.papers) CHECK(p.unscored.empty());
    // The last request asked for the format the day records.
    const std::string& last = llm.bodies.back();
    if (expected == "text") CHECK(last.find("response_format") == std::string::npos);
    else CHECK(last.find("\"response_format\":{\"type\":\"" + expected + "\"") != std::string::npos);
    if (expected == "json_schema") CHECK(last.find("\"strict\":true") != std::string::npos);
}

TEST_CASE("run: an endpoint that takes response_format and ignores it is recorded as text, the format it honoured") {
    // Anthropic's OpenAI SDK compatibility: "response_format: Ignored"
    // (https://platform.claude.com/docs/en/api/openai-sdk): the request succeeds, the reply is the model's text.
    Fixture f;
    FakeLlm llm;
    llm.ignores_format = true;
    f.use(llm);
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    CHECK(run_exit_code(result) == 0);
    Day day = f.day("2025-05-28");
    for (const auto& p : day.papers) CHECK(p.unscored.empty()); // the text reply is read all the same
    CHECK(llm.bodies.back().find("\"response_format\":{\"type\":\"json_schema\"") != std::string::npos);
    CHECK(day.reply_format == "text");
    CHECK(read_text(day_path(f.dir / "content", day.date)).find("  format: text\n") != std::string::npos);
    bool said = false;
    for (const auto& line : f.log) said = said || line.find("does not honour it") != std::string::npos;
    CHECK(said);
}

TEST_CASE(
    "run: a year whose holidays arXiv has not published here warns once; check warns on a day arXiv never announced") {
    Fixture f;
    WindowApi api(f.arxiv);
    f.config.scoring.embedded = EmbeddedScorerKind::keywords;
    f.today = *parse_iso_date("2027-01-08");
    RunResult result = back_fill(f, "2027-01-04", "2027-01-06");
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    int warned = 0;
    for (const auto& w : result.warnings)
        warned += w.find("arXiv has not published its 2027 holidays here") != std::string::npos;
    CHECK(warned == 1);
    // A day file dated Friday 28 November 2025, after Thanksgiving: check warns, and says why.
    Day phantom;
    phantom.date = *parse_iso_date("2025-11-28");
    REQUIRE(save_day(f.dir / "content", phantom).has_value());
    auto checked = run_paperpress("check", f.dir.path());
    CHECK(checked.exit_code == 0);
    CHECK(checked.err.find("2025-11-28: arXiv announces nothing dated this day (no mailing on the evening of Thursday "
                           "2025-11-27 (arXiv's holidays))") != std::string::npos);
}

TEST_CASE("run: a quota stop holds for the whole run: the catch-up's resume and tonight's day make no more calls") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    f.config.arxiv.catch_up_days = 5;
    archive_days(f.dir / "content", "2025-05-19", "2025-05-23");
    llm.fail_status = 429;
    llm.fail_body = quota_body();
    f.today = *parse_iso_date("2025-05-27");
    f.feed_body = feed(thirty_papers(), "Tue, 27 May 2025 00:00:00 -0400");
    archive_days(f.dir / "content", "2025-05-26", "2025-05-26");
    REQUIRE(f.run().outcome == RunOutcome::written);
    REQUIRE(f.day("2025-05-27").status == DayStatus::partial);
    // The next night, still out of quota: Tuesday is resumed by the catch-up, then Wednesday scored.
    const int before = llm.arrivals;
    f.today = *parse_iso_date("2025-05-28");
    f.feed_body = feed(item("2505.60001", "new", "Sparse pruning") + item("2505.60002", "new", "Sparse attention"),
                       "Wed, 28 May 2025 00:00:00 -0400");
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    CHECK(written_days(result) == std::vector<std::string>{"2025-05-27", "2025-05-28"});
    CHECK(llm.arrivals - before <= f.config.llm.concurrency); // the first stop ends every call of the run
    CHECK(f.day("2025-05-28").status == DayStatus::partial);
    CHECK(f.day("2025-05-28").reason.find("You exceeded your current quota") != std::string::npos);
    // Credit added: the next night's catch-up completes both with the LLM.
    llm.fail_status = 0;
    f.today = *parse_iso_date("2025-05-29");
    f.feed_body = feed(item("2505.60003", "new", "Sparse experts"), "Thu, 29 May 2025 00:00:00 -0400");
    RunResult healed = f.run();
    REQUIRE_MESSAGE(healed.outcome == RunOutcome::written, healed.error);
    CHECK(f.day("2025-05-27").status == DayStatus::announced);
    CHECK(f.day("2025-05-28").status == DayStatus::announced);
    CHECK(run_exit_code(healed) == 0);
}

TEST_CASE("run: the LLM's budget counts from its first call, not from the wait for a late feed") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    llm.clock = &f.clock;
    archive_days(f.dir / "content", "2025-05-26", "2025-05-26");
    f.today = *parse_iso_date("2025-05-27");
    f.config.arxiv.wait_for_feed_minutes = 30;
    f.config.llm.max_wait_minutes = 15;
    const auto late_until = f.clock.now() + std::chrono::minutes(12);
    llm.outage_until = late_until + std::chrono::minutes(10);
    f.feed_now = [&] {
        return feed(f.clock.now() < late_until ? "" : thirty_papers(), "Tue, 27 May 2025 00:00:00 -0400");
    };
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    CHECK(f.day("2025-05-27").status == DayStatus::announced); // 15 min of feed waits, then 7 of outage: within 15
    CHECK(run_exit_code(result) == 0);
}

// ------------------------------------------- issue 42: arXiv's clock, empty API answers, half-stale feeds --

namespace {

// "YYYY-MM-DDTHH:MM" in UTC.
std::chrono::sys_seconds utc(const std::string& text) {
    using namespace std::chrono;
    const Date date = *parse_iso_date(text.substr(0, 10));
    const year_month_day ymd{year{date.year}, month{static_cast<unsigned>(date.month)},
                             day{static_cast<unsigned>(date.day)}};
    return sys_days(ymd) + hours(std::stoi(text.substr(11, 2))) + minutes(std::stoi(text.substr(14, 2)));
}

// An item in the RSS feed's published shape (arXiv/arxiv-docs,
// source/help/rss_specifications.md): every category of the paper, primary first.
std::string spec_item(const std::string& id, const std::string& type, const std::vector<std::string>& categories,
                      const std::string& date) {
    std::string out =
        "<item><title>Sparse paper " + id + "</title><link>https://arxiv.org/abs/" + id +
        "</link><description>arXiv:" + id + "v1 Announce Type: " + type +
        " \nAbstract: We study sparse models.</description><guid isPermaLink=\"false\">oai:arXiv.org:" + id +
        "v1</guid>";
    for (const auto& category : categories) out += "<category>" + category + "</category>";
    return out + "<pubDate>" + date + "</pubDate><arxiv:announce_type>" + type +
           "</arxiv:announce_type><dc:rights>http://creativecommons.org/licenses/by/4.0/</dc:rights>"
           "<dc:creator>Ann Author, Bob Author</dc:creator></item>";
}

// The channel in the same shape, built at midnight US Eastern of `date`.
std::string spec_feed(const std::string& items, const std::string& date, const std::string& built) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss xmlns:arxiv=\"http://arxiv.org/schemas/atom\" "
           "xmlns:dc=\"http://purl.org/dc/elements/1.1/\" xmlns:atom=\"http://www.w3.org/2005/Atom\" "
           "xmlns:content=\"http://purl.org/rss/1.0/modules/content/\" version=\"2.0\"><channel>"
           "<title>cs.LG, cs.AI updates on arXiv.org</title><link>http://rss.arxiv.org/rss/cs.LG+cs.AI</link>"
           "<description>cs.LG, cs.AI updates on the arXiv.org e-print archive.</description>"
           "<atom:link href=\"https://rss.arxiv.org/rss/cs.LG+cs.AI\" rel=\"self\" type=\"application/rss+xml\"/>"
           "<docs>http://www.rssboard.org/rss-specification</docs><language>en-us</language><lastBuildDate>" +
           built + "</lastBuildDate><managingEditor>rss-help@arxiv.org</managingEditor><pubDate>" + date +
           "</pubDate><skipDays><day>Saturday</day><day>Sunday</day></skipDays>" + items + "</channel></rss>";
}

// An export API entry and page in their published shape (arXiv/arxiv-docs,
// source/help/api/user-manual.md, section 3.3: the feed's metadata, the
// OpenSearch elements, one <entry> a paper).
// `published`: the first version's submission, which the back-fill keeps only inside the day's window
// (the default is in the window of Tuesday 27 May 2025's announcement).
std::string spec_entry(const std::string& id, const std::vector<std::string>& categories,
                       const std::string& published = "2025-05-23T19:00:00Z") {
    std::string out = "<entry><id>http://arxiv.org/abs/" + id + "v1</id><updated>" + published +
                      "</updated><published>" + published +
                      "</published>"
                      "<title>Sparse paper " +
                      id +
                      "</title><summary>We study sparse models.</summary><author><name>Ann Author</name></author>"
                      "<link href=\"http://arxiv.org/abs/" +
                      id + "v1\" rel=\"alternate\" type=\"text/html\"/><arxiv:primary_category term=\"" +
                      categories.front() + "\" scheme=\"http://arxiv.org/schemas/atom\"/>";
    for (const auto& category : categories)
        out += "<category term=\"" + category + "\" scheme=\"http://arxiv.org/schemas/atom\"/>";
    return out + "</entry>";
}

std::string spec_api_page(size_t total, const std::string& start, const std::string& entries) {
    const std::string opensearch = " xmlns:opensearch=\"http://a9.com/-/spec/opensearch/1.1/\"";
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"" + opensearch +
           " xmlns:arxiv=\"http://arxiv.org/schemas/atom\"><link href=\"http://arxiv.org/api/query?search_query="
           "&amp;id_list=&amp;start=" +
           start +
           "\" rel=\"self\" type=\"application/atom+xml\"/><title type=\"html\">ArXiv Query: search_query=&amp;"
           "id_list=&amp;start=" +
           start +
           "</title><id>http://arxiv.org/api/cHxbiOdZaP56ODnBPIenZhzg5f8</id>"
           "<updated>2025-05-28T00:00:00-04:00</updated><opensearch:totalResults" +
           opensearch + ">" + std::to_string(total) + "</opensearch:totalResults><opensearch:startIndex" + opensearch +
           ">" + start + "</opensearch:startIndex><opensearch:itemsPerPage" + opensearch +
           ">100</opensearch:itemsPerPage>" + entries + "</feed>";
}

} // namespace

TEST_CASE("arxiv_date: the day on arXiv's clock, US Eastern, around midnight there and the daylight-time switches") {
    const std::vector<std::pair<const char*, const char*>> cases = {
        {"2025-05-29T00:30", "2025-05-28"}, // 20:30 EDT: still Wednesday on arXiv's clock
        {"2025-05-29T03:59", "2025-05-28"}, // 23:59 EDT
        {"2025-05-29T04:00", "2025-05-29"}, // midnight EDT: the feed flips
        {"2025-12-02T04:59", "2025-12-01"}, // 23:59 EST
        {"2025-12-02T05:00", "2025-12-02"}, // midnight EST
        {"2026-01-01T04:59", "2025-12-31"}, // the new year comes five hours later there
        {"2026-01-01T05:00", "2026-01-01"},
        // Daylight time begins at 02:00 EST on the second Sunday of March (9 March 2025).
        {"2025-03-09T04:59", "2025-03-08"}, // 23:59 EST
        {"2025-03-09T05:00", "2025-03-09"}, // midnight EST
        {"2025-03-10T03:59", "2025-03-09"}, // 23:59 EDT
        {"2025-03-10T04:00", "2025-03-10"}, // midnight EDT
        // It ends at 02:00 EDT on the first Sunday of November (2 November 2025; 1 November 2026).
        {"2025-11-02T03:59", "2025-11-01"}, // 23:59 EDT
        {"2025-11-02T04:00", "2025-11-02"}, // midnight EDT
        {"2025-11-03T04:59", "2025-11-02"}, // 23:59 EST
        {"2025-11-03T05:00", "2025-11-03"}, // midnight EST
        {"2026-11-02T04:30", "2026-11-01"}, // 23:30 EST
        {"2026-03-09T03:30", "2026-03-08"}, // 23:30 EDT, the day daylight time began (8 March 2026)
    };
    for (const auto& [instant, date] : cases) {
        CAPTURE(instant);
        CHECK(arxiv_date(utc(instant)).iso() == date);
    }
}

TEST_CASE("run: a run at 20:30 US Eastern expects the day arXiv's feed holds there: no wait, exit 0") {
    // The feed flips at midnight Eastern (arxiv-docs help/rss.md); at 20:30 the UTC date is already the next day.
    const std::vector<std::array<const char*, 4>> runs = {
        {"2025-05-29T00:30", "2025-05-28", "Wed, 28 May 2025 00:00:00 -0400", "Wed, 28 May 2025 04:00:27 +0000"},
        {"2025-12-04T01:30", "2025-12-03", "Wed, 03 Dec 2025 00:00:00 -0500", "Wed, 03 Dec 2025 05:00:11 +0000"},
    };
    for (const auto& [now, day, date, built] : runs) {
        CAPTURE(now);
        Fixture f;
        f.config.scoring.embedded = EmbeddedScorerKind::keywords;
        f.config.arxiv.wait_for_feed_minutes = 30; // the shipped paperpress.yaml's
        f.feed_body = spec_feed(spec_item("2505.61001", "new", {"cs.LG"}, date) +
                                    spec_item("2505.61002", "cross", {"stat.ML", "cs.LG"}, date),
                                date, built);
        f.now = utc(now);
        RunResult result = f.run();
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(written_days(result) == std::vector<std::string>{day});
        CHECK(run_exit_code(result) == 0);
        CHECK(result.incomplete.empty());
        CHECK(f.feed_requests == 1); // not polled for a day the feed cannot hold yet
        CHECK(f.clock.slept() < std::chrono::minutes(5));
    }
}

TEST_CASE("run: an API window answered with no papers on an announcement day is asked again, then partial; the "
          "catch-up heals it") {
    // The API sometimes answers a query that has results with a valid, empty
    // feed (totalResults 0): lukasschwab/arxiv.py#43 and #129, ropensci/aRxiv#66.
    Fixture f;
    f.config.scoring.embedded = EmbeddedScorerKind::keywords;
    f.config.arxiv.request_interval = 3;
    f.config.arxiv.api_page_size = 100;
    int empty_answers = 0;
    std::vector<Clock::time_point> asked;
    f.arxiv.server.Get("/api/query", [&](const httplib::Request& req, httplib::Response& res) {
        asked.push_back(f.clock.now());
        const std::string start = req.get_param_value("start");
        if (empty_answers > 0) {
            --empty_answers;
            return res.set_content(spec_api_page(0, start, ""), "application/atom+xml");
        }
        res.set_content(spec_api_page(2, start,
                                      // Monday 08:00 EDT: inside Tuesday 20 May's submission window.
                                      start == "0"
                                          ? spec_entry("2505.14001", {"cs.LG"}, "2025-05-19T12:00:00Z") +
                                                spec_entry("2505.14002", {"cs.AI", "cs.LG"}, "2025-05-19T12:00:00Z")
                                          : ""),
                        "application/atom+xml");
    });
    const Date tuesday = *parse_iso_date("2025-05-20");
    SUBCASE("empty once: asked again after arXiv's interval, and the day is whole") {
        empty_answers = 1;
        RunResult result = f.run(tuesday);
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        Day day = f.day("2025-05-20");
        CHECK(day.counts.arxiv == 2);
        CHECK(day.status == DayStatus::announced);
        CHECK(run_exit_code(result) == 0);
        REQUIRE(asked.size() == 2);
        CHECK(asked[1] - asked[0] >= std::chrono::seconds(3));
    }
    SUBCASE("empty twice: partial with the reason, and the next night's catch-up fetches it again") {
        empty_answers = 2;
        RunResult result = f.run(tuesday);
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        Day day = f.day("2025-05-20");
        CHECK(day.counts.arxiv == 0);
        CHECK(day.status == DayStatus::partial);
        CHECK(day.reason.find("the arXiv API answered no papers twice") != std::string::npos);
        CHECK(run_exit_code(result) == 3);
        CHECK(asked.size() == 2);
        CHECK(waiting_for(day) == CatchUp::fetch);
        // Wednesday night: the catch-up asks for Tuesday again, and the API answers.
        archive_days(f.dir / "content", "2025-05-13", "2025-05-19");
        f.config.arxiv.catch_up_days = 5;
        f.today = *parse_iso_date("2025-05-21");
        const std::string date = "Wed, 21 May 2025 00:00:00 -0400";
        f.feed_body =
            spec_feed(spec_item("2505.15001", "new", {"cs.LG"}, date), date, "Wed, 21 May 2025 04:00:27 +0000");
        RunResult next = f.run();
        REQUIRE_MESSAGE(next.outcome == RunOutcome::written, next.error);
        CHECK(written_days(next) == std::vector<std::string>{"2025-05-20", "2025-05-21"});
        CHECK(f.day("2025-05-20").status == DayStatus::announced);
        CHECK(f.day("2025-05-20").counts.arxiv == 2);
        CHECK(run_exit_code(next) == 0);
    }
    SUBCASE("a day without an announcement is not asked again") {
        empty_answers = 1;
        RunResult result = f.run(*parse_iso_date("2025-05-24")); // a Saturday, asked by --date
        REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
        CHECK(f.day("2025-05-24").status == DayStatus::announced);
        CHECK(asked.size() == 1);
    }
}

TEST_CASE("run: a feed whose cs.AI part still serves yesterday is partial, naming cs.AI; the catch-up heals it") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    f.config.scoring.authors.clear();
    f.config.scoring.relevance_cutoff = 1; // every scored paper is kept: the day lists them all
    f.config.scoring.novelty_cutoff = 1;
    f.config.arxiv.catch_up_days = 5;
    f.config.arxiv.api_page_size = 100;
    archive_days(f.dir / "content", "2025-05-19", "2025-05-23");
    auto papers = [](int first, int count, const std::vector<std::string>& categories, const std::string& date) {
        std::string items;
        for (int i = first; i < first + count; ++i)
            items += spec_item("2505." + std::to_string(i), "new", categories, date);
        return items;
    };
    const std::string monday = "Mon, 26 May 2025 00:00:00 -0400", tuesday = "Tue, 27 May 2025 00:00:00 -0400";
    f.today = *parse_iso_date("2025-05-26");
    f.feed_body = spec_feed(papers(30000, 10, {"cs.LG"}, monday) + papers(31000, 10, {"cs.AI", "cs.LG"}, monday),
                            monday, "Mon, 26 May 2025 04:00:27 +0000");
    REQUIRE(f.run().outcome == RunOutcome::written);
    // Tuesday: cs.LG's part is Tuesday's; cs.AI's is still Monday's, re-dated (cs.AI's real papers are 32000-32009).
    f.today = *parse_iso_date("2025-05-27");
    f.feed_body = spec_feed(papers(40000, 10, {"cs.LG"}, tuesday) + papers(31000, 10, {"cs.AI", "cs.LG"}, tuesday),
                            tuesday, "Tue, 27 May 2025 04:00:27 +0000");
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    Day day = f.day("2025-05-27");
    CHECK(day.status == DayStatus::partial);
    CHECK(day.reason.find("cs.AI (10 of its 10)") != std::string::npos);
    CHECK(day.reason.find("cs.LG") == std::string::npos);
    CHECK(run_exit_code(result) == 3);
    REQUIRE(result.incomplete.size() == 1);
    CHECK(result.incomplete[0].find("fetches it again through the API") != std::string::npos);
    CHECK(waiting_for(day) == CatchUp::fetch);
    // Wednesday: the catch-up asks the API for Tuesday's window, which holds cs.AI's real papers.
    std::vector<std::string> windows;
    f.arxiv.server.Get("/api/query", [&](const httplib::Request& req, httplib::Response& res) {
        const std::string query = req.get_param_value("search_query");
        windows.push_back(query.substr(query.find("submittedDate:[") + 15, 12));
        std::string entries;
        for (int i = 0; i < 10; ++i)
            entries += spec_entry("2505." + std::to_string(40000 + i), {"cs.LG"}) +
                       spec_entry("2505." + std::to_string(32000 + i), {"cs.AI"});
        res.set_content(
            spec_api_page(20, req.get_param_value("start"), req.get_param_value("start") == "0" ? entries : ""),
            "application/atom+xml");
    });
    const std::string wednesday = "Wed, 28 May 2025 00:00:00 -0400";
    // A fresh feed may list a paper of an earlier day again (a late cross-list): one is not a stale part.
    f.today = *parse_iso_date("2025-05-28");
    f.feed_body = spec_feed(papers(50000, 5, {"cs.LG"}, wednesday) +
                                spec_item("2505.31000", "cross", {"stat.ML", "cs.AI"}, wednesday),
                            wednesday, "Wed, 28 May 2025 04:00:27 +0000");
    RunResult next = f.run();
    REQUIRE_MESSAGE(next.outcome == RunOutcome::written, next.error);
    CHECK(written_days(next) == std::vector<std::string>{"2025-05-27", "2025-05-28"});
    CHECK(windows == std::vector<std::string>{"202505231800"}); // Friday 14:00 EDT to Monday 14:00
    Day healed = f.day("2025-05-27");
    CHECK(healed.status == DayStatus::announced);
    const auto ids = ids_of(healed);
    for (int i = 0; i < 10; ++i) CHECK(std::ranges::find(ids, "2505." + std::to_string(32000 + i)) != ids.end());
    CHECK(f.day("2025-05-28").status == DayStatus::announced);
    CHECK(run_exit_code(next) == 0);
}

// ------------------------------------------------ issue 41 item 2: every wait has a deadline --

// The day finished by the embedded scorer after the LLM stopped: partial, exit 3, the reason quoting `why`.
void check_stopped_day(Fixture& f, const RunResult& result, const std::string& why) {
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    CHECK(run_exit_code(result) == 3);
    Day day = f.day("2025-05-28");
    CHECK(day.status == DayStatus::partial);
    CHECK_MESSAGE(day.reason.find(why) != std::string::npos, day.reason);
    CHECK(std::ranges::any_of(day.papers, [](const Paper& p) { return !p.unscored.empty(); }));
    for (const auto& p : day.papers)
        if (!p.unscored.empty() && p.relevance) CHECK(p.comment.find("embedded scorer") != std::string::npos);
}

TEST_CASE("run: a 200's x-ratelimit-limit-tokens: 1 or a usage of 10^12 tokens cannot hold the run past "
          "llm.max_wait_minutes: the LLM stops, naming it, the embedded scorer finishes the day") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    f.config.llm.max_wait_minutes = 1;
    f.config.scoring.embedded = EmbeddedScorerKind::keywords;
    std::string cause;
    SUBCASE("a budget of 1 token a minute announced in a 200's headers") {
        llm.reply_headers = {{"x-ratelimit-limit-tokens", "1"}, {"x-ratelimit-remaining-tokens", "0"}};
        cause = "for the token budget of 1 a minute (the endpoint's x-ratelimit-limit-tokens header)";
    }
    SUBCASE("a reply's usage claiming 10^12 tokens against a budget of 15,000 a minute") {
        f.config.llm.tokens_per_minute = 15000;
        llm.usage_tokens = 1'000'000'000'000;
        cause = "(replies' usage: up to 1000000000100 a reply)"; // and 100 completion tokens
    }
    const auto started = f.clock.now();
    RunResult result = f.run();
    MESSAGE("simulated time: " << std::chrono::duration_cast<std::chrono::seconds>(f.clock.now() - started).count()
                               << " s");
    CHECK(f.clock.now() - started <= std::chrono::minutes(1));
    check_stopped_day(f, result,
                      "the LLM endpoint's limits ask for more than what is left of "
                      "llm.max_wait_minutes (1 min): the next request would wait ");
    check_stopped_day(f, result, cause);
}

TEST_CASE("run: a 429 asking to wait longer than what is left of llm.max_wait_minutes stops the LLM at once, "
          "saying so") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    f.config.llm.max_wait_minutes = 1;
    f.config.scoring.embedded = EmbeddedScorerKind::keywords;
    llm.fail_status = 429;
    // OpenAI's rate-limit error shape (platform.openai.com/docs/guides/error-codes), as within_budget sends it.
    llm.fail_body = "{\"error\":{\"message\":\"Rate limit reached for gpt-4o in organization org-test on requests "
                    "per day (RPD): Limit 10000, Used 10000, Requested 1.\",\"type\":\"requests\",\"param\":null,"
                    "\"code\":\"rate_limit_exceeded\"}}";
    SUBCASE("Retry-After: a day") { llm.reply_headers = {{"retry-after", "86400"}}; }
    SUBCASE("retry-after-ms: a day") { llm.reply_headers = {{"retry-after-ms", "86400000"}}; }
    RunResult result = f.run();
    CHECK(f.clock.slept() == Clock::duration{}); // no wait at all
    CHECK(llm.arrivals <= f.config.llm.concurrency);
    check_stopped_day(f, result,
                      "the LLM endpoint asked to wait 86400 s, more than what is left of llm.max_wait_minutes (1 "
                      "min): the provider says 'Rate limit reached for gpt-4o");
}

// ------------------------------------------------ issue 42 item 4: the providers' published error shapes --

namespace {

// Gemini's 429 for a quota of the day, with the per-minute one and its RetryInfo, as its API sends it
// (google.rpc.QuotaFailure and RetryInfo; the body quoted in googleapis/python-genai#2044).
std::string gemini_daily_quota() {
    return R"({"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_requests","quotaId":"GenerateRequestsPerDayPerProjectPerModel-FreeTier","quotaDimensions":{"location":"global","model":"gemini-2.0-flash"}},{"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_requests","quotaId":"GenerateRequestsPerMinutePerProjectPerModel-FreeTier","quotaDimensions":{"location":"global","model":"gemini-2.0-flash"}}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"47s"}]}})";
}

// Gemini's 429 for a model the plan has no quota for: "limit: 0" and "Please retry in ..." in its message
// (continuedev/continue#9570).
std::string gemini_zero_quota() {
    return R"({"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-3-pro\nPlease retry in 45.578569677s.","status":"RESOURCE_EXHAUSTED"}})";
}

} // namespace

TEST_CASE("run: failures waiting cannot cure stop the LLM at once, in each provider's published shape, with the "
          "right advice") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    f.config.scoring.embedded = EmbeddedScorerKind::keywords;
    std::string words, kind = "quota or billing", shown;
    SUBCASE("OpenAI's 429 billing_not_active (the body quoted in BerriAI/litellm#2743)") {
        llm.fail_status = 429;
        llm.fail_body =
            R"({"error":{"message":"Your account is not active, please check your billing details on our website.","type":"billing_not_active","param":null,"code":"billing_not_active"}})";
        words = "Your account is not active";
        shown = "(HTTP 429 billing_not_active)";
    }
    SUBCASE("Gemini's 429 on a quota of the day") {
        llm.fail_status = 429;
        llm.fail_body = gemini_daily_quota();
        words = "You exceeded your current quota";
        shown = "(HTTP 429 RESOURCE_EXHAUSTED)";
    }
    SUBCASE(
        "Gemini's 429 on a quota of 0, through its OpenAI-compatible endpoint's array (FuzzAnything/PromptFuzz#42)") {
        llm.fail_status = 429;
        llm.fail_body = "[" + gemini_zero_quota() + "]";
        words = "You exceeded your current quota";
        shown = "(HTTP 429 RESOURCE_EXHAUSTED)";
    }
    SUBCASE("Gemini's 400 for a bad key (ai.google.dev/gemini-api/docs/troubleshooting, API_KEY_INVALID)") {
        llm.fail_status = 400;
        llm.fail_body =
            R"([{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"generativelanguage.googleapis.com"}}]}}])";
        words = "API key not valid";
        kind = "check the API key";
        shown = "(HTTP 400 API_KEY_INVALID)";
    }
    SUBCASE("Anthropic's 400 for a credit balance too low (docs.claude.com/en/api/errors' shape; "
            "anthropics/claude-code#4684)") {
        llm.fail_status = 400;
        llm.fail_body =
            R"({"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."}})";
        words = "Your credit balance is too low";
        shown = "(HTTP 400 invalid_request_error)";
    }
    SUBCASE("a 402 whose code is a number") {
        llm.fail_status = 402;
        llm.fail_body = R"({"error":{"message":"Insufficient credits","code":402}})";
        words = "Insufficient credits";
        shown = "(HTTP 402)";
    }
    RunResult result = f.run();
    CHECK(f.clock.slept() == Clock::duration{}); // no wait at all
    CHECK(llm.arrivals <= f.config.llm.concurrency);
    check_stopped_day(f, result, words);
    check_stopped_day(f, result, kind);
    check_stopped_day(f, result, shown);
    const std::string reason = f.day("2025-05-28").reason;
    CHECK(reason.find("check llm.model") == std::string::npos);
    CHECK(reason.find("{\"error\"") == std::string::npos); // the provider's words, not its raw JSON
}

TEST_CASE("run: Gemini's retry hints are waited as asked: google.rpc.RetryInfo's retryDelay, \"Please retry in\"") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    Clock::duration asked{};
    SUBCASE("retryDelay \"26s\", a per-minute quota (the shape of RooCodeInc/Roo-Code#3883)") {
        llm.first_fail_body =
            R"({"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_input_token_count","quotaId":"GenerateContentInputTokensPerModelPerMinute-FreeTier","quotaDimensions":{"location":"global","model":"gemini-2.5-flash"},"quotaValue":"250000"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"26s"}]}})";
        asked = std::chrono::seconds(26);
    }
    SUBCASE("\"Please retry in 11.1s.\" in the message, through the OpenAI-compatible endpoint's array") {
        llm.first_fail_body =
            R"([{"error":{"code":429,"message":"Resource exhausted. Please retry in 11.1s.","status":"RESOURCE_EXHAUSTED"}}])";
        asked = std::chrono::milliseconds(11100);
    }
    RunResult result = f.run();
    REQUIRE_MESSAGE(result.outcome == RunOutcome::written, result.error);
    CHECK(run_exit_code(result) == 0);
    CHECK(f.day("2025-05-28").status == DayStatus::announced);
    CHECK(f.clock.slept() >= asked);
    CHECK(f.clock.slept() <= asked + std::chrono::seconds(2)); // and a little jitter, no more
}

TEST_CASE("run: llm.summaries asks a summary of each pick only, in llm.language, as structured output; its tokens "
          "and cost join the day's") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    f.config.llm.summaries = true;
    f.config.llm.language = "Deutsch";
    REQUIRE(f.run().outcome == RunOutcome::written);
    Day day = f.day("2025-05-28");
    CHECK(day.status == DayStatus::announced);
    std::set<std::string> picks;
    for (const auto& p : day.papers) picks.insert(p.id);
    REQUIRE(picks.size() >= 2);
    // One request a pick, none for a paper the day did not keep.
    CHECK(std::set<std::string>(llm.summarized.begin(), llm.summarized.end()) == picks);
    CHECK(llm.summarized.size() == picks.size());
    for (const auto& p : day.papers) {
        CHECK(p.summary.tldr == "[Deutsch] <b>" + p.id + "</b> & co in one line");
        CHECK(p.summary.motivation == "Why " + p.id);
        CHECK(p.summary.conclusion == "So what");
        CHECK(p.summary.failed.empty());
    }
    // Asked with the summary's schema, in the language configured.
    bool schema = false;
    for (const auto& body : llm.bodies)
        if (body.find("You write short summaries") != std::string::npos) {
            schema = schema || body.find("\"name\":\"paper_summary\"") != std::string::npos;
            CHECK(body.find("Write every part in Deutsch") != std::string::npos);
        }
    CHECK(schema);
    // Scoring: 7 requests of 1000 + 100 tokens; each summary 300 + 120.
    const long long summaries = static_cast<long long>(picks.size());
    CHECK(day.tokens->prompt == 7 * 1000 + 300 * summaries);
    CHECK(day.tokens->completion == 7 * 100 + 120 * summaries);
    const double scoring = (600.0 * 2.5 + 400.0 * 1.25 + 100.0 * 10.0) * 7 / 1e6;
    CHECK(*day.cost.total ==
          doctest::Approx(scoring + (300.0 * 2.5 + 120.0 * 10.0) * static_cast<double>(summaries) / 1e6));

    // Redo the day: every summary from the cache, no request.
    llm.summarized.clear();
    REQUIRE(f.run(*parse_iso_date("2025-05-28")).outcome == RunOutcome::written);
    CHECK(llm.summarized.empty());
    CHECK(f.day("2025-05-28").papers == day.papers);

    // Another language is another summary.
    f.config.llm.language = "English";
    REQUIRE(f.run(*parse_iso_date("2025-05-28")).outcome == RunOutcome::written);
    CHECK(llm.summarized.size() == picks.size());
    CHECK(f.day("2025-05-28").papers[0].summary.tldr.starts_with("[English] "));
}

TEST_CASE("run: a summary cut at the length limit is recorded as failed, the day stays announced; --resume asks "
          "again for it alone") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    f.config.llm.summaries = true;
    const std::string cut = "2505.20003"; // the followed author's paper: a pick
    llm.summary_cut = {cut};
    RunResult result = f.run();
    REQUIRE(result.outcome == RunOutcome::written);
    Day day = f.day("2025-05-28");
    CHECK(day.status == DayStatus::announced);
    for (const auto& p : day.papers) {
        if (p.id != cut) CHECK_FALSE(p.summary.tldr.empty());
        else {
            CHECK(p.summary.tldr.empty());
            CHECK(p.summary.failed == "the reply was cut at the length limit (finish_reason: length)");
        }
    }
    bool warned = false;
    for (const auto& w : result.warnings) warned = warned || w.find(cut + " has no summary") != std::string::npos;
    CHECK(warned);

    // --resume completes the missing summary alone, on a day that is not partial.
    llm.summary_cut.clear();
    llm.summarized.clear();
    RunResult resumed = f.run(*parse_iso_date("2025-05-28"), false, true);
    REQUIRE_MESSAGE(resumed.outcome == RunOutcome::written, resumed.error);
    CHECK(llm.summarized == std::vector<std::string>{cut});
    for (const auto& p : f.day("2025-05-28").papers) {
        CHECK_FALSE(p.summary.tldr.empty());
        CHECK(p.summary.failed.empty());
    }
}

TEST_CASE("run: without llm.summaries, or without an LLM, no summary is asked or written") {
    Fixture f;
    FakeLlm llm;
    f.use(llm);
    REQUIRE(f.run().outcome == RunOutcome::written);
    CHECK(llm.summarized.empty());
    for (const auto& p : f.day("2025-05-28").papers) CHECK(p.summary == PaperSummary{});

    Fixture no_llm; // no key, no base URL: the embedded scorer serves
    no_llm.config.llm.summaries = true;
    REQUIRE(no_llm.run().outcome == RunOutcome::written);
    const Day day = no_llm.day("2025-05-28");
    CHECK(day.model == "embedded");
    REQUIRE_FALSE(day.papers.empty());
    for (const auto& p : day.papers) CHECK(p.summary == PaperSummary{});
}
