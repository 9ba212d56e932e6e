// The `notify:` section of paperpress.yaml: where the day's picks are sent
// after a run (Slack, a generic JSON webhook, email over SMTP). Secrets
// (webhook URLs, tokens, the SMTP password) are never in the file: the
// config names the environment variables that hold them.
// docs/configuration.md and docs/notifications.md document every key.
#pragma once

#include "util/error.h"
#include "util/files.h"

#include <string>
#include <vector>

namespace pp {

struct SlackSettings {
    std::string webhook_env;   // variable holding an incoming-webhook URL
    std::string token_env;     // variable holding a bot token (xoxb-...), with `channel`
    std::string channel;       // channel ID or #name for the bot token
    std::string api_url = "https://slack.com/api/"; // chat.postMessage is appended
    bool enabled() const { return !webhook_env.empty() || !token_env.empty(); }
};

struct WebhookSettings {
    std::string url_env;       // variable holding the URL the JSON is POSTed to
    bool enabled() const { return !url_env.empty(); }
};

struct EmailSettings {
    std::string smtp_url;      // smtp://host:587 (STARTTLS) or smtps://host:465
    std::string from;          // "paperpress <bot@example.org>" or "bot@example.org"
    std::vector<std::string> to;
    std::string username_env;  // variables holding the SMTP login; empty: no AUTH
    std::string password_env;
    bool starttls = true;      // true: TLS required (STARTTLS); false: used when offered
    std::string subject = "{{title}}: {{count}} {{paper_word}} for {{date}}"; // mustache
    bool insecure_tls_for_tests = false; // TEST ONLY: do not verify the server's certificate
    bool enabled() const { return !smtp_url.empty(); }
};

struct NotifyConfig {
    int top_n = 10;            // papers listed in the message
    bool on_failure = false;   // send a short notice when a run fails
    int attempts = 4;          // per channel: first try + retries
    double backoff = 2.0;      // seconds before the first retry; doubles
    double timeout = 30;       // seconds per attempt
    SlackSettings slack;
    WebhookSettings webhook;
    EmailSettings email;
    bool any_channel() const { return slack.enabled() || webhook.enabled() || email.enabled(); }
};

// Reads the `notify:` section of `path` (absent file or section: no channels).
Result<NotifyConfig> load_notify_config(const fs::path& path);

} // namespace pp
