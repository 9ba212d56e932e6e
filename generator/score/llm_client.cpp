#include "score/llm_client.h"

#include "util/json.h"
#include "util/text.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace pp {

namespace {

const char* type_name(const rapidjson::Value& value) {
    static const char* const names[] = {"null", "false", "true", "object", "array", "string", "number"};
    return names[value.GetType()];
}

// The scores' schema, strict: every field required, no other field; or a
// summary's, its five parts as strings.
void write_schema(rapidjson::Writer<rapidjson::StringBuffer>& json, ReplyKind kind) {
    auto typed = [&](const char* name, const char* type) {
        json.Key(name);
        json.StartObject();
        json.Key("type");
        json.String(type);
        json.EndObject();
    };
    auto closed_object = [&](const std::function<void()>& properties, std::initializer_list<const char*> required) {
        json.Key("type");
        json.String("object");
        json.Key("properties");
        json.StartObject();
        properties();
        json.EndObject();
        json.Key("required");
        json.StartArray();
        for (const char* name : required) json.String(name);
        json.EndArray();
        json.Key("additionalProperties");
        json.Bool(false);
    };
    json.StartObject();
    if (kind == ReplyKind::summary) {
        closed_object(
            [&] {
                for (const char* part : {"tldr", "motivation", "method", "result", "conclusion"}) typed(part, "string");
            },
            {"tldr", "motivation", "method", "result", "conclusion"});
        json.EndObject();
        return;
    }
    closed_object(
        [&] {
            json.Key("papers");
            json.StartObject();
            json.Key("type");
            json.String("array");
            json.Key("items");
            json.StartObject();
            closed_object(
                [&] {
                    typed("ARXIVID", "string");
                    typed("COMMENT", "string");
                    typed("RELEVANCE", "integer");
                    typed("NOVELTY", "integer");
                    typed("TOPIC", "string");
                },
                {"ARXIVID", "COMMENT", "RELEVANCE", "NOVELTY", "TOPIC"});
            json.EndObject();
            json.EndObject();
        },
        {"papers"});
    json.EndObject();
}

void write_response_format(rapidjson::Writer<rapidjson::StringBuffer>& json, ReplyFormat format, ReplyKind kind) {
    if (format == ReplyFormat::text) return;
    json.Key("response_format");
    json.StartObject();
    json.Key("type");
    json.String(to_string(format));
    if (format == ReplyFormat::json_schema) {
        json.Key("json_schema");
        json.StartObject();
        json.Key("name");
        json.String(kind == ReplyKind::summary ? "paper_summary" : "paper_scores");
        json.Key("strict");
        json.Bool(true);
        json.Key("schema");
        write_schema(json, kind);
        json.EndObject();
    }
    json.EndObject();
}

} // namespace

const char* to_string(ReplyFormat format) {
    switch (format) {
        case ReplyFormat::json_schema:
            return "json_schema";
        case ReplyFormat::json_object:
            return "json_object";
        case ReplyFormat::text:
            return "text";
    }
    return "text";
}

bool ignores_response_format(std::string_view base_url) {
    const std::string url = to_lower(base_url);
    const auto scheme = url.find("://");
    const std::string_view rest = std::string_view(url).substr(scheme == std::string::npos ? 0 : scheme + 3);
    const std::string_view host = rest.substr(0, rest.find_first_of(":/?#"));
    return host == "api.anthropic.com";
}

std::optional<ReplyFormat> parse_reply_format(std::string_view text) {
    for (ReplyFormat format : {ReplyFormat::json_schema, ReplyFormat::json_object, ReplyFormat::text})
        if (text == to_string(format)) return format;
    return std::nullopt;
}

std::string reply_format_instruction(ReplyFormat format, ReplyKind kind) {
    if (format == ReplyFormat::text || kind == ReplyKind::summary) return {};
    return "Answer in JSON: one object {\"papers\": [...]} whose list holds, for every paper, the object the "
           "answer format describes, in the order given.";
}

std::string chat_request_body(const LlmEndpoint& endpoint, const std::vector<ChatMessage>& messages, ReplyKind kind) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> json(buffer);
    json.StartObject();
    json.Key("model");
    json.String(endpoint.model.c_str());
    json.Key("messages");
    json.StartArray();
    for (const auto& message : messages) {
        json.StartObject();
        json.Key("role");
        json.String(message.role.c_str());
        json.Key("content");
        json.String(message.content.c_str(), static_cast<rapidjson::SizeType>(message.content.size()));
        json.EndObject();
    }
    json.EndArray();
    if (endpoint.temperature) {
        json.Key("temperature");
        json.Double(*endpoint.temperature);
    }
    if (endpoint.seed) {
        json.Key("seed");
        json.Int64(*endpoint.seed);
    }
    if (endpoint.max_tokens > 0) {
        json.Key(endpoint.max_completion_tokens ? "max_completion_tokens" : "max_tokens");
        json.Int(endpoint.max_tokens);
    }
    write_response_format(json, endpoint.format, kind);
    json.EndObject();
    return escape_control_bytes({buffer.GetString(), buffer.GetSize()});
}

bool accepts_temperature(const std::string& model) {
    std::string name = to_lower(model.substr(model.rfind('/') == std::string::npos ? 0 : model.rfind('/') + 1));
    for (std::string_view reasoning : {"o1", "o3", "o4"})
        if (name.starts_with(reasoning) && (name.size() == 2 || name[2] == '-')) return false;
    return !(name.starts_with("gpt-5") && !name.starts_with("gpt-5-chat"));
}

std::string chat_url(const LlmEndpoint& endpoint) {
    std::string url = endpoint.base_url;
    while (!url.empty() && url.back() == '/') url.pop_back();
    return url + "/chat/completions";
}

std::vector<std::string> chat_headers(const LlmEndpoint& endpoint) {
    std::vector<std::string> headers = {"Content-Type: application/json"};
    if (!endpoint.api_key.empty()) headers.push_back("Authorization: Bearer " + endpoint.api_key);
    return headers;
}

namespace {

// A usage count as a whole number from 0 to max_reply_tokens; anything else
// is clamped (a number) or taken as 0, and noted.
long long count_at(const rapidjson::Value& object, const char* key, std::vector<std::string>& warnings) {
    auto it = object.FindMember(key);
    if (it == object.MemberEnd() || it->value.IsNull()) return 0;
    const auto& value = it->value;
    if (value.IsInt64() && value.GetInt64() >= 0 && value.GetInt64() <= max_reply_tokens) return value.GetInt64();
    if (!value.IsNumber()) {
        warnings.push_back(std::string("usage.") + key + ": expected a whole number, got a " + type_name(value) +
                           "; counted as 0");
        return 0;
    }
    double number = value.GetDouble(); // finite: rapidjson refuses NaN and infinities
    long long clamped = std::llround(std::clamp(number, 0.0, static_cast<double>(max_reply_tokens)));
    warnings.push_back(std::string("usage.") + key + ": expected a whole number from 0 to " +
                       std::to_string(max_reply_tokens) + ", got " + format_double(number) + "; counted as " +
                       std::to_string(clamped));
    return clamped;
}

const rapidjson::Value* object_at(const rapidjson::Value& object, const char* key) {
    auto it = object.FindMember(key);
    return it != object.MemberEnd() && it->value.IsObject() ? &it->value : nullptr;
}

Tokens usage_of(const rapidjson::Value& envelope, std::vector<std::string>& warnings) {
    Tokens tokens;
    auto it = envelope.FindMember("usage");
    if (it == envelope.MemberEnd() || it->value.IsNull()) return tokens;
    if (!it->value.IsObject()) {
        warnings.push_back(std::string("usage: expected an object, got a ") + type_name(it->value) + "; ignored");
        return tokens;
    }
    const auto& usage = it->value;
    tokens.prompt = count_at(usage, "prompt_tokens", warnings);
    tokens.completion = count_at(usage, "completion_tokens", warnings);
    if (const auto* details = object_at(usage, "prompt_tokens_details"))
        tokens.cached = count_at(*details, "cached_tokens", warnings);
    return tokens;
}

} // namespace

Result<ChatReply> chat_completion(HttpClient& http, const LlmEndpoint& endpoint,
                                  const std::vector<ChatMessage>& messages) {
    auto response = http.post(chat_url(endpoint), chat_request_body(endpoint, messages), chat_headers(endpoint));
    if (!response) return std::unexpected(response.error());
    return parse_chat_reply(response->body);
}

Result<ChatReply> parse_chat_reply(std::string_view body) {
    auto reply = read_chat_reply(body);
    if (reply && reply->empty)
        return fail("the LLM's reply was empty" + (reply->finish_reason.empty()
                                                       ? std::string()
                                                       : " (finish_reason: " + excerpt(reply->finish_reason) + ")"));
    return reply;
}

Result<ChatReply> read_chat_reply(std::string_view body) {
    rapidjson::Document doc;
    if (!parse_json(doc, body) || !doc.IsObject())
        return fail("expected the LLM endpoint to answer with a JSON object, got " + excerpt(body));
    auto choices = doc.FindMember("choices");
    if (choices == doc.MemberEnd() || !choices->value.IsArray() || choices->value.Empty())
        return fail("expected the LLM reply to have a non-empty 'choices' array, got " + excerpt(body));
    const auto& choice = choices->value[0];
    if (!choice.IsObject()) return fail("expected the LLM reply's choices[0] to be an object, got " + excerpt(body));
    ChatReply reply;
    if (const auto* message = object_at(choice, "message")) {
        auto content = message->FindMember("content");
        // Valid XML text from here on: "\u0001" or invalid UTF-8 in a comment would reach feed.xml.
        if (content != message->MemberEnd() && content->value.IsString())
            reply.content = valid_xml_text({content->value.GetString(), content->value.GetStringLength()});
    }
    auto finish = choice.FindMember("finish_reason");
    if (finish != choice.MemberEnd() && finish->value.IsString())
        reply.finish_reason = std::string(finish->value.GetString()).substr(0, 40);
    // null or blank content: a refusal, a tool call, or a reasoning model
    // that spent its tokens thinking. A failure to re-ask, not a reply.
    reply.empty = reply.content.find_first_not_of(" \t\r\n") == std::string::npos;
    auto usage = doc.FindMember("usage");
    reply.usage_known = usage != doc.MemberEnd() && usage->value.IsObject();
    reply.usage = usage_of(doc, reply.warnings);
    return reply;
}

} // namespace pp
