#include "site/feeds.h"

#include "core/arxiv_id.h"
#include "core/tex.h"
#include "site/render_markdown.h"
#include "util/json.h"
#include "util/text.h"

#include <pugixml.hpp>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <type_traits>
#include <utility>

namespace pp {

namespace {

std::string timestamp(const Date& date) { return date.iso() + "T00:00:00Z"; }

// A remedial day was last changed when it was generated.
Date entry_updated(const Day& day) {
    if (day.remedial && day.remedial->generated) return std::max(day.date, *day.remedial->generated);
    return day.date;
}

void text_child(pugi::xml_node parent, const char* name, const std::string& text) {
    parent.append_child(name).text().set(text.c_str());
}

// pugixml's writer into a string, without a stream's copies.
struct StringWriter : pugi::xml_writer {
    std::string out;
    void write(const void* data, std::size_t size) override { out.append(static_cast<const char*>(data), size); }
};

// Without indentation: machines read these files, and the sitemap's blanks
// were a sixth of its bytes.
std::string save(const pugi::xml_document& doc) {
    StringWriter writer;
    doc.save(writer, "", pugi::format_raw, pugi::encoding_utf8);
    writer.out += '\n';
    return std::move(writer.out);
}

// The entry's HTML: the day's papers as a list, escaped here once and once
// more by the XML writer, as Atom's type="html" wants.
std::string entry_html(const Day& day) {
    if (day.status == DayStatus::failed) return "<p>The run for this day failed; no papers were selected.</p>";
    if (day.papers.empty()) return "<p>No papers were selected this day.</p>";
    std::string html;
    if (day.status == DayStatus::partial || day.status == DayStatus::stale) // as the day page's banner says
        html = "<p>This day is " + std::string(to_string(day.status)) +
               (day.reason.empty() ? "" : ": " + html_escape(day.reason)) + ".</p>";
    html += "<ol>";
    for (const auto& paper : day.papers) {
        html += "<li><a href=\"" + html_escape(arxiv_abs_url(paper.id)) + "\">" +
                html_escape(tex_to_plain(paper.title)) + "</a>"; // feed readers typeset no math
        if (!paper.authors.empty()) html += "<br>" + html_escape(tex_to_unicode(join(paper.authors, ", ")));
        if (!paper.summary.tldr.empty()) html += "<p>TL;DR: " + html_escape(paper.summary.tldr) + "</p>";
        html += "</li>";
    }
    return html + "</ol>";
}

// An entry for the day page of `day`.
void append_entry(pugi::xml_node feed, const SiteUrls& urls, const Day& day, const std::string& title,
                  const std::string& html, const Date& updated) {
    auto entry = feed.append_child("entry");
    text_child(entry, "title", title);
    text_child(entry, "id", urls.absolute(day_path_of(day.date)));
    auto link = entry.append_child("link");
    link.append_attribute("rel") = "alternate";
    link.append_attribute("type") = "text/html";
    link.append_attribute("href") = urls.absolute(day_path_of(day.date)).c_str();
    text_child(entry, "updated", timestamp(updated));
    text_child(entry, "published", timestamp(day.date));
    auto content = entry.append_child("content");
    content.append_attribute("type") = "html";
    content.text().set(html.c_str());
}

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

void json_string(JsonWriter& json, const char* key, const std::string& value) {
    json.Key(key);
    json.String(value.c_str(), static_cast<rapidjson::SizeType>(value.size()));
}

void json_optional(JsonWriter& json, const char* key, const std::optional<long long>& value) {
    json.Key(key);
    if (value) json.Int64(*value);
    else json.Null();
}

void json_optional(JsonWriter& json, const char* key, const std::optional<double>& value) {
    json.Key(key);
    if (value) json.Double(*value);
    else json.Null();
}

void json_strings(JsonWriter& json, const char* key, const std::vector<std::string>& values) {
    json.Key(key);
    json.StartArray();
    for (const auto& value : values) json.String(value.c_str(), static_cast<rapidjson::SizeType>(value.size()));
    json.EndArray();
}

void json_counts(JsonWriter& json, const Counts& counts) {
    json.Key("counts");
    json.StartObject();
    json_optional(json, "arxiv", counts.arxiv);
    json_optional(json, "scanned", counts.scanned);
    json_optional(json, "relevant", counts.relevant);
    json.EndObject();
}

} // namespace

std::vector<std::size_t> feed_days(const std::vector<DaySummary>& days, int count) {
    const auto limit = static_cast<std::size_t>(std::max(0, count));
    std::vector<std::size_t> chosen, run;
    std::size_t with_papers = 0;
    for (std::size_t i = days.size(); i-- > 0 && with_papers < limit;) {
        const bool papers = days[i].papers > 0;
        if (papers) chosen.push_back(i), ++with_papers;
        else if (with_papers == 0) run.push_back(i);
    }
    // The run's newest and oldest day: one notice, named by its first day.
    if (run.size() > 2) run.erase(run.begin() + 1, run.end() - 1);
    chosen.insert(chosen.begin(), run.begin(), run.end());
    return chosen;
}

std::string atom_feed(const Config& config, const SiteUrls& urls, const std::vector<const Day*>& days) {
    pugi::xml_document doc;
    auto decl = doc.append_child(pugi::node_declaration);
    decl.append_attribute("version") = "1.0";
    decl.append_attribute("encoding") = "utf-8";
    auto feed = doc.append_child("feed");
    feed.append_attribute("xmlns") = "http://www.w3.org/2005/Atom";
    text_child(feed, "title", config.title);
    if (!config.description.empty()) text_child(feed, "subtitle", config.description);
    text_child(feed, "id", urls.absolute(home_path()));
    auto self = feed.append_child("link");
    self.append_attribute("rel") = "self";
    self.append_attribute("href") = urls.absolute(feed_path()).c_str();
    auto alternate = feed.append_child("link");
    alternate.append_attribute("rel") = "alternate";
    alternate.append_attribute("type") = "text/html";
    alternate.append_attribute("href") = urls.absolute(home_path()).c_str();
    // From the days, not the clock: rebuilding changes nothing.
    Date updated;
    for (const Day* day : days) updated = std::max(updated, entry_updated(*day));
    text_child(feed, "updated", timestamp(updated));
    auto author = feed.append_child("author");
    text_child(author, "name", config.author.empty() ? config.title : config.author);
    text_child(feed, "generator", "paperpress");

    std::size_t first = 0;
    if (days.size() > 1 && days[0]->papers.empty() && days[1]->papers.empty()) {
        // A run of days without papers (feed_days() gives its newest and oldest) is one
        // notice, identified by its first day so that it stays one entry while the run grows.
        const Day& newest = *days[0];
        const Day& oldest = *days[1];
        const std::string span = oldest.date.iso() + " to " + newest.date.iso();
        const std::string last = newest.status == DayStatus::failed ? "failed" : "selected no papers";
        append_entry(feed, urls, oldest, "No papers from " + span,
                     "<p>No papers from " + span + "; the latest run " + last + ".</p>", entry_updated(newest));
        first = 2;
    }
    for (std::size_t i = first; i < days.size(); ++i) {
        const Day* day = days[i];
        std::string title = "arXiv papers for " + day->date.iso();
        const bool incomplete = day->status == DayStatus::partial || day->status == DayStatus::stale;
        title += day->status == DayStatus::failed
                     ? " (run failed)"
                     : " (" + std::to_string(day->papers.size()) + (day->papers.size() == 1 ? " paper" : " papers") +
                           (incomplete ? ", " + std::string(to_string(day->status)) : "") + ")";
        append_entry(feed, urls, *day, title, entry_html(*day), entry_updated(*day));
    }
    return save(doc);
}

std::string sitemap(const SiteUrls& urls, const SiteGraph& graph) {
    pugi::xml_document doc;
    auto decl = doc.append_child(pugi::node_declaration);
    decl.append_attribute("version") = "1.0";
    decl.append_attribute("encoding") = "utf-8";
    auto set = doc.append_child("urlset");
    set.append_attribute("xmlns") = "http://www.sitemaps.org/schemas/sitemap/0.9";
    auto add = [&](const std::string& site_path, const std::optional<Date>& lastmod) {
        auto url = set.append_child("url");
        text_child(url, "loc", urls.absolute(site_path));
        if (lastmod) text_child(url, "lastmod", lastmod->iso());
    };
    add(home_path(), graph.days.empty() ? std::nullopt : std::optional(graph.days.back().date));
    add(archive_path(), std::nullopt);
    for (const auto& year : graph.years) add(year_path_of(year.year), std::nullopt);
    for (const auto& month : graph.months) add(month_path_of(month.year, month.month), std::nullopt);
    for (const auto& day : graph.days) add(day_path_of(day.date), day.date);
    return save(doc);
}

namespace {

// "unicode": the title and authors as a reader sees them (TeX decoded, the
// search page shows and matches these), only for a paper whose TeX changes them.
void json_unicode(JsonWriter& json, const Paper& paper) {
    if (!has_tex(paper.title) &&
        std::none_of(paper.authors.begin(), paper.authors.end(), [](const std::string& a) { return has_tex(a); }))
        return;
    json.Key("unicode");
    json.StartObject();
    json_string(json, "title", tex_to_unicode(paper.title, true));
    json.Key("authors");
    json.StartArray();
    for (const auto& author : paper.authors) {
        const std::string name = tex_to_unicode(author);
        json.String(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
    }
    json.EndArray();
    json.EndObject();
}

// A paper's fields that say something: an empty text or list, a false
// author_match and an unknown score are left out (a reader takes a missing
// field for empty, false or unknown), and so is what follows from the ID
// (the arXiv links) or from other fields (the score, their sum).
void json_paper(JsonWriter& json, const Paper& paper, PaperText text) {
    auto text_if_any = [&](const char* key, const std::string& value) {
        if (!value.empty()) json_string(json, key, value);
    };
    auto number_if_known = [&](const char* key, const std::optional<int>& value) {
        if (!value) return;
        json.Key(key);
        json.Int(*value);
    };
    json.StartObject();
    json_string(json, "id", paper.id);
    json_string(json, "title", paper.title);
    json_strings(json, "authors", paper.authors);
    json_unicode(json, paper);
    if (text == PaperText::full) {
        text_if_any("abstract", paper.abstract);
        text_if_any("comment", paper.comment);
    }
    number_if_known("relevance", paper.relevance);
    number_if_known("novelty", paper.novelty);
    if (paper.author_match) {
        json.Key("author_match");
        json.Bool(true);
    }
    text_if_any("topic", paper.topic);
    if (!paper.also_topics.empty()) json_strings(json, "also_topics", paper.also_topics);
    text_if_any("topic_note", paper.topic_note);
    text_if_any("unscored", paper.unscored);
    json.EndObject();
}

} // namespace

std::string index_json(const Config& config, const SiteUrls& urls, const SiteGraph& graph) {
    rapidjson::StringBuffer buffer;
    JsonWriter json(buffer);
    json.StartObject();
    json_string(json, "title", config.title);
    json_string(json, "base_url", urls.base_url());
    json.Key("days");
    json.StartArray();
    for (const auto& day : graph.days) {
        json.StartObject();
        json_string(json, "date", day.date.iso());
        json_string(json, "url", urls.absolute(day_path_of(day.date)));
        if (config.data == "day") json_string(json, "data", urls.absolute(day_data_path(day.date)));
        json_string(json, "status", to_string(day.status));
        json.Key("papers");
        json.Int(day.papers);
        if (day.remedial) { // left out when false, as in a paper's data
            json.Key("remedial");
            json.Bool(true);
        }
        json_counts(json, day.counts);
        json.EndObject();
    }
    json.EndArray();
    if (config.data != "none") {
        json.Key("months");
        json.StartArray();
        for (auto it = graph.months.rbegin(); it != graph.months.rend(); ++it) {
            json.StartObject();
            json_string(json, "month", month_data_name(it->year, it->month));
            json_string(json, "url", month_data_path(it->year, it->month).substr(std::string_view("data/").size()));
            json.Key("days");
            json.Uint64(it->days.size());
            json.Key("papers");
            json.Int(it->papers);
            json.EndObject();
        }
        json.EndArray();
    }
    json.EndObject();
    return harden_json({buffer.GetString(), buffer.GetSize()});
}

PageBuffer month_data_json(int year, int month, const std::vector<std::string_view>& day_jsons) {
    const std::string head = "{\"month\":\"" + month_data_name(year, month) + "\",\"days\":[", tail = "]}\n";
    std::size_t size = head.size() + day_jsons.size() + tail.size();
    for (const auto& day : day_jsons) size += day.size();
    PageBuffer json(size);
    json.append(head);
    for (std::size_t i = 0; i < day_jsons.size(); ++i) {
        if (i > 0) json.append(",");
        std::string_view day = day_jsons[i];
        if (day.ends_with('\n')) day.remove_suffix(1); // harden_json's newline
        json.append(day);
    }
    json.append(tail);
    return json;
}

std::string day_json(const SiteUrls& urls, const Day& day, PaperText text) {
    // One buffer a thread, kept at its largest: the day's JSON outlives the
    // day by a month, and a buffer grown afresh each time would leave holes
    // around it in the thread's heap.
    thread_local rapidjson::StringBuffer buffer;
    buffer.Clear();
    JsonWriter json(buffer);
    json.StartObject();
    json_string(json, "date", day.date.iso());
    json_string(json, "url", urls.absolute(day_path_of(day.date)));
    json_string(json, "status", to_string(day.status));
    if (!day.reason.empty()) json_string(json, "reason", day.reason); // why a day is partial, stale or failed
    json_string(json, "model", day.model);
    json.Key("tokens");
    if (day.tokens) {
        json.StartObject();
        json.Key("prompt");
        json.Int64(day.tokens->prompt);
        json.Key("completion");
        json.Int64(day.tokens->completion);
        json.Key("cached");
        json.Int64(day.tokens->cached);
        json.EndObject();
    } else {
        json.Null();
    }
    json.Key("cost"); // null is unknown, never $0
    json.StartObject();
    json_optional(json, "prompt", day.cost.prompt);
    json_optional(json, "completion", day.cost.completion);
    json_optional(json, "total", day.cost.total);
    json.EndObject();
    json_counts(json, day.counts);
    json.Key("remedial");
    if (day.remedial) {
        json.StartObject();
        json_string(json, "from", day.remedial->from.iso());
        json_string(json, "to", day.remedial->to.iso());
        json.Key("generated");
        if (day.remedial->generated) json.String(day.remedial->generated->iso().c_str());
        else json.Null();
        json.EndObject();
    } else {
        json.Null();
    }
    json.Key("papers");
    json.StartArray();
    for (const auto& paper : day.papers) json_paper(json, paper, text);
    json.EndArray();
    json.EndObject();
    return harden_json({buffer.GetString(), buffer.GetSize()});
}

namespace {

// Reads the members of one JSON object into a Day, noting the first that is
// not what day_json writes.
class JsonReader {
public:
    explicit JsonReader(const rapidjson::Value& object) : object_(object) {}

    const rapidjson::Value* member(const char* key, bool (rapidjson::Value::*is)() const, const char* expected) {
        auto it = object_.FindMember(key);
        if (it == object_.MemberEnd() || it->value.IsNull()) return nullptr;
        if (!(it->value.*is)()) {
            if (problem.empty()) problem = std::string("expected '") + key + "' to be " + expected;
            return nullptr;
        }
        return &it->value;
    }
    void text(const char* key, std::string& out) {
        if (auto* v = member(key, &rapidjson::Value::IsString, "a string"))
            out.assign(v->GetString(), v->GetStringLength());
    }
    void texts(const char* key, std::vector<std::string>& out) {
        if (auto* v = member(key, &rapidjson::Value::IsArray, "an array of strings")) {
            for (const auto& item : v->GetArray()) {
                if (item.IsString()) out.emplace_back(item.GetString(), item.GetStringLength());
                else if (problem.empty()) problem = std::string("expected '") + key + "' to hold strings";
            }
        }
    }
    template <class Number>
    void number(const char* key, std::optional<Number>& out) {
        if (auto* v = member(key, &rapidjson::Value::IsNumber, "a number")) {
            if constexpr (std::is_floating_point_v<Number>) out = v->GetDouble();
            else if (v->IsInt64() && std::in_range<Number>(v->GetInt64())) out = static_cast<Number>(v->GetInt64());
            else if (problem.empty()) problem = std::string("expected '") + key + "' to be a whole number";
        }
    }
    void date(const char* key, Date& out) {
        std::string iso;
        text(key, iso);
        if (auto parsed = parse_iso_date(iso)) out = *parsed;
        else if (problem.empty()) problem = std::string("expected '") + key + "' to be a date (YYYY-MM-DD)";
    }
    JsonReader object(const char* key) {
        static const rapidjson::Value empty(rapidjson::kObjectType);
        auto* v = member(key, &rapidjson::Value::IsObject, "an object");
        return JsonReader(v ? *v : empty);
    }
    // Keeps the first problem of a nested object's reader.
    void adopt(const JsonReader& inner) {
        if (problem.empty()) problem = inner.problem;
    }
    bool has(const char* key) const {
        auto it = object_.FindMember(key);
        return it != object_.MemberEnd() && !it->value.IsNull();
    }

    std::string problem;

private:
    const rapidjson::Value& object_;
};

Paper paper_from_json(JsonReader& in) {
    Paper paper;
    in.text("id", paper.id);
    in.text("title", paper.title);
    in.texts("authors", paper.authors);
    in.text("abstract", paper.abstract);
    in.text("comment", paper.comment);
    in.number("relevance", paper.relevance);
    in.number("novelty", paper.novelty);
    if (auto* match = in.member("author_match", &rapidjson::Value::IsBool, "true or false"))
        paper.author_match = match->GetBool();
    in.text("topic", paper.topic);
    in.texts("also_topics", paper.also_topics);
    in.text("topic_note", paper.topic_note);
    in.text("unscored", paper.unscored);
    return paper;
}

Result<Day> day_from_value(const rapidjson::Value& object) {
    if (!object.IsObject()) return fail("expected a day's JSON data (an object)");
    JsonReader in(object);
    Day day;
    in.date("date", day.date);
    std::string status;
    in.text("status", status);
    if (auto parsed = parse_day_status(status)) day.status = *parsed;
    else return fail("expected 'status' to be announced, partial, stale or failed, got " + excerpt(status));
    if (in.has("reason")) in.text("reason", day.reason);
    in.text("model", day.model);
    if (in.has("tokens")) {
        JsonReader tokens = in.object("tokens");
        std::optional<long long> prompt, completion, cached;
        tokens.number("prompt", prompt);
        tokens.number("completion", completion);
        tokens.number("cached", cached);
        day.tokens = Tokens{prompt.value_or(0), completion.value_or(0), cached.value_or(0)};
        in.adopt(tokens);
    }
    JsonReader cost = in.object("cost");
    cost.number("prompt", day.cost.prompt);
    cost.number("completion", day.cost.completion);
    cost.number("total", day.cost.total);
    JsonReader counts = in.object("counts");
    counts.number("arxiv", day.counts.arxiv);
    counts.number("scanned", day.counts.scanned);
    counts.number("relevant", day.counts.relevant);
    in.adopt(cost);
    in.adopt(counts);
    if (in.has("remedial")) {
        JsonReader remedial = in.object("remedial");
        Remedial window;
        remedial.date("from", window.from);
        remedial.date("to", window.to);
        if (remedial.has("generated")) remedial.date("generated", window.generated.emplace());
        day.remedial = window;
        in.adopt(remedial);
    }
    if (auto* papers = in.member("papers", &rapidjson::Value::IsArray, "an array")) {
        for (const auto& item : papers->GetArray()) {
            if (!item.IsObject()) return fail("expected each paper to be an object");
            JsonReader paper(item);
            day.papers.push_back(paper_from_json(paper));
            in.adopt(paper);
        }
    }
    if (!in.problem.empty()) return fail(in.problem);
    return day;
}

} // namespace

Result<Day> day_from_json(std::string_view json) {
    rapidjson::Document doc;
    if (!parse_json<rapidjson::kParseFullPrecisionFlag>(doc, json))
        return fail("expected a day's JSON data (an object)");
    return day_from_value(doc);
}

Result<std::vector<Day>> month_days_from_json(std::string_view json) {
    rapidjson::Document doc;
    if (!parse_json<rapidjson::kParseFullPrecisionFlag>(doc, json) || !doc.IsObject() || !doc.HasMember("days") ||
        !doc["days"].IsArray())
        return fail("expected a month's JSON data (an object with a 'days' array)");
    std::vector<Day> days;
    for (const auto& item : doc["days"].GetArray()) {
        auto day = day_from_value(item);
        if (!day) return std::unexpected(day.error());
        days.push_back(std::move(*day));
    }
    return days;
}

std::string harden_json(std::string_view json) {
    std::string out;
    out.reserve(json.size() + json.size() / 64 + 1);
    constexpr ByteSet markup("<>&");
    // The control bytes rapidjson's SSE2 writer leaves raw (see util/json.h):
    // looked for first, so the usual pass keeps its sixteen-byte search.
    constexpr ByteSet controls(unescaped_by_rapidjson);
    constexpr ByteSet markup_and_controls("<>&\x1a\x1b\x1c\x1d\x1e\x1f");
    const char* end = json.data() + json.size();
    bool has_controls = find_first_of(json.data(), end, controls) != end;
    append_replacing(out, json, has_controls ? markup_and_controls : markup, [](char c) -> std::string_view {
        static constexpr std::string_view controls_escaped[] = {"\\u001a", "\\u001b", "\\u001c",
                                                                "\\u001d", "\\u001e", "\\u001f"};
        if (c >= 0x1a && c <= 0x1f) return controls_escaped[c - 0x1a];
        return c == '<' ? "\\u003c" : c == '>' ? "\\u003e" : "\\u0026";
    });
    out += '\n';
    return out;
}

} // namespace pp
