#include "site/month_best.h"

#include "core/tex.h"

#include <algorithm>
#include <set>

namespace pp {

DayBest day_best(const Day& day, int limit) {
    DayBest best{day.date, {}, {}, {}};
    const auto cap = static_cast<std::size_t>(std::max(0, limit));
    std::vector<const Paper*> matches, scored;
    for (const auto& paper : day.papers) {
        ++best.topics[tex_to_unicode(paper.topic)];
        (paper.author_match ? matches : scored).push_back(&paper);
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const Paper* a, const Paper* b) { return a->score() > b->score(); });
    // Kept until the month is complete: only what the best-of shows.
    auto keep = [cap](const std::vector<const Paper*>& from, std::vector<Paper>& into) {
        into.reserve(std::min(cap, from.size()));
        for (std::size_t i = 0; i < from.size() && i < cap; ++i) {
            Paper& kept = into.emplace_back(*from[i]);
            for (std::string* text : {&kept.abstract, &kept.comment, &kept.topic_note}) std::string().swap(*text);
        }
    };
    keep(matches, best.matches);
    keep(scored, best.scored);
    return best;
}

// A stable sort of the month's papers by score keeps ties in date order;
// each day's share is sorted the same way, so the month's top `limit` are
// among the days' top `limit`.
MonthBest month_best(const std::vector<DayBest>& days, int limit) {
    MonthBest best;
    std::vector<MonthBest::Entry> scored;
    std::map<std::string, int> topics;
    const auto cap = static_cast<std::size_t>(std::max(0, limit));
    for (const auto& day : days) {
        for (const auto& paper : day.matches) best.papers.push_back({day.date, paper});
        for (const auto& paper : day.scored) scored.push_back({day.date, paper});
        for (const auto& [topic, count] : day.topics) topics[topic] += count;
    }
    // Every author match first, then the best scores; shown ranked by score.
    const auto by_score = [](const MonthBest::Entry& a, const MonthBest::Entry& b) {
        return a.paper.score() > b.paper.score();
    };
    std::stable_sort(scored.begin(), scored.end(), by_score);
    // A paper the archive has on two days is listed once: its first author
    // match, else its best score (the earlier day on a tie).
    std::set<std::string> listed;
    std::erase_if(best.papers, [&](const MonthBest::Entry& e) { return !listed.insert(e.paper.id).second; });
    if (best.papers.size() > cap) best.papers.resize(cap);
    for (auto& entry : scored) {
        if (best.papers.size() >= cap) break;
        if (listed.insert(entry.paper.id).second) best.papers.push_back(std::move(entry));
    }
    std::stable_sort(best.papers.begin(), best.papers.end(), by_score);
    best.topics.assign(topics.begin(), topics.end());
    std::stable_sort(best.topics.begin(), best.topics.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    return best;
}

MonthBest month_best(const std::vector<Day>& days, int limit) {
    std::vector<DayBest> shares;
    for (const auto& day : days) shares.push_back(day_best(day, limit));
    return month_best(shares, limit);
}

} // namespace pp
