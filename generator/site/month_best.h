// A month's best-of: its best papers, picked from its days, a day at a
// time (a build keeps each day's share instead of the day).
#pragma once

#include "core/paper.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace pp {

// A month's best papers, from its days: ranked by score, every author match
// kept, at most `limit`; with the count of the month's papers per topic.
// The papers keep what a best-of shows (no abstract, no comment).
struct MonthBest {
    struct Entry {
        Date date;
        Paper paper;
    };
    std::vector<Entry> papers;
    std::vector<std::pair<std::string, int>> topics; // most papers first; "" for papers without one
};
MonthBest month_best(const std::vector<Day>& days, int limit);

// What a day gives its month's best-of: the papers of its that month_best
// could pick, and its topic counts. A build keeps these instead of the
// days until the month is complete.
struct DayBest {
    Date date;
    std::vector<Paper> matches; // author matches, in the day's order, at most `limit`
    std::vector<Paper> scored;  // the others, best first (ties in the day's order), at most `limit`
    std::map<std::string, int> topics;
};
DayBest day_best(const Day& day, int limit);
// month_best of the days these came from, given in date order.
MonthBest month_best(const std::vector<DayBest>& days, int limit);

} // namespace pp
