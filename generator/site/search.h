// Client-side search data: the archive's papers, split into one shard per
// month, so a browser loads the newest months first and only as far back
// as a query needs.
//
//   search/index.json    {"version":2, "fields":[...], "papers":N, "shards":[{"name":"2025-02",
//                         "url":"2025-02.json", "days":n, "papers":m}, ...]}   newest first
//   search/YYYY-MM.json  {"name":"2025-02", "vocabulary":"word word ...",
//                         "entries":[[date, id, title, authors, words], ...]}
//                        newest day first, papers in page order
//
// A paper's words are every distinct word of its whole abstract,
// lowercased, without the most common English words. The shard lists the
// month's words once, sorted, in `vocabulary`; an entry's `words` are the
// positions of its words in that list, ascending, each as the gap from the
// one before, written in base-32 digits: '0'-'9' and 'a'-'v' end a number,
// 'w'-'z', 'A'-'Z', '-' and '_' (values 0-31 again) go on to the next digit
// (most significant first). A month's vocabulary plus two or three bytes a
// word is about a quarter of the words' text. JSON is written with
// rapidjson, and <, >, & are \u-escaped. Pure functions: the builder decides
// when a shard is out of date.
#pragma once

#include "core/paper.h"
#include "site/site_graph.h"
#include "util/error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pp {

struct SearchEntry {
    Date date;
    std::string id;
    std::string title;
    std::string authors; // joined with ", "
    std::string words;   // search_words(abstract): distinct, sorted, a space apart
    bool operator==(const SearchEntry&) const = default;
};

// The abstract's distinct words, sorted, a space apart.
std::string search_words(std::string_view abstract);

// The day's papers, in page order.
std::vector<SearchEntry> search_entries(const Day& day);

// Site paths.
std::string search_page_path();                        // "search/"
std::string search_index_path();                       // "search/index.json"
std::string search_shard_name(int year, int month);    // "2025-02"
std::string search_shard_path(int year, int month);    // "search/2025-02.json"

// `entries` in any order: the shard sorts them (newest day first, then the
// order given, which is the page order).
std::string search_shard_json(int year, int month, std::vector<SearchEntry> entries);
std::string search_index_json(const SiteGraph& graph);

// A word list's positions in `vocabulary` (sorted), gap-coded as above;
// and back. Exposed for tests.
std::string encode_positions(const std::vector<std::uint32_t>& ascending);
Result<std::vector<std::uint32_t>> decode_positions(std::string_view code);

// A shard's entries read back (the inverse of search_shard_json), so a
// month's shard is updated without reading its unchanged days again.
Result<std::vector<SearchEntry>> read_search_shard(std::string_view json);

} // namespace pp
