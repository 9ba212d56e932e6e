// A page of the arXiv export API (fetch/arxiv_feed.h): an error or entries
// with well-formed IDs and a total the pager can use.
#include "core/arxiv_id.h"
#include "fetch/arxiv_feed.h"
#include "target.h"

#include <cstdlib>

PAPERPRESS_FUZZ_TARGET(api_page) {
    auto page = pp::parse_api_page(input, "fuzz.xml");
    if (!page) return;
    if (page->total_results < 0) std::abort();
    for (const auto& entry : page->entries)
        if (!pp::is_canonical_arxiv_id(entry.paper.id)) std::abort();
}
