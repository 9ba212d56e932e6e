// A lock between paperpress processes that write one tree (the site and its
// build state; the content tree): an flock() on a lock file next to the
// tree, not in it (trees are published and committed). The kernel drops the
// lock when its holder dies, even by kill -9, so a crash never leaves it
// taken.
//
// The file holds the holder's pid while it works and is emptied when the
// holder lets go, so the next holder can tell that the last one was killed
// mid-way (and clean up its temporary files) and a waiting process can say
// whom it waits for.
#pragma once

#include "util/error.h"
#include "util/files.h"

#include <functional>

namespace pp {

class TreeLock {
public:
    // Takes the lock on `lock_file` (created if missing). When another
    // process holds it, calls `on_wait` once with that process's pid (0 if
    // unknown) and waits for it to let go.
    static Result<TreeLock> acquire(const fs::path& lock_file, const std::function<void(long pid)>& on_wait);

    TreeLock(TreeLock&&) noexcept = default;
    TreeLock& operator=(TreeLock&&) noexcept = default;
    ~TreeLock(); // empties the file (a clean end), then the kernel drops the lock

    // The last holder did not let go cleanly: it was killed or crashed.
    bool last_holder_died() const { return last_holder_died_; }

private:
    TreeLock(Fd fd, bool died) : fd_(std::move(fd)), last_holder_died_(died) {}
    Fd fd_;
    bool last_holder_died_ = false;
};

// The lock file of the writers of `tree`: "site" -> ".site.paperpress-lock"
// in the same folder.
fs::path lock_path(const fs::path& tree);

} // namespace pp
