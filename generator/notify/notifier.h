// Sends a day's notification to every configured channel (Slack, generic
// webhook, email), each with retries and backoff. Never throws and never
// touches the content tree or the site: a failure is a warning in the
// report, for the caller to print (and, in `paperpress notify`, to turn into
// exit status 1). Secrets are the values of the environment variables the
// config names, read once by the command line (NotifySecrets): registered
// (util/redact.h), they are redacted from the message sent and from every
// line the report or the log carries. The channels are
// listed in notify/channel.h.
#pragma once

#include "config/config.h"
#include "core/paper.h"
#include "notify/channel.h"
#include "util/files.h"

#include <functional>
#include <string>
#include <vector>

namespace pp {

struct NotifyReport {
    std::vector<std::string> sent;     // "slack", "webhook", "email (2 recipients)"
    std::vector<std::string> warnings; // one per channel that failed, secrets redacted
    bool configured = false;           // at least one channel in the config
    bool ok() const { return warnings.empty(); }
};

using NotifyLog = std::function<void(const std::string&)>;

// Where the templates are: themes_dir/<site.theme>/notify/, overridden by
// site_dir/layouts/notify/ (as `paperpress build` finds layouts:
// site_dir = the config file's folder, themes_dir = site_dir/themes).
struct NotifyPaths {
    fs::path themes_dir;
    fs::path site_dir;
};

// The day's picks: date, count, the top notify.top_n papers with links and
// scores, the link to the day's page. A day marked failed sends the failure
// notice instead, and only with notify.on_failure. With `dry_run`, each
// channel's message goes to `log` and nothing is sent (no secret needed).
NotifyReport notify_day(const Day& day, const NotifySettings& config, const Config& site, const NotifyPaths& paths,
                        const NotifySecrets& secrets, bool dry_run, const NotifyLog& log);

// A short failure notice for a run that failed (`error` says why); sends
// nothing unless notify.on_failure is set.
NotifyReport notify_failure(const Date& date, const std::string& error, const NotifySettings& config,
                            const Config& site, const NotifyPaths& paths, const NotifySecrets& secrets, bool dry_run,
                            const NotifyLog& log);

// At least one channel of the table is configured.
bool any_channel(const NotifySettings& config);

} // namespace pp
