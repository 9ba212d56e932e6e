#include "content/content_tree.h"

#include "content/day_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <sys/stat.h>

namespace pp {

std::string day_relative_path(const Date& date) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%04d/%02d/%s.md", date.year, date.month, date.iso().c_str());
    return buffer;
}

fs::path day_path(const fs::path& root, const Date& date) { return root / day_relative_path(date); }

namespace {

// A directory walk with readdir's file types: no stat per entry and no
// fs::path per entry (listing a 10-year archive is on every build's path).
class ContentWalk {
public:
    explicit ContentWalk(const fs::path& root) : root_(root) {}

    void walk(const std::string& dir, const std::string& relative, int depth) {
        DIR* handle = ::opendir(dir.c_str());
        if (!handle) return unreadable(dir);
        for (;;) {
            errno = 0;
            const dirent* entry = ::readdir(handle);
            if (!entry) {
                if (errno != 0) unreadable(dir);
                break;
            }
            const std::string_view name = entry->d_name;
            if (name == "." || name == "..") continue;
            const std::string path = dir + "/" + std::string(name);
            const std::string rel = relative.empty() ? std::string(name) : relative + "/" + std::string(name);
            unsigned char type = entry->d_type;
            struct stat info {};
            if (type == DT_UNKNOWN) // some file systems do not say
                type = ::lstat(path.c_str(), &info) != 0 ? DT_UNKNOWN : S_ISDIR(info.st_mode) ? DT_DIR
                                                                     : S_ISLNK(info.st_mode) ? DT_LNK
                                                                     : S_ISREG(info.st_mode) ? DT_REG
                                                                                             : DT_UNKNOWN;
            if (type == DT_DIR) {
                if (name.starts_with(".") || (depth == 0 && name == "prompts")) continue;
                walk(path, rel, depth + 1);
                continue;
            }
            if (name.size() <= 3 || !name.ends_with(".md")) continue;
            if (depth == 2 && name == "summary.md") continue; // a month's overview (content/month_summary.h)
            // Links are followed to files, not into folders; load_day refuses
            // the ones that lead out of the tree.
            if (type == DT_LNK && (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))) continue;
            if (type != DT_LNK && type != DT_REG) continue;
            add(name, rel);
        }
        ::closedir(handle);
    }

    ContentScan take() { return std::move(scan_); }

private:
    void unreadable(const std::string& dir) {
        scan_.unreadable.push_back({dir, 0, std::string("cannot list this folder: ") + std::strerror(errno)});
    }

    void add(std::string_view name, const std::string& relative) {
        auto date = parse_iso_date(name.substr(0, name.size() - 3));
        if (date && relative == day_relative_path(*date)) {
            scan_.days.push_back({*date, root_ / relative});
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
    walk.walk(root.string(), "", 0);
    ContentScan scan = walk.take();
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

Result<WriteOutcome> save_day(const fs::path& root, const Day& day) {
    const fs::path path = day_path(root, day.date);
    remove_dead_temp_files_of(path); // left by a run or import that was killed
    return write_file_if_changed(path, write_day(day));
}

Result<TreeLock> lock_content(const fs::path& root, const std::function<void(long pid)>& on_wait) {
    auto lock = TreeLock::acquire(lock_path(root), on_wait);
    if (lock && lock->last_holder_died()) remove_temp_files(root);
    return lock;
}

} // namespace pp
