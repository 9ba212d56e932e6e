// The trends page's tallies read back (site/trends_cache.h, a
// util/record_file.h file beside the output folder): the build's own, but
// anything may have changed it. The input's lines get the header, the
// kinds' lines and a valid checksum, so the fuzzer explores the records
// rather than the checksum. What is accepted is months in date order whose
// days add up to their totals, and is written back into the same bytes.
#include "site/trends_cache.h"
#include "target.h"

#include <cstdlib>

PAPERPRESS_FUZZ_TARGET(trends_tallies) {
    const std::string empty = pp::serialize_tallies({}, 0);
    std::string text = empty.substr(0, empty.find("\nP\t") + 1); // the header and the kinds' lines
    text += input;
    if (!text.ends_with('\n')) text += '\n';
    const std::string summed = text + "C\t" + pp::hex64(pp::hash_bytes(text)) + "\n";
    for (const std::string& candidate : {std::string(input), summed}) {
        const auto tallies = pp::parse_tallies(candidate, 0);
        for (std::size_t i = 0; i < tallies.size(); ++i) {
            const pp::MonthTally& t = tallies[i].tally;
            if (i > 0 && std::pair(tallies[i - 1].tally.trend.year, tallies[i - 1].tally.trend.month) >=
                             std::pair(t.trend.year, t.trend.month))
                std::abort();
            long long picks = 0;
            for (const auto& [date, count] : t.picks) {
                if (count < 0 || date.year != t.trend.year || date.month != t.trend.month) std::abort();
                picks += count;
            }
            if (picks != t.trend.picks || t.picks.size() != static_cast<std::size_t>(t.trend.days) || t.trend.cost < 0)
                std::abort();
        }
        if (!tallies.empty() && pp::serialize_tallies(pp::parse_tallies(pp::serialize_tallies(tallies, 0), 0), 0) !=
                                    pp::serialize_tallies(tallies, 0))
            std::abort();
    }
}
