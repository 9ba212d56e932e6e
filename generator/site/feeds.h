// The machine-readable outputs: Atom feed, sitemap and the JSON data.
// Text goes through the XML/JSON writers, which escape it; nothing reads
// the clock, so the same days give the same bytes.
#pragma once

#include "config/config.h"
#include "core/paper.h"
#include "site/site_graph.h"
#include "site/urls.h"
#include "util/error.h"
#include "util/memory.h"

#include <string>
#include <string_view>
#include <vector>

namespace pp {

// The days the feed carries, as indices into `days` (date order), newest
// first: the newest `count` days with papers, and before them the run of
// days newer than all of them (failed, quiet): its newest and its oldest day,
// which atom_feed() makes one notice. Older days without papers are left
// out, so failed runs never crowd out the papers.
std::vector<std::size_t> feed_days(const std::vector<DaySummary>& days, int count);

// `days`: the newest first, as feed_days() chooses them.
std::string atom_feed(const Config& config, const SiteUrls& urls, const std::vector<const Day*>& days);

// Every HTML page of the site (home, days, months, years, archive); not the search page
// or the selection prompts' pages, which are not for crawlers.
std::string sitemap(const SiteUrls& urls, const SiteGraph& graph);

// data/index.json: {"title", "base_url", "days": [{date, url, data, status, papers, remedial, counts}],
// "months": [{month, url, days, papers}]}; `data` only with config.data "day", `remedial` only
// when true; months newest first, `url` relative to data/index.json.
std::string index_json(const Config& config, const SiteUrls& urls, const SiteGraph& graph);

// What a day's JSON holds of its papers: the listing (ID, title, authors,
// scores, topics) or also their free text (arXiv's abstract and the
// scorer's comment). The free text is most of the bytes, and the day page
// holds it too (`data: month` leaves it out).
enum class PaperText { listing, full };

// data/days/YYYY-MM-DD.json: the whole day; of each paper, the fields that
// are not empty (docs/data.md).
std::string day_json(const SiteUrls& urls, const Day& day, PaperText text = PaperText::full);

// data/YYYY-MM.json.gz, before gzip: {"month": "YYYY-MM", "days": [the
// days' day_json, in the order given]}. One file a month serves the data API
// and the search page. Made from the days' JSON, which a build keeps instead
// of the days (and may drop before the month's JSON is compressed).
PageBuffer month_data_json(int year, int month, const std::vector<std::string_view>& day_jsons);

// Reads day_json's output back: the same day but for its prompt reference,
// which the JSON does not hold. With config.data "day", the build makes the
// feed, the home page and the month best-of from the JSON it wrote: one
// rapidjson pass instead of yaml-cpp and cmark over the day file.
Result<Day> day_from_json(std::string_view json);

// A month file's days (gunzipped), read back the same way.
Result<std::vector<Day>> month_days_from_json(std::string_view json);

// JSON text from rapidjson with '<', '>' and '&' as \u escapes, and the
// control bytes its SSE2 writer leaves raw escaped too (same data,
// never taken for markup when served or embedded as HTML), plus a newline.
std::string harden_json(std::string_view json);

} // namespace pp
