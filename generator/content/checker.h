// `paperpress check`: validates the whole content tree.
#pragma once

#include "core/arxiv_calendar.h"
#include "util/error.h"
#include "util/files.h"

#include <string>
#include <vector>

namespace pp {

struct CheckReport {
    int days = 0;
    int papers = 0;
    int judgements = 0;                // lines of content/feedback/*.txt
    std::vector<Error> errors;         // the build would be wrong or fail
    std::vector<std::string> warnings; // worth a look, not wrong
};

// Also checks content/feedback/ (content/feedback.h): a bad line is an error at file:line.
// `calendar`: a day file dated a day without an arXiv announcement is a warning.
CheckReport check_content(const fs::path& root, const ArxivCalendar& calendar = {});

} // namespace pp
