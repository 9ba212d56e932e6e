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

namespace {

// notify.slack. Secrets are never in the file: the section names the
// variables that hold them.
struct SlackSettings {
    std::string webhook_env;                        // variable holding an incoming-webhook URL
    std::string token_env;                          // variable holding a bot token (xoxb-...), with `channel`
    std::string channel;                            // channel ID or #name for the bot token
    std::string api_url = "https://slack.com/api/"; // chat.postMessage is appended
};

// An incoming webhook (the URL is the secret), else a bot token with a channel.
Channel make_slack(const SlackSettings& s, const ChannelInputs& in) {
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

Result<ChannelSetup> read_slack(const ChannelSection& section) {
    SlackSettings s;
    auto ok = read_section(section, [&](const Section& r) -> std::map<std::string, Setter> {
        return {{"webhook_env", r.env_name(s.webhook_env)},
                {"token_env", r.env_name(s.token_env)},
                {"channel", r.text(s.channel)},
                {"api_url", r.text(s.api_url)}};
    });
    if (!ok) return std::unexpected(ok.error());
    if (!s.api_url.empty() && s.api_url.back() != '/') s.api_url += '/';
    if (!s.webhook_env.empty() && !s.token_env.empty())
        return section_problem(section, "either 'slack.webhook_env' or 'slack.token_env', not both");
    if (!s.token_env.empty() && s.channel.empty())
        return section_problem(section, "'slack.channel' (a channel ID or #name) with 'slack.token_env'");
    ChannelSetup setup;
    setup.enabled = !s.webhook_env.empty() || !s.token_env.empty();
    for (const std::string* name : {&s.webhook_env, &s.token_env})
        if (!name->empty()) setup.secret_variables.push_back(*name);
    setup.make = [s](const ChannelInputs& in) { return make_slack(s, in); };
    return setup;
}

} // namespace

extern constinit const ChannelKind slack_channel = {"slack", read_slack};

} // namespace pp
