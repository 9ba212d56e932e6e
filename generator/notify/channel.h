// A notification channel, and the table of them. Each channel lives in a
// file of its own (slack.cpp, webhook.cpp, smtp.cpp), which makes a Channel
// from the settings; channels.cpp lists them. Adding one is a new file with
// its make function plus one line in that table (and its settings in
// config/config.h's NotifySettings, read by config/sections.cpp).
#pragma once

#include "config/config.h"
#include "notify/message.h"
#include "notify/transport.h"
#include "util/error.h"

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace pp {

// The values of the environment variables the config names as holding a
// secret, by variable name, read once by the command line.
using NotifySecrets = std::map<std::string, std::string>;

// What a channel is made from.
struct ChannelInputs {
    const NotifySettings& settings;
    const Message& message;    // the day's message, rendered for every channel
    const DayMessage& summary; // the day's facts
    const NotifySecrets& secrets;

    // The secret held by `variable`; "" when it is unset (or none is named).
    std::string secret(const std::string& variable) const;
};

struct Channel {
    std::string name;           // "slack", "webhook", "email (2 recipients)": how the log names it
    std::string missing_secret; // a variable that is not set: nothing is sent
    // (value, variable) of the secrets it sends: hidden, as $variable, in every line shown.
    std::vector<std::pair<std::string, std::string>> secrets;
    std::string warning;                  // said before sending
    std::function<std::string()> preview; // what --dry-run shows
    std::function<Result<void>(const SendOptions&)> send;

    // Takes the value `variable` holds, noting it as missing when unset and,
    // when `hidden`, as a secret to redact.
    std::string use_secret(const ChannelInputs& in, const std::string& variable, bool hidden = true);
};

struct ChannelKind {
    const char* name;
    bool (*configured)(const NotifySettings&);
    Channel (*make)(const ChannelInputs&);
};

// Every channel, in the order they are sent.
const std::vector<ChannelKind>& notification_channels();

// The channels (slack.cpp, webhook.cpp, smtp.cpp).
Channel slack_channel(const ChannelInputs& in);
Channel webhook_channel(const ChannelInputs& in);
Channel email_channel(const ChannelInputs& in);

} // namespace pp
