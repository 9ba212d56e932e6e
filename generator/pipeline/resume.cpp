// A partial day completed (`run --resume`, or the catch-up): its unscored
// papers go to the LLM again; what the day has (scores, author matches,
// tokens, cost, other problems) is kept.
#include "content/content_tree.h"
#include "pipeline/run_context.h"
#include "score/topics.h"
#include "util/text.h"

namespace pp::nightly {

namespace {

// A complete day whose picks lack summaries (one failed, or llm.summaries
// was turned on later): only those are asked for.
Result<Date> complete_summaries(const Context& ctx, Day& day, RunResult& result) {
    summarize_picks(ctx, day, result);
    if (auto saved = save_day(ctx.request.content_dir, day); !saved) return std::unexpected(saved.error());
    if (ctx.request.after_write)
        ctx.request.after_write({day_path(ctx.request.content_dir, day.date)},
                                "Summarize the picks of " + day.date.iso());
    return day.date;
}

} // namespace

// Completes a partial day: only its unscored papers go to the LLM; the
// scores and author matches it has are kept as they are. Papers the LLM
// still cannot score keep the embedded scorer's stand-in.
Result<Date> resume_day(const Context& ctx, const Date& date, RunResult& result) {
    auto loaded = load_day(day_path(ctx.request.content_dir, date));
    if (!loaded) return std::unexpected(loaded.error());
    Day day = std::move(*loaded);
    if (day.status != DayStatus::partial && lacks_summaries(ctx, day)) return complete_summaries(ctx, day, result);
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
    day.unpicked = not_picked(candidates, day.papers, std::move(day.unpicked)); // scored out now: not picked
    Tokens tokens = day.tokens.value_or(Tokens{});
    tokens.prompt += pass.scoring.tokens.prompt;
    tokens.completion += pass.scoring.tokens.completion;
    tokens.cached += pass.scoring.tokens.cached;
    day.tokens = tokens;
    if (pass.scoring.requests > 0) {
        day.temperature = pass.scoring.sent.temperature, day.seed = pass.scoring.sent.seed;
        day.reply_format = honoured_format(pass.scoring);
    }
    day.cost = day.cost.total ? cost_of_calls(day.model, tokens, pass.scoring, config.llm) : Cost{};
    summarize_picks(ctx, day, result); // after the day's tokens and cost: it adds its own
    // Problems other than unscored papers (missing API pages) stay until the day is redone.
    std::vector<std::string> others;
    for (auto part : split(day.reason, ';'))
        if (part = trim(part); !part.empty() && !is_unscored_summary(part)) others.emplace_back(part);
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

} // namespace pp::nightly
