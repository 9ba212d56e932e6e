// The site graph: which pages exist and how they link. Built from summaries
// of the days (never whole days), so it stays small for a long archive.
// Days, months and years are in date order; prev/next are the neighbours in
// these lists, so dates without a file (weekends, gaps) are skipped.
#pragma once

#include "core/paper.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace pp {

struct DaySummary {
    Date date;
    DayStatus status = DayStatus::announced;
    int papers = 0;
    bool remedial = false;
    Counts counts;
    std::vector<std::string> top_titles; // the first few papers, in page order
};

// `top` titles are kept (the page order is the ranking).
DaySummary day_summary(const Day& day, std::size_t top = 3);

struct MonthNode {
    int year = 0;
    int month = 0;
    std::vector<std::size_t> days; // indices into SiteGraph::days
    int papers = 0;
};

struct YearNode {
    int year = 0;
    std::vector<std::size_t> months; // indices into SiteGraph::months
    int days = 0;
    int papers = 0;
};

struct SiteGraph {
    std::vector<DaySummary> days;
    std::vector<MonthNode> months;
    std::vector<YearNode> years;

    std::optional<std::size_t> find_day(const Date& date) const;
    std::optional<std::size_t> find_month(int year, int month) const;
    std::optional<std::size_t> find_year(int year) const;
    std::size_t month_of_day(std::size_t day) const;
    std::size_t year_of_month(std::size_t month) const;
};

// Sorts the summaries by date (a date given twice keeps the first).
SiteGraph build_site_graph(std::vector<DaySummary> days);

} // namespace pp
