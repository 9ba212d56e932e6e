#include "content/importer.h"

#include "content/content_tree.h"
#include "content/day_file.h"
#include "content/legacy_json.h"
#include "content/legacy_markdown.h"
#include "content/prompt_store.h"

#include "core/arxiv_id.h"
#include "util/text.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace pp {

namespace {

// The files the reference system wrote for one date.
struct SourceDay {
    fs::path markdown;    // DATE-latest.md beats DATE-output.md, as in the reference
    fs::path output_json; // DATE-output.json
    fs::path daily_json;  // DATE-daily-papers.json
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
    // Sorted: when two folders hold a page for the same day, the same one wins on every import.
    auto unreadable = walk_tree(source,
                                [&](const TreeEntry& entry) {
                                    if (entry.kind == TreeEntry::Kind::folder) return true;
                                    if (entry.kind != TreeEntry::Kind::file && !entry.links_to_file()) return false;
                                    const fs::path path = entry.path;
                                    auto dated = dated_name(path);
                                    if (!dated) {
                                        ++skipped;
                                        return false;
                                    }
                                    auto& [date, kind] = *dated;
                                    SourceDay& day = days[date];
                                    if (kind == "latest.md" || (kind == "output.md" && day.markdown.empty()))
                                        day.markdown = path;
                                    else if (kind == "output.json") day.output_json = path;
                                    else if (kind == "daily-papers.json") day.daily_json = path;
                                    else ++skipped;
                                    return false;
                                },
                                {.sorted = true});
    report.errors.insert(report.errors.end(), unreadable.begin(), unreadable.end());
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
    if (extra)
        warnings.push_back(date + ": " + std::to_string(extra) +
                           " papers only in the JSON were added after the page's");
    return merged;
}

// ------------------------------------------------------------ validation --
// The reference system wrote values the day-file reader refuses (a relevance
// of 11, a paper twice on one day, negative counts). The importer is where
// outside data becomes ours: it brings each value into what the reader
// accepts, and says what it changed, naming the file and the paper.

// Control characters other than line breaks and tabs become spaces: editors
// and terminals show them badly, and some do not survive YAML or Markdown.
std::string without_controls(std::string text) {
    for (char& c : text)
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') || c == '\x7f') c = ' ';
    return text;
}

void clean_text(Paper& paper) {
    for (std::string* text :
         {&paper.title, &paper.abstract, &paper.comment, &paper.topic, &paper.topic_note, &paper.unscored})
        *text = without_controls(std::move(*text));
    for (auto& author : paper.authors) author = without_controls(std::move(author));
    for (auto& topic : paper.also_topics) topic = without_controls(std::move(topic));
    tidy_paper(paper);
}

void clamp_score(std::optional<int>& score, const char* label, const std::string& where,
                 std::vector<std::string>& warnings) {
    if (!score || (*score >= 0 && *score <= 10)) return;
    const int clamped = std::clamp(*score, 0, 10);
    warnings.push_back(where + ": " + label + " " + std::to_string(*score) + " is outside 0 to 10; written as " +
                       std::to_string(clamped));
    score = clamped;
}

void check_count(std::optional<long long>& count, const char* label, const std::string& where,
                 std::vector<std::string>& warnings) {
    if (!count || *count >= 0) return;
    warnings.push_back(where + ": " + label + " " + std::to_string(*count) + " is negative; left out");
    count.reset();
}

void check_money(std::optional<double>& amount, const char* label, const std::string& where,
                 std::vector<std::string>& warnings) {
    if (!amount || (std::isfinite(*amount) && *amount >= 0)) return;
    warnings.push_back(where + ": " + label + " " + format_double(*amount) + " is not an amount in dollars; left out");
    amount.reset();
}

} // namespace

void make_importable(Day& day, const std::string& day_source,
                     const std::function<std::string(const std::string&)>& paper_source,
                     std::vector<std::string>& warnings) {
    const std::string day_where = day_source + " (" + day.date.iso() + ")";
    day.model = tidy_line(without_controls(std::move(day.model)));
    if (day.tokens) {
        for (long long* count : {&day.tokens->prompt, &day.tokens->completion, &day.tokens->cached})
            if (*count < 0) {
                warnings.push_back(day_where + ": token count " + std::to_string(*count) +
                                   " is negative; written as 0");
                *count = 0;
            }
    }
    check_count(day.counts.arxiv, "count of arXiv papers", day_where, warnings);
    check_count(day.counts.scanned, "count of scanned papers", day_where, warnings);
    check_count(day.counts.relevant, "count of relevant papers", day_where, warnings);
    check_money(day.cost.prompt, "prompt cost", day_where, warnings);
    check_money(day.cost.completion, "completion cost", day_where, warnings);
    check_money(day.cost.total, "total cost", day_where, warnings);

    std::set<std::string> listed;
    std::vector<Paper> kept;
    kept.reserve(day.papers.size());
    for (auto& paper : day.papers) {
        const std::string where = paper_source(paper.id) + ": paper " + excerpt(paper.id);
        if (!is_canonical_arxiv_id(paper.id)) {
            warnings.push_back(where + " (" + excerpt(paper.title) + ") has no valid arXiv ID; left out");
            continue;
        }
        if (!listed.insert(paper.id).second) {
            warnings.push_back(where + " is listed twice on " + day.date.iso() + "; the second is left out");
            continue;
        }
        clean_text(paper);
        clamp_score(paper.relevance, "Relevance", where, warnings);
        clamp_score(paper.novelty, "Novelty", where, warnings);
        kept.push_back(std::move(paper));
    }
    day.papers = std::move(kept);
}

namespace {

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
    std::set<std::string> json_ids;
    for (const auto& paper : json_papers) json_ids.insert(paper.id);
    const std::string page_file = source.markdown.string(), json_file = source.output_json.string();
    make_importable(
        day, page_file.empty() ? json_file : page_file,
        [&](const std::string& id) { return json_ids.contains(id) || page_file.empty() ? json_file : page_file; },
        report.warnings);
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
        // Never write a file that `paperpress check` would refuse.
        if (auto readable = read_day(write_day(*day), day_path(content_root, day->date).string()); !readable) {
            report.errors.push_back(readable.error());
            continue;
        }
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
