// A query over a search index whose files hold any bytes (search/query.h):
// the list of periods, every chunk and every day's result file are parts of
// the input, split at NUL bytes (a day's file gzip'd) as the build writes them. No
// crash, no hang; at most the asked-for results; each file read once, only
// files of the index's own names (no "..": a period's name comes from the
// input), and at most max_query_bytes unpacked.
#include "search/index.h"
#include "search/query.h"
#include "target.h"
#include "util/gzip.h"

#include <cstdlib>
#include <regex>
#include <set>
#include <vector>

PAPERPRESS_FUZZ_TARGET(search_index) {
    static const std::regex index_file(
        R"(search/(index\.json|\d{4}(-\d{2}(-\d{2})?)?/[0-9a-f]{8}\.txt|days/\d{4}-\d{2}-\d{2}\.json\.gz))");
    std::vector<std::string_view> parts;
    for (std::size_t at = 0; parts.size() < 3;) {
        const std::size_t end = std::min(input.find('\0', at), input.size());
        parts.push_back(input.substr(at, end - at));
        at = end + (end < input.size() ? 1 : 0);
    }
    std::set<std::string> read;
    auto read_file = [&](const std::string& path) -> pp::Result<std::string> {
        if (!read.insert(path).second || !std::regex_match(path, index_file)) std::abort();
        if (path == pp::search::manifest_path) return std::string(parts[0]);
        if (path.starts_with("search/days/")) return pp::gzip_small(parts[2]);
        return std::string(parts[1]);
    };
    for (const char* query : {"widget", "wi", "2024-01", "2024", "a b", "2024-01-02 flow"}) {
        read.clear();
        auto found = pp::search::run_query(read_file, query, 20);
        if (found && (found->hits.size() > 20 || found->unpacked > pp::search::max_query_bytes)) std::abort();
    }
}
