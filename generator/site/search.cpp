#include "site/search.h"

#include "core/tex.h"
#include "site/feeds.h"

#include "util/json.h"
#include "util/text.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>

namespace pp {

namespace {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

void string(JsonWriter& json, std::string_view text) {
    json.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

// Letters, digits and every byte of a multi-byte UTF-8 character.
constexpr auto word_byte_list = [] {
    std::array<char, 26 + 26 + 10 + 128> bytes{};
    std::size_t n = 0;
    for (char c = 'a'; c <= 'z'; ++c) bytes[n++] = c;
    for (char c = 'A'; c <= 'Z'; ++c) bytes[n++] = c;
    for (char c = '0'; c <= '9'; ++c) bytes[n++] = c;
    for (int c = 0x80; c <= 0xFF; ++c) bytes[n++] = static_cast<char>(c);
    return bytes;
}();
constexpr ByteSet word_bytes(std::string_view(word_byte_list.data(), word_byte_list.size()));

bool word_byte(char c) { return word_bytes.contains(c); }

// A word's hash, taken as its bytes come: a multiply per eight bytes.
// finish() once, at the end.
class WordHasher {
public:
    void add(char c) {
        chunk_ |= std::uint64_t{static_cast<unsigned char>(c)} << (8 * (size_ % 8));
        if (++size_ % 8 == 0) mix();
    }
    std::uint32_t finish() {
        mix();
        return static_cast<std::uint32_t>(hash_ ^ (hash_ >> 32) ^ size_);
    }

private:
    void mix() {
        hash_ = (hash_ ^ chunk_) * 0xBF58476D1CE4E5B9ull;
        hash_ ^= hash_ >> 31;
        chunk_ = 0;
    }
    std::uint64_t hash_ = 0x9E3779B97F4A7C15ull, chunk_ = 0;
    std::uint32_t size_ = 0;
};

// A set of words by open addressing, each looked up with the hash its
// caller took once. Sized for `capacity` words at most two thirds full;
// the words' bytes must outlive the set.
class WordSet {
public:
    explicit WordSet(std::size_t capacity) : slots_(std::bit_ceil(capacity + capacity / 2 + 1)) {}
    bool contains(std::string_view word, std::uint32_t hash) const { return slots_[find(word, hash)].data; }
    void insert(std::string_view word, std::uint32_t hash) {
        slots_[find(word, hash)] = {word.data(), static_cast<std::uint32_t>(word.size()), hash};
    }

private:
    struct Slot {
        const char* data = nullptr;
        std::uint32_t size = 0, hash = 0;
    };
    std::size_t find(std::string_view word, std::uint32_t hash) const {
        const std::size_t mask = slots_.size() - 1;
        std::size_t i = hash & mask;
        for (; slots_[i].data; i = (i + 1) & mask)
            if (slots_[i].hash == hash && std::string_view(slots_[i].data, slots_[i].size) == word) break;
        return i;
    }
    std::vector<Slot> slots_;
};

const WordSet& stop_words() {
    static constexpr std::string_view words[] = {
        "a",     "an",    "and",   "are",   "as",    "at",    "be",    "been",  "but",   "by",    "can",
        "do",    "for",   "from",  "has",   "have",  "how",   "in",    "into",  "is",    "it",    "its",
        "may",   "more",  "not",   "of",    "on",    "or",    "our",   "such",  "than",  "that",  "the",
        "their", "them",  "these", "this",  "those", "thus",  "to",    "via",   "was",   "we",    "were",
        "what",  "when",  "which", "while", "with",  "both",  "also",  "only",  "other", "over",  "then",
        "there", "they",  "well",  "where", "whether", "who", "within", "without", "using", "use",
        "used",  "show",  "shows", "paper", "propose", "proposed", "present", "results", "approach",
        "method", "methods", "new", "based", "however", "each", "many", "most", "some", "all", "any", "further"};
    static const WordSet set = [] {
        WordSet s(std::size(words));
        for (auto word : words) {
            WordHasher hash;
            for (char c : word) hash.add(c);
            s.insert(word, hash.finish());
        }
        return s;
    }();
    return set;
}

} // namespace

std::string search_words(std::string_view abstract, std::size_t limit) {
    std::string out;
    out.reserve(limit + 1);
    WordSet seen(limit / 3 + 1); // words in `out`: two bytes or more, a space apart
    const WordSet& stop = stop_words();
    std::string word;
    std::size_t i = 0;
    while (i < abstract.size()) {
        if (!word_byte(abstract[i])) {
            ++i;
            continue;
        }
        const bool command = i > 0 && abstract[i - 1] == '\\'; // \mathcal, \alpha: LaTeX, not words
        std::size_t end = i;
        // Letters, digits and inner hyphens ("self-supervised").
        while (end < abstract.size() &&
               (word_byte(abstract[end]) ||
                (abstract[end] == '-' && end + 1 < abstract.size() && word_byte(abstract[end + 1]) && !command)))
            ++end;
        const std::size_t start = i;
        i = end;
        if (command || end - start < 2) continue;
        word.resize(end - start);
        WordHasher hasher;
        for (std::size_t k = 0; k < word.size(); ++k) {
            const char c = abstract[start + k];
            word[k] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
            hasher.add(word[k]);
        }
        const std::uint32_t hash = hasher.finish();
        if (stop.contains(word, hash) || seen.contains(word, hash)) continue;
        if (out.size() + 1 + word.size() > limit) break;
        if (!out.empty()) out += ' ';
        out += word;
        seen.insert(std::string_view(out).substr(out.size() - word.size()), hash);
    }
    return out;
}

std::vector<SearchEntry> search_entries(const Day& day) {
    std::vector<SearchEntry> entries;
    entries.reserve(day.papers.size());
    for (const auto& paper : day.papers)
        entries.push_back(SearchEntry{day.date, paper.id, tex_to_unicode(paper.title, true), tex_to_unicode(join(paper.authors, ", ")),
                                      search_words(tex_to_unicode(paper.abstract))}); // TeX as the reader sees it
    return entries;
}

std::string search_page_path() { return "search/"; }
std::string search_index_path() { return "search/index.json"; }

std::string search_shard_name(int year, int month) {
    char name[16];
    std::snprintf(name, sizeof name, "%04d-%02d", year, month);
    return name;
}

std::string search_shard_path(int year, int month) { return "search/" + search_shard_name(year, month) + ".json"; }

std::string search_shard_json(int year, int month, std::vector<SearchEntry> entries) {
    std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return b.date < a.date; });
    rapidjson::StringBuffer buffer;
    JsonWriter json(buffer);
    json.StartObject();
    json.Key("name");
    string(json, search_shard_name(year, month));
    json.Key("entries");
    json.StartArray();
    for (const auto& entry : entries) {
        json.StartArray();
        string(json, entry.date.iso());
        string(json, entry.id);
        string(json, entry.title);
        string(json, entry.authors);
        string(json, entry.words);
        json.EndArray();
    }
    json.EndArray();
    json.EndObject();
    return harden_json({buffer.GetString(), buffer.GetSize()});
}

std::string search_index_json(const SiteGraph& graph) {
    rapidjson::StringBuffer buffer;
    JsonWriter json(buffer);
    json.StartObject();
    json.Key("version");
    json.Int(1);
    json.Key("fields");
    json.StartArray();
    for (const char* field : {"date", "id", "title", "authors", "words"}) json.String(field);
    json.EndArray();
    long long papers = 0;
    for (const auto& month : graph.months) papers += month.papers;
    json.Key("papers");
    json.Int64(papers);
    json.Key("shards");
    json.StartArray();
    for (auto it = graph.months.rbegin(); it != graph.months.rend(); ++it) {
        json.StartObject();
        json.Key("name");
        string(json, search_shard_name(it->year, it->month));
        json.Key("url");
        string(json, search_shard_name(it->year, it->month) + ".json");
        json.Key("days");
        json.Uint64(it->days.size());
        json.Key("papers");
        json.Int(it->papers);
        json.EndObject();
    }
    json.EndArray();
    json.EndObject();
    return harden_json({buffer.GetString(), buffer.GetSize()});
}

Result<std::vector<SearchEntry>> read_search_shard(std::string_view json) {
    rapidjson::Document doc;
    if (!parse_json(doc, json) || !doc.IsObject() || !doc.HasMember("entries") || !doc["entries"].IsArray())
        return fail("expected a search shard: an object with an 'entries' array");
    std::vector<SearchEntry> entries;
    entries.reserve(doc["entries"].Size());
    for (const auto& row : doc["entries"].GetArray()) {
        if (!row.IsArray() || row.Size() != 5) return fail("expected each shard entry to be [date, id, title, authors, words]");
        std::array<std::string_view, 5> fields;
        for (rapidjson::SizeType i = 0; i < 5; ++i) {
            if (!row[i].IsString()) return fail("expected each shard entry's fields to be strings");
            fields[i] = {row[i].GetString(), row[i].GetStringLength()};
        }
        auto date = parse_iso_date(fields[0]);
        if (!date) return fail("expected a date YYYY-MM-DD in a shard entry, got " + excerpt(fields[0]));
        entries.push_back(SearchEntry{*date, std::string(fields[1]), std::string(fields[2]), std::string(fields[3]),
                                      std::string(fields[4])});
    }
    return entries;
}

} // namespace pp
