// Parsers for arXiv's two XML interfaces (pugixml):
//  - the RSS 2.0 announcement feed (rss.arxiv.org/rss/cs.LG+cs.AI), and
//  - the export API's Atom pages (export.arxiv.org/api/query).
#pragma once

#include "core/arxiv_calendar.h"
#include "core/paper.h"
#include "util/error.h"

#include <string>
#include <vector>

namespace pp {

struct FeedEntry {
    Paper paper;                         // id without version, tidy text, no announce prefix
    std::string announce_type;           // new, cross, replace, replace-cross ("" from the API)
    std::vector<std::string> categories; // primary first
    std::optional<UtcMinute> submitted;  // the API's <published>: v1's submission, in UTC (absent from the feed)
};

struct Announcement {
    std::optional<Date> date;       // the channel's pubDate; absent in an empty feed
    std::vector<FeedEntry> entries; // every item, every announce type
};

// `source` names the document in errors (a URL or a file).
Result<Announcement> parse_rss_feed(std::string_view xml, const std::string& source);

struct ApiPage {
    long long total_results = 0;
    std::vector<FeedEntry> entries;
};

Result<ApiPage> parse_api_page(std::string_view xml, const std::string& source);

// An Atom time ("2025-05-19T17:59:59Z", "2007-02-27T16:02:02-05:00", as the
// API's <published> writes it) to its UTC minute, seconds dropped.
std::optional<UtcMinute> parse_atom_time(std::string_view text);

// "Wed, 28 May 2025 00:00:00 -0400" -> 2025-05-28 (the date as written).
std::optional<Date> parse_rfc822_date(std::string_view text);

} // namespace pp
