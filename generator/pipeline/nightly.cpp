#include "pipeline/nightly.h"

#include "content/content_tree.h"
#include "config/arxiv_dates.h"
#include "content/prompt_store.h"
#include "fetch/arxiv_source.h"
#include "pipeline/progress.h"
#include "score/author_match.h"
#include "score/embedded_scorer.h"
#include "score/learned_scorer.h"
#include "score/llm_scorer.h"
#include "score/pricing.h"
#include "score/prompt.h"
#include "score/selection.h"
#include "score/topics.h"
#include "util/text.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace pp {

int run_exit_code(const RunResult& result) {
    if (result.outcome == RunOutcome::failed) return 1;
    return result.incomplete.empty() ? 0 : 3;
}

Date expected_announcement(const ArxivCalendar& calendar, const Date& today) {
    return calendar.latest_announcement_day(today);
}

SubmissionWindow backfill_window(const ArxivCalendar& calendar, const Date& day) {
    return calendar.submission_window(day);
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

namespace {

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
    std::string api_key;
    ArxivCalendar calendar;
    mutable std::optional<Clock::time_point> llm_deadline; // the run's waits for the LLM end here: set by its first call
    mutable std::string llm_stopped;    // why the LLM stopped serving, once it has: for the rest of the run
    mutable std::set<int> years_warned;
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

std::vector<std::string> followed_authors(const ScoringSettings& scoring, std::vector<std::string>& warnings) {
    std::vector<std::string> names = scoring.authors;
    if (!scoring.authors_file.empty()) {
        auto text = read_file(scoring.authors_file);
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

// IDs listed on any day before `date`; `last` gets the latest such day's.
std::set<std::string> ids_listed_before(const fs::path& content, const Date& date, std::vector<std::string>& warnings,
                                        std::pair<Date, std::set<std::string>>& last) {
    std::set<std::string> ids;
    auto scan = scan_content(content);
    for (const auto& folder : scan.unreadable)
        warnings.push_back("cannot list earlier days for de-duplication: " + folder.to_string());
    for (const auto& file : scan.days) {
        if (!(file.date < date)) break;
        auto day = load_day(file.path);
        if (!day) {
            warnings.push_back("cannot read an earlier day for de-duplication: " + day.error().to_string());
            continue;
        }
        last = {day->date, {}};
        for (const auto& paper : day->papers) ids.insert(paper.id), last.second.insert(paper.id);
    }
    return ids;
}

bool wanted(const FeedEntry& entry, const ArxivSettings& settings) {
    if (!entry.announce_type.empty() &&
        std::find(settings.announce_types.begin(), settings.announce_types.end(), entry.announce_type) ==
            settings.announce_types.end())
        return false;
    if (settings.primary_only && !entry.categories.empty() &&
        std::find(settings.categories.begin(), settings.categories.end(), entry.categories.front()) ==
            settings.categories.end())
        return false;
    return true;
}

std::string money(const Cost& cost) {
    if (!cost.total) return "unknown (a model not in the price table, or calls without usage)";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "$%.4f", *cost.total);
    return buffer;
}

// Scores `papers` with the embedded scorer.
std::map<std::string, ScoreReply> embedded_scores(const std::vector<Paper>& papers, const TopicKeywords& keywords) {
    std::map<std::string, ScoreReply> scores;
    for (const auto& paper : papers) {
        auto score = embedded_score(paper, keywords);
        scores[paper.id] = ScoreReply{paper.id, score.relevance, std::nullopt, score.comment};
    }
    return scores;
}

// The learned scorer's ranking of `papers`, from the archive before `date`.
LearnedRanking learned_ranking(const Context& ctx, const Date& date, const std::vector<Paper>& papers,
                               const TopicKeywords& keywords, std::vector<std::string>& warnings) {
    TasteSources sources{.content_dir = ctx.request.content_dir,
                         .feed_cache_dir = fs::path(ctx.config.arxiv.cache_dir) / "rss",
                         .index_cache = fs::path(ctx.config.scoring.cache_dir) / "taste-index.bin",
                         .log = [&](const std::string& line) { ctx.log(line); }};
    return rank_by_taste(papers, sources, keywords, date, {}, warnings);
}

std::map<std::string, ScoreReply> learned_replies(const std::vector<Paper>& papers, const LearnedRanking& ranking) {
    std::map<std::string, ScoreReply> scores;
    for (size_t i = 0; i < papers.size(); ++i)
        scores[papers[i].id] = ScoreReply{papers[i].id, ranking.scores[i].relevance, std::nullopt, ranking.scores[i].comment};
    return scores;
}

// The configured embedded scorer's verdicts on `papers` (learned or keywords).
std::map<std::string, ScoreReply> embedded_verdicts(const Context& ctx, const Date& date,
                                                    const std::vector<Paper>& papers, RunResult& result) {
    TopicKeywords keywords = parse_topic_keywords(ctx.prompts.topics);
    if (ctx.request.embedded == EmbeddedScorerKind::keywords) return embedded_scores(papers, keywords);
    return learned_replies(papers, learned_ranking(ctx, date, papers, keywords, result.warnings));
}

// Scores `papers` with the LLM. Papers it could not score stay in
// `scoring.unscored`; `scoring.stopped` says when it stopped serving.
LlmPass score_by_llm(const Context& ctx, const std::vector<Paper>& papers, const Date& date, RunResult& result) {
    const auto& config = ctx.config;
    LlmPass pass;
    pass.prompt_text = prompt_record(ctx.prompts);
    ScoreCache cache(config.scoring.cache_dir, config.llm.model, pass.prompt_text);
    LlmScorerOptions options;
    options.settings = config.llm;
    options.endpoint = llm_endpoint(config.llm, ctx.api_key);
    options.clock = ctx.request.clock;
    // One budget for the whole run, from its first LLM call (not from a wait for a late feed): a
    // catch-up's days and tonight's share it.
    if (!ctx.llm_deadline) ctx.llm_deadline = ctx.clock().now() + std::chrono::minutes(config.llm.max_wait_minutes);
    options.max_wait = std::max(Clock::duration::zero(), *ctx.llm_deadline - ctx.clock().now());
    options.stopped_before = ctx.llm_stopped;
    Progress progress("scoring " + date.iso());
    options.on_progress = [&](size_t done, size_t total) { progress.update(done, total); };
    options.on_log = [&](const std::string& line) { ctx.log(line); };
    pass.scoring = score_with_llm(papers, ctx.prompts, options, &cache);
    progress.finish();
    if (auto saved = cache.save(); !saved) result.warnings.push_back("score cache not saved: " + saved.error().to_string());
    ctx.llm_stopped = pass.scoring.stopped;
    return pass;
}

// The embedded scorer's scores for the papers the LLM left unscored: the
// day is written with them tonight (partial), and --resume asks the LLM later.
void stand_in_for_llm(const Context& ctx, const Date& date, const std::vector<Paper>& asked, LlmPass& pass,
                      RunResult& result) {
    std::vector<Paper> unscored;
    for (const auto& paper : asked)
        if (pass.scoring.unscored.contains(paper.id)) unscored.push_back(paper);
    if (unscored.empty()) return;
    for (auto& [id, score] : embedded_verdicts(ctx, date, unscored, result)) {
        score.comment = "Scored by the embedded scorer (the LLM did not): " + score.comment;
        pass.scoring.scores[id] = std::move(score);
    }
    ctx.log(date.iso() + ": the embedded scorer stands in for the LLM on " + std::to_string(unscored.size()) +
            " papers" + (pass.scoring.stopped.empty() ? "" : " (" + pass.scoring.stopped + ")"));
}

// The day's cost: unknown (not $0) when some call's tokens are unknown.
Cost cost_of_calls(const std::string& model, const Tokens& tokens, const LlmScoring& scoring, const LlmSettings& llm) {
    if (scoring.unknown_cost_calls > 0) return Cost{};
    return cost_of(model, tokens, llm.prices);
}

// "3 of 28 candidates unscored by the LLM (HTTP 429 ...), ..."; empty when
// none is. It holds no ';': the day's reason joins its parts with "; ", and
// resume_day replaces this part, found by "candidates unscored".
std::string unscored_summary(const std::map<std::string, std::string>& unscored, size_t asked) {
    if (unscored.empty()) return {};
    std::string why = excerpt(unscored.begin()->second, 300);
    std::ranges::replace(why, ';', ',');
    return std::to_string(unscored.size()) + " of " + std::to_string(asked) + " candidates unscored by the LLM (" +
           why + "), the embedded scorer's picks shown for them until the LLM scores them";
}

// A day's status from what went wrong; the reason names each problem.
void settle_status(Day& day, std::vector<std::string> stale, const std::vector<std::string>& partial) {
    std::erase(stale, std::string());
    std::vector<std::string> all = stale;
    for (const auto& reason : partial)
        if (!reason.empty()) all.push_back(reason);
    day.status = !stale.empty() ? DayStatus::stale : !all.empty() ? DayStatus::partial : DayStatus::announced;
    day.reason = join(all, "; ");
}

// The feed's or the API's entries, filtered, de-duplicated and split into
// followed authors' papers and the papers to score.
struct Candidates {
    std::vector<Paper> all;           // every candidate kept for the day, in feed order
    std::vector<Paper> to_score;      // those not by a followed author
    Verdicts verdicts;                // author matches so far
    size_t listed_before = 0;         // dropped: an earlier day listed them
    std::string repeated;             // non-empty when the feed repeats the last archived day
};

// A new announcement never lists again every paper the last day kept: a
// feed (its papers' `ids`) that does repeats that day's.
bool repeats_last_day(const std::set<std::string>& last_day, const std::set<std::string>& ids) {
    return !last_day.empty() && std::ranges::all_of(last_day, [&](const std::string& id) { return ids.contains(id); });
}

Candidates gather_candidates(const Context& ctx, DayInput& input, Day& day, RunResult& result) {
    Candidates out;
    std::set<std::string> seen;
    for (auto& entry : input.entries)
        if (wanted(entry, ctx.config.arxiv) && seen.insert(entry.paper.id).second) out.all.push_back(entry.paper);
    day.counts.scanned = static_cast<long long>(out.all.size());
    std::pair<Date, std::set<std::string>> last_day;
    auto earlier = ids_listed_before(ctx.request.content_dir, input.date, result.warnings, last_day);
    const bool repeats = repeats_last_day(last_day.second, seen);
    const size_t before = out.all.size();
    std::erase_if(out.all, [&](const Paper& p) { return earlier.contains(p.id); });
    out.listed_before = before - out.all.size();
    if (repeats)
        out.repeated = "the feed repeats " + last_day.first.iso() + "'s announcement: all " +
                       std::to_string(last_day.second.size()) + " papers of that day are in it again (" +
                       std::to_string(out.listed_before) + " of " + std::to_string(before) + " candidates listed before)";
    // Followed authors first: always kept, never sent to the scorer.
    AuthorMatcher matcher(ctx.followed);
    for (const auto& paper : out.all) {
        if (!matcher.matches(paper).empty()) out.verdicts.author_matches.insert(paper.id);
        else out.to_score.push_back(paper);
    }
    return out;
}

// The embedded scorer's verdicts; returns the prompt record.
std::string score_embedded(const Context& ctx, const Date& date, Candidates& candidates, Day& day, RunResult& result) {
    const bool learned = ctx.request.embedded == EmbeddedScorerKind::learned;
    candidates.verdicts.scores = embedded_verdicts(ctx, date, candidates.to_score, result);
    day.model = "embedded";
    day.tokens = Tokens{};
    day.cost = Cost{0.0, 0.0, 0.0};
    return learned ? "## Embedded scorer (learned)\n\nRelevance from the resemblance to the archive's earlier picks, "
                     "with the keywords of the topics prompt as a prior:\n\n" + ctx.prompts.topics + "\n"
                   : "## Embedded scorer\n\nRelevance from the keywords of the topics prompt:\n\n" + ctx.prompts.topics + "\n";
}

// The configured pre-filter before the LLM: drops papers from `to_score`.
void prefilter_for_llm(const Context& ctx, const Date& date, std::vector<Paper>& to_score, RunResult& result) {
    TopicKeywords keywords = parse_topic_keywords(ctx.prompts.topics);
    if (ctx.request.prefilter == PrefilterKind::learned) {
        // The cheap-to-strong cascade: only the top of the learned ranking reaches the LLM.
        auto ranking = learned_ranking(ctx, date, to_score, keywords, result.warnings);
        size_t all = to_score.size();
        to_score = best_papers(to_score, ranking.scores, ranking.cascade);
        ctx.log("learned pre-filter: the top " + std::to_string(to_score.size()) + " of " + std::to_string(all) +
                " papers go to the LLM");
    } else if (ctx.request.prefilter == PrefilterKind::keywords) {
        // No topic keyword at all: not worth an LLM call.
        auto scores = embedded_scores(to_score, keywords);
        size_t all = to_score.size();
        std::erase_if(to_score, [&](const Paper& p) { return scores[p.id].relevance.value_or(0) < 3; });
        ctx.log("embedded pre-filter: " + std::to_string(all - to_score.size()) + " of " + std::to_string(all) +
                " papers match no topic keyword and are not sent to the LLM");
    }
}

// One warning a paper the LLM left unscored, or one for them all when many
// are (a quota error on a 500-paper day is one problem, not 500).
void warn_unscored(const Date& date, const std::map<std::string, std::string>& unscored, RunResult& result) {
    if (unscored.size() > 5) {
        result.warnings.push_back(date.iso() + ": " + std::to_string(unscored.size()) + " papers are unscored by the LLM, " +
                                  unscored.begin()->first + " first: " + unscored.begin()->second);
        return;
    }
    for (const auto& [id, reason] : unscored)
        result.warnings.push_back(date.iso() + ": paper " + id + " is unscored: " + reason);
}

// What the LLM said, recorded on the day: scores, unscored papers, the
// model's parameters, tokens and cost.
void record_llm_pass(const Context& ctx, const Date& date, LlmScoring& scoring, Verdicts& verdicts, Day& day,
                     RunResult& result) {
    verdicts.scores = std::move(scoring.scores);
    verdicts.unscored = std::move(scoring.unscored);
    day.model = ctx.config.llm.model;
    day.temperature = scoring.sent.temperature;
    day.seed = scoring.sent.seed;
    day.tokens = scoring.tokens;
    day.cost = cost_of_calls(ctx.config.llm.model, scoring.tokens, scoring, ctx.config.llm);
    if (scoring.unknown_cost_calls > 0)
        result.warnings.push_back(date.iso() + ": cost unknown: " + std::to_string(scoring.unknown_cost_calls) +
                                  " calls timed out or had no usage block, and may have been billed");
    ctx.log("LLM: " + std::to_string(scoring.requests) + " requests (" + std::to_string(scoring.failed_requests) +
            " failed, " + std::to_string(scoring.rate_limited) + " rate limited), " +
            std::to_string(scoring.cache_hits) + " scores from the cache" +
            (scoring.dropped_by_titles.empty() ? "" : ", " + std::to_string(scoring.dropped_by_titles.size()) + " dropped by title"));
    day.reply_format = scoring.requests > 0 ? to_string(scoring.sent.format) : "";
    warn_unscored(date, verdicts.unscored, result);
}

// The LLM's verdicts; returns the prompt record and the unscored summary.
Result<std::pair<std::string, std::string>> score_with_the_llm(const Context& ctx, const Date& date,
                                                               Candidates& candidates, Day& day, RunResult& result) {
    prefilter_for_llm(ctx, date, candidates.to_score, result);
    LlmPass pass = score_by_llm(ctx, candidates.to_score, date, result);
    stand_in_for_llm(ctx, date, candidates.to_score, pass, result);
    std::string unscored = unscored_summary(pass.scoring.unscored, candidates.to_score.size());
    record_llm_pass(ctx, date, pass.scoring, candidates.verdicts, day, result);
    return std::pair{std::move(pass.prompt_text), std::move(unscored)};
}

// The day's picks: followed authors' papers and those whose score passed
// (the LLM's, or the embedded scorer's standing in).
long long count_selected(const Day& day) {
    return std::ranges::count_if(day.papers, [](const Paper& p) { return p.unscored.empty() || p.relevance; });
}

void log_day(const Context& ctx, const DayInput& input, const Day& day, const Candidates& candidates) {
    ctx.log(input.date.iso() + ": " + std::to_string(*day.counts.arxiv) + " in the announcement, " +
            std::to_string(*day.counts.scanned) + " scanned, " + std::to_string(candidates.listed_before) +
            " already listed on earlier days, " + std::to_string(*day.counts.relevant) + " selected (" +
            std::to_string(candidates.verdicts.author_matches.size()) + " by followed authors, " +
            std::to_string(candidates.verdicts.unscored.size()) + " unscored); tokens " +
            std::to_string(day.tokens->prompt) + " prompt + " + std::to_string(day.tokens->completion) +
            " completion (" + std::to_string(day.tokens->cached) + " cached); cost " + money(day.cost) +
            (input.remedial ? "; remedial run for papers submitted " + input.remedial->from.iso() + " to " +
                                  input.remedial->to.iso()
                            : ""));
}

// What happens next to an incomplete day, for the exit-3 line.
std::string retry_note(const Context& ctx, const Day& day) {
    const auto action = waiting_for(day);
    const int look_back = ctx.config.arxiv.catch_up_days;
    if (!action) return "nothing retries it";
    const std::string by_hand = *action == CatchUp::resume ? "paperpress run --resume --date " + day.date.iso()
                                                           : "paperpress run --date " + day.date.iso();
    if (look_back <= 0 || (*action == CatchUp::resume && !ctx.use_llm))
        return "`" + by_hand + "` completes it";
    return std::string("the next nights' catch-up ") +
           (*action == CatchUp::resume ? "scores its unscored papers with the LLM" : "fetches it again through the API") +
           " (or `" + by_hand + "` now)";
}

Result<Date> write_one_day(const Context& ctx, DayInput input, RunResult& result) {
    Day day;
    day.date = input.date;
    day.remedial = input.remedial;
    day.counts.arxiv = static_cast<long long>(input.entries.size());
    Candidates candidates = gather_candidates(ctx, input, day, result);

    std::string prompt_text, unscored_reason;
    if (!ctx.use_llm) {
        prompt_text = score_embedded(ctx, input.date, candidates, day, result);
    } else {
        auto scored = score_with_the_llm(ctx, input.date, candidates, day, result);
        if (!scored) return std::unexpected(scored.error());
        std::tie(prompt_text, unscored_reason) = std::move(*scored);
    }
    const auto& scoring = ctx.config.scoring;
    day.papers = select_papers(candidates.all, candidates.verdicts, {scoring.relevance_cutoff, scoring.novelty_cutoff});
    assign_topics(day.papers, candidates.verdicts.scores,
                  TopicAssigner(parse_topic_sections(ctx.prompts.topics), candidates.all));
    day.counts.relevant = count_selected(day);

    settle_status(day, {candidates.repeated}, {input.partial_reason, unscored_reason});
    if (day.status != DayStatus::announced)
        result.incomplete.push_back(input.date.iso() + " is " + to_string(day.status) + " (" + day.reason +
                                    "); it is written and published as such, and " + retry_note(ctx, day));
    auto prompt = store_prompt(ctx.request.content_dir, prompt_text);
    if (!prompt) return std::unexpected(prompt.error());
    day.prompt = *prompt;
    if (auto saved = save_day(ctx.request.content_dir, day); !saved) return std::unexpected(saved.error());
    log_day(ctx, input, day, candidates);
    if (ctx.request.after_write)
        ctx.request.after_write({day_path(ctx.request.content_dir, day.date), ctx.request.content_dir / *prompt},
                                "Add " + input.date.iso() + ": " + std::to_string(*day.counts.relevant) + " papers");
    return input.date;
}

Result<DayInput> backfill_input(const Context& ctx, ArxivSource& source, const Date& day, const Date& generated) {
    const SubmissionWindow window = backfill_window(ctx.calendar, day);
    const UtcMinute last = minute_before(window.to); // arXiv's ranges include both ends
    ctx.log(day.iso() + ": back-filling through the arXiv API, papers submitted " + window.from.iso() + " to " +
            last.iso() + " (between the 14:00 US-Eastern deadlines)");
    std::string gap;
    auto entries = source.fetch_submitted(window.from, last, &gap);
    if (!entries) return std::unexpected(entries.error());
    return DayInput{day, std::move(*entries), Remedial{window.from.date, last.date, generated}, gap};
}

bool archive_has(const fs::path& content, const Date& date) { return fs::exists(day_path(content, date)); }

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

// Completes a partial day: only its unscored papers go to the LLM; the
// scores and author matches it has are kept as they are. Papers the LLM
// still cannot score keep the embedded scorer's stand-in.
Result<Date> resume_day(const Context& ctx, const Date& date, RunResult& result) {
    auto loaded = load_day(day_path(ctx.request.content_dir, date));
    if (!loaded) return std::unexpected(loaded.error());
    Day day = std::move(*loaded);
    if (day.status != DayStatus::partial)
        return fail(date.iso() + " is " + to_string(day.status) + ", not partial: nothing to resume (use --date " +
                    date.iso() + " without --resume to redo it)");
    if (!ctx.use_llm) return fail("--resume scores with the LLM, and no LLM is configured (" + ctx.scorer_reason + ")");
    Verdicts verdicts;
    std::vector<Paper> candidates, to_score;
    for (Paper paper : day.papers) {
        if (paper.author_match) verdicts.author_matches.insert(paper.id);
        else if (paper.unscored.empty())
            verdicts.scores[paper.id] = ScoreReply{paper.id, paper.relevance, paper.novelty, paper.comment};
        else {
            paper.unscored.clear();
            paper.relevance.reset(), paper.novelty.reset(), paper.comment.clear(); // the stand-in's
            to_score.push_back(paper);
        }
        candidates.push_back(std::move(paper));
    }
    ctx.log(date.iso() + ": resuming: " + std::to_string(to_score.size()) + " unscored papers to score");
    LlmPass pass = score_by_llm(ctx, to_score, date, result);
    stand_in_for_llm(ctx, date, to_score, pass, result);
    const size_t scored_by_llm = pass.scoring.scores.size() - pass.scoring.unscored.size();
    for (auto& [id, score] : pass.scoring.scores) verdicts.scores[id] = score;
    verdicts.unscored = pass.scoring.unscored;
    const auto& config = ctx.config;
    day.papers = select_papers(candidates, verdicts, {config.scoring.relevance_cutoff, config.scoring.novelty_cutoff});
    assign_topics(day.papers, verdicts.scores, TopicAssigner(parse_topic_sections(ctx.prompts.topics), candidates));
    day.counts.relevant = count_selected(day);
    Tokens tokens = day.tokens.value_or(Tokens{});
    tokens.prompt += pass.scoring.tokens.prompt;
    tokens.completion += pass.scoring.tokens.completion;
    tokens.cached += pass.scoring.tokens.cached;
    day.tokens = tokens;
    if (pass.scoring.requests > 0) {
        day.temperature = pass.scoring.sent.temperature, day.seed = pass.scoring.sent.seed;
        day.reply_format = to_string(pass.scoring.sent.format);
    }
    day.cost = day.cost.total ? cost_of_calls(day.model, tokens, pass.scoring, config.llm) : Cost{};
    // Problems other than unscored papers (missing API pages) stay until the day is redone.
    std::vector<std::string> others;
    for (auto part : split(day.reason, ';'))
        if (part = trim(part); !part.empty() && part.find("candidates unscored") == std::string_view::npos)
            others.emplace_back(part);
    others.push_back(unscored_summary(verdicts.unscored, to_score.size()));
    settle_status(day, {}, others);
    if (day.status != DayStatus::announced)
        result.incomplete.push_back(date.iso() + " is still " + to_string(day.status) + " (" + day.reason +
                                    "); it is written and published as such, and " + retry_note(ctx, day));
    warn_unscored(date, verdicts.unscored, result);
    if (auto saved = save_day(ctx.request.content_dir, day); !saved) return std::unexpected(saved.error());
    ctx.log(date.iso() + ": resumed: " + std::to_string(scored_by_llm) + " scored by the LLM, " +
            std::to_string(verdicts.unscored.size()) + " still unscored; the day is " + to_string(day.status));
    if (ctx.request.after_write)
        ctx.request.after_write({day_path(ctx.request.content_dir, day.date)},
                                "Complete " + date.iso() + ": " + std::to_string(*day.counts.relevant) + " papers");
    return date;
}

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
            written = input ? write_one_day(ctx, std::move(*input), result) : Result<Date>(std::unexpected(input.error()));
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

namespace {

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
                                        "through the API (or `paperpress run --date " + expected.iso() + "` later)");
        } else {
            ctx.log("no announcement: the feed is empty (" +
                    (ctx.calendar.is_announcement_day(today) ? "today's announcement is in the archive"
                                                             : ctx.calendar.why_no_announcement(today)) +
                    "); nothing written");
        }
        return caught_up(RunOutcome::no_announcement);
    }
    const Date date = *announcement.date;
    if (!ctx.calendar.is_announcement_day(date) &&
        nothing_new(ctx, announcement.entries, date, result.warnings)) {
        ctx.log("no announcement: the feed is dated " + date.iso() + " (" + ctx.calendar.why_no_announcement(date) +
                "), and it holds nothing new (the papers of earlier days); nothing written");
        return caught_up(RunOutcome::no_announcement);
    }
    if (archive_has(content, date)) {
        if (!holds_expected) {
            ctx.log("stale feed: it still serves " + date.iso() + "'s announcement, already in the archive, where " +
                    expected_text + " was expected; nothing written");
            result.incomplete.push_back("the feed still served " + date.iso() + "'s announcement, where " +
                                        expected_text + " was expected: nothing written; the next run's catch-up "
                                        "fetches it through the API (or `paperpress run --date " + expected.iso() +
                                        "` later)");
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
                                    expected_text + " was expected: the next run's catch-up fetches " +
                                    expected.iso() + " through the API");
    else if (!ctx.calendar.is_announcement_day(date))
        result.warnings.push_back("the feed holds new papers dated " + date.iso() + ", a day arXiv's calendar here has "
                                  "no announcement (" + ctx.calendar.why_no_announcement(date) + "): written as the feed says");
    auto written = write_one_day(ctx, std::move(input), result);
    if (!written) {
        result.outcome = RunOutcome::failed;
        result.error = written.error().to_string();
        return;
    }
    result.days.push_back(*written);
    result.outcome = RunOutcome::written;
}

} // namespace

RunResult run_nightly(const RunRequest& request, const Config& config) {
    RunResult result;
    Context ctx{request, config, {}, {}, false, {}, {}, arxiv_calendar(config.arxiv), {}, {}, {}};
    const Date today = request.today.value_or(today_utc());
    auto prompts = load_prompts(config.scoring);
    if (!prompts) {
        result.error = prompts.error().to_string();
        return result;
    }
    ctx.prompts = std::move(*prompts);
    ctx.followed = followed_authors(config.scoring, result.warnings);
    if (const char* key = std::getenv(config.llm.api_key_env.c_str()); key && *key) ctx.api_key = key;
    ctx.use_llm = !request.offline && (!ctx.api_key.empty() || config.llm.base_url_set);
    ctx.scorer_reason = request.offline ? "--offline"
                        : ctx.use_llm   ? (ctx.api_key.empty() ? "llm.base_url or OPENAI_BASE_URL is set"
                                                               : config.llm.api_key_env + " is set")
                                        : "no " + config.llm.api_key_env + " and no llm.base_url or OPENAI_BASE_URL";
    if (!request.offline && !ctx.use_llm && config.llm.required) {
        result.error = "llm.required is true, but the LLM cannot serve (" + ctx.scorer_reason +
                       "); set " + config.llm.api_key_env + " or llm.base_url, or set llm.required to false";
        return result;
    }
    ctx.log(ctx.use_llm ? "scorer: LLM " + config.llm.model + " at " + config.llm.base_url + " (" + ctx.scorer_reason + ")" +
                              (request.prefilter == PrefilterKind::none ? ""
                                                                        : "; pre-filter: " + describe(request.prefilter))
                        : "scorer: embedded, " + describe(request.embedded) + "; no LLM: " + ctx.scorer_reason +
                              (request.offline ? "" : " (set " + config.llm.api_key_env + " or OPENAI_BASE_URL to use one)"));

    ArxivSource source(config.arxiv, [&](const std::string& line) { ctx.log(line); },
                       request.clock ? *request.clock : real_clock());
    auto finish = [&](const Result<Date>& written) {
        if (!written) {
            result.outcome = RunOutcome::failed;
            result.error = written.error().to_string();
            return false;
        }
        result.days.push_back(*written);
        result.outcome = RunOutcome::written;
        return true;
    };

    if (request.resume) {
        if (!request.date) {
            result.error = "--resume completes one partial day: give it with --date";
            return result;
        }
        finish(resume_day(ctx, *request.date, result));
        return result;
    }

    // Back-fill of a window: every announcement day that the archive is missing.
    if (request.from || request.to) {
        if (request.offline) {
            result.error = "back-fill (--from/--to) needs the arXiv API; it cannot run --offline";
            return result;
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
            if (!input || !finish(write_one_day(ctx, std::move(*input), result))) {
                if (!input) result.error = input.error().to_string(), result.outcome = RunOutcome::failed;
                return result;
            }
        }
        if (result.days.empty() && result.outcome != RunOutcome::failed) result.outcome = RunOutcome::already_have;
        return result;
    }

    // A day asked for by date: the feed when it holds that day, else the API.
    ctx.check_year(request.date.value_or(today), result);
    const Date expected = expected_announcement(ctx.calendar, today);
    auto announcement = request.offline ? ArxivSource::read_feed_file(config.arxiv.offline_feed)
                        : request.date  ? source.fetch_announcement()
                                        : fetch_feed(ctx, source, today, expected);
    if (!announcement) {
        result.error = announcement.error().to_string();
        return result;
    }
    if (request.date && (!announcement->date || *announcement->date != *request.date)) {
        if (request.offline) {
            result.error = "the offline sample feed holds " +
                           (announcement->date ? announcement->date->iso() : std::string("no announcement")) +
                           ", not " + request.date->iso();
            return result;
        }
        if (!ctx.calendar.is_announcement_day(*request.date))
            result.warnings.push_back(request.date->iso() + " has no announcement on arXiv's calendar (" +
                                      ctx.calendar.why_no_announcement(*request.date) +
                                      "): fetched as asked; its window is the next announcement's");
        auto input = backfill_input(ctx, source, *request.date, today);
        if (!input) {
            result.error = input.error().to_string();
            return result;
        }
        finish(write_one_day(ctx, std::move(*input), result));
        return result;
    }
    if (request.date || request.offline) {
        if (!announcement->date || announcement->entries.empty()) {
            ctx.log("no announcement: the feed is empty; nothing written");
            result.outcome = RunOutcome::no_announcement;
            return result;
        }
        if (!request.date && archive_has(request.content_dir, *announcement->date)) {
            ctx.log(announcement->date->iso() + ": this announcement is already in the archive; nothing new (use "
                    "--date " + announcement->date->iso() + " to redo it)");
            result.outcome = RunOutcome::already_have;
            return result;
        }
        finish(write_one_day(ctx, feed_input(std::move(*announcement)), result));
        return result;
    }
    nightly_from_feed(ctx, source, std::move(*announcement), today, result);
    return result;
}

} // namespace pp
