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
#pragma once

#include "util/error.h"
#include "util/files.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pp::search {

struct Hit {
    std::string date, id, title, authors, topic;
    std::optional<int> score; // relevance + novelty; none when unscored
    int weight = 0;           // the sum of its words' classes
};

struct Found {
    std::vector<Hit> hits; // the best `limit`, best first
    std::size_t total = 0; // every paper that matches
    struct Read {
        std::string path; // site path
        std::size_t bytes = 0;
    };
    std::vector<Read> reads; // in the order read
};

// A site file's bytes as served (gzip'd), by site path.
using ReadFile = std::function<Result<std::string>(const std::string& site_path)>;

Result<Found> run_query(const ReadFile& read, std::string_view query, std::size_t limit);

// The same over a built site folder.
Result<Found> search_site(const fs::path& site, std::string_view query, std::size_t limit);

} // namespace pp::search
