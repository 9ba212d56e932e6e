#include "notify/channel.h"

#include "util/text.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace pp {

// Each channel's file defines its kind.
extern const ChannelKind slack_channel, webhook_channel, email_channel;

const std::vector<ChannelKind>& notification_channels() {
    static const std::vector<ChannelKind> channels = {slack_channel, webhook_channel, email_channel};
    return channels;
}

Result<std::vector<ChannelSetup>> read_channels(const NotifySettings& notify, const std::vector<ChannelKind>& kinds) {
    std::vector<std::string> names;
    for (const ChannelKind& kind : kinds) names.push_back(kind.name);
    for (const ChannelSection& section : notify.channels) {
        if (std::find(names.begin(), names.end(), section.name) != names.end()) continue;
        auto unknown =
            Section(section.file, "notify")
                .unknown_key(section.name, section.line, names, "the channels are " + join(names, ", ") + "; ");
        return std::unexpected(unknown.error());
    }
    std::vector<ChannelSetup> setups;
    for (const ChannelKind& kind : kinds)
        for (const ChannelSection& section : notify.channels) {
            if (section.name != kind.name) continue;
            auto setup = kind.read(section);
            if (!setup) return std::unexpected(setup.error());
            setups.push_back(std::move(*setup));
        }
    return setups;
}

NotifySecrets read_notify_secrets(const NotifySettings& notify,
                                  const std::function<std::string(const std::string&, bool)>& value_of,
                                  const std::vector<ChannelKind>& kinds) {
    NotifySecrets secrets;
    auto read = [&](const std::vector<std::string>& names, bool secret) {
        for (const std::string& name : names)
            if (std::string value = value_of(name, secret); !value.empty()) secrets[name] = std::move(value);
    };
    auto channels = read_channels(notify, kinds); // checked when the config was loaded
    for (const ChannelSetup& channel : channels ? *channels : std::vector<ChannelSetup>{}) {
        read(channel.secret_variables, true);
        read(channel.plain_variables, false);
    }
    return secrets;
}

Result<Config> load_checked_config(const fs::path& path, bool required) {
    auto config = load_config(path, required);
    if (!config) return config;
    if (auto channels = read_channels(config->notify); !channels) return std::unexpected(channels.error());
    return config;
}

Result<void> read_section(const ChannelSection& section,
                          const std::function<std::map<std::string, Setter>(const Section&)>& keys) {
    const Section reader(section.file, "notify." + section.name);
    return reader.read(*section.node, keys(reader));
}

std::unexpected<Error> section_problem(const ChannelSection& section, const std::string& expected) {
    return std::unexpected(Section(section.file, "notify").problem(section.notify_line, expected).error());
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
