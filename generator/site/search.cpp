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

std::string search_words(std::string_view abstract) {
    std::vector<std::string_view> words;
    std::string text;                   // the distinct words, a space apart (words point into it)
    text.reserve(abstract.size() + 1); // each word and its space take at most their bytes in the abstract, plus one
    WordSet seen(abstract.size() / 3 + 1); // words of two bytes or more, a space apart: at most this many
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
        text += word;
        text += ' ';
        words.emplace_back(text.data() + text.size() - 1 - word.size(), word.size()); // reserve(): never moves
        seen.insert(words.back(), hash);
    }
    std::sort(words.begin(), words.end());
    std::string out;
    out.reserve(text.size());
    for (auto w : words) {
        if (!out.empty()) out += ' ';
        out += w;
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

namespace {

constexpr std::string_view code_digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_";

// Splits a space-separated word list.
std::vector<std::string_view> words_of(std::string_view text) {
    std::vector<std::string_view> words;
    while (!text.empty()) {
        const auto space = text.find(' ');
        if (space != 0) words.push_back(text.substr(0, space));
        if (space == std::string_view::npos) break;
        text.remove_prefix(space + 1);
    }
    return words;
}

// The sorted distinct words of every entry.
std::vector<std::string_view> vocabulary_of(const std::vector<SearchEntry>& entries) {
    std::vector<std::string_view> all;
    for (const auto& entry : entries) {
        auto words = words_of(entry.words);
        all.insert(all.end(), words.begin(), words.end());
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
}

} // namespace

std::string encode_positions(const std::vector<std::uint32_t>& ascending) {
    std::string out;
    std::uint32_t previous = 0;
    std::uint32_t digits[7]; // base 32, least significant first
    for (std::uint32_t position : ascending) {
        std::uint32_t gap = position - previous;
        previous = position;
        int n = 0;
        do {
            digits[n++] = gap & 31;
            gap >>= 5;
        } while (gap);
        for (int k = n - 1; k >= 0; --k) out += code_digits[digits[k] + (k > 0 ? 32 : 0)]; // all but the last go on
    }
    return out;
}

Result<std::vector<std::uint32_t>> decode_positions(std::string_view code) {
    std::vector<std::uint32_t> positions;
    std::uint64_t value = 0, previous = 0;
    for (char c : code) {
        const auto digit = code_digits.find(c);
        if (digit == std::string_view::npos) return fail("expected a shard entry's words in base-32 digits, got " + excerpt(code));
        value = value * 32 + digit % 32;
        if (value > 0xffffffffu) return fail("expected word positions below 2^32 in a shard entry");
        if (digit >= 32) continue; // more digits of this number
        previous += value;
        if (previous > 0xffffffffu) return fail("expected word positions below 2^32 in a shard entry");
        positions.push_back(static_cast<std::uint32_t>(previous));
        value = 0;
    }
    if (value != 0 || (!code.empty() && code_digits.find(code.back()) >= 32))
        return fail("expected a shard entry's words to end with a final digit");
    return positions;
}

std::string search_shard_json(int year, int month, std::vector<SearchEntry> entries) {
    std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return b.date < a.date; });
    const auto vocabulary = vocabulary_of(entries);
    std::string vocabulary_text;
    for (auto word : vocabulary) {
        if (!vocabulary_text.empty()) vocabulary_text += ' ';
        vocabulary_text += word;
    }
    rapidjson::StringBuffer buffer;
    JsonWriter json(buffer);
    json.StartObject();
    json.Key("name");
    string(json, search_shard_name(year, month));
    json.Key("vocabulary");
    string(json, vocabulary_text);
    json.Key("entries");
    json.StartArray();
    std::vector<std::uint32_t> positions;
    for (const auto& entry : entries) {
        json.StartArray();
        string(json, entry.date.iso());
        string(json, entry.id);
        string(json, entry.title);
        string(json, entry.authors);
        positions.clear();
        for (auto word : words_of(entry.words))
            positions.push_back(static_cast<std::uint32_t>(
                std::lower_bound(vocabulary.begin(), vocabulary.end(), word) - vocabulary.begin()));
        std::sort(positions.begin(), positions.end());
        positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
        string(json, encode_positions(positions));
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
    json.Int(2);
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
    if (!parse_json(doc, json) || !doc.IsObject() || !doc.HasMember("entries") || !doc["entries"].IsArray() ||
        !doc.HasMember("vocabulary") || !doc["vocabulary"].IsString())
        return fail("expected a search shard: an object with a 'vocabulary' string and an 'entries' array");
    const auto vocabulary = words_of({doc["vocabulary"].GetString(), doc["vocabulary"].GetStringLength()});
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
        auto positions = decode_positions(fields[4]);
        if (!positions) return std::unexpected(positions.error());
        std::string words;
        for (auto position : *positions) {
            if (position >= vocabulary.size()) return fail("expected a shard entry's words inside the shard's vocabulary");
            if (!words.empty()) words += ' ';
            words += vocabulary[position];
        }
        entries.push_back(SearchEntry{*date, std::string(fields[1]), std::string(fields[2]), std::string(fields[3]),
                                      std::move(words)});
    }
    return entries;
}

} // namespace pp
