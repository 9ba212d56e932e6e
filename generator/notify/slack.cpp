#include "notify/slack.h"

#include "notify/channel.h"

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
        std::string reason =
            reply.HasMember("error") && reply["error"].IsString() ? reply["error"].GetString() : "no reason given";
        return fail("Slack refused the message: " + reason);
    }
    return {};
}

// An incoming webhook (the URL is the secret), else a bot token with a channel.
Channel slack_channel(const ChannelInputs& in) {
    const SlackSettings& s = in.settings.slack;
    Channel c;
    c.name = "slack";
    if (!s.webhook_env.empty()) {
        std::string url = c.use_secret(in, s.webhook_env);
        std::string payload = slack_payload(in.message, "");
        c.preview = [payload, s] { return "slack (incoming webhook from $" + s.webhook_env + "):\n" + payload; };
        c.send = [url, payload](const SendOptions& o) { return send_slack_webhook(url, payload, o); };
        return c;
    }
    std::string token = c.use_secret(in, s.token_env);
    std::string payload = slack_payload(in.message, s.channel);
    c.preview = [payload, s] {
        return "slack (chat.postMessage to " + s.channel + ", token from $" + s.token_env + "):\n" + payload;
    };
    c.send = [api = s.api_url, token, payload](const SendOptions& o) { return send_slack_bot(api, token, payload, o); };
    return c;
}

} // namespace pp
