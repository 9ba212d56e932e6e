#include "serve/change_notifier.h"

#include "serve/watcher.h"

#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace pp {

namespace {

// Everything that can change a file's bytes, its stamp, or the set of files.
constexpr std::uint32_t watch_mask = IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO |
                                     IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK;

fs::path absolute_normal(const fs::path& path) {
    std::error_code ec;
    fs::path full = fs::absolute(path.empty() ? fs::path(".") : path, ec).lexically_normal();
    if (!full.has_filename() && full.has_parent_path() && full != full.root_path()) full = full.parent_path();
    return full;
}

} // namespace

Result<std::unique_ptr<ChangeNotifier>> ChangeNotifier::open(const std::vector<fs::path>& roots,
                                                             const std::vector<fs::path>& excluded) {
    std::unique_ptr<ChangeNotifier> notifier(new ChangeNotifier);
    notifier->fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (notifier->fd_ < 0) return fail(std::string("inotify is unavailable: ") + std::strerror(errno));
    for (const auto& path : excluded) notifier->excluded_.push_back(absolute_normal(path));
    std::error_code ec;
    for (const auto& root : roots) {
        const fs::path full = absolute_normal(root);
        notifier->roots_.push_back(full);
        // The parent sees the root made, replaced or removed (an editor's rename of the config).
        if (fs::is_directory(full.parent_path(), ec)) {
            if (auto ok = notifier->watch_folder(full.parent_path(), false, full.filename().string()); !ok)
                return std::unexpected(ok.error());
        }
        if (fs::is_directory(full, ec)) {
            if (auto ok = notifier->watch_tree(full); !ok) return std::unexpected(ok.error());
        }
    }
    return notifier;
}

ChangeNotifier::~ChangeNotifier() {
    if (fd_ >= 0) ::close(fd_);
}

bool ChangeNotifier::excluded(const fs::path& path) const {
    return std::any_of(excluded_.begin(), excluded_.end(), [&](const fs::path& e) { return is_under(path, e); });
}

Result<void> ChangeNotifier::watch_folder(const fs::path& folder, bool tree, const std::string& name) {
    const int wd = ::inotify_add_watch(fd_, folder.c_str(), watch_mask);
    if (wd < 0) {
        const std::string why = errno == ENOSPC
                                    ? "the limit of inotify watches is reached (fs.inotify.max_user_watches)"
                                    : std::strerror(errno);
        return fail("cannot watch " + folder.string() + ": " + why);
    }
    Folder& entry = folders_[wd]; // a folder watched twice has one descriptor
    entry.path = folder;
    entry.tree = entry.tree || tree;
    if (!name.empty()) entry.names.insert(name);
    return {};
}

Result<void> ChangeNotifier::watch_tree(const fs::path& folder) {
    if (excluded(folder)) return {};
    if (auto ok = watch_folder(folder, true); !ok) return ok;
    Result<void> result;
    walk_tree(folder, [&](const TreeEntry& entry) {
        if (entry.kind != TreeEntry::Kind::folder || !result) return false;
        const fs::path path(entry.path);
        if (ignored_by_watcher(path) || excluded(path)) return false;
        result = watch_folder(path, true);
        return bool(result);
    });
    return result;
}

bool ChangeNotifier::handle(int wd, unsigned mask, const std::string& name) {
    if (mask & IN_Q_OVERFLOW) return true; // events were lost: look
    auto it = folders_.find(wd);
    if (it == folders_.end()) return false;
    if (mask & IN_IGNORED) { // the folder is gone (its parent's event counted)
        folders_.erase(it);
        return false;
    }
    const Folder& folder = it->second;
    const bool counts = folder.names.contains(name) || (folder.tree && (name.empty() || !ignored_by_watcher(name)));
    if (counts && !name.empty() && (mask & IN_ISDIR) && (mask & (IN_CREATE | IN_MOVED_TO))) {
        // A new folder (or a root made late): watched from now on; the files it
        // already holds are found by the snapshot this event leads to.
        (void)watch_tree(folder.path / name);
    }
    return counts;
}

bool ChangeNotifier::drain() {
    bool changed = false;
    alignas(inotify_event) char buffer[64 * 1024];
    for (;;) {
        const ssize_t got = ::read(fd_, buffer, sizeof buffer);
        if (got <= 0) break; // EAGAIN: nothing more pending
        for (ssize_t at = 0; at < got;) {
            const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
            changed |= handle(event->wd, event->mask, event->len ? std::string(event->name) : std::string());
            at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
        }
    }
    return changed;
}

} // namespace pp
