// What a build makes from the whole site graph once the days are done: the
// feed, the data index, the sitemap, the home page, the month, year and
// archive pages, the prompts' pages, 404, search, starred, trends, the date
// range and the preferences. Each output
// declares what it is made from (its ListInputs); it is rendered again only
// when the hash of those inputs changes.
#pragma once

#include "site/day_stage.h"

namespace pp {

// `live`: the days of the site graph, in its order.
void write_lists(BuildContext& build, DayStage& days, const std::vector<DayTask*>& live);

} // namespace pp
