// The build's room for the search index (search/index.h): the day stage
// hands it every day it parses, whose result file it writes at once; a
// period whose days have all come is written then and its words let go (a
// full build holds a period or two, not the archive). After the days, it
// writes the periods whose days changed that are still to do (parsing the
// days no one parsed), and the list of periods. A nightly append changes the
// newest week's period only (and, the first night of a week or a month, the
// period it folds into). Written when the site has a search page.
#pragma once

#include "search/index.h"
#include "search/period_words.h"
#include "site/build_context.h"
#include "site/day_stage.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pp {

class SearchStage {
public:
    // The periods of the days to build (the tasks, which must stay where they are).
    SearchStage(BuildContext& build, std::vector<DayTask>& tasks);

    bool enabled() const { return enabled_; }
    // From any thread: a day as parsed by the day stage (its record made).
    void add(const Day& day);
    // After the day stage, with the days that could be read.
    void write(const std::vector<DayTask*>& live);

private:
    struct Period {
        std::string name;
        std::vector<DayTask*> days; // in date order
        std::uint64_t key = 0;
        std::optional<search::PeriodHead> listed; // the last list's entry, when its chunks are this key's
        bool up_to_date = false;
    };
    // What the build gathers of a period while the days come.
    struct Part {
        std::vector<DayTask*> tasks;                // in date order
        std::unique_ptr<search::PeriodWords> words; // of the tasks' days
        std::atomic<bool> done{false};
        std::optional<search::PeriodHead> head; // written while the days came
    };

    // The day's place in its period's tasks, or none.
    static std::optional<std::size_t> index_of(const Part& part, const Date& date);
    std::uint64_t period_key(const Period& period) const;
    std::vector<Period> periods_of(const std::vector<DayTask*>& live);
    void finish_early(const std::string& name, Part& part);
    bool check_period(Period& period, bool listed);
    const std::map<std::string, search::PeriodHead>& last_heads();
    void write_periods(std::vector<Period>& periods, std::uint64_t key);
    std::set<std::string> add_missing(const std::vector<Period*>& stale);
    search::PeriodHead rebuild(const Period& period);
    void write_day_meta(const DayTask& task, const Day& day);
    void write_day_metas(const std::vector<DayTask*>& live);

    BuildContext& build_;
    bool enabled_ = false;
    Date newest_;                       // the newest day: it decides the periods (search::period_of)
    std::map<std::string, Part> parts_; // by period; made up front, so no node moves
    std::uint64_t last_list_bytes_ = 0; // the hash of the last build's list of periods, as it recorded it
    std::once_flag heads_once_;
    std::map<std::string, search::PeriodHead> heads_; // that list's entries, once read back
    std::mutex metas_mutex_;
    std::set<Date> metas_done_; // the days whose result file add() wrote
};

} // namespace pp
