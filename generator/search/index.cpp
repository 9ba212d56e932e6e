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

std::string base36(std::uint64_t n) {
    char digits[16];
    int i = 16;
    do {
        digits[--i] = "0123456789abcdefghijklmnopqrstuvwxyz"[n % 36];
        n /= 36;
    } while (n);
    return std::string(digits + i, digits + 16);
}

// The text a paper is found by, with its class (index.h), as a reader sees
// it (TeX accents as letters, as the month data's `unicode`).
template <class Add>
void paper_fields(const Paper& paper, Add&& add) {
    add(tex_to_unicode(paper.title), 3);
    for (const auto& author : paper.authors) add(tex_to_unicode(author), 2);
    add(paper.topic, 2);
    for (const auto& topic : paper.also_topics) add(topic, 2);
    add(paper.id, 2);
    add(paper.abstract, 1);
    add(paper.comment, 1);
    add(paper.topic_note, 1);
}

} // namespace

std::string period_of(const Date& date, int newest_year) {
    char name[16];
    if (date.year == newest_year)
        std::snprintf(name, sizeof name, "%04d-%02d", date.year, date.month);
    else
        std::snprintf(name, sizeof name, "%04d", date.year);
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
        if (p.relevance && p.novelty)
            json.Int(p.score());
        else
            json.Null();
        json_text(json, p.topic);
        json.EndArray();
    }
    json.EndArray();
    json.EndObject();
    return escape_control_bytes(std::string_view(buffer.GetString(), buffer.GetSize()));
}

std::string day_meta_path(const Date& date) { return "search/days/" + date.iso() + ".json.gz"; }

std::string chunk_path(const std::string& period, std::size_t chunk) {
    return "search/" + period + "/" + std::to_string(chunk) + ".txt.gz";
}

bool PeriodWords::has(const Date& date) {
    std::lock_guard lock(mutex_);
    return days_.contains(date);
}

// The day's words first go to a table of its own (no lock, no copies: its
// keys point into `text`; each word's postings a list in `postings`), each
// paper once per word with the best class the word has in it; then each of
// the day's words is merged under the lock.
void PeriodWords::add(const Day& day) {
    if (has(day.date)) return;
    const std::uint64_t day_key =
        static_cast<std::uint64_t>(day.date.year * 10000 + day.date.month * 100 + day.date.day) << 16;
    std::size_t size = 0;
    for (const Paper& paper : day.papers)
        paper_fields(paper, [&](std::string_view field, int) { size += field.size() + 1; });
    std::string text;
    text.reserve(size); // never moves: the table's keys point into it
    struct Posting {
        std::uint64_t value;
        std::uint32_t next; // 0: the word's last
    };
    std::vector<Posting> postings(1);
    std::unordered_map<std::string_view, std::pair<std::uint32_t, std::uint32_t>> found; // first, last posting
    found.reserve(4096);
    const auto order = rank_order(day);
    for (std::size_t rank = 0; rank < order.size(); ++rank)
        paper_fields(day.papers[order[rank]], [&](std::string_view field, int cls) {
            for_each_word(field, [&](std::string_view word) {
                const std::uint64_t posting = day_key | rank << 2 | static_cast<std::uint64_t>(cls);
                const auto added = static_cast<std::uint32_t>(postings.size());
                auto it = found.find(word);
                if (it == found.end()) { // the key points into `text`, not at the tokenizer's buffer
                    const std::size_t at = text.size();
                    text += word;
                    found.emplace(std::string_view(text).substr(at, word.size()), std::pair(added, added));
                    postings.push_back({posting, 0});
                    return;
                }
                Posting& last = postings[it->second.second];
                if ((last.value >> 2) != (posting >> 2)) {
                    last.next = added;
                    it->second.second = added;
                    postings.push_back({posting, 0});
                } else if ((last.value & 3) < (posting & 3)) {
                    last.value = posting;
                }
            });
        });
    std::lock_guard lock(mutex_);
    if (!days_.emplace(day.date, static_cast<int>(day.papers.size())).second) return;
    for (const auto& [word, ends] : found) {
        auto it = words_.find(word);
        if (it == words_.end()) it = words_.emplace(std::string(word), std::vector<std::uint64_t>()).first;
        for (std::uint32_t p = ends.first; p != 0; p = postings[p].next) it->second.push_back(postings[p].value);
    }
}

PeriodWords::Chunks PeriodWords::finish(std::size_t chunk_bytes, const WriteChunk& write) const {
    Chunks out;
    std::map<std::uint64_t, std::uint64_t> first_number; // day key -> its first paper's number
    std::uint64_t number = 0;
    for (const auto& [date, papers] : days_) {
        if (!out.days.empty()) out.days += ',';
        char entry[24];
        std::snprintf(entry, sizeof entry, "%02d%02d:%d", date.month, date.day, papers);
        out.days += entry;
        first_number[static_cast<std::uint64_t>(date.year * 10000 + date.month * 100 + date.day)] = number;
        number += static_cast<std::uint64_t>(papers);
    }
    std::vector<const std::pair<const std::string, std::vector<std::uint64_t>>*> sorted;
    sorted.reserve(words_.size());
    for (const auto& entry : words_) sorted.push_back(&entry);
    std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->first < b->first; });
    std::string text;
    std::vector<std::uint64_t> postings;
    auto flush = [&] {
        if (text.empty()) return;
        write(out.first_words.size() - 1, gzip_small(text));
        text.clear();
    };
    for (const auto* entry : sorted) {
        if (text.empty()) out.first_words.push_back(entry->first);
        postings = entry->second;
        std::sort(postings.begin(), postings.end());
        text += entry->first;
        text += '\t';
        std::uint64_t previous = 0;
        bool first = true;
        for (std::uint64_t posting : postings) {
            const std::uint64_t n = first_number[posting >> 16] + ((posting >> 2) & 0x3fff);
            if (!first) text += ',';
            text += base36((first ? n + 1 : n - previous) * 4 + (posting & 3));
            previous = n;
            first = false;
        }
        text += '\n';
        if (text.size() >= chunk_bytes) flush();
    }
    flush();
    return out;
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
    auto wrong = [](std::string what) { return fail("expected a search index (search/index.json.gz): " + what); };
    if (!parse_json(doc, text) || !doc.IsObject()) return wrong("it is not a JSON object");
    if (!doc.HasMember("version") || !doc["version"].IsInt() || doc["version"].GetInt() != format_version)
        return wrong("version " + std::to_string(format_version));
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
