// The feed and the catch-up: the nightly feed (polled while late), what a
// run does with what it holds (tonight's day, a stale or empty feed), the
// API's back-fill of a day, and the catch-up of the days before tonight's.
#include "content/content_tree.h"
#include "pipeline/run_context.h"

#include <algorithm>

namespace pp {

Date expected_announcement(const ArxivCalendar& calendar, const Date& today) {
    return calendar.latest_announcement_day(today);
}

SubmissionWindow backfill_window(const ArxivCalendar& calendar, const Date& day) {
    return calendar.submission_window(day);
}

Date next_announcement(const ArxivCalendar& calendar, const Date& today) {
    Date day = next_day(today);
    while (!calendar.is_announcement_day(day)) day = next_day(day);
    return day;
}

std::optional<std::string> future_feed(const ArxivCalendar& calendar, const Announcement& announcement,
                                       const Date& today) {
    if (!announcement.date) return std::nullopt;
    const Date next = next_announcement(calendar, today);
    if (*announcement.date <= next) return std::nullopt;
    return "the feed is dated " + announcement.date->iso() + ", after arXiv's next announcement (" + next.iso() +
           ") by this machine's clock (today is " + today.iso() +
           " UTC): not a fresh announcement, nothing written "
           "(the feed or the clock is wrong)";
}

const char* to_string(CatchUp action) { return action == CatchUp::fetch ? "fetch" : "resume"; }

std::optional<CatchUp> waiting_for(const Day& day) {
    if (day.status == DayStatus::stale || day.status == DayStatus::failed) return CatchUp::fetch;
    if (day.status != DayStatus::partial) return std::nullopt;
    bool unscored = std::ranges::any_of(day.papers, [](const Paper& p) { return !p.unscored.empty(); });
    return unscored ? CatchUp::resume : CatchUp::fetch;
}

std::vector<CatchUpDay> catch_up_days(const fs::path& content, const ArxivCalendar& calendar, const Date& expected,
                                      int look_back) {
    if (look_back <= 0 || scan_content(content).days.empty()) return {};
    std::vector<CatchUpDay> due;
    Date day = expected;
    for (int weekdays = 0; weekdays < look_back;) {
        day = previous_day(day);
        if (day.weekday() == 0 || day.weekday() == 6) continue;
        ++weekdays;
        if (!calendar.is_announcement_day(day)) continue;
        const fs::path path = day_path(content, day);
        if (!fs::exists(path)) {
            due.push_back({day, CatchUp::fetch});
        } else if (auto written = load_day(path)) {
            if (auto action = waiting_for(*written)) due.push_back({day, *action});
        }
    }
    std::ranges::reverse(due);
    return due;
}

namespace nightly {

Result<DayInput> backfill_input(const Context& ctx, ArxivSource& source, const Date& day, const Date& generated) {
    const SubmissionWindow window = backfill_window(ctx.calendar, day);
    const UtcMinute last = minute_before(window.to); // arXiv's ranges include both ends
    ctx.log(day.iso() + ": back-filling through the arXiv API, papers submitted " + window.from.iso() + " to " +
            last.iso() + " (between the 14:00 US-Eastern deadlines)");
    std::string gap;
    auto entries = source.fetch_submitted(window.from, last, &gap);
    if (entries && entries->empty() && gap.empty() && ctx.calendar.is_announcement_day(day)) {
        // An announcement day has papers: an empty answer (totalResults 0) is
        // likelier the API's known fault, a valid empty feed for a query that
        // has results (lukasschwab/arxiv.py#43 and #129, ropensci/aRxiv#66),
        // than an empty day. Asked again once (the client keeps the polite
        // interval), then the day is partial, so the catch-up asks later.
        ctx.log(day.iso() + ": the arXiv API answered no papers for an announcement day; asking again once");
        entries = source.fetch_submitted(window.from, last, &gap);
        if (entries && entries->empty() && gap.empty())
            gap = "the arXiv API answered no papers twice for the submission window " + window.from.iso() + " to " +
                  last.iso() + ", where an announcement day has some (its known empty answer, totalResults 0)";
    }
    if (!entries) return std::unexpected(entries.error());
    return DayInput{day, std::move(*entries), Remedial{window.from.date, last.date, generated}, gap};
}

// arXiv's RSS feed holds at most this many entries (its documented cap for
// multi-category feeds): a feed this long was possibly cut.
constexpr size_t feed_cap = 2000;

// A day from the feed's announcement (which has a date).
DayInput feed_input(Announcement announcement) {
    DayInput input{*announcement.date, std::move(announcement.entries), std::nullopt, {}};
    if (input.entries.size() >= feed_cap)
        input.partial_reason = "the feed holds " + std::to_string(input.entries.size()) +
                               " entries, at least arXiv's cap of " + std::to_string(feed_cap) +
                               " for a feed: the announcement was possibly cut (back-fill with --date " +
                               input.date.iso() + " to get it whole)";
    return input;
}

namespace {

// A missed or incomplete night heals the next: every announcement day of the
// look-back with no day file, or one that waits (waiting_for), is fetched
// again or resumed first, so tonight's day is de-duplicated against them. A
// catch-up that fails is a warning, and the run incomplete, not a failure of
// tonight's day.
void catch_up(const Context& ctx, ArxivSource& source, const Date& expected, const Date& feed_date, const Date& today,
              RunResult& result) {
    for (const CatchUpDay& due :
         catch_up_days(ctx.request.content_dir, ctx.calendar, expected, ctx.config.arxiv.catch_up_days)) {
        const Date& day = due.date;
        if (day == feed_date) continue;
        if (due.action == CatchUp::resume && !ctx.use_llm) continue; // waits for a run with the LLM
        Result<Date> written = Date{};
        if (due.action == CatchUp::resume) {
            ctx.log(day.iso() + ": partial, with papers the LLM has not scored: catching up (as --resume)");
            written = resume_day(ctx, day, result);
        } else {
            ctx.log(day.iso() + (archive_has(ctx.request.content_dir, day)
                                     ? ": stale or incomplete: fetching it again through the API"
                                     : ": no day file: catching up a missed run"));
            auto input = backfill_input(ctx, source, day, today);
            written =
                input ? write_one_day(ctx, std::move(*input), result) : Result<Date>(std::unexpected(input.error()));
        }
        if (!written) {
            result.incomplete.push_back(day.iso() + " could not be caught up (" + written.error().to_string() +
                                        "); the next run tries again, or `paperpress run --date " + day.iso() + "`");
            continue;
        }
        result.days.push_back(*written);
        result.outcome = RunOutcome::written;
    }
}

} // namespace

// The feed, polled politely until it holds the expected announcement or
// arxiv.wait_for_feed_minutes have passed (a late feed is common after
// holidays and outages). Only on an announcement day: on other days the
// feed has nothing to wait for.
Result<Announcement> fetch_feed(const Context& ctx, ArxivSource& source, const Date& today, const Date& expected) {
    constexpr auto poll = std::chrono::minutes(5);
    Clock& clock = ctx.clock();
    const auto deadline = clock.now() + std::chrono::minutes(ctx.config.arxiv.wait_for_feed_minutes);
    for (;;) {
        auto announcement = source.fetch_announcement();
        if (!announcement || expected != today) return announcement;
        const bool late = !announcement->date || *announcement->date < expected || announcement->entries.empty();
        if (!late || clock.now() + poll > deadline) return announcement;
        ctx.log("the feed does not hold " + expected.iso() + "'s announcement yet (it holds " +
                (announcement->date ? announcement->date->iso() + "'s" : std::string("none")) +
                "): asking again in 5 min (arxiv.wait_for_feed_minutes: " +
                std::to_string(ctx.config.arxiv.wait_for_feed_minutes) + ")");
        clock.sleep_for(poll);
    }
}

namespace {

// True when the feed holds nothing new for `date`: it repeats the last
// archived day, or every paper in it was listed before.
bool nothing_new(const Context& ctx, const std::vector<FeedEntry>& entries, const Date& date,
                 std::vector<std::string>& warnings) {
    std::pair<Date, std::set<std::string>> last;
    auto earlier = ids_listed_before(ctx.request.content_dir, date, warnings, last);
    std::set<std::string> ids;
    for (const auto& entry : entries)
        if (wanted(entry, ctx.config.arxiv)) ids.insert(entry.paper.id);
    return repeats_last_day(last.second, ids) ||
           std::ranges::all_of(ids, [&](const std::string& id) { return earlier.contains(id); });
}

} // namespace

// The nightly run's day from the feed: tonight's announcement, written after
// the catch-up; nothing when the feed holds nothing new.
void nightly_from_feed(const Context& ctx, ArxivSource& source, Announcement announcement, const Date& today,
                       RunResult& result) {
    const Date expected = expected_announcement(ctx.calendar, today);
    const std::string expected_text = expected.iso() + "'s announcement";
    auto caught_up = [&](RunOutcome otherwise) {
        catch_up(ctx, source, expected, announcement.date.value_or(expected), today, result);
        if (result.days.empty()) result.outcome = otherwise;
    };
    const fs::path& content = ctx.request.content_dir;
    const bool holds_expected = announcement.date && *announcement.date >= expected && !announcement.entries.empty();
    if (!announcement.date || announcement.entries.empty()) {
        if (expected == today && !archive_has(content, expected)) {
            ctx.log("the feed is empty, where " + expected_text + " was expected; nothing written");
            result.incomplete.push_back("the feed held no announcement, where " + expected_text +
                                        " was expected: nothing written; the next run's catch-up fetches it "
                                        "through the API (or `paperpress run --date " +
                                        expected.iso() + "` later)");
        } else {
            ctx.log("no announcement: the feed is empty (" +
                    (ctx.calendar.is_announcement_day(today) ? "today's announcement is in the archive"
                                                             : ctx.calendar.why_no_announcement(today)) +
                    "); nothing written");
        }
        return caught_up(RunOutcome::no_announcement);
    }
    if (auto future = future_feed(ctx.calendar, announcement, today)) {
        ctx.log(*future);
        result.incomplete.push_back(*future + "; the next run's catch-up fetches " + expected.iso() +
                                    " through the API (or `paperpress run --date " + expected.iso() + "` later)");
        return caught_up(RunOutcome::stale);
    }
    const Date date = *announcement.date;
    if (!ctx.calendar.is_announcement_day(date) && nothing_new(ctx, announcement.entries, date, result.warnings)) {
        ctx.log("no announcement: the feed is dated " + date.iso() + " (" + ctx.calendar.why_no_announcement(date) +
                "), and it holds nothing new (the papers of earlier days); nothing written");
        return caught_up(RunOutcome::no_announcement);
    }
    if (archive_has(content, date)) {
        if (!holds_expected) {
            ctx.log("stale feed: it still serves " + date.iso() + "'s announcement, already in the archive, where " +
                    expected_text + " was expected; nothing written");
            result.incomplete.push_back("the feed still served " + date.iso() + "'s announcement, where " +
                                        expected_text +
                                        " was expected: nothing written; the next run's catch-up "
                                        "fetches it through the API (or `paperpress run --date " +
                                        expected.iso() + "` later)");
            return caught_up(RunOutcome::stale);
        }
        ctx.log(date.iso() + ": this announcement is already in the archive; nothing new (use --date " + date.iso() +
                " to redo it)");
        return caught_up(RunOutcome::already_have);
    }
    catch_up(ctx, source, expected, date, today, result);
    DayInput input = feed_input(std::move(announcement));
    if (date < expected)
        result.incomplete.push_back("the feed held " + date.iso() + "'s announcement (written), where " +
                                    expected_text + " was expected: the next run's catch-up fetches " + expected.iso() +
                                    " through the API");
    else if (!ctx.calendar.is_announcement_day(date))
        result.warnings.push_back("the feed holds new papers dated " + date.iso() +
                                  ", a day arXiv's calendar here has "
                                  "no announcement (" +
                                  ctx.calendar.why_no_announcement(date) + "): written as the feed says");
    auto written = write_one_day(ctx, std::move(input), result);
    if (!written) {
        result.outcome = RunOutcome::failed;
        result.error = written.error().to_string();
        return;
    }
    result.days.push_back(*written);
    result.outcome = RunOutcome::written;
}

} // namespace nightly

} // namespace pp
