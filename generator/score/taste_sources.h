// Inside the learned scorer: the files the taste index is made from, one
// source each, so the index cache can keep them apart and re-read only the
// files that changed.
#pragma once

#include "score/learned_scorer.h"

namespace pp {

struct IndexSource {
    bool is_feed = false;     // a past raw feed; else a day file
    bool self_scored = false; // a day file the embedded scorer picked (model "embedded"): its count is its own echo
    Date date;
    FileStamp stamp;                  // of the file it was read from
    std::vector<IndexedPaper> papers; // a day's picks, or every paper of a feed
    std::uint32_t candidates = 0;     // a feed's papers that could be picked: new and cross-listed, not replaced
};

IndexSource day_source(const Day& day);
IndexSource feed_source(const PastFeed& feed);
TasteIndex assemble_taste_index(std::vector<IndexSource> sources);

long days_since_epoch(const Date& date);
IndexedPaper indexed(const Date& date, const Paper& paper);

} // namespace pp
