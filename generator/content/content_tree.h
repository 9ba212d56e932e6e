// The content tree: content/YYYY/MM/YYYY-MM-DD.md, one file a day, plus
// content/prompts/ for the selection prompts the days refer to, and
// content/feedback/ for the reader's stars and hides (content/feedback.h).
#pragma once

#include "core/paper.h"
#include "util/error.h"
#include "util/files.h"
#include "util/lock.h"

#include <vector>

namespace pp {

struct DayFile {
    Date date;
    fs::path path;
};

struct ContentScan {
    std::vector<DayFile> days;     // sorted by date
    std::vector<Error> misplaced;  // Markdown files that are not where a day belongs
    std::vector<Error> unreadable; // folders that could not be listed: their days are missing
};

// A day's file under the content folder `root`: root/YYYY/MM/YYYY-MM-DD.md.
fs::path day_path(const fs::path& root, const Date& date);
std::string day_relative_path(const Date& date); // "YYYY/MM/YYYY-MM-DD.md"

// Lists the day files under `root` (which may not exist: an empty archive).
ContentScan scan_content(const fs::path& root);

// Reads a day file root/YYYY/MM/YYYY-MM-DD.md; a link that leads out of
// root is refused (read_file_inside), so no file from elsewhere is published.
Result<Day> load_day(const fs::path& path);

// The error of a day file whose front matter names another day than its
// name (a copied file, say); nothing when they agree. The file's place is
// what the site is built from, so `check` and `build` both refuse it.
std::optional<Error> misdated(const Day& day, const DayFile& file);

// Writes the day to its place in the tree; an identical file is left alone.
// A temporary file of it left by a writer that was killed is removed.
Result<WriteOutcome> save_day(const fs::path& root, const Day& day);

// The lock of the content tree's writers (`run`, `import`), next to the tree
// (content -> .content.paperpress-lock): a second writer waits (`on_wait` is
// told the holder's pid). Taken after a writer was killed, it removes the
// temporary files that writer left in the tree.
Result<TreeLock> lock_content(const fs::path& root, const std::function<void(long pid)>& on_wait);

} // namespace pp
