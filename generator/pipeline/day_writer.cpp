// One day from its entries: the candidates (wanted, de-duplicated against
// earlier days, followed authors apart), their scores, the selection, the
// day's status, and its file in the content tree.
#include "content/content_tree.h"
#include "pipeline/run_context.h"
#include "score/author_match.h"
#include "score/topics.h"
#include "util/text.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace pp::nightly {

bool archive_has(const fs::path& content, const Date& date) { return fs::exists(day_path(content, date)); }

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
    if (!entry.announce_type.empty() && std::find(settings.announce_types.begin(), settings.announce_types.end(),
                                                  entry.announce_type) == settings.announce_types.end())
        return false;
    if (settings.primary_only && !entry.categories.empty() &&
        std::find(settings.categories.begin(), settings.categories.end(), entry.categories.front()) ==
            settings.categories.end())
        return false;
    return true;
}

void settle_status(Day& day, std::vector<std::string> stale, const std::vector<std::string>& partial) {
    std::erase(stale, std::string());
    std::vector<std::string> all = stale;
    for (const auto& reason : partial)
        if (!reason.empty()) all.push_back(reason);
    day.status = !stale.empty() ? DayStatus::stale : !all.empty() ? DayStatus::partial : DayStatus::announced;
    day.reason = join(all, "; ");
}

bool repeats_last_day(const std::set<std::string>& last_day, const std::set<std::string>& ids) {
    return !last_day.empty() && std::ranges::all_of(last_day, [&](const std::string& id) { return ids.contains(id); });
}

std::string stale_categories(const std::vector<FeedEntry>& entries, const std::set<std::string>& earlier,
                             const ArxivSettings& settings) {
    std::map<std::string, std::pair<size_t, size_t>> counts; // category -> (papers, listed before)
    std::set<std::string> seen;
    for (const auto& entry : entries) {
        if (!wanted(entry, settings) || !seen.insert(entry.paper.id).second) continue;
        // A paper counts for its first configured category: its primary, else the one it is cross-listed to.
        auto category = std::ranges::find_if(entry.categories, [&](const std::string& c) {
            return std::ranges::find(settings.categories, c) != settings.categories.end();
        });
        if (category == entry.categories.end()) continue;
        auto& [papers, repeated] = counts[*category];
        ++papers;
        if (earlier.contains(entry.paper.id)) ++repeated;
    }
    std::vector<std::string> stale;
    for (const auto& [category, count] : counts)
        if (count.second >= stale_share_min_papers && 2 * count.second >= count.first)
            stale.push_back(category + " (" + std::to_string(count.second) + " of its " + std::to_string(count.first) +
                            ")");
    if (stale.empty()) return {};
    return "the feed repeats papers of earlier days for " + join(stale, ", ") +
           ": that part of the feed still served an earlier announcement, and its papers of this day are missing";
}

long long count_selected(const Day& day) { return std::ranges::count_if(day.papers, is_pick); }

std::vector<Unpicked> not_picked(const std::vector<Paper>& candidates, const std::vector<Paper>& picks,
                                 std::vector<Unpicked> earlier) {
    std::set<std::string> listed;
    for (const auto& paper : picks) listed.insert(paper.id);
    std::erase_if(earlier, [&](const Unpicked& p) { return listed.contains(p.id); }); // picked since
    for (const auto& paper : earlier) listed.insert(paper.id);
    for (const auto& paper : candidates)
        if (earlier.size() < max_papers_per_day && listed.insert(paper.id).second)
            earlier.push_back({paper.id, paper.title.empty() ? paper.id : paper.title});
    return earlier;
}

namespace {

std::string money(const Cost& cost) {
    if (!cost.total) return "unknown (a model not in the price table, or calls without usage)";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "$%.4f", *cost.total);
    return buffer;
}

// The feed's or the API's entries, filtered, de-duplicated and split into
// followed authors' papers and the papers to score.
struct Candidates {
    std::vector<Paper> all;      // every candidate kept for the day, in feed order
    std::vector<Paper> to_score; // those not by a followed author
    Verdicts verdicts;           // author matches so far
    size_t listed_before = 0;    // dropped: an earlier day listed them
    std::string repeated;        // non-empty when the feed repeats the last archived day
    std::string stale_parts;     // non-empty when some categories' part of the feed does (stale_categories)
};

Candidates gather_candidates(const Context& ctx, DayInput& input, Day& day, RunResult& result) {
    Candidates out;
    std::set<std::string> seen;
    for (auto& entry : input.entries)
        if (wanted(entry, ctx.config.arxiv) && seen.insert(entry.paper.id).second) out.all.push_back(entry.paper);
    day.counts.scanned = static_cast<long long>(out.all.size());
    std::pair<Date, std::set<std::string>> last_day;
    auto earlier = ids_listed_before(ctx.request.content_dir, input.date, result.warnings, last_day);
    const bool repeats = repeats_last_day(last_day.second, seen);
    // A feed's day (an API window holds no announcement to repeat): one category's stale part.
    if (!repeats && !input.remedial) out.stale_parts = stale_categories(input.entries, earlier, ctx.config.arxiv);
    const size_t before = out.all.size();
    std::erase_if(out.all, [&](const Paper& p) { return earlier.contains(p.id); });
    out.listed_before = before - out.all.size();
    if (repeats)
        out.repeated = "the feed repeats " + last_day.first.iso() + "'s announcement: all " +
                       std::to_string(last_day.second.size()) + " papers of that day are in it again (" +
                       std::to_string(out.listed_before) + " of " + std::to_string(before) +
                       " candidates listed before)";
    // Followed authors first: always kept, never sent to the scorer.
    AuthorMatcher matcher(ctx.followed);
    for (const auto& paper : out.all) {
        if (!matcher.matches(paper).empty()) out.verdicts.author_matches.insert(paper.id);
        else out.to_score.push_back(paper);
    }
    return out;
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

} // namespace

std::string retry_note(const Context& ctx, const Day& day) {
    const auto action = waiting_for(day);
    const int look_back = ctx.config.arxiv.catch_up_days;
    if (!action) return "nothing retries it";
    const std::string by_hand = *action == CatchUp::resume ? "paperpress run --resume --date " + day.date.iso()
                                                           : "paperpress run --date " + day.date.iso();
    if (look_back <= 0 || (*action == CatchUp::resume && !ctx.use_llm)) return "`" + by_hand + "` completes it";
    return std::string("the next nights' catch-up ") +
           (*action == CatchUp::resume ? "scores its unscored papers with the LLM"
                                       : "fetches it again through the API") +
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
        prompt_text = score_embedded(ctx, input.date, candidates.to_score, candidates.verdicts, day, result);
    } else {
        auto scored = score_with_the_llm(ctx, input.date, candidates.to_score, candidates.verdicts, day, result);
        if (!scored) return std::unexpected(scored.error());
        std::tie(prompt_text, unscored_reason) = std::move(*scored);
    }
    const auto& scoring = ctx.config.scoring;
    day.papers = select_papers(candidates.all, candidates.verdicts, {scoring.relevance_cutoff, scoring.novelty_cutoff});
    assign_topics(day.papers, candidates.verdicts.scores,
                  TopicAssigner(parse_topic_sections(ctx.prompts.topics), candidates.all));
    day.counts.relevant = count_selected(day);
    summarize_picks(ctx, day, result);
    day.unpicked = not_picked(candidates.all, day.papers);

    settle_status(day, {candidates.repeated}, {input.partial_reason, candidates.stale_parts, unscored_reason});
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

} // namespace pp::nightly
