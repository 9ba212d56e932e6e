// What a build reads back from its own output (site/search.h, site/feeds.h):
// a search shard and a day's JSON data. Either is an error, or reads back
// the same after being written again.
#include "site/feeds.h"
#include "site/search.h"
#include "site/urls.h"
#include "target.h"

#include <cstdlib>

PAPERPRESS_FUZZ_TARGET(search_shard) {
    if (auto entries = pp::read_search_shard(input)) {
        std::string written = pp::search_shard_json(2025, 5, *entries);
        auto again = pp::read_search_shard(written);
        if (!again || pp::search_shard_json(2025, 5, *again) != written) std::abort();
    }
    if (auto day = pp::day_from_json(input)) {
        auto again = pp::day_from_json(pp::day_json(pp::SiteUrls("/"), *day));
        if (!again || *again != *day) std::abort();
    }
}
