#include "notify/message.h"

#include "core/tex.h"
#include "site/urls.h"
#include "util/json.h"
#include "util/text.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>

namespace pp {

namespace mustache = kainjow::mustache;

namespace {

constexpr std::size_t max_authors = 5;

// Drops C0 controls (except those `keep` names), DEL and the C1 controls
// (U+0080..U+009F, UTF-8 C2 80..C2 9F); tabs and line breaks not kept become spaces.
std::string strip_controls(std::string_view text, bool keep_newlines) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n' && keep_newlines) {
            out += '\n';
        } else if (c == '\t' || c == '\n' || c == '\r') {
            if (!keep_newlines || c != '\r') out += ' ';
        } else if (c < 0x20 || c == 0x7f) {
            continue;
        } else if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                   static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
            ++i;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

std::string one_line(std::string_view text) { return std::string(trim(tidy_line(strip_controls(text, false)))); }

// A context whose partials are always absent: day data never stands in for
// a template, and notify templates include no partials.
class NoPartials : public mustache::basic_context<std::string> {
public:
    explicit NoPartials(const mustache::data* data) : inner_(data) {}
    void push(const mustache::data* data) override { inner_.push(data); }
    void pop() override { inner_.pop(); }
    const mustache::data* get(const std::string& name) const override { return inner_.get(name); }
    const mustache::data* get_partial(const std::string&) const override { return nullptr; }

private:
    mustache::context<std::string> inner_;
};

Result<std::string> render(const std::string& text, const std::string& source, const mustache::data& data,
                           TextFormat format) {
    mustache::mustache tmpl(text);
    if (!tmpl.is_valid()) return fail("mustache syntax error: " + tmpl.error_message(), source);
    tmpl.set_custom_escape([format](const std::string& s) { return escape_for(format, s); });
    NoPartials context(&data);
    std::string out = tmpl.render(context);
    if (!tmpl.is_valid()) return fail("mustache error: " + tmpl.error_message(), source);
    return out;
}

mustache::data template_data(const DayMessage& s) {
    mustache::data data;
    data.set("title", s.site_title);
    data.set("date", s.date.iso());
    data.set("date_long", long_date(s.date));
    data.set("day_url", s.day_url);
    data.set("count", std::to_string(s.count));
    data.set("paper_word", s.count == 1 ? "paper" : "papers");
    data.set("failed", s.failed);
    data.set("status", s.status);
    data.set("reason", s.reason);
    data.set("incomplete", s.status == "partial" || s.status == "stale");
    data.set("error", s.error);
    data.set("has_papers", !s.top.empty());
    data.set("shown", std::to_string(s.top.size()));
    int more = s.count - static_cast<int>(s.top.size());
    data.set("more", more > 0);
    data.set("more_count", std::to_string(std::max(more, 0)));
    mustache::data papers{mustache::data::type::list};
    for (const auto& p : s.top) {
        mustache::data item;
        item.set("rank", std::to_string(p.rank));
        item.set("id", p.id);
        item.set("title", p.title);
        item.set("url", p.url);
        item.set("authors", p.authors);
        item.set("has_scores", p.relevance.has_value() && p.novelty.has_value());
        item.set("relevance", p.relevance ? std::to_string(*p.relevance) : std::string());
        item.set("novelty", p.novelty ? std::to_string(*p.novelty) : std::string());
        item.set("score", std::to_string(p.relevance.value_or(0) + p.novelty.value_or(0)));
        item.set("author_match", p.author_match);
        item.set("comment", p.comment);
        item.set("has_comment", !p.comment.empty());
        item.set("tldr", p.tldr);
        item.set("has_tldr", !p.tldr.empty());
        papers.push_back(item);
    }
    data.set("papers", papers);
    return data;
}

void write_string(rapidjson::Writer<rapidjson::StringBuffer>& json, const char* key, const std::string& value) {
    json.Key(key);
    json.String(value.c_str(), static_cast<rapidjson::SizeType>(value.size()));
}

std::string webhook_json(const DayMessage& s, const Message& m) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> json(buffer);
    json.StartObject();
    write_string(json, "date", s.date.iso());
    write_string(json, "status", s.failed ? "failed" : s.status);
    if (!s.failed && !s.reason.empty()) write_string(json, "reason", s.reason);
    write_string(json, "title", s.site_title);
    write_string(json, "url", s.day_url);
    if (s.failed) {
        write_string(json, "error", s.error);
    } else {
        json.Key("count");
        json.Int(s.count);
        json.Key("papers");
        json.StartArray();
        for (const auto& p : s.top) {
            json.StartObject();
            json.Key("rank");
            json.Int(p.rank);
            write_string(json, "id", p.id);
            write_string(json, "title", p.title);
            write_string(json, "url", p.url);
            write_string(json, "authors", p.authors);
            if (p.relevance) json.Key("relevance"), json.Int(*p.relevance);
            if (p.novelty) json.Key("novelty"), json.Int(*p.novelty);
            if (p.relevance && p.novelty) json.Key("score"), json.Int(*p.relevance + *p.novelty);
            json.Key("author_match");
            json.Bool(p.author_match);
            write_string(json, "comment", p.comment);
            if (!p.tldr.empty()) write_string(json, "tldr", p.tldr);
            json.EndObject();
        }
        json.EndArray();
    }
    write_string(json, "subject", m.subject);
    write_string(json, "text", m.text);
    json.EndObject();
    return escape_control_bytes(buffer.GetString()); // see util/json.h
}

} // namespace

std::string escape_for(TextFormat format, std::string_view text) {
    std::string clean = strip_controls(text, true);
    if (format == TextFormat::plain) return clean;
    std::string out;
    out.reserve(clean.size() + clean.size() / 8);
    for (char c : clean) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += format == TextFormat::html ? "&quot;" : "\"";
                break;
            case '\'':
                out += format == TextFormat::html ? "&#39;" : "'";
                break;
            default:
                out += c;
        }
    }
    return out;
}

DayMessage summarize_day(const Day& day, const Config& site, int top_n) {
    DayMessage s;
    s.date = day.date;
    s.failed = day.status == DayStatus::failed;
    if (s.failed) s.error = "the run for this day failed";
    s.status = to_string(day.status);
    s.reason = one_line(day.reason);
    s.site_title = one_line(site.title);
    s.day_url = SiteUrls(site.base_url).absolute(day_path_of(day.date));
    s.count = static_cast<int>(day.papers.size());
    for (const auto& paper : day.papers) {
        if (static_cast<int>(s.top.size()) >= top_n) break;
        PaperLine line;
        line.rank = static_cast<int>(s.top.size()) + 1;
        line.id = one_line(paper.id);
        line.title = one_line(paper.title);
        line.url = "https://arxiv.org/abs/" + line.id;
        std::vector<std::string> authors;
        for (std::size_t i = 0; i < paper.authors.size() && i < max_authors; ++i)
            authors.push_back(one_line(tex_to_unicode(paper.authors[i]))); // "Sch\"utze" as Schütze
        line.authors = join(authors, ", ");
        if (paper.authors.size() > max_authors) line.authors += " et al.";
        line.relevance = paper.relevance;
        line.novelty = paper.novelty;
        line.author_match = paper.author_match;
        line.comment = one_line(paper.comment);
        line.tldr = one_line(paper.summary.tldr);
        s.top.push_back(std::move(line));
    }
    return s;
}

DayMessage summarize_failure(const Date& date, const std::string& error, const Config& site) {
    DayMessage s;
    s.date = date;
    s.failed = true;
    s.error = one_line(error);
    s.site_title = one_line(site.title);
    s.day_url = SiteUrls(site.base_url).absolute(home_path());
    return s;
}

const std::vector<std::string>& notify_template_names() {
    static const std::vector<std::string> names = {"email.txt", "email.html", "slack.txt", "failure.txt"};
    return names;
}

Result<NotifyTemplates> load_notify_templates(const fs::path& themes_dir, const std::string& theme,
                                              const fs::path& site_dir) {
    if (theme.empty() || theme.find('/') != std::string::npos || theme.find("..") != std::string::npos)
        return fail("expected a theme name (a folder under " + themes_dir.string() + "), got '" + theme + "'");
    NotifyTemplates templates;
    for (const auto& name : notify_template_names()) {
        const std::string file = name + ".mustache";
        std::error_code ec;
        // The site's own layouts, then the theme's; a theme made before notifications existed borrows the
        // default theme's. Each is read beneath its folder (no link out).
        fs::path root = site_dir / "layouts", path = root / "notify" / file;
        if (!fs::is_regular_file(path, ec)) root = themes_dir / theme, path = root / "notify" / file;
        if (!fs::is_regular_file(path, ec)) root = themes_dir / "default", path = root / "notify" / file;
        if (!fs::is_regular_file(path, ec))
            return fail("theme '" + theme + "' has no notification template '" + name + "' (expected notify/" + file +
                            ")",
                        (themes_dir / theme).string());
        auto text = read_file_inside(root, path);
        if (!text) return std::unexpected(text.error());
        mustache::mustache tmpl(*text);
        if (!tmpl.is_valid()) return fail("mustache syntax error: " + tmpl.error_message(), path.string());
        templates.files.emplace(name, ThemeFile{std::move(*text), path});
    }
    return templates;
}

Result<Message> render_message(const DayMessage& summary, const NotifyTemplates& templates,
                               const std::string& subject_template) {
    auto data = template_data(summary);
    auto get = [&](const std::string& name) -> const ThemeFile* {
        auto it = templates.files.find(name);
        return it == templates.files.end() ? nullptr : &it->second;
    };
    const ThemeFile* text_file = get(summary.failed ? "failure.txt" : "email.txt");
    const ThemeFile* html_file = get("email.html");
    const ThemeFile* slack_file = get(summary.failed ? "failure.txt" : "slack.txt");
    if (!text_file || !html_file || !slack_file) return fail("notification templates not loaded");

    Message message;
    std::string subject = subject_template;
    if (summary.failed) subject = "{{title}}: the run for {{date}} failed";
    else if (summary.status == "partial" || summary.status == "stale") subject = "[{{status}}] " + subject;
    auto rendered_subject = render(subject, "notify.email.subject", data, TextFormat::plain);
    if (!rendered_subject) return std::unexpected(rendered_subject.error());
    message.subject = one_line(*rendered_subject);
    if (message.subject.size() > 250) message.subject.resize(250); // may cut a character: headers are encoded anyway

    auto text = render(text_file->text, text_file->source.string(), data, TextFormat::plain);
    if (!text) return std::unexpected(text.error());
    message.text = std::move(*text);
    auto slack = render(slack_file->text, slack_file->source.string(), data, TextFormat::slack);
    if (!slack) return std::unexpected(slack.error());
    message.slack = std::move(*slack);
    if (summary.failed) {
        // The failure notice has one template; its HTML is the text, escaped.
        auto html = render(text_file->text, text_file->source.string(), data, TextFormat::html);
        if (!html) return std::unexpected(html.error());
        message.html = "<!DOCTYPE html>\n<html><body><pre>" + *html + "</pre></body></html>\n";
    } else {
        auto html = render(html_file->text, html_file->source.string(), data, TextFormat::html);
        if (!html) return std::unexpected(html.error());
        message.html = std::move(*html);
    }
    message.json = webhook_json(summary, message);
    return message;
}

std::string slack_payload(const Message& message, const std::string& channel) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> json(buffer);
    json.StartObject();
    if (!channel.empty()) write_string(json, "channel", channel);
    write_string(json, "text", message.slack);
    json.Key("mrkdwn");
    json.Bool(true);
    json.Key("unfurl_links");
    json.Bool(false);
    json.Key("unfurl_media");
    json.Bool(false);
    json.EndObject();
    return escape_control_bytes(buffer.GetString()); // see util/json.h
}

} // namespace pp
