#include "content/checker.h"

#include "content/content_tree.h"
#include "content/feedback.h"
#include "content/prompt_store.h"
#include "util/text.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

namespace pp {

namespace {

// Repeated IDs named in a warning before "and N more": a line stays readable.
constexpr int max_repeats_named = 10;

// The 1-based line of the front matter key `key` in a day file's `text`, 0
// when not found: for an error about a key whose value was read without its line.
int line_of_key(std::string_view text, std::string_view key) {
    int line = 0;
    for (auto row : split(text, '\n')) {
        ++line;
        if (row.starts_with(key) && row.substr(key.size()).starts_with(':')) return line;
    }
    return 0;
}

// What the build would say of a day's prompt (it reads it the same way):
// a path out of the tree or a link out of it, a missing or unreadable file.
std::optional<std::string> prompt_problem(const fs::path& root, const std::string& reference) {
    auto prompt = load_prompt(root, reference);
    if (prompt) return std::nullopt;
    std::error_code ec;
    if (prompt.error().file.empty()) return prompt.error().message; // refused without reading
    if (!fs::exists(root / reference, ec))
        return "the prompt " + excerpt(reference) + " does not exist under " + root.string();
    return prompt.error().to_string();
}

// Where a day file's `text` holds text XML forbids: the build reads it as U+FFFD.
std::optional<Error> invalid_text(std::string_view text, const std::string& name) {
    std::size_t at = first_invalid_xml_char(text);
    if (at == std::string_view::npos) return std::nullopt;
    int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[at]));
    return Error{name, line,
                 std::string("expected valid UTF-8 text without control characters, got the byte ") + byte +
                     " (the build reads a control as a space, invalid UTF-8 as U+FFFD)"};
}

} // namespace

CheckReport check_content(const fs::path& root, const ArxivCalendar& calendar) {
    CheckReport report;
    if (!fs::is_directory(root)) {
        report.errors.push_back({root.string(), 0, "no such content folder"});
        return report;
    }
    auto scan = scan_content(root);
    report.errors = scan.unreadable;
    report.errors.insert(report.errors.end(), scan.misplaced.begin(), scan.misplaced.end());
    auto feedback = scan_feedback(root);
    report.judgements = static_cast<int>(feedback.judgements.size());
    report.errors.insert(report.errors.end(), feedback.errors.begin(), feedback.errors.end());
    std::map<std::string, Date> first_listed;
    std::map<std::string, std::optional<std::string>> prompt_problems; // by reference: days share prompts
    for (const auto& file : scan.days) {
        auto day = load_day(file.path);
        if (!day) {
            report.errors.push_back(day.error());
            continue;
        }
        ++report.days;
        report.papers += static_cast<int>(day->papers.size());
        const std::string name = file.path.string();
        if (auto wrong = misdated(*day, file)) report.errors.push_back(std::move(*wrong));
        if (!calendar.is_announcement_day(file.date))
            report.warnings.push_back(file.date.iso() + ": arXiv announces nothing dated this day (" +
                                      calendar.why_no_announcement(file.date) +
                                      "): its papers are likely another day's announcement");
        // The raw text, which load_day has mended: for the lines of what it holds.
        const std::string raw = read_file_inside(root, file.path).value_or(std::string());
        if (auto invalid = invalid_text(raw, name)) report.errors.push_back(std::move(*invalid));
        if (day->status == DayStatus::partial || day->status == DayStatus::stale) // a run that did not finish the day
            report.warnings.push_back(file.date.iso() + " is " + to_string(day->status) + ": " + day->reason);
        if (!day->prompt.empty()) {
            auto [known, added] = prompt_problems.try_emplace(day->prompt);
            if (added) known->second = prompt_problem(root, day->prompt);
            if (known->second) report.errors.push_back({name, line_of_key(raw, "prompt"), *known->second});
        }
        std::set<std::string> on_this_day;
        std::string repeated; // "2501.19215 (2025-02-03), ..."
        int repeats = 0;
        for (const auto& paper : day->papers) {
            if (!on_this_day.insert(paper.id).second)
                report.errors.push_back({name, 0, "paper " + paper.id + " is listed twice on this day"});
            auto [it, first] = first_listed.emplace(paper.id, file.date);
            if (!first && repeats++ < max_repeats_named)
                repeated += (repeats > 1 ? ", " : "") + paper.id + " (" + it->second.iso() + ")";
        }
        for (const auto& paper : day->unpicked) // the rest of the announcement: each paper once, and not a pick
            if (!on_this_day.insert(paper.id).second)
                report.errors.push_back(
                    {name, 0, "paper " + paper.id + " is listed twice on this day (under " + "'Not picked' too)"});
        if (repeats > max_repeats_named) repeated += " and " + std::to_string(repeats - max_repeats_named) + " more";
        if (repeats)
            report.warnings.push_back(file.date.iso() + ": " + std::to_string(repeats) +
                                      " papers were already listed on an earlier day: " + repeated);
    }
    return report;
}

} // namespace pp
