#include "util/files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
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

Fd open_directory(const fs::path& path) {
    return Fd(::open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
}

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

std::int64_t now_ns() {
    timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

Result<std::string> read_file(const fs::path& path, std::size_t limit) {
    // O_NONBLOCK: opening a FIFO nobody writes to must not hang; it is refused below.
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0) return fail(errno_text("cannot open"), path.string());
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

// A temporary file next to its target ("<name>.tmp.<pid>") that replaces
// the target on commit, and is removed if never committed.
class AtomicFile {
public:
    static Result<std::unique_ptr<AtomicFile>> create(const fs::path& path) {
        fs::path temp = path;
        temp += ".tmp." + std::to_string(::getpid());
        const int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
        int raw = ::open(temp.c_str(), flags, 0644);
        if (raw < 0 && errno == ENOENT && path.has_parent_path()) {
            // The folder is missing: create it (most writes go to folders that exist).
            std::error_code ec;
            fs::create_directories(path.parent_path(), ec);
            if (ec) return fail("cannot create folder: " + ec.message(), path.parent_path().string());
            raw = ::open(temp.c_str(), flags, 0644);
        }
        if (raw < 0) return fail(errno_text(("cannot write its temporary file " + temp.filename().string()).c_str()),
                                 path.string());
        return std::unique_ptr<AtomicFile>(new AtomicFile(path, std::move(temp), raw));
    }
    ~AtomicFile() {
        if (fd_.get() >= 0) ::unlink(temp_.c_str());
    }

    Result<void> write(std::string_view bytes) {
        if (write_all(fd_.get(), bytes)) return {};
        return fail(errno_text("write failed (disk full?)"), target_.string());
    }

    Result<void> commit() {
        if (!fd_.close()) {
            std::string reason = errno_text("write failed (disk full?)");
            ::unlink(temp_.c_str());
            return fail(reason, target_.string());
        }
        if (::rename(temp_.c_str(), target_.c_str()) != 0) {
            std::string reason = errno_text("cannot replace file");
            ::unlink(temp_.c_str());
            return fail(reason, target_.string());
        }
        return {};
    }

private:
    AtomicFile(fs::path target, fs::path temp, int fd) : target_(std::move(target)), temp_(std::move(temp)), fd_(fd) {}
    fs::path target_, temp_;
    Fd fd_;
};

Result<void> write_file_atomic(const fs::path& path, std::string_view bytes) {
    auto file = AtomicFile::create(path);
    if (!file) return std::unexpected(file.error());
    if (auto written = (*file)->write(bytes); !written) return written;
    return (*file)->commit();
}

namespace {

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

} // namespace

Result<WriteOutcome> write_file_if_changed(const fs::path& path, std::string_view bytes) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && static_cast<std::size_t>(info.st_size) == bytes.size()) {
        Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
        if (fd.get() >= 0 && holds(fd.get(), bytes)) return WriteOutcome::unchanged;
    }
    auto written = write_file_atomic(path, bytes);
    if (!written) return std::unexpected(written.error());
    return WriteOutcome::written;
}

Result<MappedFile> MappedFile::open(const fs::path& path) {
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
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

} // namespace pp
