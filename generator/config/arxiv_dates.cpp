#include "config/arxiv_dates.h"

#include "config/arxiv_no_mailing_yaml.h" // generated from config/arxiv_no_mailing.yaml
#include "config/yaml_section.h"

namespace pp {

namespace {

// Reads the years map: each key a year, each value that year's dates, all in it.
Result<void> read_years(const Section& section, const YAML::Node& node, std::map<int, std::vector<Date>>& years) {
    if (!node.IsMap()) return section.problem(node.Mark().line + 1, "a map from years to lists of dates");
    for (const auto& entry : node) {
        const int line = entry.first.Mark().line + 1;
        int year = 0;
        if (!YAML::convert<int>::decode(entry.first, year)) return section.problem(line, "a year as each key");
        std::vector<Date> dates;
        if (auto ok = section.dates(dates)(entry.second, line); !ok) return ok;
        for (const Date& date : dates)
            if (date.year != year) return section.problem(line, "only dates of " + std::to_string(year));
        years[year] = std::move(dates);
    }
    return {};
}

NoMailingTable read_built_in_table() {
    NoMailingTable table;
    read_built_in(arxiv_no_mailing_yaml, "config/arxiv_no_mailing.yaml (built in)", [&](const Section& section) {
        return std::map<std::string, Setter>{
            {"source", section.text(table.source)},
            {"checked", section.text(table.checked)},
            {"years", [&](const YAML::Node& v, int) { return read_years(section, v, table.years); }},
        };
    });
    return table;
}

} // namespace

const NoMailingTable& default_no_mailing() {
    static const NoMailingTable table = read_built_in_table();
    return table;
}

ArxivCalendar arxiv_calendar(const ArxivSettings& settings) {
    std::vector<Date> evenings = settings.no_mailing;
    std::set<int> years;
    for (const auto& [year, dates] : default_no_mailing().years) {
        years.insert(year);
        evenings.insert(evenings.end(), dates.begin(), dates.end());
    }
    for (const Date& date : settings.no_mailing) years.insert(date.year);
    return ArxivCalendar(evenings, std::move(years));
}

} // namespace pp
