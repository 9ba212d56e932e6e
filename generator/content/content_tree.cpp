#include "content/content_tree.h"

#include "content/day_file.h"

#include <algorithm>
#include <cstdio>

namespace pp {

fs::path day_path(const fs::path& root, const Date& date) {
    char year[8], month[8];
    std::snprintf(year, sizeof year, "%04d", date.year);
    std::snprintf(month, sizeof month, "%02d", date.month);
    return root / year / month / (date.iso() + ".md");
}

ContentScan scan_content(const fs::path& root) {
    ContentScan scan;
    std::error_code ec;
    if (!fs::is_directory(root, ec)) return scan;
    for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        const fs::path& path = it->path();
        std::string name = path.filename().string();
        if (it->is_directory() && (name.starts_with(".") || (it.depth() == 0 && name == "prompts"))) {
            it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file() || path.extension() != ".md") continue;
        auto date = parse_iso_date(path.stem().string());
        if (date && day_path(root, *date) == path) {
            scan.days.push_back({*date, path});
        } else {
            std::string expected = date ? day_path(root, *date).string() : "YYYY/MM/YYYY-MM-DD.md under " + root.string();
            scan.misplaced.push_back({path.string(), 0, "not a day file: expected " + expected});
        }
    }
    std::sort(scan.days.begin(), scan.days.end(), [](const DayFile& a, const DayFile& b) { return a.date < b.date; });
    std::sort(scan.misplaced.begin(), scan.misplaced.end(),
              [](const Error& a, const Error& b) { return a.file < b.file; });
    return scan;
}

Result<Day> load_day(const fs::path& path) {
    auto text = read_file(path);
    if (!text) return std::unexpected(text.error());
    return read_day(*text, path.string());
}

Result<WriteOutcome> save_day(const fs::path& root, const Day& day) {
    return write_file_if_changed(day_path(root, day.date), write_day(day));
}

} // namespace pp
