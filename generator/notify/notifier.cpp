#include "notify/notifier.h"

#include "notify/channel.h"
#include "util/redact.h"
#include "util/text.h"

#include <algorithm>
#include <exception>

namespace pp {

namespace {

// Sends (or, dry, shows) the message on one channel; a failure is a warning.
void send_on(const Channel& channel, const NotifySettings& config, const DayMessage& summary, bool dry_run,
             const std::function<void(const std::string&)>& log, NotifyReport& report) {
    if (dry_run) return log("--- " + channel.preview());
    if (!channel.missing_secret.empty()) {
        report.warnings.push_back(redact("notify: " + channel.name + ": environment variable " +
                                         channel.missing_secret + " is not set; nothing sent"));
        return;
    }
    if (!channel.warning.empty()) log(channel.warning);
    SendOptions options;
    options.attempts = config.attempts;
    options.backoff = std::chrono::milliseconds(static_cast<long long>(config.backoff * 1000));
    options.timeout = std::chrono::milliseconds(static_cast<long long>(config.timeout * 1000));
    options.on_retry = [&log, name = channel.name](const std::string& reason) {
        log("notify: " + name + ": " + reason);
    };
    auto sent = channel.send(options);
    if (sent) {
        report.sent.push_back(channel.name);
        log("notify: sent " + summary.date.iso() + " to " + channel.name);
    } else {
        report.warnings.push_back(redact("notify: " + channel.name + " failed: " + sent.error().to_string()));
    }
}

bool any_enabled(const std::vector<ChannelSetup>& setups) {
    return std::any_of(setups.begin(), setups.end(), [](const ChannelSetup& setup) { return setup.enabled; });
}

NotifyReport notify(const DayMessage& summary, const NotifySettings& config, const NotifyPaths& paths,
                    const std::string& theme, const NotifySecrets& secrets, bool dry_run, const NotifyLog& log_line) {
    NotifyReport report;
    auto log = [&](const std::string& line) {
        if (log_line) log_line(redact(line));
    };
    auto setups = read_channels(config);
    if (!setups) { // the command line checks them when it loads the config: only from another caller
        report.configured = true;
        report.warnings.push_back("notify: " + setups.error().to_string());
        return report;
    }
    report.configured = any_enabled(*setups);
    if (!report.configured) return report;
    try {
        auto templates = load_notify_templates(paths.themes_dir, theme, paths.site_dir);
        if (!templates) {
            report.warnings.push_back("notify: " + templates.error().to_string());
            return report;
        }
        // The channels' secrets (a webhook URL, a token) are hidden, as [$VARIABLE], in the message
        // sent and in every line shown (util/redact.h).
        for (const ChannelSetup& setup : *setups)
            for (const auto& variable : setup.enabled ? setup.secret_variables : std::vector<std::string>{})
                if (auto value = secrets.find(variable); value != secrets.end())
                    register_secret(value->second, variable);
        std::string subject = default_subject;
        for (const ChannelSetup& setup : *setups)
            if (!setup.subject.empty()) subject = setup.subject;
        auto message = render_message(summary, *templates, subject);
        if (!message) {
            report.warnings.push_back("notify: " + message.error().to_string());
            return report;
        }
        for (std::string* part : {&message->subject, &message->text, &message->html, &message->slack, &message->json})
            *part = redact_secrets(std::move(*part));
        const ChannelInputs inputs{*message, summary, secrets};
        std::vector<Channel> channels;
        for (const ChannelSetup& setup : *setups)
            if (setup.enabled) channels.push_back(setup.make(inputs));
        for (const Channel& channel : channels)
            for (const auto& [value, variable] : channel.secrets) register_secret(value, variable);
        for (const Channel& channel : channels) send_on(channel, config, summary, dry_run, log, report);
    } catch (const std::exception& e) {
        report.warnings.push_back(redact(std::string("notify: unexpected error: ") + e.what()));
    } catch (...) {
        report.warnings.push_back("notify: unexpected error");
    }
    return report;
}

} // namespace

bool any_channel(const NotifySettings& config) {
    auto setups = read_channels(config);
    return setups && any_enabled(*setups);
}

NotifyReport notify_day(const Day& day, const NotifySettings& config, const Config& site, const NotifyPaths& paths,
                        const NotifySecrets& secrets, bool dry_run, const NotifyLog& log) {
    if (day.status == DayStatus::failed && !config.on_failure) {
        NotifyReport report;
        report.configured = any_channel(config);
        if (log && report.configured)
            log("notify: " + day.date.iso() + " is marked failed and notify.on_failure is off: nothing sent");
        return report;
    }
    return notify(summarize_day(day, site, config.top_n), config, paths, site.theme, secrets, dry_run, log);
}

NotifyReport notify_failure(const Date& date, const std::string& error, const NotifySettings& config,
                            const Config& site, const NotifyPaths& paths, const NotifySecrets& secrets, bool dry_run,
                            const NotifyLog& log) {
    if (!config.on_failure) {
        NotifyReport report;
        report.configured = any_channel(config);
        return report;
    }
    // The error is sent out: a URL or an echoed key in it is hidden first.
    return notify(summarize_failure(date, redact(error), site), config, paths, site.theme, secrets, dry_run, log);
}

} // namespace pp
