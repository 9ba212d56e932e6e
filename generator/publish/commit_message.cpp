// Commit messages for site publishes, named after the days they bring.
#include "content/content_tree.h"
#include "publish/publish.h"
#include "site/urls.h"

#include <algorithm>
#include <optional>

namespace pp {

namespace {

// The day a site path serves ("2025/05/13/index.html"), if it is a day page.
std::optional<Date> day_of(const std::string& name) {
    if (name.size() < 10) return std::nullopt;
    std::string iso = name.substr(0, 4) + "-" + name.substr(5, 2) + "-" + name.substr(8, 2);
    auto date = parse_iso_date(iso);
    if (!date || output_file_of(day_path_of(*date)) != name) return std::nullopt;
    return date;
}

std::string papers(size_t n) { return std::to_string(n) + (n == 1 ? " paper" : " papers"); }

std::string list_days(const std::vector<Date>& days) {
    constexpr size_t shown = 20;
    std::string text;
    for (size_t i = 0; i < days.size() && i < shown; ++i) text += (i ? ", " : "") + days[i].iso();
    if (days.size() > shown) text += " and " + std::to_string(days.size() - shown) + " more";
    return text;
}

} // namespace

std::string site_publish_message(const TreeChanges& changes, const fs::path& content_dir) {
    std::vector<Date> added, changed;
    for (const auto& name : changes.added)
        if (auto d = day_of(name)) added.push_back(*d);
    for (const auto& name : changes.modified)
        if (auto d = day_of(name)) changed.push_back(*d);
    std::vector<Date> all = added;
    all.insert(all.end(), changed.begin(), changed.end());
    if (all.empty()) return default_publish_message(changes);
    std::sort(added.begin(), added.end());
    std::sort(changed.begin(), changed.end());
    const Date newest = *std::max_element(all.begin(), all.end());

    std::string headline = "Publish " + newest.iso();
    auto day = load_day(day_path(content_dir, newest));
    if (day) headline += ": " + papers(day->papers.size());
    if (added.size() > 1) headline += " (" + std::to_string(added.size()) + " new days)";

    std::string body;
    if (!added.empty()) body += "New days: " + list_days(added) + "\n";
    if (!changed.empty()) body += "Changed day pages: " + list_days(changed) + "\n";
    body += std::to_string(changes.count()) + " files changed (" + std::to_string(changes.added.size()) + " added, " +
            std::to_string(changes.modified.size()) + " modified, " + std::to_string(changes.deleted.size()) +
            " deleted)\n";
    return headline + "\n\n" + body;
}

} // namespace pp
