#include "site/search.h"

#include "site/feeds.h"

#include "util/text.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <cstdio>
#include <set>

namespace pp {

namespace {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

void string(JsonWriter& json, std::string_view text) {
    json.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

bool word_byte(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

bool stop_word(std::string_view word) {
    static const std::set<std::string_view> words = {
        "a",     "an",    "and",   "are",   "as",    "at",    "be",    "been",  "but",   "by",    "can",
        "do",    "for",   "from",  "has",   "have",  "how",   "in",    "into",  "is",    "it",    "its",
        "may",   "more",  "not",   "of",    "on",    "or",    "our",   "such",  "than",  "that",  "the",
        "their", "them",  "these", "this",  "those", "thus",  "to",    "via",   "was",   "we",    "were",
        "what",  "when",  "which", "while", "with",  "both",  "also",  "only",  "other", "over",  "then",
        "there", "they",  "well",  "where", "whether", "who", "within", "without", "while", "using", "use",
        "used",  "show",  "shows", "paper", "propose", "proposed", "present", "results", "approach",
        "method", "methods", "new", "based", "however", "each", "many", "most", "some", "all", "any", "further"};
    static const std::size_t longest = std::max_element(words.begin(), words.end(), [](auto a, auto b) {
                                           return a.size() < b.size();
                                       })->size();
    return word.size() <= longest && words.contains(word);
}

// The distinct words of one abstract: an open-addressing table of views
// into the output, which never reallocates (it is reserved to the limit).
class WordSet {
public:
    explicit WordSet(std::size_t limit) : slots_(std::bit_ceil(limit / 2 + 2)) {}
    bool contains(std::string_view word) { return !slot(word).empty(); }
    // `word` must outlive the set.
    void insert(std::string_view word) { slot(word) = word; }

private:
    std::string_view& slot(std::string_view word) {
        const std::size_t mask = slots_.size() - 1;
        std::size_t i = std::hash<std::string_view>{}(word) & mask;
        while (!slots_[i].empty() && slots_[i] != word) i = (i + 1) & mask;
        return slots_[i];
    }
    std::vector<std::string_view> slots_; // more than the words that fit: never full
};

} // namespace

std::string search_words(std::string_view abstract, std::size_t limit) {
    std::string out;
    out.reserve(limit + 1);
    WordSet seen(limit); // views into `out`: words of two bytes or more, a space apart
    std::string word;
    std::size_t i = 0;
    while (i < abstract.size()) {
        auto c = static_cast<unsigned char>(abstract[i]);
        if (!word_byte(c)) {
            ++i;
            continue;
        }
        const bool command = i > 0 && abstract[i - 1] == '\\'; // \mathcal, \alpha: LaTeX, not words
        std::size_t end = i;
        // Letters, digits and inner hyphens ("self-supervised").
        while (end < abstract.size() &&
               (word_byte(static_cast<unsigned char>(abstract[end])) ||
                (abstract[end] == '-' && end + 1 < abstract.size() &&
                 word_byte(static_cast<unsigned char>(abstract[end + 1])) && !command)))
            ++end;
        word.assign(abstract.substr(i, end - i));
        i = end;
        if (command || word.size() < 2) continue;
        for (char& ch : word)
            if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
        if (stop_word(word) || seen.contains(word)) continue;
        if (out.size() + 1 + word.size() > limit) break;
        if (!out.empty()) out += ' ';
        out += word;
        seen.insert(std::string_view(out).substr(out.size() - word.size()));
    }
    return out;
}

std::vector<SearchEntry> search_entries(const Day& day) {
    std::vector<SearchEntry> entries;
    entries.reserve(day.papers.size());
    for (const auto& paper : day.papers)
        entries.push_back(SearchEntry{day.date, paper.id, paper.title, join(paper.authors, ", "), search_words(paper.abstract)});
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
    doc.Parse(json.data(), json.size());
    if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("entries") || !doc["entries"].IsArray())
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
        if (!date) return fail("expected a date YYYY-MM-DD in a shard entry, got '" + std::string(fields[0]) + "'");
        entries.push_back(SearchEntry{*date, std::string(fields[1]), std::string(fields[2]), std::string(fields[3]),
                                      std::string(fields[4])});
    }
    return entries;
}

} // namespace pp
