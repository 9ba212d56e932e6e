// The reader's feedback (content/feedback.h) as evidence for scoring: the
// learned scorer takes starred papers as picks weighted above the archive's
// and hidden ones as negatives; the LLM prompt carries the titles of the
// latest judgements as examples. docs/scoring.md, "The reader's feedback".
#pragma once

#include "content/feedback.h"
#include "score/learned_scorer.h"

#include <string>
#include <vector>

namespace pp {

struct FeedbackWeights {
    double star = 2.0; // a starred paper counts as this many fresh picks
    double hide = 2.0; // a hidden paper counts against its words as much as this many fresh picks for them
};

// `all` is every judgement in file and line order (read_feedback); what
// counts on a day is the judgement in force among those dated that day or
// before, so a later change of mind does not rewrite an earlier day.

// Those judgements in force as of `today`, the newest first (on equal dates, the later file and line first).
std::vector<Judgement> judgements_until(const std::vector<Judgement>& all, const Date& today);

// Applies the judgements in force as of `today` to the archive's index: a
// starred paper (an earlier pick, or a past feed's paper the reader did not
// pick) becomes a pick dated by its judgement and weighted `star`; a hidden
// one leaves the picks and the background for index.hidden, weighted `hide`.
// A judged paper the index does not hold (no day or cached feed lists it
// within the history read) has no text to learn from, and is left out.
void apply_feedback(TasteIndex& index, const std::vector<Judgement>& all, const Date& today,
                    const FeedbackWeights& weights = {});

// A judged paper's title, for the LLM prompt's examples.
struct FeedbackExample {
    Verdict verdict;
    std::string title;
};

// The titles of the latest judgements as of `today` that the index knows, newest first, at most `count`.
std::vector<FeedbackExample> feedback_examples(const std::vector<Judgement>& all, const TasteIndex& index,
                                               const Date& today, std::size_t count);

} // namespace pp
