// A client for any OpenAI-compatible /chat/completions endpoint (OpenAI,
// DeepSeek, Ollama, vLLM, llama.cpp's server, ...).
#pragma once

#include "core/paper.h"
#include "fetch/http_client.h"

#include <optional>
#include <string>
#include <vector>

namespace pp {

struct ChatMessage {
    std::string role; // system, user
    std::string content;
};

// What a scoring request asks the reply to be: JSON that a schema describes
// (OpenAI's structured outputs), any JSON object (JSON mode), or free text.
// An endpoint that refuses one is asked with the next (llm_scorer.cpp).
enum class ReplyFormat { json_schema, json_object, text };
// What a request asks for: a batch's scores, or one paper's summary (score/summary.h).
enum class ReplyKind { scores, summary };
const char* to_string(ReplyFormat format);
std::optional<ReplyFormat> parse_reply_format(std::string_view text);

struct LlmEndpoint {
    std::string base_url; // e.g. https://api.openai.com/v1 (OPENAI_BASE_URL)
    std::string api_key;  // never logged, never written
    std::string model;
    std::optional<double> temperature;      // not sent when absent (reasoning models refuse it)
    int max_tokens = 0;                     // 0: not sent
    bool max_completion_tokens = false;     // send the limit as max_completion_tokens (o-series, gpt-5)
    std::optional<long long> seed{};        // not sent when absent
    ReplyFormat format = ReplyFormat::text; // sent as response_format, unless text
};

// Whether an endpoint documents that it ignores response_format: Anthropic's
// OpenAI SDK compatibility layer ("response_format: Ignored",
// https://platform.claude.com/docs/en/api/openai-sdk).
bool ignores_response_format(std::string_view base_url);

struct ChatReply {
    std::string content;
    Tokens usage;                      // whole numbers from 0 to max_reply_tokens
    std::vector<std::string> warnings; // what in the envelope was ignored or clamped
    bool usage_known = false;          // the reply had a usage block: its cost can be known
    bool empty = false;                // no content (null, "" or blanks): billed, but no answer
    std::string finish_reason;         // "stop", "length", ... when given
};

// Token counts above this are taken for garbage (and clamped), so sums over
// a run cannot overflow and every count reads back from the day file.
inline constexpr long long max_reply_tokens = 1'000'000'000'000;

// Reads a /chat/completions response body: the first choice's message
// content and the usage. Every member is type-checked; an envelope without
// choices is an error; a usage count that is not a whole number from 0 to
// max_reply_tokens is clamped (or taken as 0), with a warning.
Result<ChatReply> parse_chat_reply(std::string_view body);

// As parse_chat_reply, but a reply without content is a reply (`empty`),
// with its usage: the tokens of an empty or truncated reply are billed.
Result<ChatReply> read_chat_reply(std::string_view body);

// One request's parts: <base_url>/chat/completions, the JSON body, the headers.
std::string chat_url(const LlmEndpoint& endpoint);
// The body asks for `endpoint.format`; the JSON formats want an object
// {"papers": [{ARXIVID, COMMENT, RELEVANCE, NOVELTY, TOPIC}, ...]}, or for a
// summary {tldr, motivation, method, result, conclusion}.
std::string chat_request_body(const LlmEndpoint& endpoint, const std::vector<ChatMessage>& messages,
                              ReplyKind kind = ReplyKind::scores);

// The instruction the JSON formats add to the system prompt (JSON mode needs
// the word JSON in a message; the object replaces the prompt's JSON lines).
// A summary's prompt asks for its JSON object itself: nothing to add.
std::string reply_format_instruction(ReplyFormat format, ReplyKind kind = ReplyKind::scores);
std::vector<std::string> chat_headers(const LlmEndpoint& endpoint);

// False for the reasoning models that refuse `temperature` (o1, o3, o4-mini,
// gpt-5 but not gpt-5-chat), whatever the provider prefix ("openai/o3").
bool accepts_temperature(const std::string& model);

// POSTs and reads the reply, retrying as `http` does; an empty reply is an error.
Result<ChatReply> chat_completion(HttpClient& http, const LlmEndpoint& endpoint,
                                  const std::vector<ChatMessage>& messages);

} // namespace pp
