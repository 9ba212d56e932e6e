#include "site/site_graph.h"

#include <algorithm>

namespace pp {

DaySummary day_summary(const Day& day, std::size_t top) {
    DaySummary summary;
    summary.date = day.date;
    summary.status = day.status;
    summary.papers = static_cast<int>(day.papers.size());
    summary.remedial = day.remedial.has_value();
    summary.counts = day.counts;
    for (std::size_t i = 0; i < day.papers.size() && i < top; ++i) summary.top_titles.push_back(day.papers[i].title);
    return summary;
}

SiteGraph build_site_graph(std::vector<DaySummary> days) {
    SiteGraph graph;
    const auto by_date = [](const auto& a, const auto& b) { return a.date < b.date; };
    if (!std::is_sorted(days.begin(), days.end(), by_date))
        std::stable_sort(days.begin(), days.end(), by_date); // as a build hands them
    days.erase(std::unique(days.begin(), days.end(), [](const auto& a, const auto& b) { return a.date == b.date; }),
               days.end());
    graph.days = std::move(days);
    for (std::size_t i = 0; i < graph.days.size(); ++i) {
        const auto& day = graph.days[i];
        if (graph.months.empty() || graph.months.back().year != day.date.year ||
            graph.months.back().month != day.date.month) {
            graph.months.push_back(MonthNode{day.date.year, day.date.month, {}, 0});
            if (graph.years.empty() || graph.years.back().year != day.date.year)
                graph.years.push_back(YearNode{day.date.year, {}, 0, 0});
            graph.years.back().months.push_back(graph.months.size() - 1);
        }
        graph.months.back().days.push_back(i);
        graph.months.back().papers += day.papers;
        graph.years.back().days += 1;
        graph.years.back().papers += day.papers;
    }
    return graph;
}

std::optional<std::size_t> SiteGraph::find_day(const Date& date) const {
    auto it = std::lower_bound(days.begin(), days.end(), date, [](const auto& d, const Date& x) { return d.date < x; });
    if (it == days.end() || it->date != date) return std::nullopt;
    return static_cast<std::size_t>(it - days.begin());
}

std::optional<std::size_t> SiteGraph::find_month(int year, int month) const {
    for (std::size_t i = 0; i < months.size(); ++i)
        if (months[i].year == year && months[i].month == month) return i;
    return std::nullopt;
}

std::optional<std::size_t> SiteGraph::find_year(int year) const {
    for (std::size_t i = 0; i < years.size(); ++i)
        if (years[i].year == year) return i;
    return std::nullopt;
}

std::size_t SiteGraph::month_of_day(std::size_t day) const {
    return *find_month(days[day].date.year, days[day].date.month);
}

std::size_t SiteGraph::year_of_month(std::size_t month) const { return *find_year(months[month].year); }

} // namespace pp
