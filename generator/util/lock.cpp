#include "util/lock.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace pp {

namespace {

// The pid the file names, 0 when it is empty or not a number.
long holder_pid(int fd) {
    char buffer[32] = {};
    const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
    long pid = 0;
    if (n > 0) std::from_chars(buffer, buffer + n, pid);
    return pid;
}

int flock_retrying(int fd, int operation) {
    int rc;
    while ((rc = ::flock(fd, operation)) != 0 && errno == EINTR) {}
    return rc;
}

} // namespace

fs::path lock_path(const fs::path& tree) { return beside_folder(tree, ".paperpress-lock"); }

Result<TreeLock> TreeLock::acquire(const fs::path& lock_file, const std::function<void(long pid)>& on_wait) {
    Fd fd(::open(lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644));
    if (fd.get() < 0)
        return fail(std::string("cannot open the lock file: ") + std::strerror(errno), lock_file.string());
    if (flock_retrying(fd.get(), LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK) return fail(std::string("cannot lock: ") + std::strerror(errno), lock_file.string());
        if (on_wait) on_wait(holder_pid(fd.get()));
        if (flock_retrying(fd.get(), LOCK_EX) != 0)
            return fail(std::string("cannot lock: ") + std::strerror(errno), lock_file.string());
    }
    const bool died = holder_pid(fd.get()) != 0;
    const std::string pid = std::to_string(::getpid());
    if (::ftruncate(fd.get(), 0) != 0 ||
        ::pwrite(fd.get(), pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size()))
        return fail(std::string("cannot write the lock file: ") + std::strerror(errno), lock_file.string());
    return TreeLock(std::move(fd), died);
}

TreeLock::~TreeLock() {
    if (fd_.get() >= 0 && ::ftruncate(fd_.get(), 0) != 0) {
        // Left naming this process: the next holder cleans up as after a crash.
    }
}

} // namespace pp
