// The learned embedded scorer: offline and deterministic, it learns the
// reader's taste from the archive. Every day file lists the papers picked
// before; a new paper is rated by how much its words (TF-IDF of words and
// word pairs) and authors resemble those picks (its nearest earlier picks, recent days
// weighted up, and their centroid), against the background of papers the
// reader did not pick (past raw feeds from the fetch cache, when present,
// and the day's own feed). The keyword scorer's rating is a prior, so an
// empty archive still works. docs/scoring.md explains the choice and the
// measurements.
#pragma once

#include "config/config.h"
#include "content/feedback.h"
#include "core/paper.h"
#include "score/embedded_scorer.h"
#include "util/error.h"
#include "util/files.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pp {

// A paper's terms: (term hash, count), sorted by hash. Title terms count
// twice; each author is a term of its own.
using TermCounts = std::vector<std::pair<std::uint32_t, std::uint16_t>>;
TermCounts paper_terms(const Paper& paper);

// One paper the index knows: an earlier pick, or a background paper (a past
// feed's paper the reader did not pick).
struct IndexedPaper {
    Date date;
    std::string id;
    std::string title;
    TermCounts terms;
    double weight = 1; // a pick's weight beside its recency; the reader's judgement sets it (reader_feedback.h)
};

// What the scorer learned from the archive before a day.
struct TasteIndex {
    std::vector<IndexedPaper> picks;      // by date
    std::vector<IndexedPaper> background; // by date
    std::vector<IndexedPaper> hidden;     // the reader's "not for me" (reader_feedback.h): negatives by weight
    std::vector<int> picks_per_day;       // of each archive day with picks, oldest first
    // The share of a past feed the reader picked, for each past feed whose day
    // the archive holds with picks, oldest first.
    struct FeedShare {
        Date date;
        int candidates = 0; // the feed's new and cross-listed papers
        int picked = 0;     // the day's picks
        // Picked by this scorer (model "embedded"): it kept keep_multiple x the picks it expected, so it counts
        // as those; counted as kept, an offline archive's count would grow with every window of days.
        bool self_scored = false;
    };
    std::vector<FeedShare> feed_shares;
};

// Builds the index from days (papers that could not be scored are not
// picks) and past feeds (papers a day of `days` did not pick are background).
struct PastFeed {
    Date date;
    std::vector<Paper> papers;
    std::size_t candidates = 0; // papers that could be picked (new and cross-listed); 0: all of them
};
TasteIndex build_taste_index(const std::vector<Day>& days, const std::vector<PastFeed>& feeds);

struct TasteSources {
    fs::path content_dir;     // the content tree
    fs::path feed_cache_dir;  // past raw feeds, DATE.xml (the fetch cache's rss/); may be absent
    fs::path index_cache;     // the index cache file; empty: no cache
    int background_days = 20; // past feeds read for background, the most recent ones
    std::function<void(const std::string&)> log;
    int history_days = 365;               // days older than this are not read: their picks would weigh little
    std::vector<Judgement> feedback = {}; // the reader's judgements, all (content/feedback.h): applied to the index
};

// The index of the archive's days before `before`: read from the cache
// file, re-reading only the day and feed files whose size or mtime changed,
// and saved back. A cache file that does not verify (wrong header, bad
// checksum, truncated) is ignored and rebuilt. Unreadable days are skipped
// with a warning in `warnings`.
TasteIndex load_taste_index(const TasteSources& sources, const Date& before, std::vector<std::string>& warnings);

struct LearnedScorerOptions {
    int neighbours = 5;            // earlier picks averaged for the nearest-neighbour similarity
    double neighbour_weight = 1.0; // their mean similarity counts this much
    double half_life_days = 120;   // a pick this old counts half
    int neighbour_window_days =
        240; // neighbours are searched among picks this recent (two half-lives: older ones weigh under 1/4)
    double centroid_weight = 0.5;   // similarity to the picks' centroid
    double background_weight = 0.5; // minus similarity to the background's centroid
    double prior_weight = 0.1;      // keyword scorer's rating (0..1) counts this much
    double classifier_weight = 1.0; // a logistic regression of picks against the background
    int classifier_epochs = 8;
    double classifier_rate = 2.0; // the first epoch's learning rate (then rate / (1 + epoch))
    double feed_only_rate =
        0.1; // ... when today's feed is the only background: a weaker fit of the papers it then scores
    bool feed_negatives = true;        // today's feed counts among the classifier's negatives too
    double max_df_fraction = 0.5;      // terms in more of the background than this carry no signal
    double prior_fade_picks = 50;      // the prior's weight halves at this many earlier picks, and fades with more
    double keep_multiple = 1.4;        // rated >= 7: this many times the picks expected today
    int share_days = 10;               // the recent past feeds whose picked share predicts today's picks ...
    int recent_share_days = 3;         // ... or the share of this many of them, when it is lower;
    double standout_share = 0.05;      // with the number of today's papers above all but this share of the
                                       // past feeds' unpicked ones (less this share of today's): their geometric mean
    int usual_days = 20;               // without past feeds: the recent days that set the usual daily picks
    std::size_t max_background = 5000; // the most recent background papers used
    double cascade_fraction = 0.35;    // as a pre-filter: the LLM sees this share of the feed, the best first
};

struct LearnedScore {
    double score = 0;  // the ranking score (comparable within one feed)
    int relevance = 1; // 0-10
    double margin = 0; // the classifier's log-odds (classes balanced in training)
    std::string comment;
};

// Scores a day's feed; the result is in feed order.
std::vector<LearnedScore> learned_scores(const std::vector<Paper>& feed, const TasteIndex& index,
                                         const TopicKeywords& prior, const Date& today,
                                         const LearnedScorerOptions& options = {});

// The reader's usual number of picks a day (mean of the recent days), 0 for an empty archive.
double usual_daily_picks(const TasteIndex& index, int recent_days);

// How many of a `feed_size`-paper feed the reader is expected to pick today:
// the share of the feed picked on the recent past feeds (`share_days` of them,
// pooled, or `recent_share_days` of them when that is lower); without past
// feeds, the usual daily picks. learned_scores() combines it with the count of
// today's papers that stand out (LearnedScorerOptions::standout_share).
double expected_picks(const TasteIndex& index, std::size_t feed_size, const LearnedScorerOptions& options);

// The cascade: how many of the learned ranking's top papers go to the LLM,
// `fraction` of the feed (all of it when the archive is empty, since the
// ranking then knows only keywords).
std::size_t cascade_size(std::size_t feed_size, const TasteIndex& index, double fraction);

// What `run` logs: the scorer and the configuration key that chose it.
std::string describe(EmbeddedScorerKind kind);
std::string describe(PrefilterKind kind);

// The learned scorer as the nightly run uses it: the archive's index (from
// its cache), then the feed's scores, and how many of the best the cascade
// sends on to the LLM.
struct LearnedRanking {
    std::vector<LearnedScore> scores; // in feed order
    std::size_t cascade = 0;
};
LearnedRanking rank_by_taste(const std::vector<Paper>& feed, const TasteSources& sources, const TopicKeywords& prior,
                             const Date& today, const LearnedScorerOptions& options,
                             std::vector<std::string>& warnings);

// The top `count` of `papers` by `scores` (same order), best first; ties keep feed order.
std::vector<Paper> best_papers(const std::vector<Paper>& papers, const std::vector<LearnedScore>& scores,
                               std::size_t count);

} // namespace pp
