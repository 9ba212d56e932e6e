// Client-side search data: the archive's papers, split into one shard per
// month, so a browser loads the newest months first and only as far back
// as a query needs.
//
//   search/index.json    {"version":1, "fields":[...], "papers":N, "shards":[{"name":"2025-02",
//                         "url":"2025-02.json", "days":n, "papers":m}, ...]}   newest first
//   search/YYYY-MM.json  {"name":"2025-02", "entries":[[date, id, title, authors, words], ...]}
//                        newest day first, papers in page order
//
// `words` are the abstract's distinct words, lowercased, without the most
// common English words, in order of appearance, capped in length: enough to
// find a paper by what it is about, far smaller than the abstracts. JSON is
// written with rapidjson, and <, >, & are \u-escaped. Pure functions: the
// builder decides when a shard is out of date.
#pragma once

#include "core/paper.h"
#include "site/site_graph.h"
#include "util/error.h"

#include <string>
#include <string_view>
#include <vector>

namespace pp {

struct SearchEntry {
    Date date;
    std::string id;
    std::string title;
    std::string authors; // joined with ", "
    std::string words;   // search_words(abstract)
    bool operator==(const SearchEntry&) const = default;
};

// At most this many bytes of abstract words per paper.
inline constexpr std::size_t search_words_limit = 480;

std::string search_words(std::string_view abstract, std::size_t limit = search_words_limit);

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

// A shard's entries read back (the inverse of search_shard_json), so a
// month's shard is updated without reading its unchanged days again.
Result<std::vector<SearchEntry>> read_search_shard(std::string_view json);

} // namespace pp
