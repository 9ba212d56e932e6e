// The build's room for the search index (search/index.h): the day stage
// hands it every day it parses; after the days, it writes the periods whose
// days changed (parsing the days of such a period no one parsed), each
// changed day's result file, and the list of periods. A nightly append
// changes the newest month's period only. Written when the site has a
// search page.
#pragma once

#include "search/index.h"
#include "site/build_context.h"
#include "site/day_stage.h"

#include <map>
#include <string>
#include <vector>

namespace pp {

class SearchStage {
public:
    // The periods of the days to build (the tasks' dates).
    SearchStage(BuildContext& build, const std::vector<DayTask>& tasks);

    bool enabled() const { return enabled_; }
    // From any thread: a day as parsed by the day stage.
    void add(const Day& day);
    // After the day stage, with the days that could be read.
    void write(const std::vector<DayTask*>& live);

private:
    struct Period {
        std::string name;
        std::vector<DayTask*> days;
        std::uint64_t key = 0;
        std::size_t chunks = 0; // the last build's, made from the same key
        bool up_to_date = false;
    };
    std::vector<Period> periods_of(const std::vector<DayTask*>& live);
    bool check_period(Period& period);
    std::map<std::string, search::PeriodHead> last_heads(std::uint64_t recorded);
    void write_periods(std::vector<Period>& periods, std::uint64_t last_bytes, std::uint64_t key);
    void add_missing(const std::vector<Period*>& stale);
    search::PeriodHead rebuild(const Period& period);
    void write_day_metas(const std::vector<DayTask*>& live);
    std::string meta_of(const DayTask& task);

    BuildContext& build_;
    bool enabled_ = false;
    int newest_year_ = 0;
    std::map<std::string, search::PeriodWords> words_; // by period; made up front, so no node moves
    std::mutex metas_mutex_;
    std::map<Date, std::string> metas_; // day_meta_json of the days added
};

} // namespace pp
