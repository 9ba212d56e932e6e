// When to look for changes: Linux inotify on the preview's watched roots, so
// a save is noticed at once instead of at the next poll. It says only that
// something may have changed; the Watcher's stat snapshot (serve/watcher.h)
// still says what, so both ways of watching report the same changes.
//
// Folder roots are watched recursively, and folders made later (or moved in)
// are added as their events come. A root that is a file (the config) or does
// not exist yet (layouts/) is watched through its parent folder, where only
// events for its own name count.
#pragma once

#include "util/error.h"
#include "util/files.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace pp {

class ChangeNotifier {
public:
    // Watches `roots`, skipping folders under `excluded` and those the watcher
    // ignores (hidden ones). An error when inotify is unavailable or its
    // watch limit (fs.inotify.max_user_watches) is reached.
    static Result<std::unique_ptr<ChangeNotifier>> open(const std::vector<fs::path>& roots,
                                                        const std::vector<fs::path>& excluded);
    ~ChangeNotifier();
    ChangeNotifier(const ChangeNotifier&) = delete;
    ChangeNotifier& operator=(const ChangeNotifier&) = delete;

    // Readable when events are pending (for poll()).
    int fd() const { return fd_; }
    // Reads the pending events without waiting and watches the folders they
    // made; true when any may change a watched file.
    bool drain();
    std::size_t watches() const { return folders_.size(); }

private:
    ChangeNotifier() = default;
    struct Folder {
        fs::path path;
        bool tree = false;           // a watched folder: every event in it counts
        std::set<std::string> names; // a parent of roots: only these names count
    };
    Result<void> watch_tree(const fs::path& folder);
    Result<void> watch_folder(const fs::path& folder, bool tree, const std::string& name = {});
    bool excluded(const fs::path& path) const;
    bool handle(int wd, unsigned mask, const std::string& name);

    int fd_ = -1;
    std::map<int, Folder> folders_; // by watch descriptor
    std::vector<fs::path> roots_;   // absolute
    std::vector<fs::path> excluded_;
};

} // namespace pp
