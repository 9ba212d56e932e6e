// `paperpress import`: converts the reference system's output tree
// (SRC/md/YYYY-MM/*.md, SRC/json/YYYY-MM/*.json) into the content tree.
// JSON is preferred where it exists; Markdown supplies what only it has
// (token table, counts, banner, prompt) and the page order of the papers.
#pragma once

#include "core/paper.h"
#include "util/error.h"
#include "util/files.h"

#include <functional>
#include <string>
#include <vector>

namespace pp {

struct ImportReport {
    int days_written = 0;
    int days_unchanged = 0;
    int papers = 0;
    std::vector<std::string> warnings; // failed runs, repeated papers, dropped fields
    std::vector<Error> errors;         // files that could not be read
};

// Brings a day assembled from the reference system's files into values the
// day-file reader accepts, appending a warning for each change: scores
// clamped to 0-10, papers without a valid arXiv ID or listed twice left
// out, negative counts and costs that are not amounts left out, negative
// token counts set to 0, control characters (other than line breaks and
// tabs) made spaces. `day_source` names the day's file in warnings;
// `paper_source(id)` the file a paper's fields came from.
void make_importable(Day& day, const std::string& day_source,
                     const std::function<std::string(const std::string&)>& paper_source,
                     std::vector<std::string>& warnings);

// `source` is an output tree or a single daily Markdown page. `log` receives
// one line per day as it is imported.
ImportReport import_archive(const fs::path& source, const fs::path& content_root,
                            const std::function<void(const std::string&)>& log);

} // namespace pp
