// score: author matching, the embedded scorer, reply parsing, pricing,
// selection order.
#include "content/day_file.h"
#include "score/author_match.h"
#include "score/embedded_scorer.h"
#include "score/llm_client.h"
#include "score/llm_scorer.h"
#include "score/pricing.h"
#include "score/prompt.h"
#include "score/reply_parser.h"
#include "score/score_cache.h"
#include "score/selection.h"
#include "score/summary.h"
#include "score/topics.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <rapidjson/document.h>

#include <chrono>

using namespace pp;
using namespace pp::test;

TEST_CASE("author names match through case, accents and TeX accents") {
    CHECK(normalize_name("Lenka Zdeborov\\'a") == "lenka zdeborova");
    CHECK(normalize_name("Lenka Zdeborová") == "lenka zdeborova");
    CHECK(normalize_name("LENKA ZDEBOROVA") == "lenka zdeborova");
    CHECK(normalize_name("Fran\\c{c}ois-Xavier Briol") == normalize_name("François-Xavier Briol"));
    CHECK(normalize_name("Hinrich Sch\\\"utze") == normalize_name("Hinrich Schütze"));
    CHECK(normalize_name("Rapha{\\\"e}l Milli\\`ere") == normalize_name("Raphaël Millière"));
    CHECK(normalize_name("Marin Šola") == "marin sola");
    CHECK(normalize_name("Peter Richt\\'arik") == normalize_name("Peter Richtárik"));
    CHECK(normalize_name("O\\u{g}uzhan Ersoy") == "oguzhan ersoy");
    CHECK(normalize_name("Stanis{\\l}aw Jastrz\\c{e}bski") == normalize_name("Stanisław Jastrzębski"));
    // Beyond Latin-1: Vietnamese, Turkish, Nordic letters, and full-width forms.
    CHECK(normalize_name("Nguyễn Thị Minh") == "nguyen thi minh");
    CHECK(normalize_name("Ömer Gürbüz") == normalize_name("Omer Gurbuz"));
    CHECK(normalize_name("Søren Hauberg") == "soren hauberg");
    CHECK(normalize_name("Łukasz Kaiser") == "lukasz kaiser");
    CHECK(normalize_name("ＫＡＩＭＩＮＧ He") == "kaiming he");
    CHECK(normalize_name("Andrés  O'Brien-Smith") == "andres obrien smith");
    // Other scripts are kept, not dropped: two different names stay different.
    CHECK(normalize_name("王 小明") == "王 小明");
    CHECK(normalize_name("王 小明") != normalize_name("李 小明"));

    AuthorMatcher matcher({"Lenka Zdeborová", "Kaiming He"});
    Paper paper;
    paper.authors = {"Someone Else", "Lenka Zdeborov\\'a"};
    CHECK(matcher.matches(paper) == std::vector<std::string>{"Lenka Zdeborov\\'a"});
    paper.authors = {"Kaiming Hex"};
    CHECK(matcher.matches(paper).empty());
}

// arXiv's feed writes an author with affiliations as "Name (Affiliation, Affiliation)"
// (github.com/arXiv/arxiv-feed, feed/serializers/extensions.py): the name is what matches.
TEST_CASE("a followed author matches on a feed day, where the feed adds affiliations to the name") {
    AuthorMatcher matcher({"Kaiming He", "Lenka Zdeborová"});
    Paper paper;
    paper.authors = {"Ross Girshick (FAIR)", "Kaiming He (MIT, CSAIL)", "Lenka Zdeborov\\'a (EPFL (SPOC lab))"};
    CHECK(matcher.matches(paper) == std::vector<std::string>{"Kaiming He", "Lenka Zdeborov\\'a"});
    paper.authors = {"Kaiming Hex (MIT)", "MIT (Kaiming He)"};
    CHECK(matcher.matches(paper).empty());
}

TEST_CASE("the embedded scorer rates relevance from the topics' keywords and names what matched") {
    auto keywords =
        parse_topic_keywords("1. Model Architecture\n   - Relevant: Mixture of Experts (MoE), Transformers\n"
                             "**Keywords:**\n- Relevant: Sparse/Sparsity, Pruning, Transformer, etc.\n"
                             "- Irrelevant: Reinforcement Learning, Diffusion Models\n");
    REQUIRE(keywords.relevant.size() == 4); // "Transformer" is the same keyword as "Transformers"
    CHECK(keywords.relevant[0] == std::vector<std::string>{"mixture of experts", "moe"});
    CHECK(keywords.irrelevant.size() == 2);

    Paper on_topic;
    on_topic.title = "Sparse Mixture of Experts for Transformers";
    on_topic.abstract = "We prune experts.";
    Paper in_abstract;
    in_abstract.title = "A new method";
    in_abstract.abstract = "We study pruning in an MoE layer.";
    Paper off_topic;
    off_topic.title = "Diffusion models for reinforcement learning";
    off_topic.abstract = "We train a policy.";

    auto high = embedded_score(on_topic, keywords);
    auto middle = embedded_score(in_abstract, keywords);
    auto low = embedded_score(off_topic, keywords);
    CHECK(high.relevance > middle.relevance);
    CHECK(middle.relevance > low.relevance);
    CHECK(high.relevance == 10);
    CHECK(low.relevance == 1);
    CHECK(high.comment.find("title matches mixture of experts, transformers, sparse") != std::string::npos);
    CHECK(middle.comment.find("abstract matches mixture of experts, pruning") != std::string::npos);
    CHECK(low.comment.find("against: reinforcement learning, diffusion models") != std::string::npos);
    // Deterministic: the same paper always gets the same score.
    CHECK(embedded_score(on_topic, keywords).relevance == high.relevance);
    // "prune" is not "pruning": keywords match at word starts only.
    Paper partial;
    partial.title = "Spruce trees";
    CHECK(embedded_score(partial, keywords).relevance == 2);
}

TEST_CASE("replies are parsed however the model wraps them") {
    SUBCASE("JSONL in a code fence after a think block") {
        auto replies = parse_score_reply(
            "<think>Let me look at {these} papers [carefully].</think>\nHere you go:\n```jsonl\n"
            "{\"ARXIVID\": \"2505.00001\", \"COMMENT\": \"MoE\", \"RELEVANCE\": 9, \"NOVELTY\": 8}\n"
            "{\"ARXIVID\": \"2505.00002v2\", \"COMMENT\": \"meh\", \"RELEVANCE\": \"4\", \"NOVELTY\": \"3\"},\n```\n");
        REQUIRE(replies.size() == 2);
        CHECK(replies[0].id == "2505.00001");
        CHECK(replies[0].relevance == 9);
        CHECK(replies[0].novelty == 8);
        CHECK(replies[0].comment == "MoE");
        CHECK(replies[1].id == "2505.00002");
        CHECK(replies[1].relevance == 4);
    }
    SUBCASE("a JSON array with trailing commas, lower-case keys and out-of-range scores") {
        auto replies =
            parse_score_reply("[{\"arxiv_id\": \"2505.00001\", \"relevance\": 12, \"novelty\": 0, \"comment\": \"x\",},"
                              " {\"ArxivId\": \"2505.00003\", \"Relevance\": 7.6, \"Novelty\": 7},]");
        REQUIRE(replies.size() == 2);
        CHECK(replies[0].relevance == 10); // clamped
        CHECK(replies[0].novelty == 1);
        CHECK(replies[1].id == "2505.00003");
        CHECK(replies[1].relevance == 8);
    }
    SUBCASE("one broken object does not lose the others") {
        auto replies = parse_score_reply(
            "[{\"ARXIVID\": \"2505.00001\", \"RELEVANCE\": 9, \"NOVELTY\": 9}, {\"ARXIVID\": \"2505.00002\", "
            "\"RELEVANCE\": nine}, {\"ARXIVID\": \"2505.00003\", \"RELEVANCE\": 8, \"NOVELTY\": 7}]");
        REQUIRE(replies.size() == 2);
        CHECK(replies[0].id == "2505.00001");
        CHECK(replies[1].id == "2505.00003");
    }
    SUBCASE("a wrapper object and a lone closing think tag") {
        auto replies = parse_score_reply("reasoning...</think>{\"papers\": [{\"id\": \"hep-th/9901001v1\", "
                                         "\"relevance\": 5, \"novelty\": 6}]}");
        REQUIRE(replies.size() == 1);
        CHECK(replies[0].id == "hep-th/9901001");
    }
    SUBCASE("garbage gives nothing, not a crash") {
        CHECK(parse_score_reply("I cannot help with that. {{{ ]]] \"").empty());
        CHECK(parse_score_reply("").empty());
        CHECK(parse_score_reply("{\"ARXIVID\": \"not an id\", \"RELEVANCE\": 9}").empty());
    }
    SUBCASE("the title pre-filter's ID list") {
        CHECK(parse_id_list_reply("```json\n[\"2505.00001\", \"2505.00002v1\",]\n```") ==
              std::vector<std::string>{"2505.00001", "2505.00002"});
    }
}

TEST_CASE("cost comes from the price table; an unknown model costs 'unknown', not $0") {
    Tokens tokens{1'000'000, 100'000, 400'000};
    Cost cost = cost_of("gpt-4o", tokens, default_prices());
    // 600k uncached × $2.50 + 400k cached × $1.25, 100k completion × $10
    CHECK(*cost.prompt == doctest::Approx(2.0));
    CHECK(*cost.completion == doctest::Approx(1.0));
    CHECK(*cost.total == doctest::Approx(3.0));
    Cost unknown = cost_of("my-local-model", tokens, default_prices());
    CHECK_FALSE(unknown.total.has_value());
    PriceTable custom{{"my-local-model", {0.0, 0.0, std::nullopt}}};
    CHECK(*cost_of("my-local-model", tokens, custom).total == 0.0);
}

TEST_CASE("selection: author matches first, then score, relevance, ID; cutoffs; unscored kept") {
    std::vector<Paper> candidates;
    for (const char* id : {"2505.00005", "2505.00004", "2505.00003", "2505.00002", "2505.00001", "2505.00006"}) {
        Paper p;
        p.id = id;
        candidates.push_back(p);
    }
    Verdicts verdicts;
    verdicts.author_matches = {"2505.00006"};
    verdicts.scores["2505.00001"] = {"2505.00001", 8, 8, "a"};
    verdicts.scores["2505.00002"] = {"2505.00002", 9, 7, "b"};
    verdicts.scores["2505.00003"] = {"2505.00003", 8, 8, "c"};
    verdicts.scores["2505.00004"] = {"2505.00004", 9, 5, "below the novelty cutoff"};
    verdicts.unscored["2505.00005"] = "missing from the LLM's reply (after 3 tries)";
    auto selected = select_papers(candidates, verdicts, {7, 6});
    std::vector<std::string> ids;
    for (const auto& p : selected) ids.push_back(p.id);
    CHECK(ids == std::vector<std::string>{"2505.00006", "2505.00002", "2505.00001", "2505.00003", "2505.00005"});
    CHECK(selected[0].author_match);
    CHECK(selected[1].comment == "b");
    CHECK(selected[4].unscored == "missing from the LLM's reply (after 3 tries)");
}

TEST_CASE("selection: the embedded scorer's stand-in picks come after the LLM's, and stay marked unscored") {
    std::vector<Paper> candidates;
    for (const char* id : {"2505.00001", "2505.00002", "2505.00003"}) {
        Paper paper;
        paper.id = id;
        candidates.push_back(paper);
    }
    Verdicts verdicts;
    verdicts.scores["2505.00001"] = {"2505.00001", 7, 6, "the LLM's"};
    verdicts.scores["2505.00002"] = {"2505.00002", 10, std::nullopt, "the stand-in's, passing"};
    verdicts.scores["2505.00003"] = {"2505.00003", 2, std::nullopt, "the stand-in's, failing"};
    verdicts.unscored["2505.00002"] = "HTTP 429 insufficient_quota";
    verdicts.unscored["2505.00003"] = "HTTP 429 insufficient_quota";
    auto selected = select_papers(candidates, verdicts, {7, 6});
    REQUIRE(selected.size() == 3);
    CHECK(selected[0].id == "2505.00001");
    CHECK(selected[1].id == "2505.00002"); // a pick until the LLM scores it
    CHECK(selected[1].relevance == 10);
    CHECK(selected[1].unscored == "HTTP 429 insufficient_quota");
    CHECK(selected[2].id == "2505.00003"); // kept for the LLM, without the failing score
    CHECK_FALSE(selected[2].relevance);
}

// The providers' own error bodies: OpenAI (platform.openai.com/docs/guides/error-codes), DeepSeek
// (api-docs.deepseek.com/quick_start/error_codes), and an endpoint that answers plain text.
TEST_CASE("LLM failures are classified from the status and the provider's error code, never from prose") {
    auto openai_quota = read_provider_error(
        R"({"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}})");
    CHECK(openai_quota.code == "insufficient_quota");
    CHECK(openai_quota.message.starts_with("You exceeded your current quota"));
    CHECK(classify_llm_failure(429, openai_quota) == LlmFailure::billing);
    auto spend_limit = read_provider_error(
        R"({"error":{"message":"Budget reached","type":"insufficient_quota","code":"project_spend_limit_exceeded"}})");
    CHECK(classify_llm_failure(429, spend_limit) == LlmFailure::billing);
    auto rate = read_provider_error(
        R"j({"error":{"message":"Rate limit reached for gpt-4o on tokens per min (TPM)","type":"tokens","param":null,"code":"rate_limit_exceeded"}})j");
    CHECK(classify_llm_failure(429, rate) == LlmFailure::rate_limited);
    // A message that merely mentions quota is no billing error: the code decides.
    CHECK(classify_llm_failure(429, ProviderError{.message = "quota of requests per minute reached"}) ==
          LlmFailure::rate_limited);
    auto deepseek = read_provider_error(
        R"({"error":{"message":"Insufficient Balance","type":"unknown_error","param":null,"code":"invalid_request_error"}})");
    CHECK(classify_llm_failure(402, deepseek) == LlmFailure::billing);
    CHECK(classify_llm_failure(401, {}) == LlmFailure::refused);
    CHECK(classify_llm_failure(403, {}) == LlmFailure::refused);
    CHECK(classify_llm_failure(400, {}) == LlmFailure::rejected);
    CHECK(classify_llm_failure(404, {}) == LlmFailure::rejected);
    for (long status : {0L, 408L, 500L, 502L, 503L, 529L})
        CHECK(classify_llm_failure(status, {}) == LlmFailure::outage);
    // Other shapes: {"error": "text"}, a top-level message, not JSON at all.
    CHECK(read_provider_error(R"({"error":"model overloaded"})").message == "model overloaded");
    CHECK(read_provider_error(R"({"message":"no such model","code":404})").code == "404");
    CHECK(read_provider_error("<html>Bad gateway</html>").message.empty());
}

TEST_CASE("a structured reply {\"papers\": [...]} is read like the JSON lines the prompt asks for") {
    auto scores = parse_score_reply(
        R"({"papers": [{"ARXIVID": "2505.00001", "COMMENT": "MoE", "RELEVANCE": 9, "NOVELTY": 7, "TOPIC": "1"},
        {"ARXIVID": "2505.00002", "COMMENT": "off topic", "RELEVANCE": 2, "NOVELTY": 3, "TOPIC": "3"}]})");
    REQUIRE(scores.size() == 2);
    CHECK(scores[0].id == "2505.00001");
    CHECK(scores[0].relevance == 9);
    CHECK(scores[1].novelty == 3);
    CHECK(scores[1].topic == "3");
}

TEST_CASE("the request asks for the reply format: a strict JSON schema, JSON mode, or nothing") {
    LlmEndpoint endpoint{"http://x/v1", "", "m", std::nullopt, 0};
    const std::vector<ChatMessage> messages = {{"user", "score"}};
    endpoint.format = ReplyFormat::json_schema;
    rapidjson::Document body;
    body.Parse(chat_request_body(endpoint, messages).c_str());
    REQUIRE(body.IsObject());
    const auto& format = body["response_format"];
    CHECK(std::string(format["type"].GetString()) == "json_schema");
    CHECK(format["json_schema"]["strict"].GetBool());
    const auto& item = format["json_schema"]["schema"]["properties"]["papers"]["items"];
    CHECK(item["required"].Size() == 5);
    CHECK_FALSE(item["additionalProperties"].GetBool());
    endpoint.format = ReplyFormat::json_object;
    body.Parse(chat_request_body(endpoint, messages).c_str());
    CHECK(std::string(body["response_format"]["type"].GetString()) == "json_object");
    CHECK(reply_format_instruction(ReplyFormat::json_object).find("JSON") !=
          std::string::npos); // JSON mode needs the word
    endpoint.format = ReplyFormat::text;
    body.Parse(chat_request_body(endpoint, messages).c_str());
    CHECK_FALSE(body.HasMember("response_format"));
}

namespace {

// A reply of the LLM endpoint on loopback, through the real client.
Result<ChatReply> chat_reply_from_server(const std::string& body) {
    LoopbackServer server;
    server.server.Post("/v1/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
        res.set_content(body, "application/json");
    });
    server.start();
    HttpOptions options;
    options.max_attempts = 1;
    options.timeout = std::chrono::seconds(5);
    HttpClient http(options);
    return chat_completion(http, LlmEndpoint{server.url("/v1"), "", "model", std::nullopt, 0},
                           {ChatMessage{"user", "score these"}});
}

const std::string content_hi = R"("choices":[{"message":{"role":"assistant","content":"hi"}}])";

} // namespace

TEST_CASE("a malformed LLM envelope is an error naming what was expected, not a crash") {
    for (const std::string& body :
         std::vector<std::string>{R"({"choices":[5]})", R"({"choices":["x"]})", R"({"choices":[[]]})",
                                  R"({"choices":{}})", R"([1,2])", std::string(200000, '[')}) {
        INFO("body " << body.substr(0, 30));
        auto reply = chat_reply_from_server(body);
        REQUIRE_FALSE(reply.has_value());
        CHECK(reply.error().message.starts_with("expected the LLM"));
        CHECK(reply.error().message.size() < 200); // an excerpt, never the whole body
    }
    auto no_usage = chat_reply_from_server("{" + content_hi + R"(,"usage":7})");
    REQUIRE_MESSAGE(no_usage.has_value(), no_usage.error().to_string());
    CHECK(no_usage->content == "hi");
    CHECK(no_usage->usage == Tokens{});
    auto details =
        chat_reply_from_server("{" + content_hi + R"(,"usage":{"prompt_tokens":3,"prompt_tokens_details":[1]}})");
    REQUIRE(details.has_value());
    CHECK(details->usage == Tokens{3, 0, 0});
}

TEST_CASE("token counts the endpoint gets wrong are clamped with a warning, so the day file reads back") {
    auto reply = chat_reply_from_server(
        "{" + content_hi +
        R"(,"usage":{"prompt_tokens":-5,"completion_tokens":1.5,"prompt_tokens_details":{"cached_tokens":1e300}}})");
    REQUIRE_MESSAGE(reply.has_value(), reply.error().to_string());
    CHECK(reply->usage.prompt == 0);
    CHECK(reply->usage.completion == 2);
    CHECK(reply->usage.cached == max_reply_tokens);

    Day day;
    day.date = *parse_iso_date("2025-05-28");
    day.tokens = reply->usage;
    auto read_back = read_day(write_day(day), "2025-05-28.md");
    REQUIRE_MESSAGE(read_back.has_value(), read_back.error().to_string());
    CHECK(read_back->tokens == reply->usage);

    auto parsed = parse_chat_reply("{" + content_hi +
                                   R"(,"usage":{"prompt_tokens":-5,"completion_tokens":"many","total_tokens":9}})");
    REQUIRE(parsed.has_value());
    REQUIRE(parsed->warnings.size() == 2);
    CHECK(parsed->warnings[0] ==
          "usage.prompt_tokens: expected a whole number from 0 to 1000000000000, got -5; counted as 0");
    CHECK(parsed->warnings[1] == "usage.completion_tokens: expected a whole number, got a string; counted as 0");
    CHECK(parse_chat_reply("{" + content_hi + R"(,"usage":{"prompt_tokens":12,"completion_tokens":3}})")
              ->warnings.empty());
}

TEST_CASE("hostile replies: scores beyond any int, deep nesting and a megabyte of braces") {
    SUBCASE("a huge score is clamped to 10, not wrapped around") {
        auto replies = parse_score_reply(R"([{"id":"2505.00001","relevance":1e300,"novelty":"-1e300"}])");
        REQUIRE(replies.size() == 1);
        CHECK(replies[0].relevance == 10);
        CHECK(replies[0].novelty == 1);
    }
    SUBCASE("200,000 nested brackets, balanced or not, give nothing and do not overflow the stack") {
        CHECK(parse_score_reply(std::string(200000, '[') + std::string(200000, ']')).empty());
        CHECK(parse_score_reply(std::string(200000, '[') + "x" + std::string(200000, ']')).empty());
        CHECK(parse_id_list_reply(std::string(200000, '[') + "\"2505.00001\"" + std::string(200000, ']')).empty());
        CHECK(parse_score_reply(std::string(200000, '{') + std::string(200000, '}')).empty());
    }
    SUBCASE("a megabyte of unbalanced braces before the answer is read in linear time") {
        // Rescanning from every brace took minutes for this reply.
        std::string reply = std::string(1 << 20, '{') + R"({"id":"2505.00001","relevance":8,"novelty":7})";
        auto replies = parse_score_reply(reply);
        REQUIRE(replies.size() == 1);
        CHECK(replies[0].id == "2505.00001");
        std::string prose;
        for (int i = 0; i < 100000; ++i) prose += "[{ \"";
        CHECK(parse_id_list_reply(prose + "\n[\"2505.00002\"]").size() <= 1);
    }
    SUBCASE("a reply is read up to max_reply_bytes") {
        std::string object = R"({"id":"2505.00001","relevance":8,"novelty":7})";
        CHECK(parse_score_reply(object + std::string(max_reply_bytes, ' ') + object).size() == 1);
    }
}

TEST_CASE("the score cache distrusts its file: entries that are not scores are ignored, and said so") {
    TempDir dir;
    ScoreCache empty(dir.path(), "model", "prompt");
    CHECK(empty.warnings().empty()); // no file yet: nothing to say
    write_text(empty.path(), R"({"model":"model","scores":{
        "2505.00001": {"relevance": 8, "novelty": 7, "comment": "fine"},
        "2505.00002": {"relevance": 99, "novelty": 7, "comment": "too high"},
        "2505.00003": {"relevance": -3, "comment": "negative"},
        "2505.00004": {"relevance": 5, "novelty": 2.5},
        "2505.00005": {"relevance": 5, "comment": 42},
        "not an id": {"relevance": 5},
        "2505.00006": 7}})");
    ScoreCache cache(dir.path(), "model", "prompt");
    auto kept = cache.find("2505.00001");
    REQUIRE(kept.has_value());
    CHECK(kept->relevance == 8);
    CHECK(kept->comment == "fine");
    for (const char* id : {"2505.00002", "2505.00003", "2505.00004", "2505.00005", "not an id", "2505.00006"})
        CHECK_FALSE(cache.find(id).has_value());
    REQUIRE(cache.warnings().size() == 1);
    CHECK(cache.warnings()[0].find("ignored 6 entries") != std::string::npos);
    CHECK(cache.warnings()[0].find("'2505.00002'") != std::string::npos);

    write_text(cache.path(), std::string(200000, '['));
    ScoreCache broken(dir.path(), "model", "prompt");
    CHECK_FALSE(broken.find("2505.00001").has_value());
    REQUIRE(broken.warnings().size() == 1);
    CHECK(broken.warnings()[0].find("not a score cache") != std::string::npos);
}

TEST_CASE("control bytes in a paper reach the LLM and the score cache as valid JSON") {
    // rapidjson's SSE2 writer left 0x1A-0x1F raw, so endpoints refused the request with HTTP 400.
    const std::string text = "an abstract with an escape \x1b[1m and \x1f, long enough for sixteen-byte scans";
    std::string received;
    LoopbackServer server;
    server.server.Post("/v1/chat/completions", [&](const httplib::Request& req, httplib::Response& res) {
        received = req.body;
        res.set_content("{" + content_hi + "}", "application/json");
    });
    server.start();
    HttpOptions options;
    options.max_attempts = 1;
    HttpClient http(options);
    auto reply = chat_completion(http, LlmEndpoint{server.url("/v1"), "", "model", std::nullopt, 0},
                                 {ChatMessage{"user", text}});
    REQUIRE_MESSAGE(reply.has_value(), reply.error().to_string());
    rapidjson::Document request;
    request.Parse<rapidjson::kParseIterativeFlag>(received.c_str(), received.size());
    REQUIRE_FALSE(request.HasParseError());
    CHECK(std::string(request["messages"][0]["content"].GetString()) == text);

    TempDir dir;
    ScoreCache cache(dir.path(), "model", "prompt");
    cache.store(ScoreReply{"2505.00001", 8, 7, text});
    REQUIRE(cache.save().has_value());
    ScoreCache loaded(dir.path(), "model", "prompt");
    CHECK(loaded.warnings().empty());
    REQUIRE(loaded.find("2505.00001").has_value());
    CHECK(loaded.find("2505.00001")->comment == text);
}

namespace {

const char* numbered_topics = R"(## Topics

Keep papers that advance the foundations of machine learning.

1. Model architecture
   - Relevant: Mixture of Experts (MoE), Transformers, attention mechanisms, state-space models.
   - Irrelevant: using an existing architecture for a task.

2. **Efficiency and compression**
   - Relevant: sparsity, pruning, quantization, low-rank methods, KV cache.

3. Representation learning and theory
   - Relevant: training dynamics, scaling laws, learning theory.

## Keywords

- Relevant: interpretability
)";

Paper topic_paper(const std::string& id, const std::string& title, const std::string& abstract) {
    Paper p;
    p.id = id;
    p.title = title;
    p.abstract = abstract;
    return p;
}

} // namespace

TEST_CASE("topics: the numbered sections of the topics prompt, with their own keywords") {
    auto sections = parse_topic_sections(numbered_topics);
    REQUIRE(sections.size() == 3);
    CHECK(sections[0].number == 1);
    CHECK(sections[0].name == "Model architecture");
    CHECK(sections[1].name == "Efficiency and compression"); // Markdown emphasis is not part of the name
    CHECK(sections[2].name == "Representation learning and theory");
    REQUIRE(sections[1].keywords.relevant.size() == 5);
    CHECK(sections[1].keywords.relevant[2].front() == "quantization");
    // The keywords after the list belong to no section.
    for (const auto& section : sections)
        for (const auto& keyword : section.keywords.relevant) CHECK(keyword.front() != "interpretability");
    CHECK(parse_topic_sections("- Relevant: pruning\n").empty());
}

TEST_CASE("topics: a paper gets the nearest section, and why; an LLM's answer names a section by number or name") {
    std::vector<Paper> day = {
        topic_paper("2505.00001", "Post-training quantization of large language models",
                    "We quantize weights to four bits and prune the KV cache."),
        topic_paper("2505.00002", "Routing in sparse mixture of experts transformers",
                    "A new router for MoE layers with attention."),
        topic_paper("2505.00003", "Scaling laws for training dynamics of deep networks",
                    "We derive scaling laws from the training dynamics."),
        topic_paper("2505.00004", "A benchmark of crop yield prediction", "Satellite images of farms."),
    };
    TopicAssigner assigner(parse_topic_sections(numbered_topics), day);
    auto quantized = assigner.nearest(day[0]);
    CHECK(quantized.topic == "Efficiency and compression");
    CHECK(quantized.note.find("quantization") != std::string::npos);
    CHECK(assigner.nearest(day[1]).topic == "Model architecture");
    CHECK(assigner.nearest(day[2]).topic == "Representation learning and theory");
    CHECK(assigner.nearest(day[3]).topic.empty()); // shares no word with any section

    CHECK(assigner.resolve("2") == "Efficiency and compression");
    CHECK(assigner.resolve("2.000000") == "Efficiency and compression"); // a JSON number, as the parser reads it
    CHECK(assigner.resolve(" 3. Representation learning and theory") == "Representation learning and theory");
    CHECK(assigner.resolve("Topic 1") == "Model architecture");
    CHECK(assigner.resolve("model ARCHITECTURE") == "Model architecture");
    CHECK(assigner.resolve("7").empty());
    CHECK(assigner.resolve("cooking").empty());
    CHECK(assigner.resolve("").empty());

    // The LLM's answer wins; a paper it gave none (or nonsense) for gets the nearest section.
    std::map<std::string, ScoreReply> scores;
    scores["2505.00001"] = ScoreReply{"2505.00001", 9, 8, "Quantization.", "3"};
    scores["2505.00002"] = ScoreReply{"2505.00002", 9, 8, "MoE.", "42"};
    std::vector<Paper> kept = {day[0], day[1], day[2]};
    assign_topics(kept, scores, assigner);
    CHECK(kept[0].topic == "Representation learning and theory");
    CHECK(kept[0].topic_note.empty());
    CHECK(kept[1].topic == "Model architecture");
    CHECK(kept[2].topic == "Representation learning and theory");
    CHECK_FALSE(kept[2].topic_note.empty());
}

TEST_CASE("topics: the reply's TOPIC is read, and the score cache keeps it") {
    auto replies =
        parse_score_reply(R"({"ARXIVID": "2505.00001", "RELEVANCE": 8, "NOVELTY": 7, "COMMENT": "c", "TOPIC": 2}
{"ARXIVID": "2505.00002", "RELEVANCE": 8, "NOVELTY": 7, "topic": "1. Model architecture"})");
    REQUIRE(replies.size() == 2);
    CHECK(replies[0].topic == "2.000000");
    CHECK(replies[1].topic == "1. Model architecture");

    TempDir dir;
    {
        ScoreCache cache(dir.path(), "gpt-4o", "prompt");
        cache.store(replies[1]);
        REQUIRE(cache.save().has_value());
    }
    ScoreCache again(dir.path(), "gpt-4o", "prompt");
    auto found = again.find("2505.00002");
    REQUIRE(found.has_value());
    CHECK(found->topic == "1. Model architecture");
}

TEST_CASE(
    "an LLM reply's text is made valid XML text at the boundary: a control becomes a space, invalid UTF-8 U+FFFD") {
    auto reply = parse_chat_reply("{\"choices\":[{\"message\":{\"content\":\"ok\\u0001 \\ufffe \xFF done\"}}]}");
    REQUIRE_MESSAGE(reply.has_value(), reply.error().to_string());
    CHECK(reply->content == "ok  \xEF\xBF\xBD \xEF\xBF\xBD done");
}

// Issue 41 item 2: with llm.max_wait_minutes 1, a stop said "(0 min)": it printed what was left of the
// budget when the day's calls began (59.9 s), not the setting.
TEST_CASE("an LLM stop names llm.max_wait_minutes as configured, not what was left of it") {
    LoopbackServer server;
    server.server.Post("/v1/chat/completions", [](const httplib::Request&, httplib::Response& res) {
        res.status = 503;
        res.set_content(R"({"error":{"message":"The server is overloaded","type":"server_error"}})",
                        "application/json");
    });
    server.start();
    FakeClock clock;
    LlmScorerOptions options;
    options.settings.max_wait_minutes = 1;
    options.settings.concurrency = 1;
    options.endpoint = LlmEndpoint{server.url("/v1"), "", "model", std::nullopt, 0};
    options.clock = &clock;
    options.max_wait = std::chrono::seconds(59); // a second of the minute went to an earlier day of the run
    LlmScoring scoring =
        score_with_llm({topic_paper("2505.00001", "A paper", "An abstract.")}, PromptSet{}, options, nullptr);
    CHECK_MESSAGE(scoring.stopped.find("did not recover within llm.max_wait_minutes (1 min)") != std::string::npos,
                  scoring.stopped);
    CHECK(clock.slept() <= std::chrono::seconds(59));
}

TEST_CASE("llm: an endpoint that documents it ignores response_format is known by its host") {
    // https://platform.claude.com/docs/en/api/openai-sdk: "response_format | Ignored".
    CHECK(ignores_response_format("https://api.anthropic.com/v1/"));
    CHECK(ignores_response_format("HTTPS://API.ANTHROPIC.COM:443/v1"));
    CHECK_FALSE(ignores_response_format("https://api.openai.com/v1"));
    CHECK_FALSE(ignores_response_format("https://api.anthropic.com.example.net/v1"));
}

TEST_CASE("summary replies: the JSON object is read however wrapped; a cut, withheld or shapeless reply is a "
          "failure with its reason, never a text") {
    auto read = [](const std::string& content, const std::string& finish = "stop") {
        ChatReply reply;
        reply.content = content;
        reply.finish_reason = finish;
        return read_summary_reply(reply);
    };
    const std::string object = "{\"tldr\": \"Short.\", \"motivation\": \"Why\\nit  matters\", \"method\": \"\", "
                               "\"result\": null, \"conclusion\": \"So.\"}";
    for (const std::string& wrapped :
         {object, "```json\n" + object + "\n```", "<think>{\"tldr\": \"no\"}</think>Here it is: " + object}) {
        CAPTURE(wrapped);
        PaperSummary summary = read(wrapped);
        CHECK(summary.failed.empty());
        CHECK(summary.tldr == "Short.");
        CHECK(summary.motivation == "Why it matters"); // one line
        CHECK(summary.method.empty());
        CHECK(summary.result.empty());
        CHECK(summary.conclusion == "So.");
    }
    CHECK(read(object.substr(0, 30), "length").failed ==
          "the reply was cut at the length limit (finish_reason: length)");
    CHECK(read(object, "content_filter").failed == "the provider withheld the reply (finish_reason: content_filter)");
    CHECK(read("I cannot summarize this paper.").failed.starts_with("the reply is not the JSON object asked for"));
    CHECK(read("{\"tldr\": \"\", \"method\": \"How\"}").failed.starts_with("the reply has no tldr"));
    CHECK(read("{\"tldr\": 3}").failed == "the reply's 'tldr' is not a string of at most 4000 bytes");
    CHECK(read("{\"tldr\": \"" + std::string(5000, 'x') + "\"}").tldr.empty());
}

TEST_CASE("summary cache: kept by model and language; a damaged file is ignored with a warning, never half used") {
    TempDir dir;
    PaperSummary summary{
        .tldr = "Short\twith a tab", .motivation = "Why\nnot", .method = "How", .result = "", .conclusion = "So"};
    {
        SummaryCache cache(dir.path(), "gpt-4o", "Deutsch");
        cache.store("2505.00001", summary);
        cache.store("2505.00002", PaperSummary{.failed = "cut"}); // not kept: asked again
        REQUIRE(cache.save());
    }
    SummaryCache again(dir.path(), "gpt-4o", "Deutsch");
    CHECK(again.warnings().empty());
    CHECK(again.find("2505.00001") == summary);
    CHECK_FALSE(again.find("2505.00002"));
    CHECK_FALSE(SummaryCache(dir.path(), "gpt-4o", "English").find("2505.00001"));
    CHECK_FALSE(SummaryCache(dir.path(), "gpt-4o-mini", "Deutsch").find("2505.00001"));

    std::string bytes = read_text(again.path());
    bytes[bytes.find("How")] = 'W'; // the checksum no longer holds
    write_text(again.path(), bytes);
    SummaryCache damaged(dir.path(), "gpt-4o", "Deutsch");
    CHECK_FALSE(damaged.find("2505.00001"));
    REQUIRE(damaged.warnings().size() == 1);
    CHECK(damaged.warnings()[0].find("the summary cache is ignored") != std::string::npos);
}

TEST_CASE("the reader's examples in the prompt: titles only, newest first, bounded by count and bytes") {
    std::vector<FeedbackExample> examples;
    for (int i = 0; i < 30; ++i)
        examples.push_back(
            {i % 3 ? Verdict::star : Verdict::hide, "Title number " + std::to_string(i) + "\n  of two lines"});
    const std::string text = reader_examples(examples, {.max_count = 12, .max_bytes = 100000});
    CHECK(text.starts_with("## The reader's recent judgements"));
    CHECK(text.find("- hide: Title number 0 of two lines\n- star: Title number 1 of two lines") != std::string::npos);
    CHECK(text.find("Title number 11 ") != std::string::npos);
    CHECK(text.find("Title number 12 ") == std::string::npos); // the count bound
    const std::string small = reader_examples(examples, {.max_count = 12, .max_bytes = 300});
    CHECK(small.size() <= 300);
    CHECK(small.find("Title number 0 ") != std::string::npos);
    CHECK(small.find("Title number 11 ") == std::string::npos); // the bytes bound
    CHECK(reader_examples({}).empty());
    examples[0].title = std::string(5000, 'x'); // a runaway title is clipped, the others still fit
    CHECK(reader_examples(examples).find("Title number 1 ") != std::string::npos);
}

TEST_CASE("the scoring request carries the reader's examples after the topics; the prompt record too") {
    std::vector<std::string> bodies;
    LoopbackServer server;
    server.server.Post("/v1/chat/completions", [&](const httplib::Request& req, httplib::Response& res) {
        bodies.push_back(req.body);
        res.set_content(
            R"({"choices":[{"message":{"content":"{\"ARXIVID\": \"2505.00001\", \"RELEVANCE\": 8, \"NOVELTY\": 7, \"COMMENT\": \"ok\"}"}}]})",
            "application/json");
    });
    server.start();
    LlmScorerOptions options;
    options.settings.concurrency = 1;
    options.settings.retries = 0;
    options.endpoint = LlmEndpoint{server.url("/v1"), "", "model", std::nullopt, 0};
    PromptSet prompts;
    prompts.topics = "## Topics\n\nGraphs.";
    prompts.criteria = "## Criteria";
    prompts.examples = reader_examples(
        {{Verdict::star, "Oversquashing in \"graph\" networks"}, {Verdict::hide, "Crop yield prediction"}});
    score_with_llm({topic_paper("2505.00001", "A paper", "An abstract.")}, prompts, options, nullptr);
    REQUIRE_FALSE(bodies.empty());
    rapidjson::Document request;
    request.Parse(bodies[0].c_str());
    REQUIRE_FALSE(request.HasParseError());
    const std::string user = request["messages"][1]["content"].GetString();
    const auto topics = user.find("Graphs."), star = user.find("- star: Oversquashing in \"graph\" networks\n"),
               hide = user.find("- hide: Crop yield prediction"), criteria = user.find("## Criteria");
    REQUIRE(star != std::string::npos);
    CHECK(topics < star);
    CHECK(star < hide);
    CHECK(hide < criteria);
    CHECK(prompt_record(prompts).find("- hide: Crop yield prediction") != std::string::npos);
}

namespace {

// Scores one paper with a seed against an endpoint that answers a request with a seed by `status` and
// `body`: asked again once without it, and scored.
void refuses_seed_then_scores(int status, const std::string& body) {
    LoopbackServer server;
    std::vector<std::string> bodies;
    std::mutex mutex;
    server.server.Post("/v1/chat/completions", [&](const httplib::Request& req, httplib::Response& res) {
        std::lock_guard lock(mutex);
        bodies.push_back(req.body);
        if (req.body.find("\"seed\"") != std::string::npos) {
            res.status = status;
            res.set_content(body, "application/json");
            return;
        }
        res.set_content(R"({"choices":[{"message":{"role":"assistant","content":)"
                        R"("{\"ARXIVID\": \"2505.00001\", \"COMMENT\": \"fits\", \"RELEVANCE\": 9, \"NOVELTY\": 8}"},)"
                        R"("finish_reason":"stop"}],"usage":{"prompt_tokens":100,"completion_tokens":20}})",
                        "application/json");
    });
    server.start();
    FakeClock clock;
    LlmScorerOptions options;
    options.settings.concurrency = 1;
    options.endpoint = LlmEndpoint{server.url("/v1"), "", "model", std::nullopt, 0, false, 42};
    options.clock = &clock;
    LlmScoring scoring =
        score_with_llm({topic_paper("2505.00001", "A paper", "An abstract.")}, PromptSet{}, options, nullptr);
    CHECK_MESSAGE(scoring.stopped.empty(), scoring.stopped);
    REQUIRE(scoring.scores.contains("2505.00001"));
    CHECK(scoring.scores.at("2505.00001").relevance == 9);
    CHECK(scoring.unscored.empty());
    REQUIRE(bodies.size() == 2);
    CHECK(bodies[0].find("\"seed\":42") != std::string::npos);
    CHECK(bodies[1].find("\"seed\"") == std::string::npos);
    CHECK_FALSE(scoring.sent.seed.has_value()); // what the day file records as its sampling
}

} // namespace

// Issue 46: a provider that refuses `seed` is asked again once without it, and the papers are scored
// (docs/pipeline.md, the failure table), rather than the run stopping. In each published shape: OpenAI's
// 400, and the 422 of FastAPI's validation that Mistral's API sends (its "message" an object, or in 2024
// JSON text: mistralai/platform-docs-public#7) and Azure's Mistral endpoints (langchain-ai/langchain-azure#82).
TEST_CASE("llm: a model that rejects seed is asked again without it, once, and scores the papers") {
    struct Refusal {
        const char* provider;
        int status;
        const char* body;
    };
    const Refusal refusals[] = {
        Refusal{"OpenAI", 400,
                R"({"error":{"message":"Unsupported parameter: 'seed' is not supported with this model.",)"
                R"("type":"invalid_request_error","param":"seed","code":"unsupported_parameter"}})"},
        Refusal{"Mistral", 422,
                R"({"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","seed"],)"
                R"("msg":"Extra inputs are not permitted","input":42}]},"type":"invalid_request_error",)"
                R"("param":null,"code":null})"},
        Refusal{"Mistral, 2024", 422,
                R"({"object":"error","message":"{\"detail\":[{\"type\":\"extra_forbidden\",\"loc\":[\"body\",)"
                R"(\"seed\"],\"msg\":\"Extra inputs are not permitted\",\"input\":42}]}",)"
                R"("type":"internal_error_proxy","param":null,"code":"1000"})"},
        Refusal{"Azure", 422,
                R"({"detail":[{"type":"extra_forbidden","loc":["body","seed"],"msg":"Extra inputs are not )"
                R"(permitted","input":42}]})"}};
    for (const Refusal& refusal : refusals) {
        const std::string provider = refusal.provider;
        CAPTURE(provider);
        const ProviderError said = read_provider_error(refusal.body);
        CHECK(said.param == "seed");
        const bool validation = said.message.find("seed: Extra inputs are not permitted") != std::string::npos;
        CHECK(validation == (refusal.status == 422)); // FastAPI's words, and what they name
        refuses_seed_then_scores(refusal.status, refusal.body);
    }
}
