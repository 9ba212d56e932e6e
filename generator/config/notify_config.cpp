#include "config/notify_config.h"

#include <yaml-cpp/yaml.h>

#include <functional>
#include <map>

namespace pp {

namespace {

using Setter = std::function<Result<void>(const YAML::Node&, int)>;

// Reads one (sub)section's keys through a table of setters; unknown keys and
// wrong types are errors naming the line.
class Section {
public:
    Section(std::string file, std::string name) : file_(std::move(file)), name_(std::move(name)) {}

    Result<void> read(const YAML::Node& node, const std::map<std::string, Setter>& keys) const {
        if (!node.IsMap()) return fail("expected '" + name_ + "' to be a map of settings", file_, node.Mark().line + 1);
        for (auto it = node.begin(); it != node.end(); ++it) {
            std::string key = it->first.Scalar();
            int line = it->first.Mark().line + 1;
            auto setter = keys.find(key);
            if (setter == keys.end())
                return fail("unknown key '" + name_ + "." + key + "' (see docs/notifications.md)", file_, line);
            if (auto ok = setter->second(it->second, line); !ok) return ok;
        }
        return {};
    }

    Setter text(std::string& target) const {
        return [this, &target](const YAML::Node& v, int line) -> Result<void> {
            if (!v.IsScalar()) return problem(line, "text");
            target = v.Scalar();
            if (target.find_first_of("\r\n") != std::string::npos) return problem(line, "a single line of text");
            return {};
        };
    }
    // The name of an environment variable: a secret pasted in by mistake is
    // refused instead of being kept in the file (and echoed in the error).
    Setter env_name(std::string& target) const {
        return [this, &target](const YAML::Node& v, int line) -> Result<void> {
            if (!v.IsScalar()) return problem(line, "the name of an environment variable");
            const std::string& name = v.Scalar();
            bool ok = !name.empty() && !(name[0] >= '0' && name[0] <= '9');
            for (char c : name)
                ok = ok && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
            if (!ok)
                return problem(line, "the name of an environment variable (such as SLACK_WEBHOOK_URL) that holds the "
                                     "secret, never the secret itself");
            target = name;
            return {};
        };
    }
    Setter flag(bool& target) const {
        return [this, &target](const YAML::Node& v, int line) -> Result<void> {
            if (!v.IsScalar() || !YAML::convert<bool>::decode(v, target)) return problem(line, "true or false");
            return {};
        };
    }
    Setter number(int& target, int low, int high) const {
        return [this, &target, low, high](const YAML::Node& v, int line) -> Result<void> {
            int n = 0;
            if (!v.IsScalar() || !YAML::convert<int>::decode(v, n) || n < low || n > high)
                return problem(line, "a whole number from " + std::to_string(low) + " to " + std::to_string(high));
            target = n;
            return {};
        };
    }
    Setter real(double& target, double low) const {
        return [this, &target, low](const YAML::Node& v, int line) -> Result<void> {
            double n = 0;
            if (!v.IsScalar() || !YAML::convert<double>::decode(v, n) || n < low)
                return problem(line, "a number of at least " + std::to_string(low));
            target = n;
            return {};
        };
    }
    Setter list(std::vector<std::string>& target) const {
        return [this, &target](const YAML::Node& v, int line) -> Result<void> {
            target.clear();
            if (v.IsScalar()) {
                target.push_back(v.Scalar());
            } else if (v.IsSequence()) {
                for (const auto& item : v) {
                    if (!item.IsScalar()) return problem(item.Mark().line + 1, "a list of text items");
                    target.push_back(item.Scalar());
                }
            } else {
                return problem(line, "a list");
            }
            for (const auto& item : target)
                if (item.find_first_of("\r\n") != std::string::npos) return problem(line, "single-line items");
            return {};
        };
    }
    Setter sub(const std::string& name, std::function<Result<void>(const Section&, const YAML::Node&)> body) const {
        return [this, name, body](const YAML::Node& v, int) -> Result<void> {
            Section inner(file_, name_ + "." + name);
            return body(inner, v);
        };
    }

    Result<void> problem(int line, const std::string& expected) const {
        return fail("expected " + expected + " in section '" + name_ + "'", file_, line);
    }

private:
    std::string file_, name_;
};

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
    std::error_code ec;
    if (!fs::exists(path, ec)) return config;
    auto text = read_file(path);
    if (!text) return std::unexpected(text.error());
    YAML::Node root;
    try {
        root = YAML::Load(*text);
    } catch (const YAML::Exception& e) {
        return fail("not valid YAML: " + e.msg, path.string(), e.mark.line + 1);
    }
    if (!root.IsMap() || !root["notify"]) return config;
    const std::string file = path.string();
    const YAML::Node node = root["notify"];
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
