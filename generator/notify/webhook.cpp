#include "notify/webhook.h"

#include "notify/channel.h"

#include "notify/http_post.h"

namespace pp {

Result<void> send_webhook(const std::string& url, const std::string& json, const SendOptions& options) {
    auto response = post_json(url, json, {}, options);
    if (!response) return std::unexpected(response.error());
    return {};
}

namespace {

// The day's JSON, POSTed to the URL the variable `url_env` holds.
Result<ChannelSetup> read_webhook(const ChannelSection& section) {
    std::string url_env;
    auto ok = read_section(section, [&](const Section& r) -> std::map<std::string, Setter> {
        return {{"url_env", r.env_name(url_env)}};
    });
    if (!ok) return std::unexpected(ok.error());
    ChannelSetup setup;
    setup.enabled = !url_env.empty();
    if (setup.enabled) setup.secret_variables.push_back(url_env);
    setup.make = [url_env](const ChannelInputs& in) {
        Channel c;
        c.name = "webhook";
        std::string url = c.use_secret(in, url_env);
        std::string json = in.message.json;
        c.preview = [json, url_env] { return "webhook (POST to $" + url_env + "):\n" + json; };
        c.send = [url, json](const SendOptions& o) { return send_webhook(url, json, o); };
        return c;
    };
    return setup;
}

} // namespace

extern constinit const ChannelKind webhook_channel = {"webhook", read_webhook};

} // namespace pp
