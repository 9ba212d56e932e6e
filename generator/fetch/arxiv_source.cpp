#include "fetch/arxiv_source.h"

#include "util/text.h"

#include <algorithm>
#include <cstdio>

namespace pp {

namespace {

HttpOptions polite_options(const ArxivSettings& settings, std::function<void(const std::string&)> log, Clock& clock) {
    HttpOptions options;
    options.clock = &clock;
    // arXiv asks API users to identify themselves; the contact comes from config.
    options.user_agent = "paperpress/0.1 (daily arXiv digest" +
                         (settings.contact.empty() ? std::string(")") : "; mailto:" + settings.contact + ")");
    options.min_interval = std::chrono::milliseconds(static_cast<long>(settings.request_interval * 1000));
    options.backoff = std::max(options.min_interval, std::chrono::milliseconds(1000));
    options.max_attempts = 4;
    options.timeout = std::chrono::seconds(60);
    options.on_retry = std::move(log);
    return options;
}

} // namespace

ArxivSource::ArxivSource(const ArxivSettings& settings, std::function<void(const std::string&)> log, Clock& clock)
    : settings_(settings), log_(log), http_(polite_options(settings, log, clock)) {}

std::string ArxivSource::feed_url() const {
    std::string url = settings_.rss_url;
    if (!url.ends_with('/')) url += '/';
    return url + join(settings_.categories, "+");
}

void ArxivSource::keep_raw(const std::string& name, const std::string& body) {
    if (settings_.cache_dir.empty()) return;
    if (auto kept =
            write_file_inside(config_path_root(settings_.cache_dir), fs::path(settings_.cache_dir) / name, body);
        !kept)
        log_("warning: cannot keep the raw response: " + kept.error().to_string());
}

Result<Announcement> ArxivSource::fetch_announcement() {
    const std::string url = feed_url();
    http_.set_peer(HttpPeer::feed());
    auto response = http_.get(url);
    if (!response) return fail("cannot fetch the arXiv feed: " + response.error().message);
    keep_raw("rss/latest.xml", response->body);
    auto announcement = parse_rss_feed(response->body, url);
    if (!announcement) return announcement;
    if (announcement->date) keep_raw("rss/" + announcement->date->iso() + ".xml", response->body);
    return announcement;
}

Result<std::vector<FeedEntry>> ArxivSource::fetch_submitted(const Date& from, const Date& to, std::string* gap) {
    return fetch_submitted(UtcMinute{from, 0, 0}, UtcMinute{to, 23, 59}, gap);
}

void ArxivSource::name_announce_type(FeedEntry& entry) const {
    // An entry without categories cannot be told apart: taken as new.
    const bool primary =
        entry.categories.empty() ||
        std::ranges::find(settings_.categories, entry.categories.front()) != settings_.categories.end();
    entry.announce_type = primary ? "new" : "cross";
}

Result<std::vector<FeedEntry>> ArxivSource::fetch_submitted(const UtcMinute& from, const UtcMinute& to,
                                                            std::string* gap) {
    std::string categories;
    for (const auto& category : settings_.categories)
        categories += (categories.empty() ? "" : "+OR+") + ("cat:" + category);
    const std::string query = "search_query=%28" + categories + "%29+AND+submittedDate:%5B" + from.stamp() + "+TO+" +
                              to.stamp() + "%5D&sortBy=submittedDate&sortOrder=ascending";
    std::vector<FeedEntry> entries;
    long long start = 0, total = -1;
    int empty_tries = 0;
    while (total < 0 || start < total) {
        std::string url = settings_.api_url + "?" + query + "&start=" + std::to_string(start) +
                          "&max_results=" + std::to_string(settings_.api_page_size);
        http_.set_peer(HttpPeer::api());
        auto response = http_.get(url);
        if (!response) return fail("cannot fetch from the arXiv API: " + response.error().message);
        keep_raw("api/" + from.stamp() + "_" + to.stamp() + "_" + std::to_string(start) + ".xml", response->body);
        // A blank 200 body is the API's hiccup, not an answer: ask again like an empty page.
        const bool blank = trim(response->body).empty();
        auto page = blank ? Result<ApiPage>(ApiPage{}) : parse_api_page(response->body, settings_.api_url);
        if (!page) return std::unexpected(page.error());
        if (!blank) total = std::min<long long>(page->total_results, 30000);
        if (page->entries.empty()) {
            if (!blank && start >= total) break; // the end
            if (++empty_tries < empty_page_tries) {
                log_("the arXiv API returned " + std::string(blank ? "a blank" : "an empty") + " page at " +
                     std::to_string(start) + "; asking again (" + std::to_string(empty_tries) + " of " +
                     std::to_string(empty_page_tries - 1) + ")");
                continue;
            }
            std::string missing = "the arXiv API kept returning empty pages at " + std::to_string(start) +
                                  (total >= 0 ? " of " + std::to_string(total) : std::string()) + " papers";
            log_("warning: " + missing + "; stopping with what was received");
            if (gap) *gap = missing;
            break;
        }
        empty_tries = 0;
        // Advance by what actually arrived: pages can come back short.
        start += static_cast<long long>(page->entries.size());
        for (auto& entry : page->entries) {
            name_announce_type(entry);
            entries.push_back(std::move(entry));
        }
    }
    return entries;
}

Result<Announcement> ArxivSource::read_feed_file(const fs::path& path) {
    auto text = read_file_inside(config_path_root(path.parent_path()), path); // no link out of the project
    if (!text) return std::unexpected(text.error());
    return parse_rss_feed(*text, path.string());
}

} // namespace pp
