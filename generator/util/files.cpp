#include "util/files.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pp {

namespace {

// Closes a file descriptor when it goes out of scope.
class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const { return fd_; }
    // Closes now, reporting the error a deferred write may only show here.
    bool close() {
        int fd = fd_;
        fd_ = -1;
        return ::close(fd) == 0;
    }

private:
    int fd_;
};

std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// Reads all of `fd` into `out`, sized from fstat (files may still grow or shrink).
bool read_all(int fd, std::string& out) {
    struct stat info {};
    std::size_t capacity = ::fstat(fd, &info) == 0 && info.st_size > 0 ? static_cast<std::size_t>(info.st_size) : 0;
    out.resize(capacity + 1); // one more byte, so a read at the end confirms the end
    std::size_t filled = 0;
    for (;;) {
        if (filled == out.size()) out.resize(out.size() * 2);
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

Result<std::string> read_file(const fs::path& path) {
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) return fail(errno_text("cannot open"), path.string());
    std::string bytes;
    if (!read_all(fd.get(), bytes)) return fail(errno_text("read error"), path.string());
    return bytes;
}

Result<void> write_file_atomic(const fs::path& path, std::string_view bytes) {
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
    Fd fd(raw);
    if (fd.get() < 0) return fail(errno_text("cannot write"), temp.string());
    if (!write_all(fd.get(), bytes) || !fd.close()) {
        std::string reason = errno_text("write failed (disk full?)");
        ::unlink(temp.c_str());
        return fail(reason, temp.string());
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        std::string reason = errno_text("cannot replace file");
        ::unlink(temp.c_str());
        return fail(reason, path.string());
    }
    return {};
}

Result<WriteOutcome> write_file_if_changed(const fs::path& path, std::string_view bytes) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && static_cast<std::size_t>(info.st_size) == bytes.size()) {
        auto current = read_file(path);
        if (current && *current == bytes) return WriteOutcome::unchanged;
    }
    auto written = write_file_atomic(path, bytes);
    if (!written) return std::unexpected(written.error());
    return WriteOutcome::written;
}

} // namespace pp
