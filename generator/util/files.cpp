#include "util/files.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <utility>

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace pp {

namespace {

std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// Reads all of `fd` into `out`, sized from `size_hint` (files may still grow
// or shrink), and at most `limit` + 1 bytes, so the caller can tell a file
// over the limit.
bool read_all(int fd, std::size_t size_hint, std::size_t limit, std::string& out) {
    out.resize(std::min(size_hint, limit) + 1); // one more byte, so a read at the end confirms the end
    std::size_t filled = 0;
    for (;;) {
        if (filled > limit) break;
        if (filled == out.size()) out.resize(std::min(out.size() * 2, limit + 1));
        ssize_t n = ::read(fd, out.data() + filled, out.size() - filled);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) break;
        filled += static_cast<std::size_t>(n);
    }
    out.resize(filled);
    return true;
}

bool write_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

} // namespace

Fd open_directory(const fs::path& path) { return Fd(::open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC)); }

namespace {

std::optional<FileStamp> stamp(int dir, const char* path) {
    struct stat st;
    if (::fstatat(dir, path, &st, 0) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    return FileStamp{static_cast<std::uint64_t>(st.st_size),
                     static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

} // namespace

std::optional<FileStamp> stamp_at(const Fd& dir, const std::string& path) {
    if (dir.get() < 0) return std::nullopt;
    return stamp(dir.get(), path.c_str());
}

std::optional<FileStamp> stamp_of(const fs::path& path) { return stamp(AT_FDCWD, path.c_str()); }

namespace {

// The bytes of an open file, refused unless it is a regular file within `limit`.
Result<std::string> read_opened(const Fd& fd, const fs::path& path, std::size_t limit) {
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0) return fail(errno_text("cannot stat"), path.string());
    if (!S_ISREG(info.st_mode)) return fail("expected a regular file, not a device, folder or pipe", path.string());
    auto too_large = [&] {
        return fail("expected a file of at most " + std::to_string(limit >> 20) + " MiB (" + std::to_string(limit) +
                        " bytes); this one is larger",
                    path.string());
    };
    if (static_cast<std::size_t>(info.st_size) > limit) return too_large();
    std::string bytes;
    if (!read_all(fd.get(), static_cast<std::size_t>(info.st_size), limit, bytes))
        return fail(errno_text("read error"), path.string());
    if (bytes.size() > limit) return too_large();
    return bytes;
}

// O_NONBLOCK: opening a FIFO nobody writes to must not hang; it is refused by read_opened.
constexpr int read_flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;

// openat2(): `relative` resolved under `dir`, never above it. -1 with errno
// ENOSYS on kernels before 5.6.
int open_beneath(int dir, const std::string& relative, int flags, std::uint64_t resolve) {
    open_how how{};
    how.flags = static_cast<std::uint64_t>(flags);
    how.resolve = resolve;
    for (;;) {
        long fd = ::syscall(SYS_openat2, dir, relative.empty() ? "." : relative.c_str(), &how, sizeof how);
        if (fd < 0 && (errno == EINTR || errno == EAGAIN)) continue; // EAGAIN: a rename raced the lookup
        return static_cast<int>(fd);
    }
}

// `path` relative to `root`, both made absolute; nothing when it is not below it.
std::optional<std::string> relative_inside(const fs::path& root, const fs::path& path) {
    std::error_code ec;
    const fs::path base = fs::absolute(root.empty() ? fs::path(".") : root, ec).lexically_normal();
    const fs::path full = fs::absolute(path, ec).lexically_normal();
    if (ec) return std::nullopt;
    const fs::path relative = full.lexically_relative(base);
    if (relative.empty() || relative == "." || *relative.begin() == "..") return std::nullopt;
    return relative.string();
}

Error outside(const fs::path& root, const fs::path& path) {
    return {path.string(), 0,
            "expected a file inside " + (root.empty() ? std::string(".") : root.string()) +
                " (links that lead out of it are refused, so nothing from elsewhere is published)"};
}

} // namespace

Result<std::string> read_file(const fs::path& path, std::size_t limit) {
    Fd fd(::open(path.c_str(), read_flags));
    if (fd.get() < 0) return fail(errno_text("cannot open"), path.string());
    return read_opened(fd, path, limit);
}

Result<std::string> read_file_inside(const fs::path& root, const fs::path& path, std::size_t limit) {
    auto relative = relative_inside(root, path);
    if (!relative) return std::unexpected(outside(root, path));
    Fd base(::open(root.empty() ? "." : root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (base.get() < 0) return fail(errno_text("cannot open the folder"), root.string());
    Fd fd(open_beneath(base.get(), *relative, read_flags, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS));
    if (fd.get() < 0 && errno == ENOSYS) { // older kernels: resolve the links, then compare
        std::error_code ec;
        const fs::path real = fs::canonical(path, ec);
        if (ec) return fail("cannot open: " + ec.message(), path.string());
        if (!relative_inside(fs::canonical(root.empty() ? fs::path(".") : root, ec), real) || ec)
            return std::unexpected(outside(root, path));
        fd = Fd(::open(real.c_str(), read_flags));
    }
    if (fd.get() < 0 && (errno == EXDEV || errno == ELOOP)) return std::unexpected(outside(root, path));
    if (fd.get() < 0) return fail(errno_text("cannot open"), path.string());
    return read_opened(fd, path, limit);
}

fs::path config_path_root(const fs::path& path) { return path.is_absolute() ? path.parent_path() : fs::path(); }

bool is_plain_relative_path(std::string_view path) {
    if (path.empty() || path.find('\0') != std::string_view::npos || path.find('\\') != std::string_view::npos)
        return false;
    for (std::size_t start = 0;;) {
        const auto end = path.find('/', start);
        const auto part = path.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        if (part.empty() || part == "." || part == "..") return false;
        if (end == std::string_view::npos) return true;
        start = end + 1;
    }
}

namespace {

// The folder `relative` under `root`, reached without following any link
// (each step O_NOFOLLOW), so a linked folder is never entered.
Fd open_folder_without_links(const Fd& root, std::string_view relative) {
    Fd dir(::openat(root.get(), ".", O_PATH | O_DIRECTORY | O_CLOEXEC));
    for (std::size_t start = 0; dir.get() >= 0 && start < relative.size();) {
        auto end = relative.find('/', start);
        if (end == std::string_view::npos) end = relative.size();
        const std::string part(relative.substr(start, end - start));
        dir = Fd(::openat(dir.get(), part.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        start = end + 1;
    }
    return dir;
}

} // namespace

Result<bool> remove_file_inside(const fs::path& root, std::string_view relative) {
    const std::string shown = (root / std::string(relative)).string();
    if (!is_plain_relative_path(relative)) return fail("expected a relative path inside " + root.string(), shown);
    Fd base(::open(root.empty() ? "." : root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (base.get() < 0) return fail(errno_text("cannot open the folder"), root.string());
    auto slash = relative.rfind('/');
    std::string_view folder = slash == std::string_view::npos ? std::string_view() : relative.substr(0, slash);
    Fd parent = open_folder_without_links(base, folder);
    if (parent.get() < 0) {
        if (errno == ENOENT) return false;
        return fail(errno_text("cannot reach its folder without following a link"), shown);
    }
    const std::string name(slash == std::string_view::npos ? relative : relative.substr(slash + 1));
    bool removed = ::unlinkat(parent.get(), name.c_str(), 0) == 0;
    if (!removed && errno != ENOENT) return fail(errno_text("cannot remove"), shown);
    // Folders left empty go too; the first one that is not empty stops it.
    while (!folder.empty()) {
        slash = folder.rfind('/');
        const std::string last(slash == std::string_view::npos ? folder : folder.substr(slash + 1));
        folder = slash == std::string_view::npos ? std::string_view() : folder.substr(0, slash);
        Fd up = open_folder_without_links(base, folder);
        if (up.get() < 0 || ::unlinkat(up.get(), last.c_str(), AT_REMOVEDIR) != 0) break;
    }
    return removed;
}

bool TreeEntry::links_to_file() const {
    struct stat info {};
    return kind == Kind::link && ::fstatat(folder_fd, std::string(name).c_str(), &info, 0) == 0 &&
           S_ISREG(info.st_mode);
}

namespace {

struct ListedEntry {
    std::string name;
    TreeEntry::Kind kind;
};

TreeEntry::Kind kind_of(int folder, const char* name, unsigned char type) {
    if (type == DT_UNKNOWN) { // some file systems do not say
        struct stat info {};
        if (::fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) != 0) return TreeEntry::Kind::other;
        return S_ISDIR(info.st_mode)   ? TreeEntry::Kind::folder
               : S_ISLNK(info.st_mode) ? TreeEntry::Kind::link
               : S_ISREG(info.st_mode) ? TreeEntry::Kind::file
                                       : TreeEntry::Kind::other;
    }
    return type == DT_DIR   ? TreeEntry::Kind::folder
           : type == DT_LNK ? TreeEntry::Kind::link
           : type == DT_REG ? TreeEntry::Kind::file
                            : TreeEntry::Kind::other;
}

class TreeWalk {
public:
    TreeWalk(const std::function<bool(const TreeEntry&)>& visit, WalkOptions options)
        : visit_(visit), options_(options) {}

    // Lists the folder `fd` (taken), then visits its entries, walking into folders.
    void walk(Fd fd, const std::string& path, const std::string& relative, int depth) {
        std::vector<ListedEntry> entries;
        if (!list(fd, path, entries)) return;
        if (options_.sorted)
            std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
        for (const auto& entry : entries) {
            const std::string child_path =
                path.empty() || path.ends_with('/') ? path + entry.name : path + "/" + entry.name;
            const std::string child_relative = relative.empty() ? entry.name : relative + "/" + entry.name;
            const TreeEntry visited{entry.name, child_path, child_relative, entry.kind, depth, fd.get()};
            const bool enter = visit_(visited);
            if (entry.kind != TreeEntry::Kind::folder || !enter || !options_.recursive) continue;
            Fd child(::openat(fd.get(), entry.name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
            if (child.get() < 0) {
                failed(child_path);
                continue;
            }
            walk(std::move(child), child_path, child_relative, depth + 1);
        }
    }

    void failed(const std::string& path) { errors_.push_back({path, 0, errno_text("cannot list this folder")}); }
    std::vector<Error> take_errors() { return std::move(errors_); }

private:
    bool list(const Fd& fd, const std::string& path, std::vector<ListedEntry>& entries) {
        DIR* dir = ::fdopendir(::dup(fd.get()));
        if (!dir) {
            failed(path);
            return false;
        }
        for (;;) {
            errno = 0;
            const dirent* entry = ::readdir(dir);
            if (!entry) {
                if (errno != 0) failed(path);
                break;
            }
            const std::string_view name = entry->d_name;
            if (name == "." || name == "..") continue;
            entries.push_back({std::string(name), kind_of(fd.get(), entry->d_name, entry->d_type)});
        }
        ::closedir(dir);
        return true;
    }

    const std::function<bool(const TreeEntry&)>& visit_;
    WalkOptions options_;
    std::vector<Error> errors_;
};

} // namespace

std::vector<Error> walk_tree(const fs::path& root, const std::function<bool(const TreeEntry&)>& visit,
                             WalkOptions options) {
    TreeWalk walk(visit, options);
    const std::string path = root.empty() ? "." : root.string();
    Fd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | (options.root_may_be_link ? 0 : O_NOFOLLOW)));
    if (fd.get() < 0) walk.failed(path);
    else walk.walk(std::move(fd), root.empty() ? "" : path, "", 0);
    return walk.take_errors();
}

bool is_temp_file_name(std::string_view name) {
    const auto at = name.rfind(".tmp.");
    if (at == std::string_view::npos || at == 0 || at + 5 == name.size()) return false;
    return name.substr(at + 5).find_first_not_of("0123456789") == std::string_view::npos;
}

void remove_dead_temp_files_of(const fs::path& target) {
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    const std::string prefix = target.filename().string() + ".tmp.";
    walk_tree(folder,
              [&](const TreeEntry& entry) {
                  const std::string_view name = entry.name;
                  if (!name.starts_with(prefix) || !is_temp_file_name(name)) return false;
                  long pid = 0;
                  std::from_chars(name.data() + prefix.size(), name.data() + name.size(), pid);
                  if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
                      ::unlinkat(entry.folder_fd, std::string(name).c_str(), 0);
                  return false;
              },
              {.recursive = false});
}

std::vector<std::string> remove_temp_files(const fs::path& root) {
    std::vector<std::string> removed;
    walk_tree(root,
              [&](const TreeEntry& entry) {
                  if (entry.kind == TreeEntry::Kind::file && is_temp_file_name(entry.name) &&
                      ::unlinkat(entry.folder_fd, std::string(entry.name).c_str(), 0) == 0)
                      removed.push_back(entry.relative);
                  return true;
              },
              {.root_may_be_link = false});
    std::sort(removed.begin(), removed.end());
    return removed;
}

namespace {

// The crash tests' kill point (tests/crash_test.cpp): with PAPERPRESS_CRASH_AT_COMMIT=N in the
// environment, the process kills itself (SIGKILL: no handler, no cleanup, as a power cut or the OOM
// killer) at its Nth commit of a file, when the new bytes are written and named but not yet in place.
// A kill the process announces lands mid-run however loaded the machine is; one sent after a sleep
// missed the run when the machine was faster than when it was timed.
void crash_point() {
    static const long at = [] {
        const char* value = std::getenv("PAPERPRESS_CRASH_AT_COMMIT");
        return value ? std::atol(value) : 0L;
    }();
    static std::atomic<long> commits{0};
    if (at > 0 && ++commits == at) ::raise(SIGKILL);
}

} // namespace

// A temporary file next to its target that replaces the target on commit.
// It is made unnamed (O_TMPFILE) where the file system allows, so a process
// killed while writing it leaves nothing behind; it gets its name
// "<name>.tmp.<pid>" only for the instant between linking and renaming it
// (and for the whole write where O_TMPFILE is not supported). Removed if
// never committed. Every step is relative to the target's open folder, so a
// folder reached beneath a root (open_folder_inside) stays the one written.
class AtomicFile {
public:
    // Replaces `name` in the open `folder`; `shown` names the target in errors.
    static Result<std::unique_ptr<AtomicFile>> create(Fd folder, std::string name, fs::path shown) {
        std::string temp = name + ".tmp." + std::to_string(::getpid());
        bool unnamed = false;
        int raw = open_temp(folder, temp, unnamed);
        if (raw < 0) return fail(errno_text(("cannot write its temporary file " + temp).c_str()), shown.string());
        return std::unique_ptr<AtomicFile>(
            new AtomicFile(std::move(folder), std::move(name), std::move(temp), std::move(shown), raw, unnamed));
    }

    // Replaces the file `path`, creating its folder when missing.
    static Result<std::unique_ptr<AtomicFile>> create(const fs::path& path) {
        const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
        Fd dir(::open(folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
        if (dir.get() < 0 && errno == ENOENT) { // most writes go to folders that exist
            std::error_code ec;
            fs::create_directories(folder, ec);
            if (ec) return fail("cannot create folder: " + ec.message(), folder.string());
            dir = Fd(::open(folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
        }
        if (dir.get() < 0)
            return fail(errno_text(("cannot write its temporary file " + path.filename().string() + ".tmp." +
                                    std::to_string(::getpid()))
                                       .c_str()),
                        path.string());
        return create(std::move(dir), path.filename().string(), path);
    }

    ~AtomicFile() {
        if (fd_.get() >= 0 && !unnamed_) ::unlinkat(folder_.get(), temp_.c_str(), 0);
    }

    Result<void> write(std::string_view bytes) {
        if (write_all(fd_.get(), bytes)) return {};
        return fail(errno_text("write failed (disk full?)"), shown_.string());
    }

    Result<void> commit() {
        if (unnamed_ && !link_name()) {
            std::string reason = errno_text("cannot name its temporary file");
            return fail(reason, shown_.string());
        }
        unnamed_ = false; // from here on it has a name to remove on failure
        if (!fd_.close()) {
            std::string reason = errno_text("write failed (disk full?)");
            ::unlinkat(folder_.get(), temp_.c_str(), 0);
            return fail(reason, shown_.string());
        }
        crash_point();
        if (::renameat(folder_.get(), temp_.c_str(), folder_.get(), name_.c_str()) != 0) {
            std::string reason = errno_text("cannot replace file");
            ::unlinkat(folder_.get(), temp_.c_str(), 0);
            return fail(reason, shown_.string());
        }
        return {};
    }

private:
    AtomicFile(Fd folder, std::string name, std::string temp, fs::path shown, int fd, bool unnamed)
        : folder_(std::move(folder)), name_(std::move(name)), temp_(std::move(temp)), shown_(std::move(shown)), fd_(fd),
          unnamed_(unnamed) {}

    // An unnamed file in `folder`, else the named `temp` (never through a link).
    static int open_temp(const Fd& folder, const std::string& temp, bool& unnamed) {
        int fd = ::openat(folder.get(), ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
        unnamed = fd >= 0;
        if (fd >= 0) return fd;
        return ::openat(folder.get(), temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    }

    // Gives the unnamed file its temporary name (a leftover of a killed
    // process of the same pid is replaced).
    bool link_name() {
        const std::string self = "/proc/self/fd/" + std::to_string(fd_.get());
        for (int attempt = 0; attempt < 2; ++attempt) {
            if (::linkat(AT_FDCWD, self.c_str(), folder_.get(), temp_.c_str(), AT_SYMLINK_FOLLOW) == 0) return true;
            if (errno != EEXIST) return false;
            ::unlinkat(folder_.get(), temp_.c_str(), 0);
        }
        return false;
    }

    Fd folder_;
    std::string name_, temp_;
    fs::path shown_;
    Fd fd_;
    bool unnamed_;
};

namespace {

Result<void> write_into(Result<std::unique_ptr<AtomicFile>> file, std::string_view bytes) {
    if (!file) return std::unexpected(file.error());
    if (auto written = (*file)->write(bytes); !written) return written;
    return (*file)->commit();
}

// Whether the open file holds exactly `bytes`, read in chunks into a buffer
// on the stack (pages are compared on every rebuild).
bool holds(int fd, std::string_view bytes) {
    char chunk[64 * 1024];
    while (!bytes.empty()) {
        ssize_t n = ::read(fd, chunk, std::min(sizeof chunk, bytes.size()));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0 || std::memcmp(chunk, bytes.data(), static_cast<std::size_t>(n)) != 0) return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    char probe;
    return ::read(fd, &probe, 1) == 0; // and no more
}

// Whether `name` in the open `folder` is a regular file (not a link) holding exactly `bytes`.
bool already_holds(int folder, const std::string& name, std::string_view bytes) {
    struct stat info {};
    if (::fstatat(folder, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(info.st_mode) ||
        static_cast<std::size_t>(info.st_size) != bytes.size())
        return false;
    Fd fd(::openat(folder, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    return fd.get() >= 0 && holds(fd.get(), bytes);
}

// The folder `relative` ("" for `root` itself) beneath the open `base`
// (`root`), reached with no link leading out of it; missing folders are
// made, each beneath its parent.
Result<Fd> folder_inside(const Fd& base, const fs::path& root, const std::string& relative) {
    const fs::path shown = relative.empty() ? root : root / relative;
    constexpr int flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
    Fd dir(open_beneath(base.get(), relative, flags, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS));
    if (dir.get() < 0 && errno == ENOSYS) { // older kernels: resolve the links, then compare
        std::error_code ec;
        fs::create_directories(shown, ec);
        const fs::path real = fs::canonical(shown, ec);
        if (ec || !relative_inside(fs::canonical(root.empty() ? fs::path(".") : root, ec), real) || ec)
            return std::unexpected(outside(root, shown));
        dir = Fd(::open(real.c_str(), flags));
    } else if (dir.get() < 0 && errno == ENOENT && !relative.empty()) {
        const auto slash = relative.rfind('/');
        auto parent = folder_inside(base, root, slash == std::string::npos ? "" : relative.substr(0, slash));
        if (!parent) return parent;
        const std::string name = slash == std::string::npos ? relative : relative.substr(slash + 1);
        if (::mkdirat(parent->get(), name.c_str(), 0755) != 0 && errno != EEXIST)
            return fail(errno_text("cannot create folder"), shown.string());
        dir = Fd(::openat(parent->get(), name.c_str(), flags | O_NOFOLLOW));
    }
    if (dir.get() < 0 && (errno == EXDEV || errno == ELOOP)) return std::unexpected(outside(root, shown));
    if (dir.get() < 0) return fail(errno_text("cannot open the folder"), shown.string());
    return dir;
}

} // namespace

Result<void> write_file_atomic(const fs::path& path, std::string_view bytes) {
    return write_into(AtomicFile::create(path), bytes);
}

Result<WriteOutcome> write_file_if_changed(const fs::path& path, std::string_view bytes) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
        static_cast<std::size_t>(info.st_size) == bytes.size()) {
        Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
        if (fd.get() >= 0 && holds(fd.get(), bytes)) return WriteOutcome::unchanged;
    }
    auto written = write_file_atomic(path, bytes);
    if (!written) return std::unexpected(written.error());
    return WriteOutcome::written;
}

Result<WriteOutcome> write_file_inside(const fs::path& root, const fs::path& path, std::string_view bytes) {
    auto relative = relative_inside(root, path);
    if (!relative || !is_plain_relative_path(*relative)) return std::unexpected(outside(root, path));
    Fd base(::open(root.empty() ? "." : root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (base.get() < 0 && errno == ENOENT) {
        std::error_code ec;
        fs::create_directories(root, ec); // the root itself is the caller's choice
        base = Fd(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    }
    if (base.get() < 0) return fail(errno_text("cannot open the folder"), root.string());
    const auto slash = relative->rfind('/');
    auto folder = folder_inside(base, root, slash == std::string::npos ? "" : relative->substr(0, slash));
    if (!folder) return std::unexpected(folder.error());
    const std::string name = slash == std::string::npos ? *relative : relative->substr(slash + 1);
    if (already_holds(folder->get(), name, bytes)) return WriteOutcome::unchanged;
    auto written = write_into(AtomicFile::create(std::move(*folder), name, path), bytes);
    if (!written) return std::unexpected(written.error());
    return WriteOutcome::written;
}

Result<MappedFile> MappedFile::open(const fs::path& path) {
    // O_NOFOLLOW: what is mapped is state paperpress wrote (the build state, an output being compared),
    // never a file a link leads to.
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
    if (fd.get() < 0) return fail(errno_text("cannot open"), path.string());
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0) return fail(errno_text("cannot read"), path.string());
    if (info.st_size == 0) return MappedFile(nullptr, 0);
    const auto size = static_cast<std::size_t>(info.st_size);
    // MAP_POPULATE maps the cached pages in one call instead of a fault per page.
    void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd.get(), 0);
    if (data == MAP_FAILED) return fail(errno_text("cannot map"), path.string());
    return MappedFile(data, size);
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
    std::swap(data_, other.data_); // `other` unmaps what this held
    std::swap(size_, other.size_);
    return *this;
}

MappedFile::~MappedFile() {
    if (data_) ::munmap(data_, size_);
}

FileUpdate::FileUpdate(fs::path path) : path_(std::move(path)) {
    if (auto current = MappedFile::open(path_)) current_ = std::move(*current);
}

FileUpdate::~FileUpdate() = default;

void FileUpdate::append(std::string_view bytes) {
    if (error_) return;
    if (current_) {
        std::string_view rest = current_->bytes().substr(matched_);
        if (rest.starts_with(bytes)) {
            matched_ += bytes.size();
            return;
        }
    }
    write(bytes);
}

// Sends bytes to the temporary file, which starts with the matched prefix.
void FileUpdate::write(std::string_view bytes) {
    if (!temp_) {
        auto temp = AtomicFile::create(path_);
        if (!temp) {
            error_ = temp.error();
            return;
        }
        temp_ = std::move(*temp);
        if (current_) {
            auto prefix = temp_->write(current_->bytes().substr(0, matched_));
            current_.reset();
            if (!prefix) {
                error_ = prefix.error();
                return;
            }
        }
    }
    buffer_ += bytes;
    if (buffer_.size() >= 64 * 1024) flush();
}

void FileUpdate::flush() {
    if (auto flushed = temp_->write(buffer_); !flushed) error_ = flushed.error();
    buffer_.clear();
}

Result<WriteOutcome> FileUpdate::commit() {
    if (!error_ && !temp_ && current_ && matched_ == current_->bytes().size()) return WriteOutcome::unchanged;
    if (!error_) write({}); // a prefix of the old bytes, or no file yet: the file still changes
    if (!error_) flush();
    if (!error_) {
        if (auto done = temp_->commit(); !done) error_ = done.error();
    }
    if (error_) return std::unexpected(*error_);
    return WriteOutcome::written;
}

fs::path beside_folder(const fs::path& folder, std::string_view suffix) {
    fs::path path = folder.lexically_normal();
    if (!path.has_filename()) path = path.parent_path(); // "site/" -> "site"
    if (path.empty() || path == ".") path = fs::current_path();
    return path.parent_path() / ("." + path.filename().string() + std::string(suffix));
}

bool is_under(const fs::path& path, const fs::path& folder) {
    auto p = path.begin();
    for (auto f = folder.begin(); f != folder.end(); ++f, ++p) {
        if (f->empty()) continue; // trailing separator
        if (p == path.end() || *p != *f) return false;
    }
    return true;
}

} // namespace pp
