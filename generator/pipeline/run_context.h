// What the rooms of `paperpress run` share: the run's context and one
// declaration block per room. Internal to pipeline/; nightly.h is the
// interface.
//   feed.cpp        the feed (polled while late), the API back-fill and the catch-up
//   day_writer.cpp  one day from its entries: candidates, selection, status, the file
//   llm_pass.cpp    the scorers: the LLM with its stand-in, the embedded scorer, the pre-filter
//   resume.cpp      a partial day completed with the LLM
//   nightly.cpp     the run: which of them, in which order
#pragma once

#include "content/feedback.h"
#include "content/prompt_store.h"
#include "fetch/arxiv_source.h"
#include "pipeline/nightly.h"
#include "score/llm_scorer.h"
#include "score/prompt.h"
#include "score/selection.h"

#include <set>
#include <string>
#include <vector>

namespace pp::nightly {

// What one day is made from.
struct DayInput {
    Date date;
    std::vector<FeedEntry> entries;
    std::optional<Remedial> remedial;
    std::string partial_reason; // e.g. API pages that never came
};

// What the LLM made of `to_score`, with the prompt text it was asked with.
struct LlmPass {
    LlmScoring scoring;
    std::string prompt_text;
};

struct Context {
    const RunRequest& request;
    const Config& config;
    PromptSet prompts;
    std::vector<std::string> followed;
    bool use_llm = false;
    std::string scorer_reason; // why this scorer serves, for the log
    std::string api_key;       // RunRequest::llm_api_key: the pipeline never reads the environment
    ArxivCalendar calendar;
    // The run's waits for the LLM end here: set by its first call.
    mutable std::optional<Clock::time_point> llm_deadline;
    mutable std::string llm_stopped; // why the LLM stopped serving, once it has: for the rest of the run
    mutable std::set<int> years_warned;
    std::vector<Judgement> feedback = {}; // the reader's, every file's (content/feedback.h): in force as of each day
    Clock& clock() const { return request.clock ? *request.clock : real_clock(); }
    void log(const std::string& line) const {
        if (request.log) request.log(line);
    }
    // Warns once a run for a year whose holidays arXiv's calendar here lacks.
    void check_year(const Date& day, RunResult& result) const {
        if (calendar.knows_year(day.year) || !years_warned.insert(day.year).second) return;
        result.warnings.push_back("arXiv has not published its " + std::to_string(day.year) +
                                  " holidays here: every weekday of " + std::to_string(day.year) +
                                  " is taken for an announcement day (add arXiv's no-mailing evenings to "
                                  "arxiv.no_mailing, or update paperpress)");
    }
};

// day_writer.cpp
bool archive_has(const fs::path& content, const Date& date);
// IDs listed on any day before `date`; `last` gets the latest such day's.
std::set<std::string> ids_listed_before(const fs::path& content, const Date& date, std::vector<std::string>& warnings,
                                        std::pair<Date, std::set<std::string>>& last);
// The feed entries the config asks for (announce types, primary category).
bool wanted(const FeedEntry& entry, const ArxivSettings& settings);
// A new announcement never lists again every paper the last day kept: a
// feed (its papers' `ids`) that does repeats that day's.
bool repeats_last_day(const std::set<std::string>& last_day, const std::set<std::string>& ids);
// A new announcement lists a few papers of earlier days at most (late
// cross-lists: 2 of a category's 36 in arXiv's real listings of March-April
// 2025 and April 2026, 5.6%, the most on any fresh day), a re-served one
// all of them. A category whose share of the feed's papers listed on earlier
// days (`earlier`) is at least half, and at least this many papers, still
// served an earlier announcement: the reason naming those categories, or "".
constexpr size_t stale_share_min_papers = 2;
std::string stale_categories(const std::vector<FeedEntry>& entries, const std::set<std::string>& earlier,
                             const ArxivSettings& settings);
// A day's status from what went wrong; the reason names each problem.
void settle_status(Day& day, std::vector<std::string> stale, const std::vector<std::string>& partial);
// The day's picks: followed authors' papers and those whose score passed.
long long count_selected(const Day& day);
// The candidates that are not among the picks, in their order, titles and IDs only, after
// `earlier` (a day's list so far, kept first): the day file's "Not picked" section.
std::vector<Unpicked> not_picked(const std::vector<Paper>& candidates, const std::vector<Paper>& picks,
                                 std::vector<Unpicked> earlier = {});
// What happens next to an incomplete day, for the exit-3 line.
std::string retry_note(const Context& ctx, const Day& day);
// Scores, selects and writes one day; returns its date.
Result<Date> write_one_day(const Context& ctx, DayInput input, RunResult& result);

// llm_pass.cpp
// The embedded scorer's verdicts on `to_score`; returns the prompt record.
std::string score_embedded(const Context& ctx, const Date& date, const std::vector<Paper>& to_score, Verdicts& verdicts,
                           Day& day, RunResult& result);
// The LLM's verdicts (after the pre-filter, which may drop papers from
// `to_score`); returns the prompt record and the unscored summary.
Result<std::pair<std::string, std::string>> score_with_the_llm(const Context& ctx, const Date& date,
                                                               std::vector<Paper>& to_score, Verdicts& verdicts,
                                                               Day& day, RunResult& result);
// Scores `papers` with the LLM. Papers it could not score stay in
// `scoring.unscored`; `scoring.stopped` says when it stopped serving.
LlmPass score_by_llm(const Context& ctx, const std::vector<Paper>& papers, const Date& date, RunResult& result);
// The embedded scorer's scores for the papers the LLM left unscored.
void stand_in_for_llm(const Context& ctx, const Date& date, const std::vector<Paper>& asked, LlmPass& pass,
                      RunResult& result);
// The day's cost: unknown (not $0) when some call's tokens are unknown.
Cost cost_of_calls(const std::string& model, const Tokens& tokens, const LlmScoring& scoring, const LlmSettings& llm);
// "3 of 28 candidates unscored by the LLM (...), ..."; empty when none is.
std::string unscored_summary(const std::map<std::string, std::string>& unscored, size_t asked);
// A part of a day's reason that unscored_summary wrote (resume_day writes it anew).
bool is_unscored_summary(std::string_view reason_part);
// One warning a paper the LLM left unscored, or one for them all when many are.
void warn_unscored(const Date& date, const std::map<std::string, std::string>& unscored, RunResult& result);

// A paper the day picks: scored (by the LLM or its stand-in) or an author match.
bool is_pick(const Paper& paper);
// Whether the LLM should summarize picks of `day` that have no summary.
bool lacks_summaries(const Context& ctx, const Day& day);
// The picks' summaries (llm.summaries), their tokens and cost added to the day's.
void summarize_picks(const Context& ctx, Day& day, RunResult& result);

// resume.cpp
// Completes a partial day: only its unscored papers go to the LLM.
Result<Date> resume_day(const Context& ctx, const Date& date, RunResult& result);

// feed.cpp
// The API's entries for `day` (its submission window), for a back-fill.
Result<DayInput> backfill_input(const Context& ctx, ArxivSource& source, const Date& day, const Date& generated);
// A day from the feed's announcement (which has a date).
DayInput feed_input(Announcement announcement);
// The feed, polled until it holds the expected announcement or
// arxiv.wait_for_feed_minutes have passed.
Result<Announcement> fetch_feed(const Context& ctx, ArxivSource& source, const Date& today, const Date& expected);
// The nightly run's day from the feed, written after the catch-up.
void nightly_from_feed(const Context& ctx, ArxivSource& source, Announcement announcement, const Date& today,
                       RunResult& result);

} // namespace pp::nightly
