#include "site/output_store.h"

#include "site/trends_cache.h"
#include "site/urls.h"
#include "util/memory.h"
#include "util/redact.h"

#include <algorithm>
#include <iostream>
#include <unistd.h>

namespace pp {

bool OutputStore::lock() {
    const fs::path lock_file = lock_path(options_.out_dir);
    std::error_code ec;
    if (lock_file.has_parent_path()) fs::create_directories(lock_file.parent_path(), ec);
    const std::string shown = (options_.out_dir / "").string();
    auto lock = TreeLock::acquire(lock_file, [&](long pid) {
        std::string message = "another paperpress is building " + shown +
                              (pid > 0 ? " (pid " + std::to_string(pid) + ")" : std::string()) + "; waiting";
        if (options_.on_wait) options_.on_wait(message);
        else std::cerr << "paperpress: " << message << std::endl;
    });
    if (!lock) {
        report_.error(lock.error());
        return false;
    }
    lock_ = std::move(*lock);
    out_prefix_ = (options_.out_dir / "").string(); // "site/"; "" for the current folder
    out_dir_ = open_directory(options_.out_dir.empty() ? fs::path(".") : options_.out_dir);
    if (lock_->last_holder_died()) remove_temp_files_of_killed_build(shown);
    return true;
}

// Its temporary files: in the output folder, and those of the state and the trends' tallies beside it.
void OutputStore::remove_temp_files_of_killed_build(const std::string& shown) {
    auto removed = remove_temp_files(options_.out_dir);
    const fs::path state = state_path(options_.out_dir);
    const std::string prefixes[] = {state.filename().string() + ".tmp.",
                                    trends_cache_path(options_.out_dir).filename().string() + ".tmp."};
    walk_tree(state.parent_path(),
              [&](const TreeEntry& entry) {
                  const bool beside = entry.name.starts_with(prefixes[0]) || entry.name.starts_with(prefixes[1]);
                  if (beside && is_temp_file_name(entry.name) &&
                      ::unlinkat(entry.folder_fd, std::string(entry.name).c_str(), 0) == 0)
                      removed.emplace_back(entry.name);
                  return false;
              },
              {.recursive = false});
    if (!removed.empty())
        report_.unshared().warnings.push_back("the last build of " + shown + " was interrupted: removed its " +
                                              std::to_string(removed.size()) + " temporary files");
}

void OutputStore::load_state(bool distrust_outputs) {
    // The state's tables are most of what this thread allocates before the
    // days: its heap is populated once, sized to them (about three times the file).
    if (auto stamp = options_.environment().stamp_of(state_path(options_.out_dir)))
        populate_heap(static_cast<std::size_t>(std::min<std::uint64_t>(3 * stamp->size, 16u << 20)));
    distrust_outputs_ = distrust_outputs;
    state_ = pp::load_state(options_.out_dir, options_.environment());
    if (!state_.rejected.empty())
        report_.unshared().warnings.push_back("the build state " + state_path(options_.out_dir).string() + " " +
                                              state_.rejected + ": building everything again");
    if (distrust_outputs)
        for (auto& [path, output] : state_.outputs) output = OutputRecord{}; // render all, read nothing back
}

std::string OutputStore::file_of(const std::string& site_path) const { return out_prefix_ + output_file_of(site_path); }

Result<std::string> OutputStore::read(const std::string& site_path) const {
    return read_file_inside(options_.out_dir, file_of(site_path));
}

void OutputStore::write(const std::string& site_path, std::uint64_t key, std::string_view bytes, bool rendered,
                        Kept kept) {
    // The last pass over what is published: a known secret value never reaches the site (util/redact.h).
    std::string cleaned;
    if (holds_secret(bytes)) bytes = cleaned = redact_secrets(std::string(bytes));
    auto outcome = write_file_inside(options_.out_dir, file_of(site_path), bytes);
    if (!outcome) {
        keep_previous(site_path);
        write_failed_ = true;
        return report_.error(outcome.error());
    }
    const std::uint64_t hash = kept == Kept::key_and_bytes ? hash_bytes(bytes) : 0;
    record(site_path, OutputRecord{key, bytes.size(), hash, true}, *outcome == WriteOutcome::written, rendered);
}

bool OutputStore::up_to_date(const std::string& site_path, std::uint64_t key) {
    auto it = state_.outputs.find(site_path);
    if (it == state_.outputs.end() || it->second.key != key) return false;
    auto stamp = options_.environment().stamp_at(out_dir_, output_file_of(site_path));
    if (!stamp || stamp->size != it->second.size) return false;
    it->second.made = true;
    ++files_;
    return true;
}

void OutputStore::record(const std::string& site_path, const OutputRecord& made, bool written, bool rendered) {
    if (auto it = state_.outputs.find(site_path); it != state_.outputs.end()) {
        it->second = made;
    } else {
        std::lock_guard lock(added_mutex_);
        added_[site_path] = made;
    }
    ++files_;
    if (rendered) ++rendered_;
    if (written) report_.written(site_path);
}

void OutputStore::keep_previous(const std::string& site_path) {
    if (auto it = state_.outputs.find(site_path); it != state_.outputs.end()) {
        it->second.made = true;
        it->second.bytes = 0; // not to be read back
    }
}

void OutputStore::record_incomplete(const std::string& site_path) {
    if (auto it = state_.outputs.find(site_path); it != state_.outputs.end()) {
        it->second.key = incomplete_key(it->second.key);
        return;
    }
    std::lock_guard lock(added_mutex_);
    if (auto it = added_.find(site_path); it != added_.end()) it->second.key = incomplete_key(it->second.key);
}

std::uint64_t OutputStore::recorded_bytes(const std::string& site_path) {
    if (auto it = state_.outputs.find(site_path); it != state_.outputs.end())
        return it->second.made ? it->second.bytes : 0;
    std::lock_guard lock(added_mutex_);
    auto it = added_.find(site_path);
    return it == added_.end() ? 0 : it->second.bytes;
}

void OutputStore::finish(std::uint64_t program, std::int64_t start_ns, bool may_remove) {
    // A write that failed (a full disk) may have left an older output in
    // use by one not rewritten (the word index's list of its chunks): nothing
    // is removed, and the outputs stay in the state for a later build.
    if (may_remove && !write_failed_ && removal_allowed()) remove_stale();
    state_.outputs.merge(added_);
    state_.program = program;
    BuildReport& report = report_.unshared();
    report.files = files_;
    report.rendered = rendered_;
    if (auto saved = save_state(options_.out_dir, state_, start_ns); !saved) report.errors.push_back(saved.error());
}

// Removes what the previous build wrote and this one did not: pages of
// deleted days, the old theme's static files. Folders left empty go too.
// Never through a link out of the output folder.
void OutputStore::remove_stale() {
    BuildReport& report = report_.unshared();
    const fs::path root = options_.out_dir.empty() ? fs::path(".") : options_.out_dir;
    for (auto it = state_.outputs.begin(); it != state_.outputs.end();) {
        if (it->second.made) {
            ++it;
            continue;
        }
        auto removed = remove_file_inside(root, output_file_of(it->first));
        if (!removed) {
            report.errors.push_back(removed.error());
            ++it;
            continue;
        }
        if (*removed) {
            ++report.removed;
            report.removed_files.push_back(it->first);
        }
        it = state_.outputs.erase(it);
    }
}

// Refused, unless forced, when the site would shrink to less than half of what the last
// build made: a content folder gone or misread. A site whose files were
// renamed (a new version's format of the word index) keeps its size, so
// the old names go.
bool OutputStore::removal_allowed() {
    const auto stale = static_cast<std::size_t>(
        std::count_if(state_.outputs.begin(), state_.outputs.end(), [](const auto& o) { return !o.second.made; }));
    const std::size_t after = state_.outputs.size() - stale + added_.size();
    if (options_.force || stale * 2 <= state_.outputs.size() || after * 2 >= state_.outputs.size()) return true;
    report_.error({(options_.out_dir / "").string(), 0,
                   "expected a build to keep most of the site, but it would remove " + std::to_string(stale) +
                       " of the " + std::to_string(state_.outputs.size()) +
                       " files the last build made: nothing was removed (check the content folder, or "
                       "build with --force)"});
    return false;
}

} // namespace pp
