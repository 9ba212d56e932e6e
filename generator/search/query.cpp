#include "search/query.h"

#include "search/index.h"
#include "search/words.h"
#include "util/gzip.h"
#include "util/json.h"
#include "util/text.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <regex>

namespace pp::search {

namespace {

constexpr std::size_t max_unpacked = 64u << 20;

struct Query {
    std::vector<std::string> words;
    std::string date; // "2025-02-03", "2025-02" or ""
};

Query parse_query(std::string_view text) {
    static const std::regex date(R"(^\d{4}-\d{2}(-\d{2})?$)");
    Query query;
    for (auto token : split(text, ' ')) {
        std::string word(trim(token));
        if (to_lower(word).starts_with("arxiv:")) word = word.substr(6);
        if (std::regex_match(word, date)) query.date = word;
        else
            for (auto& w : words_of(word)) query.words.push_back(std::move(w));
    }
    return query;
}

// One period's days: their dates and first numbers, in number order.
struct Days {
    std::vector<std::string> dates;
    std::vector<std::uint64_t> first;
    std::uint64_t papers = 0;
};

Result<Days> read_days(const PeriodHead& period) {
    Days days;
    for (auto entry : split(period.days, ',')) {
        auto wrong = [&] {
            return fail("expected days as MMDD:papers in the search index, got '" + std::string(entry) + "'");
        };
        int papers = 0;
        const char* end = entry.data() + entry.size();
        if (entry.size() < 6 || entry[4] != ':') return wrong();
        if (auto [at, ec] = std::from_chars(entry.data() + 5, end, papers);
            ec != std::errc() || at != end || papers < 0 || static_cast<std::size_t>(papers) > max_papers_per_day)
            return wrong();
        std::string date =
            period.name.substr(0, 4) + "-" + std::string(entry.substr(0, 2)) + "-" + std::string(entry.substr(2, 2));
        if (!parse_iso_date(date)) return wrong();
        days.dates.push_back(std::move(date));
        days.first.push_back(days.papers);
        days.papers += static_cast<std::uint64_t>(papers);
    }
    return days;
}

// Whether one of the days is the date or in the month ("" for any).
bool holds(const Days& days, const std::string& date) {
    return std::any_of(days.dates.begin(), days.dates.end(), [&](const std::string& d) { return d.starts_with(date); });
}

// The chunks of `period` that can hold `word` (or, as a prefix, words it starts).
std::pair<std::size_t, std::size_t> chunk_range(const PeriodHead& period, const std::string& word, bool prefix) {
    const auto& first = period.first_words;
    auto after = [&](const std::string& w) {
        return static_cast<std::size_t>(std::upper_bound(first.begin(), first.end(), w) - first.begin());
    };
    const std::size_t at = after(word);
    const std::size_t from = at == 0 ? 0 : at - 1;
    return {from, prefix ? std::max(after(word + "\xff"), from + 1) : from + 1};
}

using Weights = std::map<std::uint64_t, int>; // paper number -> its best class for one word

// Adds the postings of the chunk's words that match `word`.
Result<void> scan_chunk(std::string_view text, const std::string& word, bool prefix, Weights& weights) {
    for (auto line : split(text, '\n')) {
        const auto tab = line.find('\t');
        if (tab == std::string_view::npos) continue;
        const auto w = line.substr(0, tab);
        if (!(w == word || (prefix && w.starts_with(word)))) continue;
        std::uint64_t number = 0;
        bool first = true;
        for (auto token : split(line.substr(tab + 1), ',')) {
            std::uint64_t value = 0;
            if (std::from_chars(token.data(), token.data() + token.size(), value, 36).ec != std::errc() || value < 4)
                return fail("expected base-36 postings in the search index, got '" + std::string(token) + "'");
            number = first ? value / 4 - 1 : number + value / 4;
            first = false;
            int& best = weights[number];
            best = std::max(best, static_cast<int>(value % 4));
        }
    }
    return {};
}

class Reader {
public:
    Reader(const ReadFile& read, Found& found) : read_(read), found_(found) {}
    // A gzip'd file's text, read once.
    Result<std::string_view> text(const std::string& path) {
        if (auto it = cache_.find(path); it != cache_.end()) return std::string_view(it->second);
        auto bytes = read_(path);
        if (!bytes) return std::unexpected(bytes.error());
        found_.reads.push_back({path, bytes->size()});
        auto text = gunzip(*bytes, max_unpacked);
        if (!text) return std::unexpected(in_file(text.error(), path));
        return std::string_view(cache_.emplace(path, std::move(*text)).first->second);
    }

private:
    const ReadFile& read_;
    Found& found_;
    std::map<std::string, std::string> cache_;
};

struct Match {
    std::size_t period = 0; // newest first
    std::uint64_t number = 0;
    int weight = 0;
};

// The papers of one period that match every word (and the date).
Result<void> match_period(Reader& reader, const PeriodHead& period, std::size_t index, const Query& query,
                          const Days& days, std::vector<Match>& out) {
    std::optional<Weights> all;
    for (const auto& word : query.words) {
        const bool prefix = word.size() >= min_prefix;
        auto [from, to] = chunk_range(period, word, prefix);
        Weights weights;
        for (std::size_t c = from; c < to && c < period.first_words.size(); ++c) {
            auto text = reader.text(chunk_path(period.name, c));
            if (!text) return std::unexpected(text.error());
            if (auto scanned = scan_chunk(*text, word, prefix, weights); !scanned) return scanned;
        }
        if (!all) all = std::move(weights);
        else
            for (auto it = all->begin(); it != all->end();)
                if (auto w = weights.find(it->first); w == weights.end()) it = all->erase(it);
                else (it++)->second += w->second;
    }
    auto day_of = [&](std::uint64_t n) {
        return static_cast<std::size_t>(std::upper_bound(days.first.begin(), days.first.end(), n) -
                                        days.first.begin()) -
               1;
    };
    if (!all) { // a date alone: the papers of its days
        all.emplace();
        for (std::size_t d = 0; d < days.dates.size(); ++d)
            if (days.dates[d].starts_with(query.date))
                for (std::uint64_t n = days.first[d]; n < (d + 1 < days.first.size() ? days.first[d + 1] : days.papers);
                     ++n)
                    (*all)[n] = 0;
    }
    for (const auto& [number, weight] : *all)
        if (number < days.papers && days.dates[day_of(number)].starts_with(query.date))
            out.push_back({index, number, weight});
    return {};
}

// What the results shown are: their days' files.
Result<void> describe(Reader& reader, const std::vector<Days>& days, const std::vector<Match>& matches, Found& found) {
    for (const auto& match : matches) {
        const Days& d = days[match.period];
        const auto day = static_cast<std::size_t>(std::upper_bound(d.first.begin(), d.first.end(), match.number) -
                                                  d.first.begin() - 1);
        const std::string path = day_meta_path(*parse_iso_date(d.dates[day]));
        auto text = reader.text(path);
        if (!text) return std::unexpected(text.error());
        rapidjson::Document doc;
        const auto rank = static_cast<rapidjson::SizeType>(match.number - d.first[day]);
        if (!parse_json(doc, *text) || !doc.IsObject() || !doc.HasMember("papers") || !doc["papers"].IsArray() ||
            doc["papers"].Size() <= rank || !doc["papers"][rank].IsArray() || doc["papers"][rank].Size() != 5)
            return fail("expected the day's papers as [id, title, authors, score, topic]", path);
        const auto& p = doc["papers"][rank];
        if (!p[0].IsString() || !p[1].IsString() || !p[2].IsString() || !p[4].IsString())
            return fail("expected the day's papers as [id, title, authors, score, topic]", path);
        Hit hit{d.dates[day], p[0].GetString(), p[1].GetString(), p[2].GetString(), p[4].GetString(), {}, match.weight};
        if (p[3].IsInt()) hit.score = p[3].GetInt();
        found.hits.push_back(std::move(hit));
    }
    return {};
}

} // namespace

Result<Found> run_query(const ReadFile& read, std::string_view text, std::size_t limit) {
    Found found;
    const Query query = parse_query(text);
    if (query.words.empty() && query.date.empty()) return found;
    Reader reader(read, found);
    auto manifest = reader.text(manifest_path);
    if (!manifest) return std::unexpected(manifest.error());
    auto periods = read_manifest(*manifest);
    if (!periods) return std::unexpected(periods.error());
    std::vector<Days> days;
    std::vector<Match> matches;
    for (std::size_t i = 0; i < periods->size(); ++i) {
        const PeriodHead& period = (*periods)[i];
        auto d = read_days(period);
        if (!d) return std::unexpected(in_file(d.error(), manifest_path));
        days.push_back(std::move(*d));
        if (!holds(days.back(), query.date)) continue;
        if (auto matched = match_period(reader, period, i, query, days.back(), matches); !matched)
            return std::unexpected(matched.error());
    }
    std::sort(matches.begin(), matches.end(), [](const Match& a, const Match& b) {
        if (a.weight != b.weight) return a.weight > b.weight;
        if (a.period != b.period) return a.period < b.period;
        return a.number > b.number;
    });
    found.total = matches.size();
    if (matches.size() > limit) matches.resize(limit);
    if (auto described = describe(reader, days, matches, found); !described) return std::unexpected(described.error());
    return found;
}

Result<Found> search_site(const fs::path& site, std::string_view query, std::size_t limit) {
    return run_query([&](const std::string& path) { return read_file(site / path); }, query, limit);
}

} // namespace pp::search
