#include "score/llm_client.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace pp {

namespace {

std::string request_body(const LlmEndpoint& endpoint, const std::vector<ChatMessage>& messages) {
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
    if (endpoint.max_tokens > 0) {
        json.Key(endpoint.max_completion_tokens ? "max_completion_tokens" : "max_tokens");
        json.Int(endpoint.max_tokens);
    }
    json.EndObject();
    return buffer.GetString();
}

long long count_at(const rapidjson::Value& object, const char* key) {
    if (!object.IsObject() || !object.HasMember(key) || !object[key].IsNumber()) return 0;
    return object[key].GetInt64();
}

} // namespace

Result<ChatReply> chat_completion(HttpClient& http, const LlmEndpoint& endpoint,
                                  const std::vector<ChatMessage>& messages) {
    std::string url = endpoint.base_url;
    while (!url.empty() && url.back() == '/') url.pop_back();
    url += "/chat/completions";
    std::vector<std::string> headers = {"Content-Type: application/json"};
    if (!endpoint.api_key.empty()) headers.push_back("Authorization: Bearer " + endpoint.api_key);

    auto response = http.post(url, request_body(endpoint, messages), headers);
    if (!response) return std::unexpected(response.error());

    rapidjson::Document doc;
    doc.Parse(response->body.c_str(), response->body.size());
    if (doc.HasParseError() || !doc.IsObject())
        return fail("the LLM endpoint answered with something that is not JSON: " + response->body.substr(0, 120));
    if (!doc.HasMember("choices") || !doc["choices"].IsArray() || doc["choices"].Empty())
        return fail("the LLM reply has no choices");
    const auto& message = doc["choices"][0]["message"];
    ChatReply reply;
    if (message.IsObject() && message.HasMember("content") && message["content"].IsString())
        reply.content = message["content"].GetString();
    if (reply.content.find_first_not_of(" \t\r\n") == std::string::npos) {
        // A reasoning model that spent its tokens thinking answers 200 with nothing: a failure, not a reply.
        const auto& choice = doc["choices"][0];
        std::string finish = choice.IsObject() && choice.HasMember("finish_reason") && choice["finish_reason"].IsString()
                                 ? choice["finish_reason"].GetString()
                                 : "";
        return fail("the LLM's reply was empty" + (finish.empty() ? std::string() : " (finish_reason: " + finish + ")"));
    }
    if (doc.HasMember("usage")) {
        const auto& usage = doc["usage"];
        reply.usage_known = usage.IsObject();
        reply.usage.prompt = count_at(usage, "prompt_tokens");
        reply.usage.completion = count_at(usage, "completion_tokens");
        if (usage.HasMember("prompt_tokens_details"))
            reply.usage.cached = count_at(usage["prompt_tokens_details"], "cached_tokens");
    }
    return reply;
}

} // namespace pp
