#include "site/search.h"

#include "site/feeds.h"

#include "util/text.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <set>

namespace pp {

namespace {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

void string(JsonWriter& json, std::string_view text) {
    json.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

bool word_byte(unsigned char c) { return std::isalnum(c) || c >= 0x80; }

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
    return words.contains(word);
}

} // namespace

std::string search_words(std::string_view abstract, std::size_t limit) {
    std::string out;
    std::set<std::string> seen;
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
        std::string word(abstract.substr(i, end - i));
        i = end;
        if (command || word.size() < 2) continue;
        for (char& ch : word)
            if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
        if (stop_word(word) || !seen.insert(word).second) continue;
        if (out.size() + 1 + word.size() > limit) break;
        if (!out.empty()) out += ' ';
        out += word;
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

Result<std::vector<SearchEntry>> search_entries_from_day_json(std::string_view json, const Date& date) {
    rapidjson::Document doc;
    doc.Parse(json.data(), json.size());
    if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("papers") || !doc["papers"].IsArray())
        return fail("expected the day's JSON data with a 'papers' array");
    auto text = [](const rapidjson::Value& object, const char* key) -> std::string {
        auto it = object.FindMember(key);
        if (it == object.MemberEnd() || !it->value.IsString()) return {};
        return std::string(it->value.GetString(), it->value.GetStringLength());
    };
    std::vector<SearchEntry> entries;
    for (const auto& paper : doc["papers"].GetArray()) {
        if (!paper.IsObject()) return fail("expected each paper to be an object");
        SearchEntry entry{date, text(paper, "id"), text(paper, "title"), {}, search_words(text(paper, "abstract"))};
        if (auto authors = paper.FindMember("authors"); authors != paper.MemberEnd() && authors->value.IsArray())
            for (const auto& author : authors->value.GetArray())
                if (author.IsString()) {
                    if (!entry.authors.empty()) entry.authors += ", ";
                    entry.authors.append(author.GetString(), author.GetStringLength());
                }
        entries.push_back(std::move(entry));
    }
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
    return harden_json(buffer.GetString());
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
    return harden_json(buffer.GetString());
}

} // namespace pp
