// The month's overview: with an LLM configured, `run` writes
// content/YYYY/MM/summary.md once, when the month's last announcement is in,
// marked as generated with the model and the cost (content/month_summary.h).
// A person may edit it: nothing rewrites it unless asked (`run --summary
// YYYY-MM`). Kept out of pipeline/nightly.cpp: `run` calls it after its days.
#pragma once

#include "config/config.h"
#include "core/arxiv_calendar.h"
#include "core/date.h"
#include "util/error.h"
#include "util/files.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pp {

struct MonthOverviewRequest {
    int year = 0;
    int month = 0;
    fs::path content_dir = "content";
    bool force = false;  // rewrite a summary.md that exists (`run --summary YYYY-MM`)
    std::string api_key; // may be empty for a local server (llm.base_url)
};

struct MonthOverviewResult {
    bool written = false;
    fs::path path;    // content/YYYY/MM/summary.md
    std::string note; // why nothing was written, or what was
};

// The date of the month's last announcement on arXiv's calendar.
Date last_announcement(const ArxivCalendar& calendar, int year, int month);

// The months whose overview `run` should write now that it wrote `days`:
// a day that is its month's last announcement completes that month; a day of
// a new month completes the month before (its last days may have been
// holidays). Only months with day files and without a summary.md.
std::vector<std::pair<int, int>> months_to_summarize(const fs::path& content_dir, const ArxivCalendar& calendar,
                                                     const std::vector<Date>& days);

// Asks the LLM for the overview of the month's best papers and writes it.
Result<MonthOverviewResult> write_month_overview(const MonthOverviewRequest& request, const Config& config);

} // namespace pp
