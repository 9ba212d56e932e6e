#include "notify/notifier.h"

#include "notify/message.h"
#include "notify/slack.h"
#include "notify/smtp.h"
#include "notify/webhook.h"
#include "util/redact.h"
#include "util/text.h"

#include <cstdlib>
#include <exception>

namespace pp {

namespace {

// The secrets in play and what stands in for them in any text shown.
class Redactor {
public:
    void add(const std::string& secret, const std::string& env_name) {
        if (secret.size() < 4) return; // too short to search for; never printed by us anyway
        std::string label = "$" + env_name;
        pairs_.emplace_back(secret, label);
        auto query = secret.find('?');
        if (query != std::string::npos) pairs_.emplace_back(secret.substr(0, query), label);
    }
    std::string operator()(std::string text) const {
        for (const auto& [secret, label] : pairs_)
            for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret, at + label.size()))
                text.replace(at, secret.size(), label);
        return pp::redact(text); // other URLs' userinfo and tokens, the other known secrets
    }

private:
    std::vector<std::pair<std::string, std::string>> pairs_;
};

std::string env(const std::string& name) {
    if (name.empty()) return {};
    const char* value = std::getenv(name.c_str());
    return value ? std::string(value) : std::string();
}

struct Channel {
    std::string name;                                            // "slack", "webhook", "email"
    std::string env_missing;                                     // a variable that is not set
    std::function<std::string()> preview;                        // for --dry-run
    std::function<Result<void>(const SendOptions&)> send;
};

NotifyReport notify(const DayMessage& summary, const NotifySettings& config, const NotifyPaths& paths,
                    const std::string& theme, bool dry_run, const NotifyLog& log_line) {
    NotifyReport report;
    report.configured = config.any_channel();
    Redactor redact;
    auto log = [&](const std::string& line) {
        if (log_line) log_line(redact(line));
    };
    if (!report.configured) return report;
    try {
        auto templates = load_notify_templates(paths.themes_dir, theme, paths.site_dir);
        if (!templates) {
            report.warnings.push_back("notify: " + templates.error().to_string());
            return report;
        }
        auto message = render_message(summary, *templates, config.email.subject);
        if (!message) {
            report.warnings.push_back("notify: " + message.error().to_string());
            return report;
        }

        std::vector<Channel> channels;
        if (config.slack.enabled()) {
            const auto& s = config.slack;
            Channel c;
            c.name = "slack";
            if (!s.webhook_env.empty()) {
                std::string url = env(s.webhook_env);
                redact.add(url, s.webhook_env);
                if (url.empty()) c.env_missing = s.webhook_env;
                std::string payload = slack_payload(*message, "");
                c.preview = [payload, s] { return "slack (incoming webhook from $" + s.webhook_env + "):\n" + payload; };
                c.send = [url, payload](const SendOptions& o) { return send_slack_webhook(url, payload, o); };
            } else {
                std::string token = env(s.token_env);
                redact.add(token, s.token_env);
                if (token.empty()) c.env_missing = s.token_env;
                std::string payload = slack_payload(*message, s.channel);
                c.preview = [payload, s] {
                    return "slack (chat.postMessage to " + s.channel + ", token from $" + s.token_env + "):\n" + payload;
                };
                c.send = [api = s.api_url, token, payload](const SendOptions& o) {
                    return send_slack_bot(api, token, payload, o);
                };
            }
            channels.push_back(std::move(c));
        }
        if (config.webhook.enabled()) {
            Channel c;
            c.name = "webhook";
            std::string url = env(config.webhook.url_env);
            redact.add(url, config.webhook.url_env);
            if (url.empty()) c.env_missing = config.webhook.url_env;
            std::string json = message->json;
            c.preview = [json, name = config.webhook.url_env] { return "webhook (POST to $" + name + "):\n" + json; };
            c.send = [url, json](const SendOptions& o) { return send_webhook(url, json, o); };
            channels.push_back(std::move(c));
        }
        if (config.email.enabled()) {
            const auto& e = config.email;
            Channel c;
            c.name = "email (" + std::to_string(e.to.size()) + (e.to.size() == 1 ? " recipient)" : " recipients)");
            SmtpRequest request;
            request.url = e.smtp_url;
            request.from = e.from;
            request.to = e.to;
            request.require_tls = e.starttls;
            request.insecure_tls = e.insecure_tls_for_tests;
            if (!e.username_env.empty()) {
                request.username = env(e.username_env);
                request.password = env(e.password_env);
                redact.add(request.password, e.password_env);
                if (request.username.empty()) c.env_missing = e.username_env;
                else if (request.password.empty()) c.env_missing = e.password_env;
            }
            std::string mime = build_mime(*message, e.from, e.to, summary.date);
            c.preview = [e, m = *message] {
                return "email via " + e.smtp_url + " from " + e.from + " to " + join(e.to, ", ") +
                       "\nSubject: " + m.subject + "\n--- text/plain ---\n" + m.text + "--- text/html ---\n" + m.html;
            };
            c.send = [request, mime](const SendOptions& o) { return send_smtp(request, mime, o); };
            if (e.insecure_tls_for_tests && !dry_run)
                log("notify: warning: email.insecure_tls_for_tests is on: the SMTP server's certificate is not checked");
            channels.push_back(std::move(c));
        }

        for (const auto& channel : channels) {
            if (dry_run) {
                log("--- " + channel.preview());
                continue;
            }
            if (!channel.env_missing.empty()) {
                report.warnings.push_back(redact("notify: " + channel.name + ": environment variable " +
                                                 channel.env_missing + " is not set; nothing sent"));
                continue;
            }
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
    } catch (const std::exception& e) {
        report.warnings.push_back(redact(std::string("notify: unexpected error: ") + e.what()));
    } catch (...) {
        report.warnings.push_back("notify: unexpected error");
    }
    return report;
}

} // namespace

NotifyReport notify_day(const Day& day, const NotifySettings& config, const Config& site, const NotifyPaths& paths,
                        bool dry_run, const NotifyLog& log) {
    if (day.status == DayStatus::failed && !config.on_failure) {
        NotifyReport report;
        report.configured = config.any_channel();
        if (log && report.configured)
            log("notify: " + day.date.iso() + " is marked failed and notify.on_failure is off: nothing sent");
        return report;
    }
    return notify(summarize_day(day, site, config.top_n), config, paths, site.theme, dry_run, log);
}

NotifyReport notify_failure(const Date& date, const std::string& error, const NotifySettings& config,
                            const Config& site, const NotifyPaths& paths, bool dry_run, const NotifyLog& log) {
    if (!config.on_failure) {
        NotifyReport report;
        report.configured = config.any_channel();
        return report;
    }
    // The error is sent out: a URL or an echoed key in it is hidden first.
    return notify(summarize_failure(date, redact(error), site), config, paths, site.theme, dry_run, log);
}

} // namespace pp
