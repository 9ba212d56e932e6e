// What the data API serves and the build may read back (site/feeds.h,
// util/gzip.h): a day's JSON data, or a gzip file. A day is an error, or
// reads back the same after being written again; gunzip stays within its
// limit.
#include "site/feeds.h"
#include "site/urls.h"
#include "target.h"
#include "util/gzip.h"

#include <cstdlib>

PAPERPRESS_FUZZ_TARGET(day_data) {
    if (auto day = pp::day_from_json(input)) {
        auto again = pp::day_from_json(pp::day_json(pp::SiteUrls("/"), *day));
        if (!again || *again != *day) std::abort();
    }
    if (auto bytes = pp::gunzip(input, 1 << 20); bytes && bytes->size() > (1u << 20)) std::abort();
}
