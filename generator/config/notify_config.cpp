#include "config/notify_config.h"

#include "config/yaml_section.h"

namespace pp {

namespace {

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

Result<void> validate(const NotifyConfig& c, const std::string& file, int line) {
    if (!c.slack.webhook_env.empty() && !c.slack.token_env.empty())
        return fail("expected either 'notify.slack.webhook_env' or 'notify.slack.token_env', not both", file, line);
    if (!c.slack.token_env.empty() && c.slack.channel.empty())
        return fail("expected 'notify.slack.channel' (a channel ID or #name) with 'notify.slack.token_env'", file, line);
    const auto& e = c.email;
    if (e.enabled()) {
        if (!starts_with(e.smtp_url, "smtp://") && !starts_with(e.smtp_url, "smtps://"))
            return fail("expected 'notify.email.smtp_url' to start with smtp:// or smtps://, got '" + e.smtp_url + "'",
                        file, line);
        if (e.from.find('@') == std::string::npos)
            return fail("expected 'notify.email.from' to be an email address", file, line);
        if (e.to.empty()) return fail("expected at least one recipient in 'notify.email.to'", file, line);
        for (const auto& to : e.to)
            if (to.find('@') == std::string::npos)
                return fail("expected an email address in 'notify.email.to', got '" + to + "'", file, line);
        if (e.username_env.empty() != e.password_env.empty())
            return fail("expected both 'notify.email.username_env' and 'notify.email.password_env', or neither", file,
                        line);
    }
    return {};
}

} // namespace

Result<NotifyConfig> load_notify_config(const fs::path& path) {
    NotifyConfig config;
    auto root = load_yaml_file(path);
    if (!root) return std::unexpected(root.error());
    if (!root->IsMap() || !(*root)["notify"]) return config;
    const std::string file = path.string();
    const YAML::Node node = (*root)["notify"];
    if (node.IsNull()) return config;
    Section s(file, "notify");
    auto& c = config;
    auto ok = s.read(node, {
        {"top_n", s.number(c.top_n, 1, 1000)},
        {"on_failure", s.flag(c.on_failure)},
        {"attempts", s.number(c.attempts, 1, 20)},
        {"backoff", s.real(c.backoff, 0)},
        {"timeout", s.real(c.timeout, 1)},
        {"slack", s.sub("slack", [&](const Section& r, const YAML::Node& v) {
             auto& sl = c.slack;
             return r.read(v, {{"webhook_env", r.env_name(sl.webhook_env)}, {"token_env", r.env_name(sl.token_env)},
                               {"channel", r.text(sl.channel)}, {"api_url", r.text(sl.api_url)}});
         })},
        {"webhook", s.sub("webhook", [&](const Section& r, const YAML::Node& v) {
             return r.read(v, {{"url_env", r.env_name(c.webhook.url_env)}});
         })},
        {"email", s.sub("email", [&](const Section& r, const YAML::Node& v) {
             auto& e = c.email;
             return r.read(v, {{"smtp_url", r.text(e.smtp_url)}, {"from", r.text(e.from)}, {"to", r.list(e.to)},
                               {"username_env", r.env_name(e.username_env)},
                               {"password_env", r.env_name(e.password_env)}, {"starttls", r.flag(e.starttls)},
                               {"subject", r.text(e.subject)},
                               {"insecure_tls_for_tests", r.flag(e.insecure_tls_for_tests)}});
         })},
    });
    if (!ok) return std::unexpected(ok.error());
    if (!config.slack.api_url.empty() && config.slack.api_url.back() != '/') config.slack.api_url += '/';
    if (auto valid = validate(config, file, node.Mark().line + 1); !valid) return std::unexpected(valid.error());
    return config;
}

} // namespace pp
