#include "serve/watcher.h"

#include <algorithm>
#include <chrono>
#include <system_error>

namespace pp {

namespace {

// A regular file (or a link to one) with its stamp; nothing for others.
void add_file(Snapshot& snapshot, const fs::path& path) {
    if (auto stamp = stamp_of(path)) snapshot[path.generic_string()] = *stamp; // else vanished, or not a file
}

} // namespace

bool ignored_by_watcher(const fs::path& name) {
    const std::string text = name.filename().string();
    if (text.empty()) return false;
    if (text.front() == '.' || text.back() == '~') return true;
    if (text.ends_with(".swp") || text.ends_with(".swx")) return true;
    return text.find(".tmp.") != std::string::npos;
}

Watcher::Watcher(std::vector<fs::path> roots, std::vector<fs::path> excluded)
    : roots_(std::move(roots)), excluded_(std::move(excluded)) {
    std::error_code ec;
    for (auto& path : excluded_) path = fs::absolute(path, ec).lexically_normal();
    last_ = snapshot();
}

Snapshot Watcher::snapshot() const {
    Snapshot result;
    std::error_code ec;
    auto excluded = [&](const fs::path& path) {
        if (excluded_.empty()) return false;
        std::error_code ignored;
        const fs::path full = fs::absolute(path, ignored).lexically_normal();
        return std::any_of(excluded_.begin(), excluded_.end(), [&](const fs::path& e) { return is_under(full, e); });
    };
    for (const auto& root : roots_) {
        auto status = fs::status(root, ec);
        if (ec || !fs::exists(status)) {
            ec.clear();
            continue;
        }
        if (!fs::is_directory(status)) {
            if (!excluded(root)) add_file(result, root);
            ec.clear();
            continue;
        }
        if (excluded(root)) continue;
        walk_tree(root, [&](const TreeEntry& entry) { // unreadable folders are skipped
            if (ignored_by_watcher(fs::path(std::string(entry.name)))) return false;
            if (entry.kind == TreeEntry::Kind::folder) return !excluded(entry.path);
            if (entry.kind == TreeEntry::Kind::file || entry.kind == TreeEntry::Kind::link)
                add_file(result, entry.path);
            return false;
        });
        ec.clear();
    }
    return result;
}

WatchChanges Watcher::poll() {
    Snapshot now = snapshot();
    WatchChanges changes = diff_snapshots(last_, now);
    last_ = std::move(now);
    return changes;
}

WatchChanges diff_snapshots(const Snapshot& before, const Snapshot& after) {
    WatchChanges changes;
    auto b = before.begin();
    auto a = after.begin();
    while (b != before.end() || a != after.end()) {
        if (a == after.end() || (b != before.end() && b->first < a->first)) {
            changes.removed.push_back(b->first);
            ++b;
        } else if (b == before.end() || a->first < b->first) {
            changes.added.push_back(a->first);
            ++a;
        } else {
            if (!(a->second == b->second)) changes.modified.push_back(a->first);
            ++a;
            ++b;
        }
    }
    return changes;
}

std::string WatchChanges::describe(std::size_t limit) const {
    std::vector<std::string> items;
    for (const auto& path : modified) items.push_back("modified " + path);
    for (const auto& path : added) items.push_back("added " + path);
    for (const auto& path : removed) items.push_back("removed " + path);
    std::string text;
    if (items.size() > 1) text = std::to_string(items.size()) + " files changed: ";
    for (std::size_t i = 0; i < items.size() && i < limit; ++i) {
        if (i) text += ", ";
        text += items[i];
    }
    if (items.size() > limit) text += ", and " + std::to_string(items.size() - limit) + " more";
    return text;
}

} // namespace pp
