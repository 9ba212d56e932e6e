// The preview's watcher: which source files changed since the last look.
// It polls by stat (modification time in nanoseconds and size, per file):
// portable, deterministic (paths are compared in sorted order), and cheap
// enough every few hundred milliseconds even for a 10-year archive.
// Roots may be files or folders (walked recursively) and may not exist yet;
// a root that appears later reports its files as added.
#pragma once

#include "util/files.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pp {

// Every watched file, by path (as found under its root, generic form).
using Snapshot = std::map<std::string, FileStamp>;

struct WatchChanges {
    std::vector<std::string> added, modified, removed; // sorted
    bool empty() const { return added.empty() && modified.empty() && removed.empty(); }
    std::size_t count() const { return added.size() + modified.size() + removed.size(); }
    // "modified content/2025/05/2025-05-20.md" or "3 files changed: ..."; at
    // most `limit` names are listed.
    std::string describe(std::size_t limit = 5) const;
};

WatchChanges diff_snapshots(const Snapshot& before, const Snapshot& after);

// Editor and writer leftovers that never count as a change: hidden files,
// backups ending in '~', swap files and write_file_atomic's "*.tmp.PID".
bool ignored_by_watcher(const fs::path& name);

class Watcher {
public:
    // Nothing under `excluded` (e.g. the output folder) is watched.
    explicit Watcher(std::vector<fs::path> roots, std::vector<fs::path> excluded = {});

    Snapshot snapshot() const;
    // Takes a new snapshot, returns what changed since the previous one (the
    // first poll compares with the snapshot taken by the constructor).
    WatchChanges poll();

    const std::vector<fs::path>& roots() const { return roots_; }
    const Snapshot& last() const { return last_; }

private:
    std::vector<fs::path> roots_;
    std::vector<fs::path> excluded_;
    Snapshot last_;
};

} // namespace pp
