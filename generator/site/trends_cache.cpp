#include "site/trends_cache.h"

#include "util/record_file.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace pp {

namespace {

// A line a month, then a line for each of its days, topics and authors.
enum ProgramField { p_program };
enum MonthField { m_month, m_key, m_days, m_picks, m_cost, m_unknown_cost_days };
enum CountField { c_name, c_count }; // a day ("YYYY-MM-DD"), a topic or an author, and its picks

const RecordFormat& tallies_format() {
    static const RecordFormat format{
        .name = "paperpress trends tallies",
        .version = 1,
        .kinds = {{'P', {"program"}},
                  {'M', {"month", "key", "days", "picks", "cost", "unknown_cost_days"}},
                  {'D', {"date", "picks"}},
                  {'T', {"topic", "picks"}},
                  {'A', {"author", "papers"}}},
    };
    return format;
}
enum Kind { k_program, k_month, k_day, k_topic, k_author };

constexpr int most_count = 1'000'000'000; // far above any month's picks; keeps sums from overflowing

bool count_of(const Record& f, std::size_t field, int& value) {
    return f.number(field, value) && value >= 0 && value <= most_count;
}

bool month_of(std::string_view text, MonthTrend& month) {
    if (text.size() != 7) return false;
    auto date = parse_iso_date(std::string(text) + "-01");
    if (!date) return false;
    month.year = date->year;
    month.month = date->month;
    return true;
}

bool cost_of(std::string_view text, double& value) {
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && std::isfinite(value) && value >= 0;
}

// A month whose days add up to its own totals, each list in its order.
bool consistent(const MonthTally& tally) {
    long long picks = 0;
    for (const auto& [date, count] : tally.picks) picks += count;
    return static_cast<std::size_t>(tally.trend.days) == tally.picks.size() && picks == tally.trend.picks &&
           tally.trend.unknown_cost_days <= tally.trend.days;
}

// One record into the tallies read so far; false when it does not fit them.
bool add_record(const Record& f, std::vector<KeptTally>& tallies) {
    if (f.kind == k_month) {
        KeptTally kept;
        MonthTrend& m = kept.tally.trend;
        if (!tallies.empty() && !consistent(tallies.back().tally)) return false;
        const bool ok = month_of(f.raw(m_month), m) && f.hex(m_key, kept.key) && count_of(f, m_days, m.days) &&
                        count_of(f, m_picks, m.picks) && cost_of(f.raw(m_cost), m.cost) &&
                        count_of(f, m_unknown_cost_days, m.unknown_cost_days);
        if (!ok || (!tallies.empty() && std::pair(tallies.back().tally.trend.year, tallies.back().tally.trend.month) >=
                                            std::pair(m.year, m.month)))
            return false;
        tallies.push_back(std::move(kept));
        return true;
    }
    if (tallies.empty()) return false;
    MonthTally& tally = tallies.back().tally;
    int count = 0;
    if (!count_of(f, c_count, count)) return false;
    std::string name = f.text(c_name);
    if (f.kind == k_day) {
        auto date = parse_iso_date(name);
        if (!date || date->year != tally.trend.year || date->month != tally.trend.month ||
            (!tally.picks.empty() && !(tally.picks.back().first < *date)))
            return false;
        tally.picks.emplace_back(*date, count);
    } else if (f.kind == k_topic) {
        if (!tally.trend.topics.emplace(std::move(name), count).second) return false;
    } else {
        if (!tally.authors.empty() && !(tally.authors.back().first < name)) return false;
        tally.authors.emplace_back(std::move(name), count);
    }
    return true;
}

} // namespace

fs::path trends_cache_path(const fs::path& out_dir) { return beside_folder(out_dir, ".paperpress-trends"); }

std::vector<KeptTally> parse_tallies(std::string_view bytes, std::uint64_t program) {
    auto reader = RecordReader::open(bytes, tallies_format(), "");
    if (!reader) return {};
    std::vector<KeptTally> tallies;
    std::uint64_t written_by = 0;
    bool have_program = false;
    for (;;) {
        auto record = reader->next();
        if (!record) return {};
        if (!*record) break;
        const Record& f = **record;
        if (f.kind == k_program) {
            if (have_program || !tallies.empty() || !f.hex(p_program, written_by)) return {};
            have_program = true;
        } else if (!have_program || !add_record(f, tallies)) {
            return {};
        }
    }
    if (!have_program || written_by != program || (!tallies.empty() && !consistent(tallies.back().tally))) return {};
    return tallies;
}

std::vector<KeptTally> load_tallies(const fs::path& out_dir, std::uint64_t program) {
    const fs::path path = trends_cache_path(out_dir);
    auto stamp = stamp_of(path); // a regular file (through no link: MappedFile opens none)
    if (!stamp || stamp->size > default_read_limit) return {};
    auto file = MappedFile::open(path);
    return file ? parse_tallies(file->bytes(), program) : std::vector<KeptTally>{};
}

std::string serialize_tallies(const std::vector<KeptTally>& tallies, std::uint64_t program) {
    std::string bytes;
    RecordWriter out(tallies_format(), [&bytes](std::string_view piece) { bytes += piece; });
    out.begin('P');
    out.hex(program);
    out.end();
    for (const auto& [key, tally] : tallies) {
        const MonthTrend& m = tally.trend;
        char month[16], cost[32];
        std::snprintf(month, sizeof month, "%04d-%02d", m.year, m.month);
        out.begin('M');
        out.text(month);
        out.hex(key);
        out.number(m.days);
        out.number(m.picks);
        out.text(std::string_view(cost, std::to_chars(cost, cost + sizeof cost, m.cost).ptr)); // exact, read back
        out.number(m.unknown_cost_days);
        out.end();
        for (const auto& [date, picks] : tally.picks) {
            out.begin('D');
            out.text(date.iso());
            out.number(picks);
            out.end();
        }
        for (const auto& [topic, picks] : m.topics) {
            out.begin('T');
            out.text(topic);
            out.number(picks);
            out.end();
        }
        for (const auto& [author, papers] : tally.authors) {
            out.begin('A');
            out.text(author);
            out.number(papers);
            out.end();
        }
    }
    out.finish();
    return bytes;
}

Result<void> save_tallies(const fs::path& out_dir, const std::vector<KeptTally>& tallies, std::uint64_t program) {
    FileUpdate file(trends_cache_path(out_dir)); // a link there is replaced, never written through
    file.append(serialize_tallies(tallies, program));
    auto written = file.commit();
    if (!written) return std::unexpected(written.error());
    return {};
}

} // namespace pp
