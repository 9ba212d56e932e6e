// `paperpress run`, the order of the rooms: set the scorer up, then one of
// --resume, a back-fill window (--from/--to), a day asked by --date (or the
// offline sample), or the nightly feed with its catch-up (feed.cpp).
#include "pipeline/nightly.h"

#include "config/arxiv_dates.h"
#include "config/prices.h"
#include "pipeline/run_context.h"
#include "util/text.h"

namespace pp {

int run_exit_code(const RunResult& result) {
    if (result.outcome == RunOutcome::failed) return 1;
    return result.incomplete.empty() ? 0 : 3;
}

namespace nightly {
namespace {

std::vector<std::string> followed_authors(const ScoringSettings& scoring, std::vector<std::string>& warnings) {
    std::vector<std::string> names = scoring.authors;
    if (!scoring.authors_file.empty()) {
        auto text =
            read_file_inside(config_path_root(fs::path(scoring.authors_file).parent_path()), scoring.authors_file);
        if (!text) {
            warnings.push_back("cannot read the authors file: " + text.error().to_string());
        } else {
            for (auto line : split(*text, '\n')) {
                line = trim(line);
                if (line.empty() || line.starts_with('#')) continue;
                names.emplace_back(trim(line.substr(0, line.find(',')))); // "Name, SemanticScholarID"
            }
        }
    }
    return names;
}

// Records a day written (or the error that stopped it); false on an error.
bool finish(const Result<Date>& written, RunResult& result) {
    if (!written) {
        result.outcome = RunOutcome::failed;
        result.error = written.error().to_string();
        return false;
    }
    result.days.push_back(*written);
    result.outcome = RunOutcome::written;
    return true;
}

// The prompts, the followed authors and the scorer (the LLM when it can
// serve); false, with the error in `result`, when the run cannot start.
bool prepare(Context& ctx, RunResult& result) {
    const RunRequest& request = ctx.request;
    const Config& config = ctx.config;
    auto prompts = load_prompts(config.scoring);
    if (!prompts) {
        result.error = prompts.error().to_string();
        return false;
    }
    ctx.prompts = std::move(*prompts);
    ctx.followed = followed_authors(config.scoring, result.warnings);
    auto feedback = scan_feedback(request.content_dir); // a bad line is left out, and said
    for (const auto& error : feedback.errors) result.warnings.push_back("feedback line not used: " + error.to_string());
    ctx.feedback = std::move(feedback.judgements);
    ctx.api_key = request.llm_api_key;
    ctx.use_llm = !request.offline && (!ctx.api_key.empty() || config.llm.base_url_set);
    ctx.scorer_reason = request.offline ? "--offline"
                        : ctx.use_llm   ? (ctx.api_key.empty() ? "llm.base_url or OPENAI_BASE_URL is set"
                                                               : config.llm.api_key_env + " is set")
                                        : "no " + config.llm.api_key_env + " and no llm.base_url or OPENAI_BASE_URL";
    if (!request.offline && !ctx.use_llm && config.llm.required) {
        result.error = "llm.required is true, but the LLM cannot serve (" + ctx.scorer_reason + "); set " +
                       config.llm.api_key_env + " or llm.base_url, or set llm.required to false";
        return false;
    }
    // A model its provider retired: say so before its first request fails or is answered by another model.
    if (const std::string retired = retirement_warning(config.llm.model); ctx.use_llm && !retired.empty())
        result.warnings.push_back(retired);
    ctx.log(ctx.use_llm
                ? "scorer: LLM " + config.llm.model + " at " + config.llm.base_url + " (" + ctx.scorer_reason + ")" +
                      (config.scoring.prefilter == PrefilterKind::none
                           ? ""
                           : "; pre-filter: " + describe(config.scoring.prefilter))
                : "scorer: embedded, " + describe(config.scoring.embedded) + "; no LLM: " + ctx.scorer_reason +
                      (request.offline ? "" : " (set " + config.llm.api_key_env + " or OPENAI_BASE_URL to use one)"));
    return true;
}

// Back-fill of a window: every announcement day that the archive is missing.
void run_window(const Context& ctx, ArxivSource& source, const Date& today, RunResult& result) {
    const RunRequest& request = ctx.request;
    if (request.offline) {
        result.error = "back-fill (--from/--to) needs the arXiv API; it cannot run --offline";
        return;
    }
    // A window open at its end reaches to today; open at its start, it is one day.
    Date to = request.to.value_or(today);
    Date from = request.from.value_or(to);
    for (Date d = from; d <= to; d = next_day(d)) {
        ctx.check_year(d, result);
        if (!ctx.calendar.is_announcement_day(d)) {
            if (d.weekday() != 0 && d.weekday() != 6)
                ctx.log(d.iso() + ": no announcement (" + ctx.calendar.why_no_announcement(d) + "), skipped");
            continue;
        }
        if (archive_has(request.content_dir, d)) {
            ctx.log(d.iso() + ": already in the archive, skipped (use --date " + d.iso() + " to redo it)");
            continue;
        }
        auto input = backfill_input(ctx, source, d, today);
        if (!input || !finish(write_one_day(ctx, std::move(*input), result), result)) {
            if (!input) result.error = input.error().to_string(), result.outcome = RunOutcome::failed;
            return;
        }
    }
    if (result.days.empty() && result.outcome != RunOutcome::failed) result.outcome = RunOutcome::already_have;
}

// --date for a day the feed does not hold: the API's back-fill of it.
void run_date_from_api(const Context& ctx, ArxivSource& source, const Announcement& announcement, const Date& today,
                       RunResult& result) {
    const Date& date = *ctx.request.date;
    if (ctx.request.offline) {
        result.error = "the offline sample feed holds " +
                       (announcement.date ? announcement.date->iso() : std::string("no announcement")) + ", not " +
                       date.iso();
        return;
    }
    if (!ctx.calendar.is_announcement_day(date))
        result.warnings.push_back(date.iso() + " has no announcement on arXiv's calendar (" +
                                  ctx.calendar.why_no_announcement(date) +
                                  "): fetched as asked; its window is the next announcement's");
    auto input = backfill_input(ctx, source, date, today);
    if (!input) {
        result.error = input.error().to_string();
        return;
    }
    finish(write_one_day(ctx, std::move(*input), result), result);
}

// --date or --offline with the feed holding the day asked for: the feed's day.
void run_feed_day(const Context& ctx, Announcement announcement, const Date& today, RunResult& result) {
    if (auto future = future_feed(ctx.calendar, announcement, today)) {
        result.error = *future;
        return;
    }
    if (!announcement.date || announcement.entries.empty()) {
        ctx.log("no announcement: the feed is empty; nothing written");
        result.outcome = RunOutcome::no_announcement;
        return;
    }
    if (!ctx.request.date && archive_has(ctx.request.content_dir, *announcement.date)) {
        ctx.log(announcement.date->iso() +
                ": this announcement is already in the archive; nothing new (use "
                "--date " +
                announcement.date->iso() + " to redo it)");
        result.outcome = RunOutcome::already_have;
        return;
    }
    finish(write_one_day(ctx, feed_input(std::move(announcement)), result), result);
}

// A day asked for by date (the feed when it holds that day, else the API),
// the offline sample, or tonight's feed.
void run_feed(const Context& ctx, ArxivSource& source, const Date& today, RunResult& result) {
    const RunRequest& request = ctx.request;
    ctx.check_year(request.date.value_or(today), result);
    const Date expected = expected_announcement(ctx.calendar, today);
    auto announcement = request.offline ? ArxivSource::read_feed_file(ctx.config.arxiv.offline_feed)
                        : request.date  ? source.fetch_announcement()
                                        : fetch_feed(ctx, source, today, expected);
    if (!announcement) {
        result.error = announcement.error().to_string();
        return;
    }
    if (request.date && (!announcement->date || *announcement->date != *request.date))
        return run_date_from_api(ctx, source, *announcement, today, result);
    if (request.date || request.offline) return run_feed_day(ctx, std::move(*announcement), today, result);
    nightly_from_feed(ctx, source, std::move(*announcement), today, result);
}

} // namespace
} // namespace nightly

RunResult run_nightly(const RunRequest& request, const Config& config) {
    using namespace nightly;
    RunResult result;
    Context ctx{request, config, {}, {}, false, {}, {}, arxiv_calendar(config.arxiv), {}, {}, {}};
    if (!prepare(ctx, result)) return result;
    // arXiv's day, not the UTC one: a run at 20:30 Eastern is still on the day the feed holds.
    const Date today = request.today.value_or(request.now ? arxiv_date(*request.now) : arxiv_today());
    ArxivSource source(
        config.arxiv, [&](const std::string& line) { ctx.log(line); }, request.clock ? *request.clock : real_clock());
    if (request.resume) {
        if (!request.date) result.error = "--resume completes one partial day: give it with --date";
        else finish(resume_day(ctx, *request.date, result), result);
    } else if (request.from || request.to) {
        run_window(ctx, source, today, result);
    } else {
        run_feed(ctx, source, today, result);
    }
    return result;
}

} // namespace pp
