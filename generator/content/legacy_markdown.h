// Reads a daily Markdown page of the reference system, in every historical
// variant (see docs/importing.md): the MM/DD/YYYY header era with its
// "Total cost:" line, the Markdown token table (plain and centered), the
// HTML usage table of "-latest.md" pages with topic sections, remedial
// banners, and the selection prompt at the bottom.
#pragma once

#include "core/paper.h"
#include "util/error.h"

#include <string>
#include <vector>

namespace pp {

struct LegacyPage {
    Day day; // metadata and papers as the page shows them
    std::optional<Date> header_date;
    std::string prompt;             // the selection prompt text, if the page has one
    std::vector<std::string> notes; // things the reader should know (ignored fields, ...)
};

Result<LegacyPage> parse_legacy_markdown(std::string_view text, const std::string& file);

} // namespace pp
