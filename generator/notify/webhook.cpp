#include "notify/webhook.h"

#include "notify/channel.h"

#include "notify/http_post.h"

namespace pp {

Result<void> send_webhook(const std::string& url, const std::string& json, const SendOptions& options) {
    auto response = post_json(url, json, {}, options);
    if (!response) return std::unexpected(response.error());
    return {};
}

// The day's JSON, POSTed to the URL the variable holds.
Channel webhook_channel(const ChannelInputs& in) {
    const WebhookSettings& w = in.settings.webhook;
    Channel c;
    c.name = "webhook";
    std::string url = c.use_secret(in, w.url_env);
    std::string json = in.message.json;
    c.preview = [json, name = w.url_env] { return "webhook (POST to $" + name + "):\n" + json; };
    c.send = [url, json](const SendOptions& o) { return send_webhook(url, json, o); };
    return c;
}

} // namespace pp
