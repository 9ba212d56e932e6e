#include "content/importer.h"

#include "content/content_tree.h"
#include "content/legacy_json.h"
#include "content/legacy_markdown.h"
#include "content/prompt_store.h"

#include <map>
#include <set>

namespace pp {

namespace {

// The files the reference system wrote for one date.
struct SourceDay {
    fs::path markdown;     // DATE-latest.md beats DATE-output.md, as in the reference
    fs::path output_json;  // DATE-output.json
    fs::path daily_json;   // DATE-daily-papers.json
};

// "2025-05-20-output.md" -> date and the rest of the name ("output.md").
std::optional<std::pair<Date, std::string>> dated_name(const fs::path& path) {
    std::string name = path.filename().string();
    if (name.size() < 11 || name[10] != '-') return std::nullopt;
    auto date = parse_iso_date(name.substr(0, 10));
    if (!date) return std::nullopt;
    return std::pair{*date, name.substr(11)};
}

std::map<Date, SourceDay> collect_sources(const fs::path& source, ImportReport& report) {
    std::map<Date, SourceDay> days;
    std::error_code ec;
    if (fs::is_regular_file(source, ec)) {
        // A single page: dated by its name, or else by its title (see below).
        days[Date{0, 0, 0}].markdown = source;
        return days;
    }
    int skipped = 0;
    for (auto it = fs::recursive_directory_iterator(source, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        if (!it->is_regular_file()) continue;
        auto dated = dated_name(it->path());
        if (!dated) {
            ++skipped;
            continue;
        }
        auto& [date, kind] = *dated;
        SourceDay& day = days[date];
        if (kind == "latest.md" || (kind == "output.md" && day.markdown.empty())) day.markdown = it->path();
        else if (kind == "output.json") day.output_json = it->path();
        else if (kind == "daily-papers.json") day.daily_json = it->path();
        else ++skipped;
    }
    if (ec) report.errors.push_back({source.string(), 0, "cannot read folder: " + ec.message()});
    if (skipped)
        report.warnings.push_back(std::to_string(skipped) +
                                  " files are not daily pages and were left out (month listings, hotspot JSON, ...)");
    return days;
}

// Takes each paper's fields from JSON where the JSON has it, keeping the
// page's order; papers only one side has are kept too.
std::vector<Paper> merge_papers(const std::vector<Paper>& page, const std::vector<Paper>& json,
                                std::vector<std::string>& warnings, const std::string& date) {
    if (page.empty()) return json;
    if (json.empty()) return page;
    std::map<std::string, const Paper*> by_id;
    for (const auto& paper : json) by_id[paper.id] = &paper;
    std::vector<Paper> merged;
    std::set<std::string> used;
    for (const auto& paper : page) {
        auto it = by_id.find(paper.id);
        merged.push_back(it != by_id.end() ? *it->second : paper);
        used.insert(paper.id);
    }
    int extra = 0;
    for (const auto& paper : json)
        if (!used.contains(paper.id)) merged.push_back(paper), ++extra;
    if (extra) warnings.push_back(date + ": " + std::to_string(extra) + " papers only in the JSON were added after the page's");
    return merged;
}

bool looks_failed(const Day& day) {
    bool no_tokens = !day.tokens || day.tokens->prompt + day.tokens->completion == 0;
    return day.papers.empty() && no_tokens;
}

// Builds one day from its source files. Unreadable files are reported; the
// day is still made from what could be read.
std::optional<Day> assemble_day(Date date, const SourceDay& source, const fs::path& content_root,
                                ImportReport& report) {
    Day day;
    day.date = date;
    std::vector<Paper> page_papers, json_papers;
    bool have_any = false;

    if (!source.markdown.empty()) {
        auto text = read_file(source.markdown);
        auto page = text ? parse_legacy_markdown(*text, source.markdown.string())
                         : Result<LegacyPage>(std::unexpected(text.error()));
        if (!page) {
            report.errors.push_back(page.error());
        } else {
            have_any = true;
            if (date == Date{0, 0, 0}) {
                auto named = dated_name(source.markdown);
                if (!named && !page->header_date) {
                    report.errors.push_back({source.markdown.string(), 0, "no date in the file name or title"});
                    return std::nullopt;
                }
                date = named ? named->first : *page->header_date;
            } else if (page->header_date && *page->header_date != date) {
                report.warnings.push_back(date.iso() + ": the page's title says " + page->header_date->iso() +
                                          "; the file name's date is used");
            }
            day = page->day;
            day.date = date;
            page_papers = std::move(day.papers);
            for (auto& note : page->notes) report.warnings.push_back(date.iso() + ": " + note);
            if (!page->prompt.empty()) {
                auto reference = store_prompt(content_root, page->prompt);
                if (!reference) report.errors.push_back(reference.error());
                else day.prompt = *reference;
            }
        }
    }
    if (!source.output_json.empty()) {
        auto text = read_file(source.output_json);
        auto papers = text ? parse_output_json(*text, source.output_json.string())
                           : Result<std::vector<Paper>>(std::unexpected(text.error()));
        if (!papers) report.errors.push_back(papers.error());
        else json_papers = std::move(*papers), have_any = true;
    }
    if (!source.daily_json.empty()) {
        auto text = read_file(source.daily_json);
        auto usage = text ? parse_daily_papers_json(*text, source.daily_json.string())
                          : Result<LegacyUsage>(std::unexpected(text.error()));
        if (!usage) {
            report.errors.push_back(usage.error());
        } else {
            // Only for what the page did not show.
            if (day.model.empty()) day.model = usage->model;
            if (!day.tokens) day.tokens = usage->tokens;
            if (day.cost == Cost{}) day.cost = usage->cost;
            if (day.counts == Counts{}) day.counts = usage->counts;
        }
    }
    if (!have_any) return std::nullopt;
    day.papers = merge_papers(page_papers, json_papers, report.warnings, date.iso());
    if (looks_failed(day)) {
        day.status = DayStatus::failed;
        report.warnings.push_back(date.iso() + ": zero tokens and zero papers: recorded as a failed run");
    }
    return day;
}

// Warns about papers that an earlier day already listed.
void report_repeats(const std::vector<Day>& imported, const fs::path& content_root, ImportReport& report) {
    std::map<Date, std::vector<std::string>> ids_by_day;
    for (const auto& file : scan_content(content_root).days)
        if (auto day = load_day(file.path))
            for (const auto& paper : day->papers) ids_by_day[file.date].push_back(paper.id);
    std::set<Date> imported_dates;
    for (const auto& day : imported) imported_dates.insert(day.date);
    std::set<std::string> seen;
    for (const auto& [date, ids] : ids_by_day) {
        int repeats = 0;
        for (const auto& id : ids)
            if (!seen.insert(id).second) ++repeats;
        if (repeats && imported_dates.contains(date))
            report.warnings.push_back(date.iso() + ": " + std::to_string(repeats) +
                                      " papers were already listed on an earlier day (kept)");
    }
}

} // namespace

ImportReport import_archive(const fs::path& source, const fs::path& content_root,
                            const std::function<void(const std::string&)>& log) {
    ImportReport report;
    std::error_code ec;
    if (!fs::exists(source, ec)) {
        report.errors.push_back({source.string(), 0, "no such file or folder"});
        return report;
    }
    std::vector<Day> imported;
    for (const auto& [date, files] : collect_sources(source, report)) {
        auto day = assemble_day(date, files, content_root, report);
        if (!day) continue;
        auto saved = save_day(content_root, *day);
        if (!saved) {
            report.errors.push_back(saved.error());
            continue;
        }
        (*saved == WriteOutcome::written ? report.days_written : report.days_unchanged) += 1;
        report.papers += static_cast<int>(day->papers.size());
        log(day->date.iso() + ": " + std::to_string(day->papers.size()) + " papers" +
            (day->status == DayStatus::failed ? " (failed run)" : "") +
            (*saved == WriteOutcome::unchanged ? ", unchanged" : ""));
        imported.push_back(std::move(*day));
    }
    report_repeats(imported, content_root, report);
    return report;
}

} // namespace pp
