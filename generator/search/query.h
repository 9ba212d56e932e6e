// A query over the word index (search/index.h), reading exactly the files
// themes/default/static/search.js reads, in the same way: the index's list
// of periods, the chunks that can hold the query's words, then the day files
// of the results shown.
//
// Every query word must match (a word of three bytes or more as a prefix:
// search/words.h). A date (2025-02-03) or a month (2025-02) limits the
// results to it; alone, it lists its papers. "arXiv:" before an ID is
// ignored. Ranked by where the words are (the title above authors, topics
// and ID, above the abstract and comment), then newer, then higher-scored.
//
// A site folder can come from anyone's fork, so the index is read as the
// build writes it and nothing more (docs/security.md): period names in the
// writer's form, each period's days within it, each once and in order, at
// most max_papers_per_day papers a day (core/paper.h), postings in number
// order below their period's papers, and the bytes below. Anything else is
// an error naming the file.
#pragma once

#include "util/error.h"
#include "util/files.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pp::search {

// What one query may unpack: far above what a real archive needs (on the
// 10-year bench archive a common word's query reads well under a megabyte:
// docs/performance.md), far below the
// gigabytes a hostile few kilobytes asked for.
inline constexpr std::size_t max_manifest_bytes = 8u << 20;  // search/index.json
inline constexpr std::size_t max_day_file_bytes = 16u << 20; // a day's results file
inline constexpr std::size_t max_query_bytes = 128u << 20;   // every file of one query

struct Hit {
    std::string date, id, title, authors, topic;
    std::optional<int> score; // relevance + novelty; none when unscored
    int weight = 0;           // the sum of its words' classes
    // Where the query's words are: "title", "authors", "topic", "arXiv ID" (the fields shown) and
    // "abstract or comment" for a word in none of those, in that order.
    std::vector<std::string> found_in;
};

struct Found {
    // The best `limit`, best first; a paper listed on several days once, at
    // the place of its best listing with its newest day's date.
    std::vector<Hit> hits;
    std::size_t total = 0; // every paper that matches (less the repeats found among the best)
    struct Read {
        std::string path; // site path
        std::size_t bytes = 0;
    };
    std::vector<Read> reads;  // in the order read
    std::size_t unpacked = 0; // the text those files held: at most max_query_bytes
};

// A site file's bytes as written (a day's file gzip'd, the rest plain), by site path.
using ReadFile = std::function<Result<std::string>(const std::string& site_path)>;

Result<Found> run_query(const ReadFile& read, std::string_view query, std::size_t limit);

// The same over a built site folder.
Result<Found> search_site(const fs::path& site, std::string_view query, std::size_t limit);

} // namespace pp::search
