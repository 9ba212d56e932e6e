// `import`, `ls`, `check`: the content tree.
#include "cli/cli_common.h"

#include "config/arxiv_dates.h"
#include "content/checker.h"
#include "content/content_tree.h"
#include "content/feedback.h"
#include "content/importer.h"
#include "pipeline/nightly.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>

namespace pp::cli {

int cmd_import(const GlobalOptions& global, const std::vector<std::string>& sources) {
    auto lock = lock_content_tree(global);
    if (!lock) return exit_problems;
    int errors = 0, written = 0, unchanged = 0, papers = 0;
    for (const auto& source : sources) {
        auto report = import_archive(source, global.content,
                                     [](const std::string& line) { std::cout << "imported " << line << "\n"; });
        for (const auto& warning : report.warnings) print_warning(warning);
        for (const auto& error : report.errors) print_error(error);
        errors += static_cast<int>(report.errors.size());
        written += report.days_written;
        unchanged += report.days_unchanged;
        papers += report.papers;
    }
    std::cout << "import: " << written + unchanged << " days, " << papers << " papers into " << global.content << " ("
              << written << " written, " << unchanged << " unchanged)";
    if (errors) std::cout << "; " << errors << " files could not be read";
    std::cout << "\n";
    return errors ? exit_problems : exit_ok;
}

namespace {

// The judgements in force (content/feedback/), by paper; a bad file is printed and counts as an error.
std::map<std::string, Verdict> verdicts_in_force(const GlobalOptions& global, int& errors) {
    auto feedback = scan_feedback(global.content);
    for (const auto& error : feedback.errors) print_error(error);
    errors += static_cast<int>(feedback.errors.size());
    std::map<std::string, Verdict> verdicts;
    for (const auto& judgement : judgements_in_force(std::move(feedback.judgements)))
        verdicts[judgement.id] = judgement.verdict;
    return verdicts;
}

int count_of(const std::map<std::string, Verdict>& verdicts, Verdict verdict) {
    return static_cast<int>(
        std::count_if(verdicts.begin(), verdicts.end(), [&](const auto& v) { return v.second == verdict; }));
}

} // namespace

int cmd_ls(const GlobalOptions& global, bool as_json) {
    auto scan = scan_content(global.content);
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> json(buffer);
    json.StartArray();
    int errors = 0;
    const auto verdicts = verdicts_in_force(global, errors);
    for (const auto& folder : scan.unreadable) {
        print_error(folder);
        ++errors;
    }
    for (const auto& file : scan.days) {
        auto day = load_day(file.path);
        if (!day) {
            print_error(day.error());
            ++errors;
            continue;
        }
        if (as_json) {
            json.StartObject();
            json.Key("date");
            json.String(day->date.iso().c_str());
            json.Key("status");
            json.String(to_string(day->status));
            if (!day->reason.empty()) {
                json.Key("reason");
                json.String(day->reason.c_str(), static_cast<rapidjson::SizeType>(day->reason.size()));
            }
            if (auto waiting = waiting_for(*day)) {
                json.Key("waiting");
                json.String(to_string(*waiting));
            }
            json.Key("count");
            json.Uint(static_cast<unsigned>(day->papers.size()));
            json.Key("papers");
            json.StartArray();
            int starred = 0, hidden = 0; // of the day's papers, by the judgement in force
            for (const auto& paper : day->papers) {
                json.String(paper.id.c_str());
                auto verdict = verdicts.find(paper.id);
                if (verdict != verdicts.end()) ++(verdict->second == Verdict::star ? starred : hidden);
            }
            json.EndArray();
            json.Key("starred");
            json.Uint(static_cast<unsigned>(starred));
            json.Key("hidden");
            json.Uint(static_cast<unsigned>(hidden));
            json.EndObject();
        } else {
            const auto waiting = waiting_for(*day);
            char counts[64]; // std::cout, not printf: the reason is redacted on its way out (util/redact.h)
            std::snprintf(counts, sizeof counts, "%s  %-9s  %3zu papers", day->date.iso().c_str(),
                          to_string(day->status), day->papers.size());
            std::cout << counts << (day->remedial ? "  (remedial)" : "")
                      << (!waiting                      ? ""
                          : *waiting == CatchUp::resume ? "  [waits: the LLM scores its unscored papers]"
                                                        : "  [waits: fetched again through the API]")
                      << (day->reason.empty() ? "" : "  " + tidy_line(day->reason)) << "\n";
        }
    }
    json.EndArray();
    if (as_json) std::cout << buffer.GetString() << "\n";
    else
        std::cout << scan.days.size() << " days in " << global.content
                  << "; feedback in force: " << count_of(verdicts, Verdict::star) << " starred, "
                  << count_of(verdicts, Verdict::hide) << " hidden\n";
    return errors ? exit_problems : exit_ok;
}

int cmd_check(const GlobalOptions& global, const Config& config) {
    auto report = check_content(global.content, arxiv_calendar(config.arxiv));
    for (const auto& warning : report.warnings) print_warning(warning);
    for (const auto& error : report.errors) print_error(error);
    std::cout << "check: " << report.days << " days, " << report.papers << " papers, " << report.judgements
              << " feedback lines, " << report.errors.size() << " errors, " << report.warnings.size() << " warnings\n";
    return report.errors.empty() ? exit_ok : exit_problems;
}

} // namespace pp::cli
