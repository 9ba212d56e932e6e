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

std::string period_of(const Date& date, const Date& newest) {
    char name[16];
    if (date.year == newest.year && date.month == newest.month)
        std::snprintf(name, sizeof name, "%04d-%02d", date.year, date.month);
    else std::snprintf(name, sizeof name, "%04d", date.year);
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

std::string day_meta_path(const Date& date) { return "search/days/" + date.iso() + ".json.gz"; }

std::string chunk_path(const std::string& period, std::size_t chunk) {
    return "search/" + period + "/" + std::to_string(chunk) + ".txt.gz";
}

std::size_t PeriodWords::day_count() {
    std::lock_guard lock(mutex_);
    return days_.size();
}

void PeriodWords::clear() {
    std::lock_guard lock(mutex_);
    decltype(words_)().swap(words_);
}

bool PeriodWords::has(const Date& date) {
    std::lock_guard lock(mutex_);
    return days_.contains(date);
}

namespace {

// A day's words: an open-addressing table keyed by the word's bytes in
// `text` (std::unordered_map's hashing and buckets were most of a full
// build's indexing time), each word with its list of postings.
class DayWords {
public:
    explicit DayWords(std::size_t text_bytes) : slots_(1 << 12), postings_(1) { text_.reserve(text_bytes); }

    void add(std::string_view word, std::uint64_t posting) {
        std::uint64_t h = 1469598103934665603ull; // FNV-1a
        for (char c : word) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
        for (std::size_t i = h & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
            Slot& slot = slots_[i];
            if (slot.first == 0) return insert(slot, h, word, posting);
            if (slot.hash != h || this->word(slot) != word) continue;
            Posting& last = postings_[slot.last];
            if ((last.value >> 2) != (posting >> 2)) { // another paper
                last.next = slot.last = static_cast<std::uint32_t>(postings_.size());
                postings_.push_back({posting, 0});
            } else if ((last.value & 3) < (posting & 3)) { // the same paper, a better place
                last.value = posting;
            }
            return;
        }
    }

    template <class F>
    void for_each(F&& f) const {
        std::vector<std::uint64_t> list;
        for (const Slot& slot : slots_) {
            if (slot.first == 0) continue;
            list.clear();
            for (std::uint32_t p = slot.first; p != 0; p = postings_[p].next) list.push_back(postings_[p].value);
            f(word(slot), list);
        }
    }

private:
    struct Slot {
        std::uint64_t hash = 0;
        std::uint32_t offset = 0, length = 0;
        std::uint32_t first = 0, last = 0; // postings_ indices; 0: empty slot
    };
    struct Posting {
        std::uint64_t value;
        std::uint32_t next; // 0: the word's last
    };

    std::string_view word(const Slot& slot) const { return std::string_view(text_).substr(slot.offset, slot.length); }

    void insert(Slot& slot, std::uint64_t h, std::string_view word, std::uint64_t posting) {
        const auto at = static_cast<std::uint32_t>(postings_.size());
        slot = {h, static_cast<std::uint32_t>(text_.size()), static_cast<std::uint32_t>(word.size()), at, at};
        text_ += word;
        postings_.push_back({posting, 0});
        if (++used_ * 2 > slots_.size()) grow();
    }

    void grow() {
        std::vector<Slot> old(slots_.size() * 2);
        old.swap(slots_);
        for (const Slot& slot : old)
            if (slot.first != 0)
                for (std::size_t i = slot.hash & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1))
                    if (slots_[i].first == 0) {
                        slots_[i] = slot;
                        break;
                    }
    }

    std::string text_;
    std::vector<Slot> slots_;
    std::vector<Posting> postings_; // [0] unused: 0 marks an empty slot
    std::size_t used_ = 0;
};

} // namespace

// The day's words first go to a table of its own, without the lock, each
// paper once per word with the best class the word has in it; then each of
// the day's words is merged under the lock.
void PeriodWords::add(const Day& day) {
    if (has(day.date)) return;
    const std::uint64_t day_key =
        static_cast<std::uint64_t>(day.date.year * 10000 + day.date.month * 100 + day.date.day) << 16;
    std::size_t size = 0;
    for (const Paper& paper : day.papers)
        paper_fields(paper, [&](std::string_view field, int) { size += field.size() + 1; });
    DayWords found(size);
    const auto order = rank_order(day);
    for (std::size_t rank = 0; rank < order.size(); ++rank)
        paper_fields(day.papers[order[rank]], [&](std::string_view field, int cls) {
            const std::uint64_t posting = day_key | rank << 2 | static_cast<std::uint64_t>(cls);
            for_each_word(field, [&](std::string_view word) { found.add(word, posting); });
        });
    std::lock_guard lock(mutex_);
    if (!days_.emplace(day.date, static_cast<int>(day.papers.size())).second) return;
    found.for_each([&](std::string_view word, const std::vector<std::uint64_t>& postings) {
        auto it = words_.find(word);
        if (it == words_.end()) it = words_.emplace(std::string(word), std::vector<std::uint64_t>()).first;
        it->second.insert(it->second.end(), postings.begin(), postings.end());
    });
}

namespace {

// Appends base 36 of n.
void append_base36(std::string& text, std::uint64_t n) {
    char digits[16];
    int i = 16;
    do {
        digits[--i] = "0123456789abcdefghijklmnopqrstuvwxyz"[n % 36];
        n /= 36;
    } while (n);
    text.append(digits + i, digits + 16);
}

} // namespace

PeriodWords::Chunks PeriodWords::finish(std::size_t chunk_bytes, const WriteChunk& write) {
    Chunks out;
    // A period is within a year: a day's first number by (month, day).
    std::vector<std::uint64_t> first_number(13 * 32);
    std::uint64_t number = 0;
    for (const auto& [date, papers] : days_) {
        if (!out.days.empty()) out.days += ',';
        char entry[24];
        std::snprintf(entry, sizeof entry, "%02d%02d:%d", date.month, date.day, papers);
        out.days += entry;
        first_number[static_cast<std::size_t>(date.month * 32 + date.day)] = number;
        number += static_cast<std::uint64_t>(papers);
    }
    std::vector<std::pair<const std::string, std::vector<std::uint64_t>>*> sorted;
    sorted.reserve(words_.size());
    for (auto& entry : words_) sorted.push_back(&entry);
    std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->first < b->first; });
    std::string text;
    auto flush = [&] {
        if (text.empty()) return;
        write(out.first_words.size() - 1, gzip_small(text));
        text.clear();
    };
    for (auto* entry : sorted) {
        if (text.empty()) out.first_words.push_back(entry->first);
        auto& postings = entry->second;
        std::sort(postings.begin(), postings.end());
        text += entry->first;
        text += '\t';
        std::uint64_t previous = 0;
        for (std::size_t i = 0; i < postings.size(); ++i) {
            const std::uint64_t day = (postings[i] >> 16) % 10000; // MMDD
            const std::uint64_t n = first_number[day / 100 * 32 + day % 100] + ((postings[i] >> 2) & 0x3fff);
            if (i > 0) text += ',';
            append_base36(text, (i == 0 ? n + 1 : n - previous) * 4 + (postings[i] & 3));
            previous = n;
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
