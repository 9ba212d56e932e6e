#include "pipeline/nightly.h"

#include "content/content_tree.h"
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
    return result.incomplete ? 3 : 0;
}

Date expected_announcement(const Date& today) {
    Date day = today;
    while (day.weekday() == 0 || day.weekday() == 6) day = previous_day(day);
    return day;
}

SubmissionWindow backfill_window(const Date& day) { return submission_window(day); }

std::vector<Date> catch_up_days(const fs::path& content, const Date& expected, int look_back) {
    if (look_back <= 0 || scan_content(content).days.empty()) return {};
    std::vector<Date> missing;
    Date day = expected;
    for (int weekdays = 0; weekdays < look_back;) {
        day = previous_day(day);
        if (day.weekday() == 0 || day.weekday() == 6) continue;
        ++weekdays;
        if (is_announcement_day(day) && !fs::exists(day_path(content, day))) missing.push_back(day);
    }
    std::ranges::reverse(missing);
    return missing;
}

namespace {

// What one day is made from.
struct DayInput {
    Date date;
    std::vector<FeedEntry> entries;
    std::optional<Remedial> remedial;
    std::string partial_reason; // e.g. API pages that never came
    std::string stale_reason;   // e.g. the feed's date is not the expected one
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
    void log(const std::string& line) const {
        if (request.log) request.log(line);
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

// Temperature 0 (unless configured otherwise) where the model takes it, and
// the seed, so that papers near the cutoff do not flip between runs.
LlmEndpoint llm_endpoint(const LlmSettings& llm, const std::string& api_key) {
    LlmEndpoint endpoint{llm.base_url, api_key, llm.model, llm.temperature, llm.max_tokens, false, llm.seed};
    if (!endpoint.temperature && accepts_temperature(llm.model)) endpoint.temperature = 0.0;
    return endpoint;
}

// Scores `papers` with the LLM; an error when every request failed.
Result<LlmPass> score_by_llm(const Context& ctx, const std::vector<Paper>& papers, const Date& date, RunResult& result) {
    const auto& config = ctx.config;
    LlmPass pass;
    pass.prompt_text = prompt_record(ctx.prompts);
    ScoreCache cache(config.scoring.cache_dir, config.llm.model, pass.prompt_text);
    LlmScorerOptions options;
    options.settings = config.llm;
    options.endpoint = llm_endpoint(config.llm, ctx.api_key);
    options.clock = ctx.request.clock;
    Progress progress("scoring " + date.iso());
    options.on_progress = [&](size_t done, size_t total) { progress.update(done, total); };
    options.on_log = [&](const std::string& line) { ctx.log(line); };
    pass.scoring = score_with_llm(papers, ctx.prompts, options, &cache);
    progress.finish();
    const LlmScoring& scoring = pass.scoring;
    if (auto saved = cache.save(); !saved) result.warnings.push_back("score cache not saved: " + saved.error().to_string());
    if (!scoring.stopped.empty())
        return fail(scoring.stopped + "; nothing was written. Fix it, then run again with --date " + date.iso());
    if (!papers.empty() && scoring.scores.empty() && scoring.failed_requests == scoring.requests && scoring.requests > 0)
        return fail("the LLM endpoint failed on every request (" + scoring.unscored.begin()->second +
                    "); nothing was written. Check OPENAI_BASE_URL, the API key and the model, then run again "
                    "with --date " + date.iso());
    return pass;
}

// The day's cost: unknown (not $0) when some call's tokens are unknown.
Cost cost_of_calls(const std::string& model, const Tokens& tokens, const LlmScoring& scoring, const LlmSettings& llm) {
    if (scoring.unknown_cost_calls > 0) return Cost{};
    return cost_of(model, tokens, llm.prices);
}

// "3 of 28 candidates unscored (HTTP 429 ...)"; empty when none is.
std::string unscored_summary(const std::map<std::string, std::string>& unscored, size_t asked) {
    if (unscored.empty()) return {};
    return std::to_string(unscored.size()) + " of " + std::to_string(asked) + " candidates unscored (" +
           excerpt(unscored.begin()->second) + ")";
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

Candidates gather_candidates(const Context& ctx, DayInput& input, Day& day, RunResult& result) {
    Candidates out;
    std::set<std::string> seen;
    for (auto& entry : input.entries)
        if (wanted(entry, ctx.config.arxiv) && seen.insert(entry.paper.id).second) out.all.push_back(entry.paper);
    day.counts.scanned = static_cast<long long>(out.all.size());
    std::pair<Date, std::set<std::string>> last_day;
    auto earlier = ids_listed_before(ctx.request.content_dir, input.date, result.warnings, last_day);
    // A new announcement never lists again every paper the last day kept: this feed repeats that day's.
    bool repeats_last_day = !last_day.second.empty() && std::ranges::all_of(last_day.second, [&](const std::string& id) {
        return std::ranges::any_of(out.all, [&](const Paper& p) { return p.id == id; });
    });
    const size_t before = out.all.size();
    std::erase_if(out.all, [&](const Paper& p) { return earlier.contains(p.id); });
    out.listed_before = before - out.all.size();
    if (repeats_last_day)
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
    TopicKeywords keywords = parse_topic_keywords(ctx.prompts.topics);
    const auto& to_score = candidates.to_score;
    const bool learned = ctx.request.embedded == EmbeddedScorerKind::learned;
    candidates.verdicts.scores = learned ? learned_replies(to_score, learned_ranking(ctx, date, to_score, keywords, result.warnings))
                                         : embedded_scores(to_score, keywords);
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
    for (const auto& [id, reason] : verdicts.unscored)
        result.warnings.push_back(date.iso() + ": paper " + id + " is unscored: " + reason);
}

// The LLM's verdicts; returns the prompt record and the unscored summary.
Result<std::pair<std::string, std::string>> score_with_the_llm(const Context& ctx, const Date& date,
                                                               Candidates& candidates, Day& day, RunResult& result) {
    prefilter_for_llm(ctx, date, candidates.to_score, result);
    auto pass = score_by_llm(ctx, candidates.to_score, date, result);
    if (!pass) return std::unexpected(pass.error());
    std::string unscored = unscored_summary(pass->scoring.unscored, candidates.to_score.size());
    record_llm_pass(ctx, date, pass->scoring, candidates.verdicts, day, result);
    return std::pair{std::move(pass->prompt_text), std::move(unscored)};
}

long long count_selected(const Day& day) {
    return std::ranges::count_if(day.papers, [](const Paper& p) { return p.unscored.empty(); });
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

    settle_status(day, {input.stale_reason, candidates.repeated}, {input.partial_reason, unscored_reason});
    if (day.status != DayStatus::announced) {
        result.incomplete = true;
        result.warnings.push_back(input.date.iso() + " is " + to_string(day.status) + ": " + day.reason);
    }
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
    const SubmissionWindow window = backfill_window(day);
    const UtcMinute last = minute_before(window.to); // arXiv's ranges include both ends
    ctx.log(day.iso() + ": back-filling through the arXiv API, papers submitted " + window.from.iso() + " to " +
            last.iso() + " (between the 14:00 US-Eastern deadlines)");
    std::string gap;
    auto entries = source.fetch_submitted(window.from, last, &gap);
    if (!entries) return std::unexpected(entries.error());
    return DayInput{day, std::move(*entries), Remedial{window.from.date, last.date, generated}, gap, {}};
}

bool archive_has(const fs::path& content, const Date& date) { return fs::exists(day_path(content, date)); }

// arXiv's RSS feed holds at most this many entries (its documented cap for
// multi-category feeds): a feed this long was possibly cut.
constexpr size_t feed_cap = 2000;

// A dropped nightly run heals the next night: every announcement day of the
// look-back with no day file (but the feed's own) is back-filled first, so
// tonight's day is de-duplicated against them. A back-fill that fails is a
// warning, and the run incomplete, not a failure of tonight's day.
void catch_up(const Context& ctx, ArxivSource& source, const Date& expected, const Date& feed_date, const Date& today,
              RunResult& result) {
    for (const Date& day : catch_up_days(ctx.request.content_dir, expected, ctx.config.arxiv.catch_up_days)) {
        if (day == feed_date) continue;
        ctx.log(day.iso() + ": no day file: catching up a missed run");
        auto input = backfill_input(ctx, source, day, today);
        auto written = input ? write_one_day(ctx, std::move(*input), result) : Result<Date>(std::unexpected(input.error()));
        if (!written) {
            result.incomplete = true;
            result.warnings.push_back(day.iso() + ": could not catch up: " + written.error().to_string() +
                                      " (back-fill it with --date " + day.iso() + ")");
            continue;
        }
        result.days.push_back(*written);
        result.outcome = RunOutcome::written;
    }
}

// Completes a partial day: only its unscored papers go to the LLM; the
// scores and author matches it has are kept as they are.
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
            to_score.push_back(paper);
        }
        candidates.push_back(std::move(paper));
    }
    ctx.log(date.iso() + ": resuming: " + std::to_string(to_score.size()) + " unscored papers to score");
    auto pass = score_by_llm(ctx, to_score, date, result);
    if (!pass) return std::unexpected(pass.error());
    for (auto& [id, score] : pass->scoring.scores) verdicts.scores[id] = score;
    verdicts.unscored = pass->scoring.unscored;
    const auto& config = ctx.config;
    day.papers = select_papers(candidates, verdicts, {config.scoring.relevance_cutoff, config.scoring.novelty_cutoff});
    assign_topics(day.papers, verdicts.scores, TopicAssigner(parse_topic_sections(ctx.prompts.topics), candidates));
    day.counts.relevant = count_selected(day);
    Tokens tokens = day.tokens.value_or(Tokens{});
    tokens.prompt += pass->scoring.tokens.prompt;
    tokens.completion += pass->scoring.tokens.completion;
    tokens.cached += pass->scoring.tokens.cached;
    day.tokens = tokens;
    if (pass->scoring.requests > 0) day.temperature = pass->scoring.sent.temperature, day.seed = pass->scoring.sent.seed;
    day.cost = day.cost.total ? cost_of_calls(day.model, tokens, pass->scoring, config.llm) : Cost{};
    // Problems other than unscored papers (missing API pages) stay until the day is redone.
    std::vector<std::string> others;
    for (auto part : split(day.reason, ';'))
        if (part = trim(part); !part.empty() && part.find("candidates unscored") == std::string_view::npos)
            others.emplace_back(part);
    others.push_back(unscored_summary(verdicts.unscored, to_score.size()));
    settle_status(day, {}, others);
    if (day.status != DayStatus::announced) {
        result.incomplete = true;
        result.warnings.push_back(date.iso() + " is still " + to_string(day.status) + ": " + day.reason);
    }
    if (auto saved = save_day(ctx.request.content_dir, day); !saved) return std::unexpected(saved.error());
    ctx.log(date.iso() + ": resumed: " + std::to_string(pass->scoring.scores.size()) + " scored, " +
            std::to_string(verdicts.unscored.size()) + " still unscored; the day is " + to_string(day.status));
    if (ctx.request.after_write)
        ctx.request.after_write({day_path(ctx.request.content_dir, day.date)},
                                "Complete " + date.iso() + ": " + std::to_string(*day.counts.relevant) + " papers");
    return date;
}

} // namespace

RunResult run_nightly(const RunRequest& request, const Config& config) {
    RunResult result;
    Context ctx{request, config, {}, {}, false, {}, {}};
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

    // Back-fill of a window: every weekday that the archive is missing.
    if (request.from || request.to) {
        if (request.offline) {
            result.error = "back-fill (--from/--to) needs the arXiv API; it cannot run --offline";
            return result;
        }
        // A window open at its end reaches to today; open at its start, it is one day.
        Date to = request.to.value_or(today);
        Date from = request.from.value_or(to);
        for (Date d = from; d <= to; d = next_day(d)) {
            if (!is_announcement_day(d)) continue; // a weekend or a known holiday: no announcement to back-fill
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

    // The announcement: from the feed, or the saved sample when offline.
    auto announcement = request.offline ? ArxivSource::read_feed_file(config.arxiv.offline_feed)
                                        : source.fetch_announcement();
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
        auto input = backfill_input(ctx, source, *request.date, today);
        if (!input) {
            result.error = input.error().to_string();
            return result;
        }
        finish(write_one_day(ctx, std::move(*input), result));
        return result;
    }
    const bool checked = !request.date && !request.offline; // the nightly run knows which day to expect
    const Date expected = expected_announcement(today);
    // Whatever the feed holds, the nightly run first heals the days missed before it.
    auto caught_up = [&](RunOutcome otherwise) {
        if (checked) catch_up(ctx, source, expected, announcement->date.value_or(expected), today, result);
        if (result.days.empty()) result.outcome = otherwise;
        return result;
    };
    if (!announcement->date || announcement->entries.empty()) {
        ctx.log("no announcement: the feed is empty (a weekend or an arXiv holiday); nothing written");
        return caught_up(RunOutcome::no_announcement);
    }
    if (checked && *announcement->date < expected && archive_has(request.content_dir, *announcement->date)) {
        ctx.log("stale feed: it still serves " + announcement->date->iso() +
                "'s announcement, already in the archive, where " + expected.iso() +
                "'s was expected; nothing written. Run again later, or back-fill with --date " + expected.iso());
        result.incomplete = true;
        return caught_up(RunOutcome::stale);
    }
    if (!request.date && archive_has(request.content_dir, *announcement->date)) {
        ctx.log(announcement->date->iso() + ": this announcement is already in the archive; nothing new (use --date " +
                announcement->date->iso() + " to redo it)");
        return caught_up(RunOutcome::already_have);
    }
    if (checked) catch_up(ctx, source, expected, *announcement->date, today, result);
    DayInput input{*announcement->date, std::move(announcement->entries), std::nullopt, {}, {}};
    if (input.entries.size() >= feed_cap)
        input.partial_reason = "the feed holds " + std::to_string(input.entries.size()) +
                               " entries, arXiv's cap for a feed: the announcement was possibly cut (back-fill with "
                               "--date " + input.date.iso() + " to get it whole)";
    if (checked && input.date != expected)
        input.stale_reason = "the feed is dated " + input.date.iso() + ", but the announcement expected on " +
                             today.iso() + " is " + expected.iso() + "'s";
    finish(write_one_day(ctx, std::move(input), result));
    return result;
}

} // namespace pp
