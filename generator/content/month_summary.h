// A month's overview, content/YYYY/MM/summary.md: written once by `run`
// with an LLM (marked as generated, with the model and the cost), or by a
// person; the site shows it on the month page. Front matter, then Markdown:
//
//   ---
//   generated: true
//   model: gpt-4o-mini
//   cost: 0.0012
//   ---
//   This month's papers ...
#pragma once

#include "util/error.h"
#include "util/files.h"

#include <optional>
#include <string>

namespace pp {

struct MonthSummary {
    bool generated = false;
    std::string model;
    std::optional<double> cost; // US dollars; absent when unknown
    std::string markdown;
    bool operator==(const MonthSummary&) const = default;
};

fs::path month_summary_path(const fs::path& root, int year, int month); // root/YYYY/MM/summary.md

// The file's text, and back. A file without front matter is all Markdown, written by a person.
std::string write_month_summary_text(const MonthSummary& summary);
Result<MonthSummary> read_month_summary_text(std::string_view text, const std::string& file);

// nullopt when the month has no summary.md.
Result<std::optional<MonthSummary>> load_month_summary(const fs::path& root, int year, int month);
// Atomic; creates the month's folder.
Result<void> save_month_summary(const fs::path& root, int year, int month, const MonthSummary& summary);

} // namespace pp
