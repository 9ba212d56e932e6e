// arXiv's published no-mailing evenings (config/arxiv_no_mailing.yaml,
// compiled in) and the calendar they make with arxiv.no_mailing.
#pragma once

#include "config/config.h"
#include "core/arxiv_calendar.h"

#include <map>
#include <string>
#include <vector>

namespace pp {

struct NoMailingTable {
    std::map<int, std::vector<Date>> years; // every year arXiv has published, with its evenings
    std::string checked;                    // when the table was last compared with arXiv's page
    std::string source;                     // arXiv's page
};

// The table of config/arxiv_no_mailing.yaml.
const NoMailingTable& default_no_mailing();

// arXiv's calendar: the built-in evenings and `settings.no_mailing`. A year
// with a date in `settings.no_mailing` counts as known.
ArxivCalendar arxiv_calendar(const ArxivSettings& settings);

} // namespace pp
