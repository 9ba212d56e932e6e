// File helpers. Every write is atomic (temp file in the same folder, then
// rename), so a crash mid-run never leaves a half-written page or day.
#pragma once

#include "util/error.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <unistd.h>

namespace pp {

namespace fs = std::filesystem;

// Closes a file descriptor when it goes out of scope.
class Fd {
public:
    explicit Fd(int fd = -1) : fd_(fd) {}
    Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    Fd& operator=(Fd&& other) noexcept {
        std::swap(fd_, other.fd_);
        return *this;
    }
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const { return fd_; }
    // Closes now, reporting the error a deferred write may only show here.
    bool close() {
        int fd = std::exchange(fd_, -1);
        return ::close(fd) == 0;
    }

private:
    int fd_;
};

// A regular file's size and modification time: what tells the build and
// the preview's watcher that a file changed.
struct FileStamp {
    std::uint64_t size = 0;
    std::int64_t mtime_ns = 0;
    bool operator==(const FileStamp&) const = default;
};
// `path` relative to the folder `dir` (an open_directory() handle); nothing
// when it is missing or not a regular file.
std::optional<FileStamp> stamp_at(const Fd& dir, const std::string& path);
std::optional<FileStamp> stamp_of(const fs::path& path);

// A folder to look files up in (O_PATH): fstatat() relative to it skips
// walking the folder's own path on each lookup. -1 when it does not exist.
Fd open_directory(const fs::path& path);

// One entry of a folder walk_tree() lists.
struct TreeEntry {
    enum class Kind { file, folder, link, other };
    std::string_view name;       // the entry's own name
    const std::string& path;     // the root's path joined with `relative`
    const std::string& relative; // '/'-separated, from the root
    Kind kind;                   // as the folder listing says (a link is not followed)
    int depth;                   // 0 for the root's own entries
    int folder_fd;               // the entry's folder, for *at() calls (unlinkat, fstatat)
    // For a link: whether it leads to a regular file (one stat).
    bool links_to_file() const;
};

struct WalkOptions {
    bool recursive = true;
    bool sorted = false;          // each folder's entries in name order (else the listing's)
    bool root_may_be_link = true; // false: a root that is a link is not walked (an error)
};

// `path` is `folder` or lies below it, by their parts as written (no file
// system access: give both in the same form, e.g. absolute and normal).
bool is_under(const fs::path& path, const fs::path& folder);

// The one directory walker: calls `visit` for every entry under `root`
// except "." and "..", a folder's entries before the next folder's. For a
// folder, `visit` returns whether to walk into it. Never goes through a
// link to a folder (links are reported as links), nor through a folder
// replaced by a link while walking (each folder is opened O_NOFOLLOW below
// its parent). One listing per folder and no stat per entry where the file
// system gives entry types. Returns an error per folder that could not be
// opened or listed ("cannot list this folder: ..."); a root that is not a
// folder is one of them.
std::vector<Error> walk_tree(const fs::path& root, const std::function<bool(const TreeEntry&)>& visit,
                             WalkOptions options = {});

// Every input paperpress reads has a size cap: a path that names a device
// (/dev/zero), a FIFO or a runaway file gets an error naming the file, not a
// program that reads until it runs out of memory.
constexpr std::size_t default_read_limit = 64u << 20; // 64 MiB; the largest day file seen is under 1 MiB

// The bytes of a regular file of at most `limit` bytes.
Result<std::string> read_file(const fs::path& path, std::size_t limit = default_read_limit);

// read_file for a file of a tree the user publishes from (content, prompts,
// themes): `path` must lie inside the folder `root`, and so must every link
// on its way (resolved by the kernel, openat2 RESOLVE_BENEATH), so a link to
// /proc/self/environ or ~/.ssh cannot put secrets into the site. Links that
// stay inside the tree are followed.
Result<std::string> read_file_inside(const fs::path& root, const fs::path& path,
                                     std::size_t limit = default_read_limit);

// The folder that a file or folder the config names (`path`) is read and
// written beneath: the working folder for a relative path (config/ refuses
// absolute paths and '..' in paperpress.yaml), so neither a path nor a link
// (.cache/arxiv -> elsewhere) leads out of the project; for an absolute path
// (the installed data, a test's folder), its parent.
fs::path config_path_root(const fs::path& path);

// A path as written into a state file or taken from one: relative, in
// '/'-separated parts, none empty, "." or "..", without NUL or backslash.
bool is_plain_relative_path(std::string_view path);

// Removes the file `relative` (is_plain_relative_path) under `root` and then
// its parent folders that are left empty, up to `root`. Refuses to go through
// a link: a folder of the output that is a link to elsewhere is not emptied.
// Returns whether the file was there.
Result<bool> remove_file_inside(const fs::path& root, std::string_view relative);

// Temporary files are named "<target>.tmp.<pid>" (see AtomicFile): a
// process killed between creating and renaming one leaves it behind.
bool is_temp_file_name(std::string_view name);

// A hidden file beside a folder, never inside it (the folder may be
// published): "site" or "site/" -> ".site<suffix>" in the same parent.
fs::path beside_folder(const fs::path& folder, std::string_view suffix);
// Removes such leftovers under `root` (recursively, not following links);
// call it only while holding the lock of the tree's writers (util/lock.h).
// Returns the paths removed, relative to `root`, sorted.
std::vector<std::string> remove_temp_files(const fs::path& root);
// Removes the temporary files of `target` ("<target>.tmp.<pid>") whose
// process is gone: for writers that may run without the tree's lock (one
// writer's temporary file exists only for the instant between naming and
// renaming it). One listing of the target's folder.
void remove_dead_temp_files_of(const fs::path& target);

// Writes `bytes` to `path` atomically, creating parent folders.
Result<void> write_file_atomic(const fs::path& path, std::string_view bytes);

enum class WriteOutcome { unchanged, written };

// Like write_file_atomic, but leaves the file untouched (same mtime) when it
// already holds exactly these bytes, so reruns and rebuilds change nothing.
Result<WriteOutcome> write_file_if_changed(const fs::path& path, std::string_view bytes);

// write_file_if_changed for a file of a tree paperpress writes on behalf of
// the content or the config (content/, caches, the site): `path` must lie
// inside the folder `root`, and so must every link on its way (the kernel
// resolves them beneath `root`, as read_file_inside does), so a folder that is
// a link to elsewhere is never written through. Missing folders are made
// beneath `root`; the file itself is replaced, never written through a link.
Result<WriteOutcome> write_file_inside(const fs::path& root, const fs::path& path, std::string_view bytes);

// A file's bytes mapped read-only. For large files read once: it neither
// copies them nor faults in fresh memory for them, which on small virtual
// machines costs more than parsing them.
class MappedFile {
public:
    static Result<MappedFile> open(const fs::path& path);
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    ~MappedFile();
    std::string_view bytes() const { return {static_cast<const char*>(data_), size_}; }

private:
    MappedFile(void* data, std::size_t size) : data_(data), size_(size) {}
    void* data_ = nullptr;
    std::size_t size_ = 0;
};

class AtomicFile; // util/files.cpp: a temporary file that replaces its target on commit

// write_file_if_changed for a large file made in pieces: while the pieces
// match the file's current bytes they are only compared; from the first
// difference on they go to a temporary file that replaces it. Holds one
// buffer, not the whole file.
class FileUpdate {
public:
    explicit FileUpdate(fs::path path);
    ~FileUpdate(); // without commit(), the file stays as it was
    FileUpdate(const FileUpdate&) = delete;
    FileUpdate& operator=(const FileUpdate&) = delete;

    void append(std::string_view bytes);
    Result<WriteOutcome> commit();

private:
    void write(std::string_view bytes);
    void flush();

    fs::path path_;
    std::optional<MappedFile> current_; // the file's bytes, while they match
    std::size_t matched_ = 0;
    std::unique_ptr<AtomicFile> temp_; // from the first difference on
    std::string buffer_;
    std::optional<Error> error_;
};

} // namespace pp
