#include "fetch/arxiv_source.h"

#include "util/text.h"
#include "util/version.h"

#include <algorithm>
#include <cstdio>
#include <unordered_set>

namespace pp {

namespace {

HttpOptions polite_options(const ArxivSettings& settings, std::function<void(const std::string&)> log, Clock& clock) {
    HttpOptions options;
    options.clock = &clock;
    // arXiv asks API users to identify themselves; the contact comes from config.
    options.user_agent =
        user_agent("daily arXiv digest" + (settings.contact.empty() ? "" : "; mailto:" + settings.contact));
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

// What a back-fill holds so far, and what it has let through.
struct ArxivSource::Held {
    UtcMinute from, to;
    std::vector<FeedEntry> entries;
    std::unordered_set<std::string> ids;
    std::size_t bytes = 0;    // of the entries held
    std::size_t received = 0; // of the pages received
    long long outside = 0, repeated = 0;
    std::string window() const { return from.iso() + " to " + to.iso(); }
};

namespace {

// The memory an entry holds: its text, and a string's own size for each
// piece in a list (and for its ID's copy in the set of IDs held).
std::size_t entry_bytes(const FeedEntry& entry) {
    const Paper& p = entry.paper;
    std::size_t bytes = sizeof(FeedEntry) + sizeof(std::string) + 2 * p.id.size() + p.title.size() + p.abstract.size() +
                        entry.announce_type.size();
    for (const auto* list : {&p.authors, &entry.categories})
        for (const auto& text : *list) bytes += sizeof(std::string) + text.size();
    return bytes;
}

std::string mib(std::size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

const char* likely_broken = "a day is 10 MB at most: the arXiv API is likely broken; nothing written, try again later";

} // namespace

// Only entries of the window stay, each once: a broken API that sends other
// days or repeats its pages fills no memory.
Result<void> ArxivSource::hold_page(ApiPage& page, Held& held) const {
    for (auto& entry : page.entries) {
        if (entry.submitted && (*entry.submitted < held.from || *entry.submitted > held.to)) {
            ++held.outside;
            continue;
        }
        if (!held.ids.insert(entry.paper.id).second) {
            ++held.repeated;
            continue;
        }
        held.bytes += entry_bytes(entry);
        if (held.bytes > max_held_bytes)
            return fail("the arXiv API sent more than " + mib(max_held_bytes) + " of papers submitted " +
                        held.window() + " (" + std::to_string(held.entries.size()) +
                        " held), the back-fill's budget: " + likely_broken);
        name_announce_type(entry);
        held.entries.push_back(std::move(entry));
    }
    return {};
}

Result<std::vector<FeedEntry>> ArxivSource::fetch_submitted(const UtcMinute& from, const UtcMinute& to,
                                                            std::string* gap) {
    std::string categories;
    for (const auto& category : settings_.categories)
        categories += (categories.empty() ? "" : "+OR+") + ("cat:" + category);
    const std::string query = "search_query=%28" + categories + "%29+AND+submittedDate:%5B" + from.stamp() + "+TO+" +
                              to.stamp() + "%5D&sortBy=submittedDate&sortOrder=ascending";
    Held held{from, to, {}, {}, 0, 0, 0, 0};
    long long start = 0, total = -1, requests = 0;
    int empty_tries = 0;
    while (total < 0 || start < total) {
        // A bound in time too: pages that come back short (one entry each) would take a request each.
        const long long page_size = std::max(1, settings_.api_page_size);
        if (total >= 0 && requests >= 2 * ((total + page_size - 1) / page_size) + empty_page_tries + 2)
            return fail("the arXiv API sent " + std::to_string(start) + " of " + std::to_string(total) +
                        " results for papers submitted " + held.window() + " in " + std::to_string(requests) +
                        " pages, twice the pages the total needs: " + likely_broken);
        ++requests;
        std::string url = settings_.api_url + "?" + query + "&start=" + std::to_string(start) +
                          "&max_results=" + std::to_string(settings_.api_page_size);
        http_.set_peer(HttpPeer::api());
        auto response = http_.get(url);
        if (!response) return fail("cannot fetch from the arXiv API: " + response.error().message);
        // Counted before the cache gets it: the cache holds at most the budget.
        held.received += response->body.size();
        if (held.received > max_received_bytes)
            return fail("the arXiv API sent more than " + mib(max_received_bytes) + " of pages for papers submitted " +
                        held.window() + " (" +
                        (total < 0 ? std::string("its first page")
                                   : "at " + std::to_string(start) + " of " + std::to_string(total) + " results") +
                        "), the back-fill's budget: " + likely_broken);
        keep_raw("api/" + from.stamp() + "_" + to.stamp() + "_" + std::to_string(start) + ".xml", response->body);
        // A blank 200 body is the API's hiccup, not an answer: ask again like an empty page.
        const bool blank = trim(response->body).empty();
        auto page = blank ? Result<ApiPage>(ApiPage{}) : parse_api_page(response->body, settings_.api_url);
        response->body = std::string(); // parsed: its memory goes now, not after the next page
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
        if (auto kept = hold_page(*page, held); !kept) return std::unexpected(kept.error());
    }
    if (held.outside + held.repeated > 0)
        log_("warning: the arXiv API sent " + std::to_string(held.outside) + " papers submitted outside " +
             held.window() + " and " + std::to_string(held.repeated) + " papers again; left out");
    return std::move(held.entries);
}

Result<Announcement> ArxivSource::read_feed_file(const fs::path& path) {
    auto text = read_file_inside(config_path_root(path.parent_path()), path); // no link out of the project
    if (!text) return std::unexpected(text.error());
    return parse_rss_feed(*text, path.string());
}

} // namespace pp
