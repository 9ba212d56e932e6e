// The output folder of one build: its lock, the records of what each output
// was made from (site/build_state.h), and every write into it.
//
// An output is rendered only when the inputs it was made from changed (its
// key) or it is gone; an output that cannot be made keeps its last version;
// what the last build made and this one did not is removed at the end, but
// never more than half of the site unless forced.
#pragma once

#include "site/build_state.h"
#include "site/builder.h"
#include "util/hash.h"
#include "util/lock.h"

#include <atomic>
#include <mutex>
#include <optional>

namespace pp {

// The build's report, added to from every worker.
class SharedReport {
public:
    explicit SharedReport(BuildReport& report) : report_(report) {}
    void error(Error e) {
        std::lock_guard lock(mutex_);
        report_.errors.push_back(std::move(e));
    }
    void written(const std::string& site_path) {
        std::lock_guard lock(mutex_);
        report_.written_files.push_back(site_path);
    }
    // Between the parallel stages only.
    BuildReport& unshared() { return report_; }

private:
    BuildReport& report_;
    std::mutex mutex_;
};

// The key that an output made without some of its inputs is recorded under:
// none that a build computes for what it makes.
inline std::uint64_t incomplete_key(std::uint64_t key) {
    return Hasher().add(key).add(std::string_view("made without some of its inputs")).value();
}

class OutputStore {
public:
    OutputStore(const BuildOptions& options, SharedReport& report) : options_(options), report_(report) {}

    // Takes the folder's lock (waiting for another build) and removes the
    // temporary files of a build that was killed. False: the report says why.
    bool lock();
    // The last build's state (nothing of it when it cannot be trusted).
    // `distrust_outputs`: render every output again, reading nothing back.
    void load_state(bool distrust_outputs);
    BuildState& state() { return state_; }
    // False in a build that renders everything again, reading nothing back.
    bool reads_back() const { return !distrust_outputs_; }

    enum class Kept { key, key_and_bytes }; // what the state keeps of an output

    // Writes the bytes and records them as made from `key`.
    void write(const std::string& site_path, std::uint64_t key, std::string_view bytes, bool rendered = true,
               Kept kept = Kept::key);

    // Renders the output (an optional string or PageBuffer) unless the last
    // build made it from the same inputs and it is still there, as large as
    // it was made.
    template <class Render>
    void produce(const std::string& site_path, std::uint64_t key, Render&& render, Kept kept = Kept::key) {
        if (up_to_date(site_path, key)) return;
        auto bytes = render();
        if (bytes) write(site_path, key, *bytes, true, kept);
        else keep_previous(site_path);
    }

    // An output that could not be made this time keeps its last version (and
    // its record, whose key still describes that version), rather than being
    // removed as stale.
    void keep_previous(const std::string& site_path);

    // An output made this build without some of its inputs (one could not
    // be read: an error) stays as made, but is recorded under a key no build
    // makes, so the next build makes it again.
    void record_incomplete(const std::string& site_path);

    // The hash of the bytes recorded for an output made or kept by this build; 0 if none.
    std::uint64_t recorded_bytes(const std::string& site_path);
    std::string file_of(const std::string& site_path) const;
    // An output's bytes as the last build wrote them, read beneath the output folder.
    Result<std::string> read(const std::string& site_path) const;

    // Removes the stale outputs (unless `may_remove` is false, some content
    // could not be listed, or a write failed) and saves the state, stamped
    // with the build's start.
    void finish(std::uint64_t program, std::int64_t start_ns, bool may_remove);

private:
    bool up_to_date(const std::string& site_path, std::uint64_t key);
    void record(const std::string& site_path, const OutputRecord& made, bool written, bool rendered);
    void remove_temp_files_of_killed_build(const std::string& shown);
    void remove_stale();
    bool removal_allowed();

    const BuildOptions& options_;
    SharedReport& report_;
    // The last build's records are brought up to date in place: each output
    // belongs to one task, so threads never share a record, and the map's
    // shape does not change while they run. New outputs wait in added_.
    BuildState state_;
    bool distrust_outputs_ = false;
    std::map<std::string, OutputRecord> added_;
    std::mutex added_mutex_;
    std::optional<TreeLock> lock_;
    std::string out_prefix_; // the output folder, ending in "/"
    Fd out_dir_;             // stat()s relative to it walk shorter paths
    std::atomic<int> files_{0}, rendered_{0};
    std::atomic<bool> write_failed_{false}; // some output could not be written: none is removed
};

} // namespace pp
