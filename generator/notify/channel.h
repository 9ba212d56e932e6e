// A notification channel, and the table of them. Each channel lives in a
// file of its own (slack.cpp, webhook.cpp, smtp.cpp) that holds all of it:
// its settings, read and checked from its own section of notify: (config/
// keeps that section unread), the environment variables it reads, and the
// Channel that sends. channels.cpp lists them. Adding a channel is a new
// file defining its ChannelKind plus one line in that table: the config, the
// check at load time (load_checked_config) and the command line's reading of
// secrets (cli/read_secrets) ask the table.
#pragma once

#include "config/config.h"
#include "config/yaml_section.h"
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

// What a channel is made from, besides its settings.
struct ChannelInputs {
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

// A channel's section, read and checked by its file.
struct ChannelSetup {
    bool enabled = false;                      // the section turns the channel on
    std::vector<std::string> secret_variables; // the variables it reads that hold secrets
    std::vector<std::string> plain_variables;  // those it reads that are no secret (the SMTP login name)
    // Non-empty: the template of the subject every channel's message carries
    // (notify.email.subject; the webhook's JSON has the subject too).
    std::string subject;
    std::function<Channel(const ChannelInputs&)> make; // with the settings read
};

struct ChannelKind {
    const char* name; // its key under notify:
    // Reads and checks its section; a mistake names the file and the line.
    Result<ChannelSetup> (*read)(const ChannelSection&);
};

// Every channel, in the order they are sent (channels.cpp).
const std::vector<ChannelKind>& notification_channels();

// The sections `notify` has, each read by its kind, in the order of `kinds`
// (not the file's). A section no kind reads is an unknown key, named with
// the file and line.
Result<std::vector<ChannelSetup>> read_channels(const NotifySettings& notify,
                                                const std::vector<ChannelKind>& kinds = notification_channels());

// The values of the variables the channels of `notify` read, by name, each
// from `value_of` (name, whether it holds a secret); those it gives as ""
// are left out. The command line passes the environment (cli/read_secrets).
NotifySecrets read_notify_secrets(const NotifySettings& notify,
                                  const std::function<std::string(const std::string&, bool)>& value_of,
                                  const std::vector<ChannelKind>& kinds = notification_channels());

// load_config (config/config.h), then every channel's section read: what
// every command runs first, so that a mistake in notify: shows the day it
// is made.
Result<Config> load_checked_config(const fs::path& path, bool required);

// For a channel's read: its section through the setters `keys` makes, as
// config/ reads its own ("notify.email.from", ...).
Result<void> read_section(const ChannelSection& section,
                          const std::function<std::map<std::string, Setter>(const Section&)>& keys);
// A mistake across a channel's keys: "expected X in section 'notify'", at notify:'s line.
std::unexpected<Error> section_problem(const ChannelSection& section, const std::string& expected);

} // namespace pp
