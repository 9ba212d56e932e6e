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

// Calls `part` with each piece of `text` between `sep`s, with no list of them
// all (a hostile list of days or chunk is megabytes of pieces), until an error.
template <class Part>
Result<void> for_each_part(std::string_view text, char sep, Part&& part) {
    for (std::size_t at = 0; at <= text.size();) {
        const std::size_t end = std::min(text.find(sep, at), text.size());
        if (auto done = part(text.substr(at, end - at)); !done) return done;
        at = end + 1;
    }
    return {};
}

// A period of the list, as the writer writes it (index.h).
struct Period {
    PeriodHead head;
    std::vector<Date> dates;          // its days, in date order
    std::vector<std::uint32_t> first; // each day's first paper number
    std::uint32_t papers = 0;         // at most a year's days times max_papers_per_day
};

// Adds one "MMDD:papers" of the period's days: a day of the period, after the one before.
Result<void> add_day(Period& period, const std::pair<Date, Date>& span, std::string_view entry) {
    auto wrong = [&] {
        return fail("expected days as MMDD:papers in the search index, each a day of period '" + period.head.name +
                    "', in date order, with at most " + std::to_string(max_papers_per_day) + " papers, got " +
                    excerpt(entry));
    };
    unsigned papers = 0;
    const char* end = entry.data() + entry.size();
    if (entry.size() < 6 || entry[4] != ':') return wrong();
    if (auto [at, ec] = std::from_chars(entry.data() + 5, end, papers);
        ec != std::errc() || at != end || papers > max_papers_per_day)
        return wrong();
    const auto date = parse_iso_date(period.head.name.substr(0, 4) + "-" + std::string(entry.substr(0, 2)) + "-" +
                                     std::string(entry.substr(2, 2)));
    if (!date || *date < span.first || span.second < *date || (!period.dates.empty() && *date <= period.dates.back()))
        return wrong();
    period.dates.push_back(*date);
    period.first.push_back(period.papers);
    period.papers += papers;
    return {};
}

// One period of the list, checked; `newer` is the oldest day of the periods before it (newer ones).
Result<Period> read_period(PeriodHead head, const std::optional<Date>& newer) {
    const auto span = period_span(head.name);
    if (!span)
        return fail("expected period names as the build writes them (a year 2024, a month 2024-12, a week "
                    "2024-12-23 from its Monday or the 1st), got " +
                    excerpt(head.name));
    Period period{std::move(head), {}, {}, 0};
    if (!period.head.days.empty())
        if (auto days = for_each_part(period.head.days, ',', [&](auto entry) { return add_day(period, *span, entry); });
            !days)
            return std::unexpected(days.error());
    if (newer && !period.dates.empty() && !(period.dates.back() < *newer))
        return fail("expected each day in one period only, newest period first, got " + period.dates.back().iso() +
                    " again in period '" + period.head.name + "'");
    const auto& words = period.head.first_words;
    for (std::size_t c = 0; c < words.size(); ++c)
        if (words[c].empty() || (c > 0 && words[c] <= words[c - 1]))
            return fail("expected the first words of period '" + period.head.name +
                        "''s chunks in byte order, each once, got " + excerpt(words[c]));
    return period;
}

// The list of periods, newest first, as the writer writes it.
Result<std::vector<Period>> read_periods(std::string_view text) {
    if (!nesting_within(text, 4))
        return fail("expected a search index as the build writes it, JSON nested at most 4 deep", manifest_path);
    auto heads = read_manifest(text);
    if (!heads) return std::unexpected(in_file(heads.error(), manifest_path));
    std::vector<Period> periods;
    std::optional<Date> newer;
    for (auto& head : *heads) {
        if (!periods.empty() && !(head.name < periods.back().head.name))
            return fail("expected each period once, newest first, got " + excerpt(head.name) + " after " +
                            excerpt(periods.back().head.name),
                        manifest_path);
        auto period = read_period(std::move(head), newer);
        if (!period) return std::unexpected(in_file(period.error(), manifest_path));
        if (!period->dates.empty()) newer = period->dates.front();
        periods.push_back(std::move(*period));
    }
    return periods;
}

// Whether one of the period's days is the date or in the month ("" for any).
bool holds(const Period& period, const std::string& date) {
    return std::any_of(period.dates.begin(), period.dates.end(),
                       [&](const Date& d) { return d.iso().starts_with(date); });
}

// The day of paper `number` in its period.
std::size_t day_of(const Period& period, std::uint64_t number) {
    return static_cast<std::size_t>(std::upper_bound(period.first.begin(), period.first.end(), number) -
                                    period.first.begin()) -
           1;
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

// One word's papers in a period: paper number << 2 | the class of its best place.
using Postings = std::vector<std::uint32_t>;

// In number order, each paper once with its best class.
void compact(Postings& postings) {
    std::sort(postings.begin(), postings.end());
    auto same_paper = [](std::uint32_t a, std::uint32_t b) { return a >> 2 == b >> 2; };
    // Sorted, a paper's best class is its last entry: keep that one.
    std::reverse(postings.begin(), postings.end());
    postings.erase(std::unique(postings.begin(), postings.end(), same_paper), postings.end());
    std::reverse(postings.begin(), postings.end());
}

// A line's postings (append_posting()): numbers rise (each gap at least 1) and stay below the period's papers.
Result<void> read_postings(std::string_view list, std::uint32_t papers, Postings& out) {
    std::uint64_t number = 0, lead = 0;
    int digits = 0; // read, their capital not yet
    bool first = true;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const char c = list[i];
        const bool digit = c >= '0' && c <= '9', lower = c >= 'a' && c <= 'z';
        if (digit || lower) {
            lead = lead * 36 + static_cast<std::uint64_t>(digit ? c - '0' : c - 'a' + 10);
            if (++digits > max_posting_digits)
                return fail("expected postings of at most " + std::to_string(max_posting_digits + 1) +
                            " characters in the search index, got " + excerpt(list.substr(i)));
            continue;
        }
        if (c < 'A' || c > 'Z')
            return fail("expected postings (0-9a-z, then A-Z) in the search index, got " + excerpt(list.substr(i)));
        const std::uint64_t value = lead * 26 + static_cast<std::uint64_t>(c - 'A');
        lead = 0;
        digits = 0;
        if (value < 4) return fail("expected postings of a paper at least 1 past the last, got " + excerpt(list));
        number = first ? value / 4 - 1 : number + value / 4; // below 2^21 + 36^6: no overflow
        first = false;
        if (number >= papers)
            return fail("expected postings below the period's " + std::to_string(papers) + " papers, got paper " +
                        std::to_string(number));
        out.push_back(static_cast<std::uint32_t>(number << 2 | value % 4));
    }
    if (digits > 0) return fail("expected each posting to end in a capital in the search index, got " + excerpt(list));
    return {};
}

// Adds the postings of the chunk's words that match `word`. A line holds each
// paper once, so `out` stays within three times the period's papers.
Result<void> scan_chunk(std::string_view text, const std::string& word, bool prefix, std::uint32_t papers,
                        Postings& out) {
    return for_each_part(text, '\n', [&](std::string_view line) -> Result<void> {
        const auto tab = line.find('\t');
        if (tab == std::string_view::npos) return {};
        const auto w = line.substr(0, tab);
        if (!(w == word || (prefix && w.starts_with(word)))) return {};
        if (auto read = read_postings(line.substr(tab + 1), papers, out); !read) return read;
        if (out.size() > 2 * std::size_t(papers)) compact(out);
        return {};
    });
}

// Reads the index's files, each once, within the query's budget of unpacked bytes.
class Reader {
public:
    Reader(const ReadFile& read, Found& found) : read_(read), found_(found) {}
    // A chunk's text, kept for the query's other words.
    Result<std::string_view> chunk(const std::string& path) {
        if (auto it = chunks_.find(path); it != chunks_.end()) return std::string_view(it->second);
        auto text = unpack(path, max_query_bytes);
        if (!text) return std::unexpected(text.error());
        return std::string_view(chunks_.emplace(path, std::move(*text)).first->second);
    }
    // A file read once (the list of periods, a day's results), of at most `limit` bytes unpacked.
    Result<std::string> unpack(const std::string& path, std::size_t limit) {
        auto bytes = read_(path);
        if (!bytes) return std::unexpected(bytes.error());
        found_.reads.push_back({path, bytes->size()});
        const std::size_t left = max_query_bytes - found_.unpacked;
        auto text = path.ends_with(".gz") ? gunzip(*bytes, std::min(limit, left)) : within(std::move(*bytes), limit);
        if (!text) {
            std::string why = text.error().message;
            if (left < limit && why.find("over the limit") != std::string::npos)
                why += " (what is left of a query's " + std::to_string(max_query_bytes) + " bytes unpacked)";
            return fail(why, path);
        }
        found_.unpacked += text->size();
        return text;
    }

private:
    Result<std::string> within(std::string bytes, std::size_t limit) const;

    const ReadFile& read_;
    Found& found_;
    std::map<std::string, std::string> chunks_;
};

// A plain file's text within `limit` bytes, and what is left of the query's.
Result<std::string> Reader::within(std::string bytes, std::size_t limit) const {
    const std::size_t most = std::min(limit, max_query_bytes - found_.unpacked);
    if (bytes.size() > most)
        return fail(std::to_string(bytes.size()) + " bytes, over the limit of " + std::to_string(most));
    return bytes;
}

struct Match {
    std::uint32_t period = 0; // newest first
    std::uint32_t number = 0;
    int weight = 0;
};

// The best `limit` matches, and how many there were, holding at most about twice `limit`.
class Ranking {
public:
    explicit Ranking(std::size_t limit) : limit_(limit) {}
    void add(const Match& match) {
        ++total_;
        kept_.push_back(match);
        if (kept_.size() >= 2 * limit_ + 64) trim();
    }
    std::size_t total() const { return total_; }
    std::vector<Match> best() {
        trim();
        std::sort(kept_.begin(), kept_.end(), better);
        return kept_;
    }

private:
    static bool better(const Match& a, const Match& b) {
        if (a.weight != b.weight) return a.weight > b.weight;
        if (a.period != b.period) return a.period < b.period;
        return a.number > b.number;
    }
    void trim() {
        if (kept_.size() <= limit_) return;
        std::nth_element(kept_.begin(), kept_.begin() + static_cast<std::ptrdiff_t>(limit_), kept_.end(), better);
        kept_.resize(limit_);
    }
    std::size_t limit_, total_ = 0;
    std::vector<Match> kept_;
};

// One word's postings in a period, from the chunks that can hold it.
Result<Postings> word_postings(Reader& reader, const Period& period, const std::string& word) {
    const bool prefix = word.size() >= min_prefix;
    auto [from, to] = chunk_range(period.head, word, prefix);
    Postings postings;
    for (std::size_t c = from; c < to && c < period.head.first_words.size(); ++c) {
        const std::string path = chunk_path(period.head.name, period.head.first_words[c]);
        auto text = reader.chunk(path);
        if (!text) return std::unexpected(text.error());
        if (auto scanned = scan_chunk(*text, word, prefix, period.papers, postings); !scanned)
            return std::unexpected(in_file(scanned.error(), path));
    }
    compact(postings);
    return postings;
}

// The papers of one period that match every word, with the sums of their classes.
Result<std::vector<std::pair<std::uint32_t, int>>> match_words(Reader& reader, const Period& period,
                                                               const Query& query) {
    std::vector<std::pair<std::uint32_t, int>> all;
    for (std::size_t w = 0; w < query.words.size(); ++w) {
        auto postings = word_postings(reader, period, query.words[w]);
        if (!postings) return std::unexpected(postings.error());
        std::vector<std::pair<std::uint32_t, int>> both;
        auto p = postings->begin();
        if (w == 0)
            for (std::uint32_t posting : *postings) both.emplace_back(posting >> 2, int(posting & 3));
        for (const auto& [number, weight] : all) { // both in number order
            while (p != postings->end() && (*p >> 2) < number) ++p;
            if (p != postings->end() && (*p >> 2) == number) both.emplace_back(number, weight + int(*p & 3));
        }
        all = std::move(both);
    }
    return all;
}

// Adds the period's papers that match every word and the date.
Result<void> match_period(Reader& reader, const Period& period, std::uint32_t index, const Query& query,
                          Ranking& ranking) {
    if (query.words.empty()) { // a date alone: the papers of its days
        for (std::size_t d = 0; d < period.dates.size(); ++d)
            if (period.dates[d].iso().starts_with(query.date))
                for (std::uint32_t n = period.first[d];
                     n < (d + 1 < period.first.size() ? period.first[d + 1] : period.papers); ++n)
                    ranking.add({index, n, 0});
        return {};
    }
    auto matched = match_words(reader, period, query);
    if (!matched) return std::unexpected(matched.error());
    for (const auto& [number, weight] : *matched)
        if (period.dates[day_of(period, number)].iso().starts_with(query.date)) ranking.add({index, number, weight});
    return {};
}

// Whether a field's text holds the query word (as a prefix from min_prefix bytes).
bool field_holds(std::string_view text, const std::string& word) {
    bool found = false;
    for_each_word(text, [&](std::string_view w) {
        found = found || w == word || (word.size() >= min_prefix && w.starts_with(word));
    });
    return found;
}

// Where the words are: the fields shown that hold one; "abstract or comment" for the others.
std::vector<std::string> found_in(const Hit& hit, const std::vector<std::string>& words) {
    const std::pair<const char*, const std::string*> fields[] = {
        {"title", &hit.title}, {"authors", &hit.authors}, {"topic", &hit.topic}, {"arXiv ID", &hit.id}};
    std::vector<std::string> names;
    bool elsewhere = false;
    for (const auto& word : words) {
        bool shown = false;
        for (const auto& [name, text] : fields)
            if (field_holds(*text, word)) {
                shown = true;
                if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
            }
        elsewhere = elsewhere || !shown;
    }
    if (elsewhere) names.emplace_back("abstract or comment");
    return names;
}

// A paper listed on several days once: at its best place, with its newest listing.
void merge_repeats(Found& found) {
    std::map<std::string, std::size_t> first; // arXiv ID -> index in `kept`
    std::vector<Hit> kept;
    for (auto& hit : found.hits) {
        auto [it, added] = first.try_emplace(hit.id, kept.size());
        if (added) kept.push_back(std::move(hit));
        else if (hit.date > kept[it->second].date) kept[it->second] = std::move(hit);
    }
    found.total -= found.hits.size() - kept.size();
    found.hits = std::move(kept);
}

// A day file's papers as [id, title, authors, score, topic]: the hits it gives.
Result<void> fill_hits(std::string_view text, const std::string& path, const Date& date,
                       const std::vector<std::pair<std::size_t, std::uint32_t>>& wanted,
                       const std::vector<Match>& matches, const std::vector<std::string>& words, Found& found) {
    rapidjson::Document doc;
    auto wrong = [&] { return fail("expected the day's papers as [id, title, authors, score, topic]", path); };
    if (!nesting_within(text, 3) || !parse_json(doc, text) || !doc.IsObject() || !doc.HasMember("papers") ||
        !doc["papers"].IsArray())
        return wrong();
    const auto& papers = doc["papers"];
    for (const auto& [at, rank] : wanted) {
        if (papers.Size() <= rank || !papers[rank].IsArray() || papers[rank].Size() != 5) return wrong();
        const auto& p = papers[rank];
        if (!p[0].IsString() || !p[1].IsString() || !p[2].IsString() || !p[4].IsString()) return wrong();
        Hit& hit = found.hits[at];
        hit = {
            date.iso(), p[0].GetString(), p[1].GetString(), p[2].GetString(), p[4].GetString(), {}, matches[at].weight,
            {}};
        if (p[3].IsInt()) hit.score = p[3].GetInt();
        hit.found_in = found_in(hit, words);
    }
    return {};
}

// What the results shown are: each day's file read and parsed once, for all its results.
Result<void> describe(Reader& reader, const std::vector<Period>& periods, const std::vector<Match>& matches,
                      const std::vector<std::string>& words, Found& found) {
    found.hits.resize(matches.size());
    std::vector<std::pair<Date, std::vector<std::pair<std::size_t, std::uint32_t>>>> days; // first needed first
    std::map<Date, std::size_t> listed;
    for (std::size_t i = 0; i < matches.size(); ++i) {
        const Period& period = periods[matches[i].period];
        const std::size_t day = day_of(period, matches[i].number);
        auto [it, added] = listed.try_emplace(period.dates[day], days.size());
        if (added) days.emplace_back(period.dates[day], std::vector<std::pair<std::size_t, std::uint32_t>>{});
        days[it->second].second.emplace_back(i, matches[i].number - period.first[day]);
    }
    for (const auto& [date, wanted] : days) {
        const std::string path = day_meta_path(date);
        auto text = reader.unpack(path, max_day_file_bytes);
        if (!text) return std::unexpected(text.error());
        if (auto filled = fill_hits(*text, path, date, wanted, matches, words, found); !filled) return filled;
    }
    return {};
}

} // namespace

Result<Found> run_query(const ReadFile& read, std::string_view text, std::size_t limit) {
    Found found;
    const Query query = parse_query(text);
    if (query.words.empty() && query.date.empty()) return found;
    Reader reader(read, found);
    auto manifest = reader.unpack(manifest_path, max_manifest_bytes);
    if (!manifest) return std::unexpected(manifest.error());
    auto periods = read_periods(*manifest);
    if (!periods) return std::unexpected(periods.error());
    manifest->clear();
    manifest->shrink_to_fit();
    Ranking ranking(limit);
    for (std::size_t i = 0; i < periods->size(); ++i)
        if (holds((*periods)[i], query.date))
            if (auto matched = match_period(reader, (*periods)[i], static_cast<std::uint32_t>(i), query, ranking);
                !matched)
                return std::unexpected(matched.error());
    found.total = ranking.total();
    if (auto described = describe(reader, *periods, ranking.best(), query.words, found); !described)
        return std::unexpected(described.error());
    merge_repeats(found);
    return found;
}

Result<Found> search_site(const fs::path& site, std::string_view query, std::size_t limit) {
    // Inside the site's folder only, links included (read_file_inside): the index names no file outside it.
    auto read = [&](const std::string& path) -> Result<std::string> {
        const std::size_t most = path == manifest_path ? max_manifest_bytes : max_query_bytes;
        auto bytes = read_file_inside(site, site / path, most);
        if (!bytes) return fail(bytes.error().message, (site / path).string());
        return bytes;
    };
    auto found = run_query(read, query, limit);
    if (!found && found.error().file.starts_with("search/")) {
        Error error = found.error();
        error.file = (site / error.file).string();
        return std::unexpected(std::move(error));
    }
    return found;
}

} // namespace pp::search
