// arXiv's RSS announcement (fetch/arxiv_feed.h): an error or entries with
// well-formed IDs and a valid announcement date.
#include "core/arxiv_id.h"
#include "fetch/arxiv_feed.h"
#include "target.h"

#include <cstdlib>

PAPERPRESS_FUZZ_TARGET(rss_feed) {
    auto announcement = pp::parse_rss_feed(input, "fuzz.xml");
    if (!announcement) return;
    if (announcement->date && !announcement->date->valid()) std::abort();
    for (const auto& entry : announcement->entries)
        if (!pp::is_canonical_arxiv_id(entry.paper.id)) std::abort();
}
