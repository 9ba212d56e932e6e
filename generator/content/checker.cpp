#include "content/checker.h"

#include "content/content_tree.h"
#include "util/text.h"

#include <map>
#include <set>

namespace pp {

CheckReport check_content(const fs::path& root, const ArxivCalendar& calendar) {
    CheckReport report;
    if (!fs::is_directory(root)) {
        report.errors.push_back({root.string(), 0, "no such content folder"});
        return report;
    }
    auto scan = scan_content(root);
    report.errors = scan.unreadable;
    report.errors.insert(report.errors.end(), scan.misplaced.begin(), scan.misplaced.end());
    std::map<std::string, Date> first_listed;
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
        if (day->status == DayStatus::partial || day->status == DayStatus::stale) // a run that did not finish the day
            report.warnings.push_back(file.date.iso() + " is " + to_string(day->status) + ": " + day->reason);
        if (!day->prompt.empty() && !fs::is_regular_file(root / day->prompt))
            report.errors.push_back({name, 0, "the prompt " + excerpt(day->prompt) + " does not exist under " + root.string()});
        std::set<std::string> on_this_day;
        std::string repeated; // "2501.19215 (2025-02-03), ..."
        int repeats = 0;
        for (const auto& paper : day->papers) {
            if (!on_this_day.insert(paper.id).second)
                report.errors.push_back({name, 0, "paper " + paper.id + " is listed twice on this day"});
            auto [it, first] = first_listed.emplace(paper.id, file.date);
            if (!first) {
                repeated += (repeats++ ? ", " : "") + paper.id + " (" + it->second.iso() + ")";
            }
        }
        if (repeats)
            report.warnings.push_back(file.date.iso() + ": " + std::to_string(repeats) +
                                      " papers were already listed on an earlier day: " + repeated);
    }
    return report;
}

} // namespace pp
