// The scorers of a day's candidates: the LLM, with the embedded scorer
// standing in for the papers it leaves unscored (when it stops serving), the
// embedded scorer alone (no LLM), and the pre-filter before the LLM.
#include "pipeline/run_context.h"
#include "score/embedded_scorer.h"
#include "score/learned_scorer.h"
#include "score/pricing.h"
#include "score/prompt.h"
#include "score/summary.h"
#include "score/topics.h"
#include "util/text.h"

#include <algorithm>

namespace pp::nightly {

namespace {

// Scores `papers` with the embedded scorer.
std::map<std::string, ScoreReply> embedded_scores(const std::vector<Paper>& papers, const TopicKeywords& keywords) {
    std::map<std::string, ScoreReply> scores;
    for (const auto& paper : papers) {
        auto score = embedded_score(paper, keywords);
        scores[paper.id] = ScoreReply{paper.id, score.relevance, std::nullopt, score.comment};
    }
    return scores;
}

TasteSources taste_sources(const Context& ctx) {
    return {.content_dir = ctx.request.content_dir,
            .feed_cache_dir = fs::path(ctx.config.arxiv.cache_dir) / "rss",
            .index_cache = fs::path(ctx.config.scoring.cache_dir) / "taste-index.bin",
            .log = [&](const std::string& line) { ctx.log(line); },
            .feedback = ctx.feedback};
}

// The learned scorer's ranking of `papers`, from the archive before `date` and the reader's feedback.
LearnedRanking learned_ranking(const Context& ctx, const Date& date, const std::vector<Paper>& papers,
                               const TopicKeywords& keywords, std::vector<std::string>& warnings) {
    return rank_by_taste(papers, taste_sources(ctx), keywords, date, {}, warnings);
}

// The prompts, with the titles of the reader's latest judgements as examples
// (from the archive's index, which knows the judged papers' titles).
PromptSet prompts_for(const Context& ctx, const Date& date, RunResult& result) {
    PromptSet prompts = ctx.prompts;
    if (ctx.feedback.empty()) return prompts;
    const TasteIndex index = load_taste_index(taste_sources(ctx), date, result.warnings);
    prompts.examples = reader_examples(feedback_examples(ctx.feedback, index, date, ExampleBounds{}.max_count));
    return prompts;
}

std::map<std::string, ScoreReply> learned_replies(const std::vector<Paper>& papers, const LearnedRanking& ranking) {
    std::map<std::string, ScoreReply> scores;
    for (size_t i = 0; i < papers.size(); ++i)
        scores[papers[i].id] =
            ScoreReply{papers[i].id, ranking.scores[i].relevance, std::nullopt, ranking.scores[i].comment};
    return scores;
}

// A topics prompt without "- Relevant:" lines (the reference's newer "Keep:" and "Filter:" prose, say)
// gives the keyword scorer nothing to match: every paper would be rated as matching no topic.
std::string no_topic_keywords(const Context& ctx, const std::string& consequence) {
    return ctx.config.scoring.topics + ": no \"- Relevant: a, b, c\" line, so no topic keyword " +
           "(docs/scoring.md, keywords); " + consequence;
}

// The configured embedded scorer's verdicts on `papers` (learned or keywords).
std::map<std::string, ScoreReply> embedded_verdicts(const Context& ctx, const Date& date,
                                                    const std::vector<Paper>& papers, RunResult& result) {
    TopicKeywords keywords = parse_topic_keywords(ctx.prompts.topics);
    if (ctx.config.scoring.embedded == EmbeddedScorerKind::keywords) {
        if (keywords.relevant.empty())
            result.warnings.push_back(no_topic_keywords(
                ctx, "the keyword scorer (scoring.embedded: keywords) keeps no paper; add such lines, or set "
                     "scoring.embedded: learned"));
        return embedded_scores(papers, keywords);
    }
    return learned_replies(papers, learned_ranking(ctx, date, papers, keywords, result.warnings));
}

// The configured pre-filter before the LLM: drops papers from `to_score`.
void prefilter_for_llm(const Context& ctx, const Date& date, std::vector<Paper>& to_score, RunResult& result) {
    TopicKeywords keywords = parse_topic_keywords(ctx.prompts.topics);
    if (ctx.config.scoring.prefilter == PrefilterKind::learned) {
        // The cheap-to-strong cascade: only the top of the learned ranking reaches the LLM.
        auto ranking = learned_ranking(ctx, date, to_score, keywords, result.warnings);
        size_t all = to_score.size();
        to_score = best_papers(to_score, ranking.scores, ranking.cascade);
        ctx.log("learned pre-filter: the top " + std::to_string(to_score.size()) + " of " + std::to_string(all) +
                " papers go to the LLM");
    } else if (ctx.config.scoring.prefilter == PrefilterKind::keywords) {
        if (keywords.relevant.empty()) { // it would send the LLM nothing, and the day would be empty
            result.warnings.push_back(no_topic_keywords(
                ctx, "the keyword pre-filter (scoring.prefilter: keywords) is skipped: every paper goes to the LLM"));
            return;
        }
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
            (scoring.dropped_by_titles.empty()
                 ? ""
                 : ", " + std::to_string(scoring.dropped_by_titles.size()) + " dropped by title"));
    day.reply_format = honoured_format(scoring); // what the endpoint honoured, not what was asked
    warn_unscored(date, verdicts.unscored, result);
}

} // namespace

// The LLM's options for the run's next calls: its endpoint, what is left
// of the run's budget for waiting, and whether it stopped serving.
LlmScorerOptions llm_options(const Context& ctx) {
    const auto& config = ctx.config;
    LlmScorerOptions options;
    options.settings = config.llm;
    options.endpoint = llm_endpoint(config.llm, ctx.api_key);
    options.clock = ctx.request.clock;
    // One budget for the whole run, from its first LLM call (not from a wait for a late feed): a
    // catch-up's days and tonight's share it.
    if (!ctx.llm_deadline) ctx.llm_deadline = ctx.clock().now() + std::chrono::minutes(config.llm.max_wait_minutes);
    options.max_wait = std::max(Clock::duration::zero(), *ctx.llm_deadline - ctx.clock().now());
    options.stopped_before = ctx.llm_stopped;
    options.on_log = [&ctx](const std::string& line) { ctx.log(line); };
    return options;
}

// Scores `papers` with the LLM. Papers it could not score stay in
// `scoring.unscored`; `scoring.stopped` says when it stopped serving.
LlmPass score_by_llm(const Context& ctx, const std::vector<Paper>& papers, const Date& date, RunResult& result) {
    const auto& config = ctx.config;
    LlmPass pass;
    const PromptSet prompts = prompts_for(ctx, date, result);
    pass.prompt_text = prompt_record(prompts);
    ScoreCache cache(config.scoring.cache_dir, config.llm.model, pass.prompt_text);
    LlmScorerOptions options = llm_options(ctx);
    if (ctx.request.progress)
        options.on_progress = [&](size_t done, size_t total) {
            ctx.request.progress("scoring " + date.iso(), done, total);
        };
    pass.scoring = score_with_llm(papers, prompts, options, &cache);
    if (auto saved = cache.save(); !saved)
        result.warnings.push_back("score cache not saved: " + saved.error().to_string());
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
// resume_day replaces this part (is_unscored_summary).
constexpr std::string_view unscored_words = " candidates unscored by the LLM (";

std::string unscored_summary(const std::map<std::string, std::string>& unscored, size_t asked) {
    if (unscored.empty()) return {};
    std::string why = excerpt(unscored.begin()->second, 300);
    std::ranges::replace(why, ';', ',');
    return std::to_string(unscored.size()) + " of " + std::to_string(asked) + std::string(unscored_words) + why +
           "), the embedded scorer's picks shown for them until the LLM scores them";
}

bool is_unscored_summary(std::string_view reason_part) {
    return reason_part.find(unscored_words) != std::string_view::npos;
}

// The embedded scorer's verdicts; returns the prompt record.
std::string score_embedded(const Context& ctx, const Date& date, const std::vector<Paper>& to_score, Verdicts& verdicts,
                           Day& day, RunResult& result) {
    const bool learned = ctx.config.scoring.embedded == EmbeddedScorerKind::learned;
    verdicts.scores = embedded_verdicts(ctx, date, to_score, result);
    day.model = "embedded";
    day.tokens = Tokens{};
    day.cost = Cost{0.0, 0.0, 0.0};
    return learned ? "## Embedded scorer (learned)\n\nRelevance from the resemblance to the archive's earlier picks, "
                     "with the keywords of the topics prompt as a prior:\n\n" +
                         ctx.prompts.topics + "\n"
                   : "## Embedded scorer\n\nRelevance from the keywords of the topics prompt:\n\n" +
                         ctx.prompts.topics + "\n";
}

// One warning a paper the LLM left unscored, or one for them all when many
// are (a quota error on a 500-paper day is one problem, not 500).
void warn_unscored(const Date& date, const std::map<std::string, std::string>& unscored, RunResult& result) {
    if (unscored.size() > 5) {
        result.warnings.push_back(date.iso() + ": " + std::to_string(unscored.size()) +
                                  " papers are unscored by the LLM, " + unscored.begin()->first +
                                  " first: " + unscored.begin()->second);
        return;
    }
    for (const auto& [id, reason] : unscored)
        result.warnings.push_back(date.iso() + ": paper " + id + " is unscored: " + reason);
}

// The LLM's verdicts; returns the prompt record and the unscored summary.
Result<std::pair<std::string, std::string>> score_with_the_llm(const Context& ctx, const Date& date,
                                                               std::vector<Paper>& to_score, Verdicts& verdicts,
                                                               Day& day, RunResult& result) {
    prefilter_for_llm(ctx, date, to_score, result);
    LlmPass pass = score_by_llm(ctx, to_score, date, result);
    stand_in_for_llm(ctx, date, to_score, pass, result);
    std::string unscored = unscored_summary(pass.scoring.unscored, to_score.size());
    record_llm_pass(ctx, date, pass.scoring, verdicts, day, result);
    return std::pair{std::move(pass.prompt_text), std::move(unscored)};
}

bool is_pick(const Paper& paper) { return paper.unscored.empty() || paper.relevance.has_value(); }

bool lacks_summaries(const Context& ctx, const Day& day) {
    return ctx.use_llm && ctx.config.llm.summaries &&
           std::ranges::any_of(day.papers, [](const Paper& p) { return is_pick(p) && p.summary.tldr.empty(); });
}

// The picks' summaries (llm.summaries), from the cache or the LLM, each pick
// without one asked once; their tokens and cost join the day's. A summary
// that failed is recorded on its paper and warned of; the day's status
// stays: `run --resume` asks again.
void summarize_picks(const Context& ctx, Day& day, RunResult& result) {
    if (!lacks_summaries(ctx, day)) return;
    const auto& llm = ctx.config.llm;
    std::vector<Paper> asked;
    for (auto& paper : day.papers) {
        if (!is_pick(paper)) paper.summary = {}; // a stand-in pick the LLM turned down
        else if (paper.summary.tldr.empty()) asked.push_back(paper);
    }
    SummaryCache cache(ctx.config.scoring.cache_dir, llm.model, llm.language);
    for (const auto& warning : cache.warnings()) result.warnings.push_back(warning);
    Summaries summaries = summarize_papers(asked, llm.language, llm_options(ctx), &cache);
    if (auto saved = cache.save(); !saved)
        result.warnings.push_back("summary cache not saved: " + saved.error().to_string());
    if (!summaries.calls.stopped.empty()) ctx.llm_stopped = summaries.calls.stopped;
    int failed = 0;
    for (auto& paper : day.papers)
        if (auto it = summaries.by_id.find(paper.id); it != summaries.by_id.end()) {
            paper.summary = it->second;
            if (!paper.summary.failed.empty() && failed++ == 0)
                result.warnings.push_back(day.date.iso() + ": paper " + paper.id +
                                          " has no summary: " + paper.summary.failed);
        }
    if (failed > 1)
        result.warnings.push_back(day.date.iso() + ": " + std::to_string(failed) +
                                  " picks have no summary; `paperpress run --resume --date " + day.date.iso() +
                                  "` asks again");
    const LlmScoring& calls = summaries.calls;
    if (calls.requests > 0) {
        Tokens tokens = day.tokens.value_or(Tokens{});
        tokens.prompt += calls.tokens.prompt, tokens.completion += calls.tokens.completion;
        tokens.cached += calls.tokens.cached;
        day.tokens = tokens;
        day.cost = day.cost.total ? cost_of_calls(day.model, tokens, calls, llm) : Cost{};
    }
    ctx.log(day.date.iso() + ": summaries in " + llm.language + ": " + std::to_string(asked.size()) + " asked, " +
            std::to_string(summaries.cache_hits) + " from the cache, " + std::to_string(calls.requests) +
            " requests, " + std::to_string(failed) + " failed");
}

} // namespace pp::nightly
