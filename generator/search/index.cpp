#include "search/index.h"

#include "core/tex.h"
#include "search/words.h"
#include "util/gzip.h"
#include "util/json.h"
#include "util/text.h"

#include <algorithm>
#include <cstdio>

namespace pp::search {

namespace {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

void json_text(JsonWriter& json, const std::string& text) {
    json.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

} // namespace

std::string period_of(const Date& date, const Date& newest) {
    char name[16];
    if (date.year != newest.year || date.month != newest.month) {
        std::snprintf(name, sizeof name, "%04d", date.year);
        return name;
    }
    // The newest week: from its Monday, or from the 1st when the month began since.
    const int week_start = std::max(1, newest.day - (newest.weekday() + 6) % 7);
    if (date.day >= week_start) return Date{date.year, date.month, week_start}.iso();
    std::snprintf(name, sizeof name, "%04d-%02d", date.year, date.month);
    return name;
}

std::optional<std::pair<Date, Date>> period_span(const std::string& name) {
    const bool year = name.size() == 4, month = name.size() == 7;
    if (!year && !month && name.size() != 10) return std::nullopt;
    const auto first = parse_iso_date(year ? name + "-01-01" : month ? name + "-01" : name);
    if (!first) return std::nullopt;
    const int month_end = Date::days_in_month(first->year, first->month);
    if (year) return std::pair{*first, Date{first->year, 12, 31}};
    if (month) return std::pair{*first, Date{first->year, first->month, month_end}};
    const int since_monday = (first->weekday() + 6) % 7;
    if (since_monday != 0 && first->day != 1) return std::nullopt;
    return std::pair{*first, Date{first->year, first->month, std::min(month_end, first->day + 6 - since_monday)}};
}

int part_of(const std::string& name, const Date& date) {
    if (name.size() == 4) return date.month;
    if (name.size() == 7) return (date.day - 1 + (Date{date.year, date.month, 1}.weekday() + 6) % 7) / 7;
    return date.day;
}

PeriodShare period_share(const std::string& name, const Date& last) {
    const auto span = period_span(name);
    if (!span) return {};
    PeriodShare share{0, 0};
    for (Date d = span->first; d <= span->second; d = next_day(d)) {
        ++share.whole;
        if (d <= last) ++share.covered;
    }
    share.covered = std::max(share.covered, 1);
    return share;
}

void append_posting(std::string& text, std::uint64_t value) {
    char digits[16];
    int i = 16;
    digits[--i] = static_cast<char>('A' + value % 26);
    for (std::uint64_t lead = value / 26; lead; lead /= 36)
        digits[--i] = "0123456789abcdefghijklmnopqrstuvwxyz"[lead % 36];
    text.append(digits + i, digits + 16);
}

std::string chunk_name(std::string_view first_word) {
    std::uint32_t hash = 0x811c9dc5u;
    for (unsigned char c : first_word) hash = (hash ^ c) * 0x01000193u;
    char name[9];
    std::snprintf(name, sizeof name, "%08x", hash);
    return name;
}

std::vector<std::size_t> rank_order(const Day& day) {
    std::vector<std::size_t> order(day.papers.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = order.size() - 1 - i; // last on the page first
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return day.papers[a].score() < day.papers[b].score(); });
    return order;
}

std::string day_meta_json(const Day& day) {
    rapidjson::StringBuffer buffer;
    JsonWriter json(buffer);
    json.StartObject();
    json.Key("date");
    json_text(json, day.date.iso());
    json.Key("papers");
    json.StartArray();
    for (std::size_t i : rank_order(day)) {
        const Paper& p = day.papers[i];
        json.StartArray();
        json_text(json, p.id);
        json_text(json, tex_to_unicode(p.title));
        json_text(json, tex_to_unicode(join(p.authors, ", ")));
        if (p.relevance && p.novelty) json.Int(p.score());
        else json.Null();
        json_text(json, p.topic);
        json.EndArray();
    }
    json.EndArray();
    json.EndObject();
    return escape_control_bytes(std::string_view(buffer.GetString(), buffer.GetSize()));
}

// Level 1, as the chunks: a full build writes one for each day (gzip.h).
std::string day_meta_file(const Day& day) { return gzip_small(day_meta_json(day), Effort::fast); }

std::string day_meta_path(const Date& date) { return "search/days/" + date.iso() + ".json.gz"; }

std::string chunk_path(const std::string& period, std::string_view first_word) {
    return "search/" + period + "/" + chunk_name(first_word) + ".txt";
}

std::string manifest_json(const std::vector<PeriodHead>& periods) {
    rapidjson::StringBuffer buffer;
    JsonWriter json(buffer);
    json.StartObject();
    json.Key("version");
    json.Int(format_version);
    json.Key("periods");
    json.StartArray();
    for (const auto& period : periods) {
        json.StartObject();
        json.Key("name");
        json_text(json, period.name);
        json.Key("days");
        json_text(json, period.days);
        json.Key("chunks");
        json.StartArray();
        for (const auto& word : period.first_words) json_text(json, word);
        json.EndArray();
        json.EndObject();
    }
    json.EndArray();
    json.EndObject();
    return escape_control_bytes(std::string_view(buffer.GetString(), buffer.GetSize()));
}

Result<std::vector<PeriodHead>> read_manifest(std::string_view text) {
    rapidjson::Document doc;
    auto wrong = [](std::string what) { return fail("expected a search index (search/index.json): " + what); };
    if (!parse_json(doc, text) || !doc.IsObject()) return wrong("it is not a JSON object");
    if (!doc.HasMember("version") || !doc["version"].IsInt() || doc["version"].GetInt() != format_version) {
        const bool numbered = doc.HasMember("version") && doc["version"].IsInt();
        return wrong("version " + std::to_string(format_version) +
                     (numbered ? ", got " + std::to_string(doc["version"].GetInt()) +
                                     " (a site built by another paperpress: build it again)"
                               : ""));
    }
    if (!doc.HasMember("periods") || !doc["periods"].IsArray()) return wrong("a list of periods");
    std::vector<PeriodHead> periods;
    for (const auto& item : doc["periods"].GetArray()) {
        if (!item.IsObject() || !item.HasMember("name") || !item["name"].IsString() || !item.HasMember("days") ||
            !item["days"].IsString() || !item.HasMember("chunks") || !item["chunks"].IsArray())
            return wrong("each period with a name, days and chunks");
        PeriodHead& head = periods.emplace_back();
        head.name = item["name"].GetString();
        head.days = item["days"].GetString();
        for (const auto& word : item["chunks"].GetArray()) {
            if (!word.IsString()) return wrong("chunks as words");
            head.first_words.emplace_back(word.GetString(), word.GetStringLength());
        }
    }
    return periods;
}

} // namespace pp::search
