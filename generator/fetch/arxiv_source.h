// Where a day's candidates come from: the announcement feed (the nightly
// run), the export API (back-fill of a missed day), or a saved feed file
// (--offline). Raw responses are kept in the cache folder.
#pragma once

#include "config/config.h"
#include "core/arxiv_calendar.h"
#include "fetch/arxiv_feed.h"
#include "fetch/http_client.h"

namespace pp {

class ArxivSource {
public:
    // `clock` times the polite interval and the backoff (a fake one in tests).
    ArxivSource(const ArxivSettings& settings, std::function<void(const std::string&)> log,
                Clock& clock = real_clock());

    // Today's announcement for the configured categories, in one request.
    Result<Announcement> fetch_announcement();

    // Papers submitted in [from, to] (UTC minutes, both included, as arXiv's
    // submittedDate range), paged by what was actually received. The API has
    // no announce types: an entry whose primary category is configured is
    // `new`, any other a `cross`-list, as the feed would call them.
    // An empty or blank page before the total is asked again (`empty_page_tries`
    // times in all); when it stays empty, paging stops and `gap` (if given)
    // says what is missing, so the day can be marked partial.
    // Pages are streamed: each is kept in the cache and parsed, and only its
    // entries that belong (submitted inside [from, to], not held already)
    // stay. Bounded whatever the API sends: past `max_received_bytes` of
    // pages (all the cache gets) or `max_held_bytes` of entries held, the
    // back-fill is an error naming the budget.
    Result<std::vector<FeedEntry>> fetch_submitted(const UtcMinute& from, const UtcMinute& to,
                                                   std::string* gap = nullptr);
    // Whole UTC days: [from 00:00, to 23:59].
    Result<std::vector<FeedEntry>> fetch_submitted(const Date& from, const Date& to, std::string* gap = nullptr);
    int empty_page_tries = 3;
    // A day file holds at most 5,000 papers (max_papers_per_day), about 2 KB
    // each in arXiv's XML (samples/arxiv-feed.xml: 78 papers, 151 KB), so
    // 10 MB; the budgets leave ample room (docs/pipeline.md).
    std::size_t max_received_bytes = 128u << 20; // 128 MiB of pages a back-fill
    std::size_t max_held_bytes = 64u << 20;      // 64 MiB of entries held

    static Result<Announcement> read_feed_file(const fs::path& path);

    std::string feed_url() const;

private:
    void keep_raw(const std::string& name, const std::string& body);
    void name_announce_type(FeedEntry& entry) const;
    struct Held;
    Result<void> hold_page(ApiPage& page, Held& held) const;

    ArxivSettings settings_;
    std::function<void(const std::string&)> log_;
    HttpClient http_;
};

} // namespace pp
