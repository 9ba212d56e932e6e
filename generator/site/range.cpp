#include "site/build_state.h"
#include "site/pages.h"

namespace pp {

// The range page carries what its script would otherwise fetch data/index.json
// for (the newest day, the months that have a data file): a range reads only
// its own months' files.
TemplateData range_page(const SiteContext& site) {
    auto data = home_linked_page(site, "range", "Date range", range_page_path());
    std::string months;
    for (auto it = site.graph.months.rbegin(); it != site.graph.months.rend(); ++it)
        months += (months.empty() ? "" : " ") + month_data_name(it->year, it->month);
    if (site.graph.days.empty()) data.set("newest", false);
    else data.set("newest", site.graph.days.back().date.iso());
    if (months.empty()) data.set("months", false);
    else data.set("months", months);
    return data;
}

// Its key: the newest day and the months.
std::vector<std::uint64_t> range_page_inputs(const SiteGraph& graph) {
    std::vector<std::uint64_t> numbers;
    if (!graph.days.empty()) numbers.push_back(date_number(graph.days.back().date));
    for (const auto& month : graph.months)
        numbers.push_back(static_cast<std::uint64_t>(month.year * 100 + month.month));
    return numbers;
}

} // namespace pp
