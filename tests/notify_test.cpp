// notify: the day's picks sent to Slack, a generic webhook and email, against
// real servers on loopback: an HTTP receiver (cpp-httplib) and a real SMTP
// server (aiosmtpd, tests/smtp_sink.py) started here as a subprocess.
#include "config/config.h"
#include "content/content_tree.h"
#include "notify/message.h"
#include "notify/notifier.h"
#include "notify/smtp.h"
#include "test_support.h"
#include "util/redact.h"
#include "util/text.h"

#include <doctest/doctest.h>
#include <rapidjson/document.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <mutex>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>

extern char** environ;

using namespace pp;
using namespace pp::test;

namespace {

Paper paper(const std::string& id, const std::string& title, int relevance, int novelty) {
    Paper p;
    p.id = id;
    p.title = title;
    p.authors = {"Ann Author", "Bob Author"};
    p.abstract = "We study " + title + ".";
    p.relevance = relevance;
    p.novelty = novelty;
    return p;
}

// Three papers; the first title has everything each format must escape.
Day sample_day() {
    Day day;
    day.date = *parse_iso_date("2025-05-28");
    day.model = "gpt-4o-mini";
    day.papers.push_back(paper("2505.20001", "<b>Fish & \"Chips\"</b> for the\x07 Masses", 9, 8));
    day.papers.push_back(paper("2505.20002", "Caf\xC3\xA9 Networks", 8, 7));
    Paper followed = paper("2505.20003", "Third Paper", 0, 0);
    followed.relevance.reset();
    followed.novelty.reset();
    followed.author_match = true;
    day.papers.push_back(followed);
    return day;
}

Config site_config() {
    Config config;
    config.title = "Daily Picks";
    config.base_url = "https://example.org/digest/";
    return config;
}

NotifyPaths repo_theme() { return NotifyPaths{source_dir() / "themes", fs::path("/nonexistent-site-dir")}; }

struct Log {
    std::mutex mutex;
    std::vector<std::string> lines;
    NotifyLog sink() {
        return [this](const std::string& line) {
            std::lock_guard lock(mutex);
            lines.push_back(line);
        };
    }
    std::string all() {
        std::lock_guard lock(mutex);
        return join(lines, "\n");
    }
};

std::string join_warnings(const NotifyReport& report) {
    std::string out;
    for (const auto& w : report.warnings) out += w + "\n";
    return out;
}

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

// A real SMTP server (aiosmtpd) on 127.0.0.1, run by Debian's python3.
class SmtpSink {
public:
    explicit SmtpSink(std::vector<std::string> options = {}) {
        std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
        std::vector<std::string> args = {python, (source_dir() / "tests/smtp_sink.py").string(), mail_dir().string()};
        args.insert(args.end(), options.begin(), options.end());
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        REQUIRE(posix_spawnp(&pid_, python.c_str(), nullptr, nullptr, argv.data(), environ) == 0);
        for (int i = 0; i < 300 && !fs::exists(mail_dir() / "port"); ++i) {
            int status = 0;
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = 0;
                FAIL("tests/smtp_sink.py exited early: is python3-aiosmtpd installed (scripts/setup)?");
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        REQUIRE_MESSAGE(fs::exists(mail_dir() / "port"), "the SMTP sink did not start listening");
        port_ = std::stoi(read_text(mail_dir() / "port"));
    }
    ~SmtpSink() {
        if (pid_ > 0) {
            kill(pid_, SIGTERM);
            int status = 0;
            waitpid(pid_, &status, 0);
        }
    }
    SmtpSink(const SmtpSink&) = delete;
    SmtpSink& operator=(const SmtpSink&) = delete;

    std::string url() const { return "smtp://127.0.0.1:" + std::to_string(port_); }
    fs::path mail_dir() const { return dir_ / "mail"; }

    // The messages received, in order (NNN.json as the sink saved them).
    std::vector<std::string> messages() const {
        std::vector<std::string> out;
        for (int n = 1;; ++n) {
            char name[16];
            std::snprintf(name, sizeof name, "%03d.json", n);
            if (!fs::exists(mail_dir() / name)) break;
            out.push_back(read_text(mail_dir() / name));
        }
        return out;
    }
    int mail_commands() const {
        auto text = read_text(mail_dir() / "mail_commands");
        return text.empty() ? 0 : std::stoi(text);
    }

private:
    TempDir dir_;
    pid_t pid_ = 0;
    int port_ = 0;
};

std::string member(const rapidjson::Value& v, const char* name) {
    if (!v.HasMember(name) || !v[name].IsString()) return {};
    return v[name].GetString();
}

// The section notify: of `yaml` (its keys, indented by two), as the config reads it.
NotifySettings notify_settings(const std::string& yaml) {
    auto config = parse_config("notify:\n" + yaml, "paperpress.yaml");
    REQUIRE_MESSAGE(config, config.error().to_string());
    return config->notify;
}

// Email to two recipients; `tls` are the section's keys on TLS and the login.
NotifySettings email_config(const std::string& url, const std::string& tls = "    starttls: false\n") {
    return notify_settings("  top_n: 2\n  backoff: 0.05\n  timeout: 10\n  email:\n    smtp_url: " + url +
                           "\n    from: Paper Press <digest@example.org>\n"
                           "    to: [alice@example.org, Bob <bob@example.net>]\n" +
                           tls);
}

// Sets an environment variable for the life of the object.
struct ScopedEnv {
    std::string name;
    ScopedEnv(std::string n, const std::string& value) : name(std::move(n)) { setenv(name.c_str(), value.c_str(), 1); }
    ~ScopedEnv() { unsetenv(name.c_str()); }
};

// The values of the variables the channels read, as the command line reads them (cli/read_secrets).
NotifySecrets secrets_of_env(const NotifySettings& settings) {
    REQUIRE_MESSAGE(read_channels(settings), read_channels(settings).error().to_string());
    return read_notify_secrets(settings, [](const std::string& name, bool) {
        const char* value = std::getenv(name.c_str());
        return std::string(value ? value : "");
    });
}

} // namespace

TEST_CASE("notify: the summary and each format escape outside text its own way") {
    auto templates = load_notify_templates(source_dir() / "themes", "default", "/nonexistent");
    REQUIRE_MESSAGE(templates, templates.error().to_string());
    auto summary = summarize_day(sample_day(), site_config(), 2);
    CHECK(summary.count == 3);
    REQUIRE(summary.top.size() == 2);
    CHECK(summary.day_url == "https://example.org/digest/2025/05/28/");
    CHECK(summary.top[0].url == "https://arxiv.org/abs/2505.20001");
    CHECK(summary.top[0].title == "<b>Fish & \"Chips\"</b> for the Masses"); // control character gone

    auto message = render_message(summary, *templates, "{{title}}: {{count}} papers for {{date}}");
    REQUIRE_MESSAGE(message, message.error().to_string());
    CHECK(message->subject == "Daily Picks: 3 papers for 2025-05-28");
    // Plain text: as written, no control characters.
    CHECK(contains(message->text, "1. <b>Fish & \"Chips\"</b> for the Masses"));
    CHECK(contains(message->text, "https://arxiv.org/abs/2505.20001"));
    CHECK(contains(message->text, "Score 17 (relevance 9, novelty 8)"));
    CHECK(contains(message->text, "2. Caf\xC3\xA9 Networks"));
    CHECK(!contains(message->text, "Third Paper")); // top 2 only
    CHECK(contains(message->text, "... and 1 more."));
    CHECK(contains(message->text, "https://example.org/digest/2025/05/28/"));
    CHECK(message->text.find('\x07') == std::string::npos);
    // HTML: entities.
    CHECK(contains(message->html, "&lt;b&gt;Fish &amp; &quot;Chips&quot;&lt;/b&gt; for the Masses"));
    CHECK(!contains(message->html, "<b>Fish"));
    CHECK(contains(message->html, "href=\"https://arxiv.org/abs/2505.20001\""));
    CHECK(contains(message->html, "<a href=\"https://example.org/digest/2025/05/28/\">"));
    // Slack mrkdwn: &, <, > only, links as <url|label>.
    CHECK(contains(message->slack,
                   "<https://arxiv.org/abs/2505.20001|&lt;b&gt;Fish &amp; \"Chips\"&lt;/b&gt; for the Masses>"));
    CHECK(contains(message->slack, "(score 17: relevance 9, novelty 8)"));
    CHECK(contains(message->slack, "<https://example.org/digest/2025/05/28/|Daily Picks: Wednesday, 28 May 2025>"));
    // The generic webhook's JSON: the day's data.
    rapidjson::Document json;
    json.Parse(message->json.c_str());
    REQUIRE(!json.HasParseError());
    CHECK(member(json, "date") == "2025-05-28");
    CHECK(member(json, "url") == "https://example.org/digest/2025/05/28/");
    CHECK(json["count"].GetInt() == 3);
    REQUIRE(json["papers"].Size() == 2);
    CHECK(member(json["papers"][0], "title") == "<b>Fish & \"Chips\"</b> for the Masses");
    CHECK(json["papers"][0]["score"].GetInt() == 17);
    CHECK(member(json, "text") == message->text);

    CHECK(escape_for(TextFormat::plain, "a\x01"
                                        "b\xC2\x85"
                                        "c") == "abc");
    CHECK(escape_for(TextFormat::slack, "<!channel> & co") == "&lt;!channel&gt; &amp; co");
}

TEST_CASE("notify: a partial or stale day says so, with the reason, in every format and in the JSON") {
    auto templates = load_notify_templates(source_dir() / "themes", "default", "/nonexistent");
    REQUIRE_MESSAGE(templates, templates.error().to_string());
    Day day = sample_day();
    day.status = DayStatus::partial;
    day.reason = "3 of 28 candidates unscored (HTTP 429 <rate limited>)";
    auto message =
        render_message(summarize_day(day, site_config(), 2), *templates, "{{title}}: {{count}} papers for {{date}}");
    REQUIRE_MESSAGE(message, message.error().to_string());
    CHECK(message->subject == "[partial] Daily Picks: 3 papers for 2025-05-28");
    CHECK(contains(message->text, "This day is partial: 3 of 28 candidates unscored (HTTP 429 <rate limited>)"));
    CHECK(contains(message->html,
                   "This day is partial:</strong> 3 of 28 candidates unscored (HTTP 429 &lt;rate limited&gt;)"));
    CHECK(
        contains(message->slack, "*This day is partial:* 3 of 28 candidates unscored (HTTP 429 &lt;rate limited&gt;)"));
    rapidjson::Document json;
    json.Parse(message->json.c_str());
    REQUIRE(!json.HasParseError());
    CHECK(member(json, "status") == "partial");
    CHECK(member(json, "reason") == day.reason);

    day.status = DayStatus::stale;
    day.reason = "the feed is dated 2025-05-28, but the announcement expected on 2025-05-30 is 2025-05-30's";
    auto stale = render_message(summarize_day(day, site_config(), 2), *templates, "{{date}}");
    REQUIRE_MESSAGE(stale, stale.error().to_string());
    CHECK(stale->subject == "[stale] 2025-05-28");
    CHECK(contains(stale->text, "This day is stale: the feed is dated 2025-05-28"));

    // A complete day carries no such line.
    auto complete = render_message(summarize_day(sample_day(), site_config(), 2), *templates, "{{date}}");
    REQUIRE(complete.has_value());
    CHECK(!contains(complete->text, "This day is"));
    CHECK_MESSAGE(contains(complete->text, "Wednesday, 28 May 2025\n\n3 papers selected"), complete->text);
}

TEST_CASE("notify: a site's layouts/notify/ overrides the theme's templates; a broken one names its file") {
    TempDir site;
    write_text(site / "layouts/notify/slack.txt.mustache", "custom {{date}} {{#papers}}[{{title}}]{{/papers}}\n");
    auto templates = load_notify_templates(source_dir() / "themes", "default", site.path());
    REQUIRE(templates);
    auto message = render_message(summarize_day(sample_day(), site_config(), 1), *templates, "{{date}}");
    REQUIRE(message);
    CHECK(message->slack == "custom 2025-05-28 [&lt;b&gt;Fish &amp; \"Chips\"&lt;/b&gt; for the Masses]\n");
    CHECK(contains(message->html, "&lt;b&gt;Fish")); // the rest still from the theme

    // A theme without notify/ borrows the default theme's templates.
    TempDir themes;
    fs::copy(source_dir() / "themes", themes.path(), fs::copy_options::recursive);
    fs::create_directories(themes / "plain");
    fs::copy(themes / "default/layouts", themes / "plain/layouts", fs::copy_options::recursive);
    auto plain = load_notify_templates(themes.path(), "plain", site.path());
    REQUIRE(plain);
    CHECK(contains(plain->files.at("email.txt").source.string(), "default/notify/email.txt.mustache"));
    CHECK(contains(plain->files.at("slack.txt").source.string(), "layouts/notify/slack.txt.mustache"));

    write_text(site / "layouts/notify/email.html.mustache", "{{#papers}}unclosed\n");
    auto broken = load_notify_templates(source_dir() / "themes", "default", site.path());
    REQUIRE(!broken);
    CHECK(contains(broken.error().file, "layouts/notify/email.html.mustache"));
}

TEST_CASE("notify: MIME body is deterministic multipart/alternative, quoted-printable, with encoded headers") {
    Message m;
    m.subject = "Caf\xC3\xA9: 3 papers";
    m.text = "line one = two\n.starts with a dot\nFrom here\n" + std::string(100, 'x') + "\ntrailing space \n";
    m.html = "<p>Caf\xC3\xA9</p>\n";
    auto date = *parse_iso_date("2025-05-28");
    std::vector<std::string> to = {"a@example.org", "J\xC3\xB6rg <j@example.org>"};
    std::string mime = build_mime(m, "Paper Press <digest@example.org>", to, date);
    CHECK(mime == build_mime(m, "Paper Press <digest@example.org>", to, date));
    CHECK(contains(mime, "Subject: =?UTF-8?B?"));
    CHECK(contains(mime, "Date: Wed, 28 May 2025 00:00:00 +0000\r\n"));
    CHECK(contains(mime, "Message-ID: <paperpress.2025-05-28."));
    CHECK(contains(mime, "@example.org>\r\n"));
    CHECK(contains(mime, "Content-Type: multipart/alternative;\r\n boundary=\"=_paperpress_2025-05-28_"));
    CHECK(contains(mime, "=?UTF-8?B?SsO2cmc=?= <j@example.org>"));
    CHECK(contains(mime, "line one =3D two\r\n=2Estarts with a dot\r\n=46rom here\r\n"));
    CHECK(contains(mime, "trailing space=20\r\n"));
    CHECK(contains(mime, "Caf=C3=A9"));
    for (auto line : split(mime, '\n')) CHECK(line.size() <= 78);
    CHECK(mail_address("Paper Press <digest@example.org>") == "digest@example.org");
    CHECK(mail_address(" a@b ") == "a@b");
}

TEST_CASE("notify: Slack incoming webhook and bot token on a loopback receiver, with a retry after a 500") {
    LoopbackServer http;
    std::mutex mutex;
    std::vector<std::string> hook_bodies, bot_bodies, bot_auth;
    std::atomic<int> hook_calls{0};
    http.server.Post("/services/T0/B0/secret-hook-path", [&](const httplib::Request& req, httplib::Response& res) {
        if (hook_calls++ == 0) {
            res.status = 500;
            return;
        }
        std::lock_guard lock(mutex);
        hook_bodies.push_back(req.body);
        res.set_content("ok", "text/plain");
    });
    http.server.Post("/api/chat.postMessage", [&](const httplib::Request& req, httplib::Response& res) {
        std::lock_guard lock(mutex);
        bot_bodies.push_back(req.body);
        bot_auth.push_back(req.get_header_value("Authorization"));
        bool good = req.get_header_value("Authorization") == "Bearer xoxb-test-token";
        res.set_content(good ? R"({"ok":true})" : R"({"ok":false,"error":"invalid_auth"})", "application/json");
    });
    http.start();

    auto config = notify_settings("  top_n: 2\n  backoff: 0.05\n  slack:\n    webhook_env: PP_TEST_SLACK_WEBHOOK\n");
    ScopedEnv hook("PP_TEST_SLACK_WEBHOOK", http.url("/services/T0/B0/secret-hook-path"));
    Log log;
    auto report =
        notify_day(sample_day(), config, site_config(), repo_theme(), secrets_of_env(config), false, log.sink());
    CHECK_MESSAGE(report.ok(), join_warnings(report));
    CHECK(report.sent == std::vector<std::string>{"slack"});
    CHECK(hook_calls == 2);
    REQUIRE(hook_bodies.size() == 1);
    rapidjson::Document body;
    body.Parse(hook_bodies[0].c_str());
    REQUIRE(!body.HasParseError());
    CHECK(!body.HasMember("channel"));
    CHECK(contains(member(body, "text"), "<https://arxiv.org/abs/2505.20001|&lt;b&gt;Fish &amp;"));
    CHECK(contains(log.all(), "retry 1 of 3"));
    CHECK(contains(log.all(), "$PP_TEST_SLACK_WEBHOOK"));
    CHECK(!contains(log.all(), "secret-hook-path")); // the webhook URL is the secret

    config = notify_settings("  top_n: 2\n  backoff: 0.05\n  slack:\n    token_env: PP_TEST_SLACK_TOKEN\n"
                             "    channel: C0123\n    api_url: " +
                             http.url("/api/") + "\n");
    {
        ScopedEnv token("PP_TEST_SLACK_TOKEN", "xoxb-test-token");
        auto bot =
            notify_day(sample_day(), config, site_config(), repo_theme(), secrets_of_env(config), false, log.sink());
        CHECK_MESSAGE(bot.ok(), join_warnings(bot));
        REQUIRE(bot_bodies.size() == 1);
        body.Parse(bot_bodies[0].c_str());
        CHECK(member(body, "channel") == "C0123");
        CHECK(contains(member(body, "text"), "3 papers selected; the top 2:"));
    }
    {
        ScopedEnv token("PP_TEST_SLACK_TOKEN", "xoxb-wrong-token");
        auto refused =
            notify_day(sample_day(), config, site_config(), repo_theme(), secrets_of_env(config), false, log.sink());
        REQUIRE(refused.warnings.size() == 1);
        CHECK(contains(refused.warnings[0], "invalid_auth"));
        CHECK(!contains(refused.warnings[0] + log.all(), "xoxb-wrong-token"));
    }
    auto unset =
        notify_day(sample_day(), config, site_config(), repo_theme(), secrets_of_env(config), false, log.sink());
    REQUIRE(unset.warnings.size() == 1);
    CHECK(contains(unset.warnings[0], "PP_TEST_SLACK_TOKEN is not set"));
}

TEST_CASE("notify: generic webhook gets the day's JSON; a dead endpoint is a redacted warning after retries") {
    LoopbackServer http;
    std::vector<std::string> bodies;
    std::vector<std::string> content_types;
    std::atomic<int> failing_calls{0};
    http.server.Post("/hook/s3cret-token", [&](const httplib::Request& req, httplib::Response& res) {
        bodies.push_back(req.body);
        content_types.push_back(req.get_header_value("Content-Type"));
        res.status = 204;
    });
    http.server.Post("/broken/s3cret-token", [&](const httplib::Request&, httplib::Response& res) {
        ++failing_calls;
        res.status = 503;
    });
    http.start();

    auto config =
        notify_settings("  top_n: 3\n  backoff: 0.02\n  attempts: 3\n  webhook:\n    url_env: PP_TEST_HOOK\n");
    Log log;
    {
        ScopedEnv url("PP_TEST_HOOK", http.url("/hook/s3cret-token?key=abc"));
        auto report =
            notify_day(sample_day(), config, site_config(), repo_theme(), secrets_of_env(config), false, log.sink());
        CHECK_MESSAGE(report.ok(), join_warnings(report));
        REQUIRE(bodies.size() == 1);
        CHECK(contains(content_types[0], "application/json"));
        rapidjson::Document json;
        json.Parse(bodies[0].c_str());
        REQUIRE(!json.HasParseError());
        CHECK(member(json, "status") == "announced");
        CHECK(json["papers"].Size() == 3);
        CHECK(json["papers"][2]["author_match"].GetBool());
        CHECK(!json["papers"][2].HasMember("score"));
    }
    {
        ScopedEnv url("PP_TEST_HOOK", http.url("/broken/s3cret-token"));
        auto report =
            notify_day(sample_day(), config, site_config(), repo_theme(), secrets_of_env(config), false, log.sink());
        CHECK(failing_calls == 3);
        REQUIRE(report.warnings.size() == 1);
        CHECK(contains(report.warnings[0], "webhook failed: HTTP 503"));
        CHECK(contains(report.warnings[0], "$PP_TEST_HOOK"));
        CHECK(!contains(report.warnings[0] + log.all(), "s3cret-token"));
    }
}

TEST_CASE("notify: a receiver's error that echoes its secret path or query is shown without them") {
    LoopbackServer http;
    // A receiver that refuses, quoting the path and query it was sent to (no scheme, no host).
    auto echo = [](const httplib::Request& req, httplib::Response& res) {
        std::string query;
        for (const auto& [name, value] : req.params) query += (query.empty() ? "?" : "&") + name + "=" + value;
        res.status = 404;
        res.set_content("no such hook: " + req.path + query + " (token " +
                            (req.has_param("token") ? req.get_param_value("token") : "-") + ")",
                        "text/plain");
    };
    http.server.Post("/services/.*", echo);
    http.server.Post("/hook/.*", echo);
    http.start();
    auto config = notify_settings("  attempts: 1\n  slack:\n    webhook_env: PP_TEST_ECHO_SLACK\n"
                                  "  webhook:\n    url_env: PP_TEST_ECHO_HOOK\n");
    // Slack's format: .../services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX (api.slack.com/messaging/webhooks).
    ScopedEnv slack("PP_TEST_ECHO_SLACK", http.url("/services/T7ECHO0AB/B7ECHO0CD9/Echo0Slack0Secret0Path0x"));
    ScopedEnv hook("PP_TEST_ECHO_HOOK", http.url("/hook/echo4c2b9e7a?token=EchoQueryTok3n&lang=en"));
    Log log;
    auto report =
        notify_day(sample_day(), config, site_config(), repo_theme(), secrets_of_env(config), false, log.sink());
    const std::string shown = join_warnings(report) + "\n" + log.all();
    INFO(shown);
    REQUIRE(report.warnings.size() == 2);
    CHECK(contains(shown, "HTTP 404"));
    CHECK(contains(shown, "no such hook: /services/[$PP_TEST_ECHO_SLACK]/[$PP_TEST_ECHO_SLACK]/[$PP_TEST_ECHO_SLACK]"));
    CHECK(contains(shown, "(token [$PP_TEST_ECHO_HOOK])"));
    for (const char* secret : {"T7ECHO0AB", "B7ECHO0CD9", "Echo0Slack0Secret0Path0x", "echo4c2b9e7a", "EchoQueryTok3n"})
        CHECK_FALSE(contains(shown, secret));
}

TEST_CASE("notify: email reaches a real SMTP server: recipients, subject, both parts, escaping") {
    SmtpSink sink;
    auto config = email_config(sink.url());
    Log log;
    auto report =
        notify_day(sample_day(), config, site_config(), repo_theme(), secrets_of_env(config), false, log.sink());
    CHECK_MESSAGE(report.ok(), join_warnings(report));
    CHECK(report.sent == std::vector<std::string>{"email (2 recipients)"});
    auto messages = sink.messages();
    REQUIRE(messages.size() == 1);
    rapidjson::Document mail;
    mail.Parse(messages[0].c_str());
    REQUIRE(!mail.HasParseError());
    CHECK(member(mail, "mail_from") == "digest@example.org");
    REQUIRE(mail["rcpt_tos"].Size() == 2);
    CHECK(std::string(mail["rcpt_tos"][0].GetString()) == "alice@example.org");
    CHECK(std::string(mail["rcpt_tos"][1].GetString()) == "bob@example.net");
    CHECK(member(mail, "subject") == "Daily Picks: 3 papers for 2025-05-28");
    CHECK(member(mail, "from") == "Paper Press <digest@example.org>");
    CHECK(member(mail, "content_type") == "multipart/alternative");
    CHECK(member(mail, "date") == "Wed, 28 May 2025 00:00:00 +0000");
    std::string text = member(mail, "text"), html = member(mail, "html");
    CHECK(contains(text, "1. <b>Fish & \"Chips\"</b> for the Masses"));
    CHECK(contains(text, "2. Caf\xC3\xA9 Networks"));
    CHECK(contains(text, "The day's page: https://example.org/digest/2025/05/28/"));
    CHECK(contains(html, "&lt;b&gt;Fish &amp; &quot;Chips&quot;&lt;/b&gt; for the Masses"));
    CHECK(contains(html, "Caf\xC3\xA9 Networks"));
    CHECK(contains(html, "href=\"https://arxiv.org/abs/2505.20002\""));
    CHECK(!mail["tls"].GetBool());
    CHECK(member(mail, "login").empty());
}

TEST_CASE("notify: email with STARTTLS and AUTH; the password never shows") {
    SmtpSink sink({"--starttls", "--auth", "digest-bot:pw-Sup3r-s3cret"});
    const std::string login = "    username_env: PP_TEST_SMTP_USER\n    password_env: PP_TEST_SMTP_PASSWORD\n";
    // The sink's certificate is self-signed.
    auto config = email_config(sink.url(), "    starttls: true\n    insecure_tls_for_tests: true\n" + login);
    ScopedEnv user("PP_TEST_SMTP_USER", "digest-bot");
    ScopedEnv password("PP_TEST_SMTP_PASSWORD", "pw-Sup3r-s3cret");
    Log log;
    auto report =
        notify_day(sample_day(), config, site_config(), repo_theme(), secrets_of_env(config), false, log.sink());
    CHECK_MESSAGE(report.ok(), join_warnings(report));
    auto messages = sink.messages();
    REQUIRE(messages.size() == 1);
    rapidjson::Document mail;
    mail.Parse(messages[0].c_str());
    CHECK(mail["tls"].GetBool());
    CHECK(member(mail, "login") == "digest-bot");
    CHECK(!contains(messages[0], "pw-Sup3r-s3cret")); // not in what was sent either
    CHECK(!contains(log.all(), "pw-Sup3r-s3cret"));
    CHECK(contains(log.all(), "insecure_tls_for_tests"));

    // Without the test-only switch, the self-signed certificate is refused at once (no retries).
    config = email_config(sink.url(), "    starttls: true\n" + login);
    Log strict_log;
    auto strict =
        notify_day(sample_day(), config, site_config(), repo_theme(), secrets_of_env(config), false, strict_log.sink());
    REQUIRE(strict.warnings.size() == 1);
    CHECK(!contains(strict_log.all(), "retry"));
    CHECK(sink.messages().size() == 1);
}

TEST_CASE("notify: email is retried after the server refuses the first attempt") {
    SmtpSink sink({"--refuse-first", "1"});
    auto config = email_config(sink.url());
    Log log;
    auto report =
        notify_day(sample_day(), config, site_config(), repo_theme(), secrets_of_env(config), false, log.sink());
    CHECK_MESSAGE(report.ok(), join_warnings(report));
    CHECK(sink.mail_commands() == 2);
    CHECK(sink.messages().size() == 1);
    CHECK(contains(log.all(), "notify: email (2 recipients): SMTP MAIL failed: 421; retry 1 of 3"));

    // A server that always refuses: a warning after every attempt, never an exception.
    SmtpSink stubborn({"--refuse-first", "100"});
    config = email_config(stubborn.url());
    config.attempts = 2;
    auto failed =
        notify_day(sample_day(), config, site_config(), repo_theme(), secrets_of_env(config), false, log.sink());
    REQUIRE(failed.warnings.size() == 1);
    CHECK(contains(failed.warnings[0], "email (2 recipients) failed: SMTP MAIL failed: 421 (after 2 attempts)"));
    CHECK(stubborn.mail_commands() == 2);
    CHECK(stubborn.messages().empty());
}

TEST_CASE("notify: a failure notice goes out only with on_failure; a failed day is not announced as picks") {
    SmtpSink sink;
    auto config = email_config(sink.url());
    Log log;
    auto off = notify_failure(*parse_iso_date("2025-05-29"), "LLM quota exhausted <429>", config, site_config(),
                              repo_theme(), secrets_of_env(config), false, log.sink());
    CHECK(off.ok());
    CHECK(off.sent.empty());
    CHECK(sink.messages().empty());

    config.on_failure = true;
    auto on = notify_failure(*parse_iso_date("2025-05-29"), "LLM quota exhausted <429>", config, site_config(),
                             repo_theme(), secrets_of_env(config), false, log.sink());
    CHECK_MESSAGE(on.ok(), join_warnings(on));
    auto messages = sink.messages();
    REQUIRE(messages.size() == 1);
    rapidjson::Document mail;
    mail.Parse(messages[0].c_str());
    CHECK(member(mail, "subject") == "Daily Picks: the run for 2025-05-29 failed");
    CHECK(contains(member(mail, "text"), "LLM quota exhausted <429>"));
    CHECK(contains(member(mail, "html"), "LLM quota exhausted &lt;429&gt;"));

    Day failed_day = sample_day();
    failed_day.status = DayStatus::failed;
    config.on_failure = false;
    auto quiet = notify_day(failed_day, config, site_config(), repo_theme(), secrets_of_env(config), false, log.sink());
    CHECK(quiet.sent.empty());
    CHECK(sink.messages().size() == 1);

    NotifySettings none;
    auto nothing = notify_day(sample_day(), none, site_config(), repo_theme(), secrets_of_env(none), false, log.sink());
    CHECK(!nothing.configured);
    CHECK(nothing.sent.empty());
    CHECK(nothing.ok());
}

TEST_CASE("paperpress notify: --dry-run prints and sends nothing; a failed channel exits 1 and leaves the day "
          "and the site intact") {
    TempDir dir;
    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    REQUIRE(save_day(dir / "content", sample_day()));
    Day earlier = sample_day();
    earlier.date = *parse_iso_date("2025-05-27");
    earlier.papers.resize(1);
    REQUIRE(save_day(dir / "content", earlier));
    SmtpSink sink;
    write_text(dir / "paperpress.yaml", "title: Daily Picks\nbase_url: https://example.org/digest/\n"
                                        "notify:\n  top_n: 2\n  backoff: 0.02\n  attempts: 2\n"
                                        "  webhook:\n    url_env: PP_HOOK\n"
                                        "  email:\n    smtp_url: " +
                                            sink.url() +
                                            "\n"
                                            "    from: digest@example.org\n    to: [reader@example.org]\n"
                                            "    starttls: false\n");
    auto built = run_paperpress("build", dir.path());
    REQUIRE_MESSAGE(built.exit_code == 0, built.err);
    auto day_file = day_path(dir / "content", sample_day().date);
    const std::string day_before = read_text(day_file);
    const std::string page_before = read_text(dir / "site/2025/05/28/index.html");
    const auto page_time = fs::last_write_time(dir / "site/2025/05/28/index.html");

    auto dry = run_paperpress_env("PP_HOOK=http://127.0.0.1:1/hook-secret", "notify --dry-run", dir.path());
    CHECK_MESSAGE(dry.exit_code == 0, dry.err);
    CHECK(contains(dry.out, "--- webhook (POST to $PP_HOOK)"));
    CHECK(contains(dry.out, "Subject: Daily Picks: 3 papers for 2025-05-28")); // the latest day by default
    CHECK(contains(dry.out, "--- text/html ---"));
    CHECK(!contains(dry.out + dry.err, "hook-secret"));
    CHECK(sink.messages().empty());

    auto earlier_dry = run_paperpress("notify --dry-run --date 2025-05-27", dir.path());
    CHECK(contains(earlier_dry.out, "Subject: Daily Picks: 1 paper for 2025-05-27"));

    // The webhook is down (nothing listens on port 1); email still goes out.
    auto sent = run_paperpress_env("PP_HOOK=http://127.0.0.1:1/hook-secret", "notify --date 2025-05-28", dir.path());
    CHECK(sent.exit_code == 1);
    CHECK(contains(sent.err, "warning: notify: webhook failed"));
    CHECK(!contains(sent.out + sent.err, "hook-secret"));
    CHECK(contains(sent.out, "notify: 2025-05-28: sent to 1 channel, 1 failed"));
    CHECK(sink.messages().size() == 1);
    CHECK(read_text(day_file) == day_before);
    CHECK(read_text(dir / "site/2025/05/28/index.html") == page_before);
    CHECK(fs::last_write_time(dir / "site/2025/05/28/index.html") == page_time);

    auto missing = run_paperpress("notify --date 2025-06-01", dir.path());
    CHECK(missing.exit_code == 1);
    CHECK(contains(missing.err, "expected a day file for 2025-06-01"));
    auto bad = run_paperpress("notify --date tomorrow", dir.path());
    CHECK(bad.exit_code == 2);
}

TEST_CASE("notify: a failure notice and the log hide URL userinfo, query tokens and known secret values") {
    SmtpSink sink;
    auto config = email_config(sink.url());
    config.on_failure = true;
    register_secret("sk-notify-test-31b7", "PP_NOTIFY_TEST_KEY");
    Log log;
    auto sent = notify_failure(*parse_iso_date("2025-05-29"),
                               "HTTP 401 from http://user:PASSWORD@llm.example/v1?key=QUERYTOKEN: "
                               "{\"error\": \"bad key sk-notify-test-31b7\"}",
                               config, site_config(), repo_theme(), secrets_of_env(config), false, log.sink());
    CHECK_MESSAGE(sent.ok(), join_warnings(sent));
    auto messages = sink.messages();
    REQUIRE(messages.size() == 1);
    rapidjson::Document mail;
    mail.Parse(messages[0].c_str());
    CHECK(contains(member(mail, "text"), "http://***@llm.example/v1?key=***"));
    CHECK(contains(member(mail, "text"), "[$PP_NOTIFY_TEST_KEY]"));
    for (const char* secret : {"PASSWORD", "QUERYTOKEN", "sk-notify-test-31b7"})
        CHECK_FALSE(contains(messages[0] + log.all(), secret));
}

TEST_CASE(
    "notify: secrets come from the command line's reading, never from the environment; every channel is in the table") {
    auto config = notify_settings("  webhook:\n    url_env: PP_TEST_HOOK_FROM_ENV\n");
    ScopedEnv hook("PP_TEST_HOOK_FROM_ENV", "http://127.0.0.1:1/hook");
    Log log;
    auto report = notify_day(sample_day(), config, site_config(), repo_theme(), NotifySecrets{}, false, log.sink());
    REQUIRE(report.warnings.size() == 1);
    CHECK(contains(report.warnings[0], "environment variable PP_TEST_HOOK_FROM_ENV is not set; nothing sent"));

    std::vector<std::string> names;
    for (const ChannelKind& kind : notification_channels()) names.push_back(kind.name);
    CHECK(names == std::vector<std::string>{"slack", "webhook", "email"});
    CHECK_FALSE(any_channel(NotifySettings{}));
    CHECK(any_channel(config));
}

namespace {

// A channel only this test's table has: its own file would be all of it.
Result<ChannelSetup> read_pager(const ChannelSection& section) {
    std::string key_env, login_env;
    auto ok = read_section(section, [&](const Section& r) -> std::map<std::string, Setter> {
        return {{"key_env", r.env_name(key_env)}, {"login_env", r.env_name(login_env)}};
    });
    if (!ok) return std::unexpected(ok.error());
    if (key_env.empty()) return section_problem(section, "'pager.key_env'");
    ChannelSetup setup;
    setup.enabled = true;
    setup.secret_variables = {key_env};
    if (!login_env.empty()) setup.plain_variables = {login_env};
    setup.make = [key_env](const ChannelInputs& in) {
        Channel c;
        c.name = "pager";
        c.use_secret(in, key_env);
        c.preview = [] { return std::string("pager"); };
        c.send = [](const SendOptions&) -> Result<void> { return {}; };
        return c;
    };
    return setup;
}

// The variables `read_notify_secrets` asks for, each with whether it holds a secret.
std::map<std::string, bool> variables_asked(const NotifySettings& notify,
                                            const std::vector<ChannelKind>& kinds = notification_channels()) {
    std::map<std::string, bool> asked;
    auto secrets = read_notify_secrets(
        notify,
        [&](const std::string& name, bool secret) {
            asked[name] = secret;
            return "value of " + name;
        },
        kinds);
    for (const auto& [name, secret] : asked) CHECK(secrets.at(name) == "value of " + name);
    return asked;
}

} // namespace

TEST_CASE("notify: each channel reads its own section and names its variables; the secrets are read through the "
          "table") {
    auto notify = notify_settings("  slack:\n    webhook_env: SLACK_HOOK\n  webhook:\n    url_env: HOOK_URL\n"
                                  "  email:\n    smtp_url: smtp://mail.example.org\n    from: bot@example.org\n"
                                  "    to: a@example.org\n    username_env: SMTP_USER\n    password_env: SMTP_PW\n");
    CHECK(variables_asked(notify) == std::map<std::string, bool>{{"SLACK_HOOK", true},
                                                                 {"HOOK_URL", true},
                                                                 {"SMTP_PW", true},
                                                                 {"SMTP_USER", false}}); // a login name: shown
    CHECK(variables_asked(notify_settings("  top_n: 3\n")).empty());
    auto bot = notify_settings("  slack:\n    token_env: SLACK_BOT\n    channel: C1\n");
    CHECK(variables_asked(bot) == std::map<std::string, bool>{{"SLACK_BOT", true}});
}

TEST_CASE("notify: a new channel is its file plus a line in the table; config/ and the secrets need nothing more") {
    // config/ knows no channel: it keeps the section for the table to read.
    auto config = parse_config("notify:\n  top_n: 3\n  pager:\n    key_env: PAGER_KEY\n    login_env: PAGER_LOGIN\n"
                               "  webhook:\n    url_env: HOOK_URL\n",
                               "p.yaml");
    REQUIRE_MESSAGE(config, config.error().to_string());
    // Without its line in the table, its key is unknown: the file, the line and the channels there are.
    auto unknown = read_channels(config->notify);
    REQUIRE_FALSE(unknown);
    CHECK(unknown.error().to_string() ==
          "p.yaml:3: unknown key 'notify.pager' (the channels are slack, webhook, email; see docs/configuration.md)");
    CHECK_FALSE(any_channel(config->notify));

    std::vector<ChannelKind> kinds = notification_channels();
    kinds.push_back({"pager", read_pager});
    auto channels = read_channels(config->notify, kinds);
    REQUIRE_MESSAGE(channels, channels.error().to_string());
    REQUIRE(channels->size() == 2); // in the table's order
    CHECK((*channels)[0].secret_variables == std::vector<std::string>{"HOOK_URL"});
    CHECK((*channels)[1].secret_variables == std::vector<std::string>{"PAGER_KEY"});
    CHECK(variables_asked(config->notify, kinds) ==
          std::map<std::string, bool>{{"HOOK_URL", true}, {"PAGER_KEY", true}, {"PAGER_LOGIN", false}});

    // Its own mistakes name the file and the line, as config/'s do.
    auto typo = parse_config("notify:\n  pager:\n    key_env: K\n    kye_env: x\n", "p.yaml");
    REQUIRE(typo);
    auto bad = read_channels(typo->notify, kinds);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().to_string() ==
          "p.yaml:4: unknown key 'notify.pager.kye_env'; did you mean 'key_env'? (see docs/configuration.md)");
    auto missing = parse_config("notify:\n  pager:\n    login_env: L\n", "p.yaml");
    REQUIRE(missing);
    CHECK(read_channels(missing->notify, kinds).error().to_string() ==
          "p.yaml:2: expected 'pager.key_env' in section 'notify'");
}

TEST_CASE("notify: a password inside email.smtp_url is refused by check, naming the key, never showing the password") {
    const std::string yaml = "notify:\n  email:\n    smtp_url: smtp://bot:hunter2-secret@mail.example.org:587\n"
                             "    from: bot@example.org\n    to: a@example.org\n";
    auto config = parse_config(yaml, "paperpress.yaml");
    REQUIRE_MESSAGE(config, config.error().to_string());
    auto channels = read_channels(config->notify);
    REQUIRE_FALSE(channels);
    const std::string error = channels.error().to_string();
    CHECK(error.starts_with("paperpress.yaml:2: expected 'email.smtp_url' without a password (got "
                            "'smtp://***@mail.example.org:587'; "));
    CHECK(error.find("email.password_env") != std::string::npos);
    CHECK(error.find("hunter2") == std::string::npos);

    TempDir dir;
    write_text(dir / "paperpress.yaml", yaml);
    auto checked = run_paperpress("check", dir.path());
    CHECK(checked.exit_code != 0);
    CHECK_MESSAGE(checked.err.find("'email.smtp_url' without a password") != std::string::npos, checked.err);
    CHECK((checked.out + checked.err).find("hunter2") == std::string::npos);

    // A user name alone, or an '@' only in the path, is no password.
    for (const char* url : {"smtp://bot@mail.example.org:587", "smtps://mail.example.org/a:b@c"}) {
        auto fine = parse_config("notify:\n  email:\n    smtp_url: " + std::string(url) +
                                     "\n    from: bot@example.org\n    to: a@example.org\n",
                                 "paperpress.yaml");
        REQUIRE(fine);
        CHECK_MESSAGE(read_channels(fine->notify), url);
    }
}

TEST_CASE("notify: a pick's TL;DR is in every format and the webhook's JSON, escaped its own way") {
    auto templates = load_notify_templates(source_dir() / "themes", "default", "/nonexistent");
    REQUIRE_MESSAGE(templates, templates.error().to_string());
    Day day = sample_day();
    day.papers[0].summary.tldr = "Sparse <experts> & \"routing\" in one line";
    day.papers[1].summary.failed = "the reply was cut at the length limit";
    auto message = render_message(summarize_day(day, site_config(), 3), *templates, default_subject);
    REQUIRE_MESSAGE(message, message.error().to_string());
    CHECK(contains(message->text, "   TL;DR: Sparse <experts> & \"routing\" in one line\n"));
    CHECK(contains(message->html,
                   "<strong>TL;DR:</strong> Sparse &lt;experts&gt; &amp; &quot;routing&quot; in one line"));
    CHECK(contains(message->slack, ">Sparse &lt;experts&gt; &amp; \"routing\" in one line\n"));
    // Only the paper that has one: no failure text, no empty TL;DR.
    CHECK(message->text.find("TL;DR") == message->text.rfind("TL;DR"));
    CHECK(!contains(message->text, "cut at the length limit"));
    rapidjson::Document json;
    json.Parse(message->json.c_str());
    REQUIRE(!json.HasParseError());
    CHECK(member(json["papers"][0], "tldr") == "Sparse <experts> & \"routing\" in one line");
    CHECK_FALSE(json["papers"][1].HasMember("tldr"));
}
