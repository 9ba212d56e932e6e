#include "content/content_tree.h"

#include "content/day_file.h"

#include <algorithm>

namespace pp {

std::string day_relative_path(const Date& date) {
    // Without snprintf: every build asks for every day's path.
    // iso() is YYYY-MM-DD; any other year or month keeps its digits (and sign).
    const std::string iso = date.iso();
    const std::size_t year_end = iso.find('-', 1), month_end = iso.find('-', year_end + 1);
    std::string path;
    path.reserve(iso.size() * 2 + 5);
    path.append(iso, 0, year_end).append(1, '/').append(iso, year_end + 1, month_end - year_end - 1);
    path.append(1, '/').append(iso).append(".md");
    return path;
}

fs::path day_path(const fs::path& root, const Date& date) { return root / day_relative_path(date); }

namespace {

// Collects the day files a walk of the content tree meets: every *.md
// outside dot folders and the top-level prompts/ and feedback/ folders. Links are followed
// to files, not into folders (a link to a folder is reported); load_day
// refuses the ones that lead out of the tree.
class ContentWalk {
public:
    explicit ContentWalk(const fs::path& root) : root_(root) {}

    bool visit(const TreeEntry& entry) {
        if (entry.kind == TreeEntry::Kind::folder) {
            // prompts/ and feedback/ (content/feedback.h) hold no days.
            if (entry.name.starts_with(".") ||
                (entry.depth == 0 && (entry.name == "prompts" || entry.name == "feedback")))
                return false;
            // "2025-05-27.md/" is a day file's name on a folder: said, never skipped in silence.
            if (entry.name.ends_with(".md")) {
                scan_.misplaced.push_back(
                    {(root_ / entry.relative).string(), 0, "a folder named like a day file: expected a file"});
                return false;
            }
            return true;
        }
        if (entry.kind == TreeEntry::Kind::link && !entry.name.starts_with(".") && !entry.links_to_file()) {
            // Days are never read or written through a linked folder: said, never skipped in silence.
            scan_.misplaced.push_back({(root_ / entry.relative).string(), 0,
                                       "a symbolic link to a folder or to nothing: expected a folder or a day file "
                                       "(days are never read or written through a link to a folder)"});
            return false;
        }
        if (entry.name.size() <= 3 || !entry.name.ends_with(".md")) return false;
        if (entry.depth == 2 && entry.name == "summary.md")
            return false; // a month's overview (content/month_summary.h)
        if (entry.kind == TreeEntry::Kind::file || entry.links_to_file()) add(entry.name, entry.relative, entry.path);
        return false;
    }

    ContentScan take() { return std::move(scan_); }

private:
    void add(std::string_view name, std::string_view relative, const std::string& path) {
        auto date = parse_iso_date(name.substr(0, name.size() - 3));
        // A name that parses is YYYY-MM-DD.md, so its place is YYYY/MM/<name>.
        if (date && relative.size() == name.size() + 8 && relative.substr(0, 4) == name.substr(0, 4) &&
            relative[4] == '/' && relative.substr(5, 2) == name.substr(5, 2) && relative[7] == '/' &&
            relative.ends_with(name)) {
            scan_.days.push_back({*date, fs::path(path)});
            return;
        }
        std::string wanted = date ? day_path(root_, *date).string() : "YYYY/MM/YYYY-MM-DD.md under " + root_.string();
        scan_.misplaced.push_back({(root_ / relative).string(), 0, "not a day file: expected " + wanted});
    }

    fs::path root_;
    ContentScan scan_;
};

} // namespace

ContentScan scan_content(const fs::path& root) {
    std::error_code ec;
    if (!fs::is_directory(root, ec)) return {};
    ContentWalk walk(root);
    auto unreadable = walk_tree(root, [&](const TreeEntry& entry) { return walk.visit(entry); });
    ContentScan scan = walk.take();
    scan.unreadable = std::move(unreadable);
    std::sort(scan.days.begin(), scan.days.end(), [](const DayFile& a, const DayFile& b) { return a.date < b.date; });
    std::sort(scan.misplaced.begin(), scan.misplaced.end(),
              [](const Error& a, const Error& b) { return a.file < b.file; });
    return scan;
}

Result<Day> load_day(const fs::path& path) {
    // A day file sits at root/YYYY/MM/: it is read from inside that root.
    auto text = read_file_inside(path.parent_path().parent_path().parent_path(), path);
    if (!text) return std::unexpected(text.error());
    return read_day(*text, path.string());
}

std::optional<Error> misdated(const Day& day, const DayFile& file) {
    if (day.date == file.date) return std::nullopt;
    return Error{file.path.string(), 2,
                 "the front matter says " + day.date.iso() + " but the file is the day " + file.date.iso()};
}

Result<WriteOutcome> save_day(const fs::path& root, const Day& day) {
    const fs::path path = day_path(root, day.date);
    remove_dead_temp_files_of(path);                      // left by a run or import that was killed
    return write_file_inside(root, path, write_day(day)); // never through a linked folder
}

Result<TreeLock> lock_content(const fs::path& root, const std::function<void(long pid)>& on_wait) {
    auto lock = TreeLock::acquire(lock_path(root), on_wait);
    if (lock && lock->last_holder_died()) remove_temp_files(root);
    return lock;
}

} // namespace pp
