// `paperpress run`: the nightly job. Fetch the announcement (or back-fill a
// missed day through the API), drop papers earlier days listed, keep the
// followed authors' papers, score the rest (LLM or embedded scorer), write
// the day into the content tree and build the site.
#pragma once

#include "config/config.h"
#include "core/arxiv_calendar.h"
#include "core/paper.h"
#include "fetch/arxiv_feed.h"
#include "score/learned_scorer.h"
#include "util/clock.h"
#include "util/files.h"

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pp {

struct RunRequest {
    std::optional<Date> date;     // redo or back-fill this day
    std::optional<Date> from, to; // back-fill every missing weekday in [from, to]; to defaults to today
    bool offline = false;         // the saved sample feed and the embedded scorer
    bool resume = false;          // with `date`: score only the unscored papers of that (partial) day
    std::optional<Date> today;    // the day on arXiv's clock (US Eastern); from `now` when absent
    // The wall clock (UTC) that names `today` (arxiv_date); the system's when absent.
    std::optional<std::chrono::sys_seconds> now;
    Clock* clock = nullptr; // times waits (backoff, rate limits, arXiv's interval); nullptr: real_clock()
    fs::path content_dir = "content";
    // The LLM's key (the variable llm.api_key_env names), read by the CLI once: the
    // pipeline never reads the environment. Empty: no key (an LLM at llm.base_url may need none).
    std::string llm_api_key;
    std::function<void(const std::string&)> log; // what happened, a line at a time
    // Progress on long work (the LLM scoring a day): `done` of `total` of `task`. Tests leave it unset.
    std::function<void(const std::string& task, size_t done, size_t total)> progress;
    std::function<void(const std::vector<fs::path>&, const std::string&)> after_write; // e.g. commit the files
};

enum class RunOutcome {
    written,         // one or more days written
    no_announcement, // empty feed: weekend or holiday
    already_have,    // the archive already has the feed's announcement
    stale,           // the feed still serves an archived announcement, not the expected one: nothing written
    failed,          // an error: nothing was written
};

struct RunResult {
    RunOutcome outcome = RunOutcome::failed;
    std::vector<Date> days;            // the days written
    std::vector<std::string> warnings; // unscored papers, ...
    std::string error;
    // Why the run is incomplete (exit 3), a true sentence each: a day written
    // partial or stale ("... written and published as such"), or an
    // announcement not had ("... nothing written; the next run ...").
    std::vector<std::string> incomplete;
};

// `run`'s exit code: 0 only when every day is complete, 3 for a partial or
// stale day (the workflow still publishes, and goes red), 1 for a failure.
int run_exit_code(const RunResult& result);

// The announcement a run on `today` (arXiv's day, US Eastern: the feed flips
// at midnight there) should find in the feed: the latest announcement day of
// arXiv's calendar up to `today`.
Date expected_announcement(const ArxivCalendar& calendar, const Date& today);

// The first announcement day of arXiv's calendar after `today`.
Date next_announcement(const ArxivCalendar& calendar, const Date& today);

// Why a feed dated after arXiv's next announcement by the clock (`today`)
// is no fresh announcement; nothing for any other. arXiv dates a feed at
// midnight US Eastern, so never after the UTC date; the next announcement
// is allowed for a clock a little behind, anything later is a wrong feed
// (or clock) and never becomes a day.
std::optional<std::string> future_feed(const ArxivCalendar& calendar, const Announcement& announcement,
                                       const Date& today);

RunResult run_nightly(const RunRequest& request, const Config& config);

// The submission window the back-fill of `day` asks the API for: between
// the 14:00 US-Eastern deadlines of the announcement before it and of its
// own (submission_window in core/arxiv_calendar.h).
SubmissionWindow backfill_window(const ArxivCalendar& calendar, const Date& day);

// What the nightly catch-up does for a day it finds incomplete.
enum class CatchUp {
    fetch,  // no day file, or a stale, failed or partly fetched day: back-filled through the API
    resume, // papers the LLM did not score: scored again with the LLM (as --resume)
};
const char* to_string(CatchUp action);

// What a written day waits for, if anything: a stale or failed day, or a
// partial one without unscored papers (API pages missing), is fetched again;
// a partial day with unscored papers is resumed.
std::optional<CatchUp> waiting_for(const Day& day);

struct CatchUpDay {
    Date date;
    CatchUp action;
    bool operator==(const CatchUpDay&) const = default;
};

// The days a nightly run (no --date) heals before the feed's: the
// announcement days among the `look_back` weekdays before `expected` that
// have no day file or wait for something (waiting_for), oldest first. None
// for an archive without any day (a new site starts with tonight's).
std::vector<CatchUpDay> catch_up_days(const fs::path& content, const ArxivCalendar& calendar, const Date& expected,
                                      int look_back);

} // namespace pp
