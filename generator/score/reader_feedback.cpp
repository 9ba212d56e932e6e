#include "score/reader_feedback.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace pp {

std::vector<Judgement> judgements_until(const std::vector<Judgement>& all, const Date& today) {
    std::vector<Judgement> until;
    for (const auto& judgement : all)
        if (judgement.date <= today) until.push_back(judgement);
    // By date, ties in file and line order: each paper's last is its judgement in force, and the newest.
    std::stable_sort(until.begin(), until.end(),
                     [](const Judgement& a, const Judgement& b) { return a.date < b.date; });
    std::vector<Judgement> newest_first;
    std::unordered_set<std::string> seen;
    for (auto it = until.rbegin(); it != until.rend(); ++it)
        if (seen.insert(it->id).second) newest_first.push_back(*it);
    return newest_first;
}

void apply_feedback(TasteIndex& index, const std::vector<Judgement>& all, const Date& today,
                    const FeedbackWeights& weights) {
    const std::vector<Judgement> in_force = judgements_until(all, today);
    std::unordered_map<std::string, const Judgement*> judged;
    for (const auto& judgement : in_force) judged.emplace(judgement.id, &judgement);
    if (judged.empty()) return;
    std::unordered_set<std::string> taken; // a paper picked on two days, or also in a feed, counts once
    std::vector<IndexedPaper> starred;
    // Moves the judged papers out of `papers`, into `starred` or index.hidden.
    auto sort_out = [&](std::vector<IndexedPaper>& papers) {
        std::erase_if(papers, [&](IndexedPaper& paper) {
            auto it = judged.find(paper.id);
            if (it == judged.end()) return false;
            if (!taken.insert(paper.id).second) return true;
            const bool star = it->second->verdict == Verdict::star;
            paper.weight = star ? weights.star : weights.hide;
            if (star) paper.date = it->second->date; // the reader's taste as of the judgement
            (star ? starred : index.hidden).push_back(std::move(paper));
            return true;
        });
    };
    sort_out(index.picks);
    sort_out(index.background);
    index.picks.insert(index.picks.end(), std::make_move_iterator(starred.begin()),
                       std::make_move_iterator(starred.end()));
    std::stable_sort(index.picks.begin(), index.picks.end(),
                     [](const IndexedPaper& a, const IndexedPaper& b) { return a.date < b.date; });
}

std::vector<FeedbackExample> feedback_examples(const std::vector<Judgement>& all, const TasteIndex& index,
                                               const Date& today, std::size_t count) {
    std::unordered_map<std::string, const std::string*> titles;
    for (const auto* papers : {&index.picks, &index.background, &index.hidden})
        for (const auto& paper : *papers) titles.emplace(paper.id, &paper.title);
    std::vector<FeedbackExample> examples;
    for (const auto& judgement : judgements_until(all, today)) {
        if (examples.size() == count) break;
        auto title = titles.find(judgement.id);
        if (title != titles.end() && !title->second->empty()) examples.push_back({judgement.verdict, *title->second});
    }
    return examples;
}

} // namespace pp
