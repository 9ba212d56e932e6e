#include "notify/channel.h"

namespace pp {

const std::vector<ChannelKind>& notification_channels() {
    static const std::vector<ChannelKind> channels = {
        {"slack", [](const NotifySettings& s) { return s.slack.enabled(); }, slack_channel},
        {"webhook", [](const NotifySettings& s) { return s.webhook.enabled(); }, webhook_channel},
        {"email", [](const NotifySettings& s) { return s.email.enabled(); }, email_channel},
    };
    return channels;
}

std::string ChannelInputs::secret(const std::string& variable) const {
    if (variable.empty()) return {};
    auto it = secrets.find(variable);
    return it == secrets.end() ? std::string() : it->second;
}

std::string Channel::use_secret(const ChannelInputs& in, const std::string& variable, bool hidden) {
    std::string value = in.secret(variable);
    if (value.empty() && missing_secret.empty()) missing_secret = variable;
    if (!value.empty() && hidden) secrets.emplace_back(value, variable);
    return value;
}

} // namespace pp
