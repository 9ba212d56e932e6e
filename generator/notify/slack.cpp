#include "notify/slack.h"

#include "notify/http_post.h"
#include "util/json.h"
#include "util/text.h"

#include <rapidjson/document.h>

namespace pp {

Result<void> send_slack_webhook(const std::string& webhook_url, const std::string& payload,
                                const SendOptions& options) {
    auto response = post_json(webhook_url, payload, {}, options);
    if (!response) return std::unexpected(response.error());
    return {};
}

Result<void> send_slack_bot(const std::string& api_url, const std::string& token, const std::string& payload,
                            const SendOptions& options) {
    auto response = post_json(api_url + "chat.postMessage", payload, {"Authorization: Bearer " + token}, options);
    if (!response) return std::unexpected(response.error());
    rapidjson::Document reply;
    if (!parse_json(reply, response->body) || !reply.IsObject() || !reply.HasMember("ok") || !reply["ok"].IsBool())
        return fail("expected Slack's JSON answer with \"ok\", got " + excerpt(response->body, 200));
    if (!reply["ok"].GetBool()) {
        std::string reason = reply.HasMember("error") && reply["error"].IsString() ? reply["error"].GetString()
                                                                                     : "no reason given";
        return fail("Slack refused the message: " + reason);
    }
    return {};
}

} // namespace pp
