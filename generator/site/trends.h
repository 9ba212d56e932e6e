// The trends page (trends/): what the archive's newest months picked, drawn
// by the build as inline SVG (no chart library reaches the reader), each
// chart with its numbers as a table. Pure functions of the days: no I/O.
// docs/themes.md lists the page's variables.
#pragma once

#include "core/paper.h"
#include "site/pages.h"

#include <map>
#include <span>
#include <string>
#include <vector>

namespace pp {

// How many of the archive's newest months the page covers (so a new day
// reads a dozen month data files, not the whole archive), and of their days
// how many the picks-per-day chart shows, and how many authors.
inline constexpr int trend_months = 12;
inline constexpr std::size_t trend_days = 60;
inline constexpr std::size_t trend_authors = 15;
inline constexpr std::size_t trend_topics = 5; // the rest are "Other topics"

struct MonthTrend {
    int year = 0, month = 0;
    int days = 0, picks = 0;
    std::map<std::string, int> topics; // picks by topic as shown ("" for none)
    double cost = 0;                   // the days' known total costs, US dollars
    int unknown_cost_days = 0;         // days whose cost is not known (not $0)
};

struct Trends {
    std::vector<std::pair<Date, int>> picks;          // the newest trend_days days, oldest first
    std::vector<MonthTrend> months;                   // oldest first
    std::vector<std::pair<std::string, int>> authors; // most picks first, then by name
    std::vector<std::string> topics;                  // the most picked, most first
};

// One month's share of the trends, counted once from its days: a month that
// did not change is not counted again (site/trends_cache.h keeps these
// between builds), so an append counts the newest month alone.
struct MonthTally {
    MonthTrend trend;
    std::vector<std::pair<Date, int>> picks;          // picks by day, in date order
    std::vector<std::pair<std::string, int>> authors; // papers by author as shown, in name order
};

// The month's days, in date order (none: an empty tally of no month).
MonthTally tally_month(std::span<const Day> days);

// The page's trends from the months' tallies, oldest first.
Trends trends_of(const std::vector<MonthTally>& months);

// `days` in date order, those of the newest trend_months months.
Trends trends_of(const std::vector<Day>& days);

// A bar chart as inline SVG: one bar per label, each the stack of its
// parts (class s0, s1, ... for the theme's colours); `title` names it for
// assistive technology. Labels are escaped; every `label_every`-th is drawn.
struct ChartBar {
    std::string label;
    std::vector<double> parts;
};
std::string column_svg(const std::string& title, const std::vector<ChartBar>& bars, std::size_t label_every = 1);
// Horizontal bars with their label and value written beside them.
std::string row_svg(const std::string& title, const std::vector<ChartBar>& bars);

TemplateData trends_page(const SiteContext& site, const Trends& trends);

} // namespace pp
