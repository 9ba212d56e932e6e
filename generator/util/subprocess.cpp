#include "util/subprocess.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace pp {

namespace {

std::string_view name_of(std::string_view assignment) { return assignment.substr(0, assignment.find('=')); }

bool unset_matches(std::string_view name, const std::vector<std::string>& unset) {
    for (const auto& pattern : unset)
        if (pattern.ends_with('*') ? name.starts_with(std::string_view(pattern).substr(0, pattern.size() - 1))
                                   : name == pattern)
            return true;
    return false;
}

// This process's environment without `unset`, with `extra` set over it, in a stable order.
std::vector<std::string> merged_environment(const std::vector<std::string>& extra,
                                            const std::vector<std::string>& unset) {
    std::map<std::string, std::string, std::less<>> vars;
    for (char** e = environ; e && *e; ++e)
        if (!unset_matches(name_of(*e), unset)) vars.emplace(name_of(*e), *e);
    for (const auto& assignment : extra) vars.insert_or_assign(std::string(name_of(assignment)), assignment);
    std::vector<std::string> out;
    for (auto& [name, assignment] : vars) out.push_back(std::move(assignment));
    return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (auto& s : strings) out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

// What exchange() saw of the child's end.
struct Ending {
    bool exited = false;
    int status = 0;
    bool timed_out = false;
    int wait_error = 0; // errno of a failed waitpid
};

// Whether the child has exited (reaped into `ending`); a failed wait counts as an end.
bool reaped(pid_t pid, Ending& ending) {
    const pid_t r = ::waitpid(pid, &ending.status, WNOHANG);
    if (r == pid) return ending.exited = true;
    if (r < 0 && errno != EINTR) {
        ending.wait_error = errno;
        return true;
    }
    return false;
}

// Writes options.input to the child and reads both of its outputs, keeping at
// most options.max_output bytes of each; one loop, so neither side ever waits
// on a full pipe.
// Ends when the child has exited and its output is read, or at the deadline.
Ending exchange(pid_t pid, Fd in, int out_fd, int err_fd, const ProcessOptions& options, ProcessResult& result) {
    std::string_view input = options.input;
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + options.timeout;
    pollfd fds[3] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}, {in.get(), POLLOUT, 0}};
    std::string* sinks[2] = {&result.out, &result.err};
    if (input.empty()) {
        in = Fd();
        fds[2].fd = -1;
    } else {
        ::fcntl(in.get(), F_SETFL, ::fcntl(in.get(), F_GETFL) | O_NONBLOCK); // write what fits, then read
    }
    Ending ending;
    bool child_gone = false;
    char buffer[16384];
    while (fds[0].fd >= 0 || fds[1].fd >= 0) {
        // Once the child is gone, only what is already in the pipes: a process
        // it left behind may hold them open for as long as it likes.
        const int wait_ms = child_gone ? 0 : 100;
        const int ready = ::poll(fds, 3, wait_ms);
        if (ready < 0 && errno != EINTR) break;
        bool read_any = false;
        for (int i = 0; i < 2 && ready > 0; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                fds[i].fd = -1;
                continue;
            }
            read_any = true;
            std::string& sink = *sinks[i];
            sink.append(buffer, std::min(static_cast<size_t>(n),
                                         options.max_output - std::min(options.max_output, sink.size())));
        }
        if (ready > 0 && fds[2].fd >= 0 && (fds[2].revents & (POLLOUT | POLLHUP | POLLERR))) {
            ssize_t n = ::write(fds[2].fd, input.data(), input.size());
            if (n > 0) input.remove_prefix(static_cast<size_t>(n));
            if ((n < 0 && errno != EINTR && errno != EAGAIN) || input.empty()) { // done, or the child stopped reading
                in = Fd();
                fds[2].fd = -1;
            }
        }
        if (child_gone && !read_any) break;
        if (!child_gone && reaped(pid, ending)) child_gone = true;
        if (!child_gone && options.timeout.count() > 0 && Clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            ending.timed_out = true;
            break;
        }
    }
    if (!child_gone) { // its output closed first, or it was killed: wait for its end
        while (::waitpid(pid, &ending.status, 0) < 0) {
            if (errno == EINTR) continue;
            ending.wait_error = errno;
            break;
        }
        ending.exited = ending.wait_error == 0;
    }
    return ending;
}

// While alive, a write to a pipe whose reader has gone fails with EPIPE in
// this thread instead of raising SIGPIPE, which would end the program.
class SigpipeBlocked {
public:
    SigpipeBlocked() {
        sigemptyset(&pipe_);
        sigaddset(&pipe_, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
    }
    ~SigpipeBlocked() {
        if (!sigismember(&old_, SIGPIPE)) { // else one pending is the caller's, not ours
            timespec none{};
            while (sigtimedwait(&pipe_, nullptr, &none) > 0) {} // consume the one our write raised
        }
        pthread_sigmask(SIG_SETMASK, &old_, nullptr);
    }

private:
    sigset_t pipe_, old_;
};

struct Pipe {
    Fd read, write;
};

Result<Pipe> make_pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        return fail_as(ErrorKind::io, std::string("cannot make a pipe: ") + strerror(errno));
    return Pipe{Fd(fds[0]), Fd(fds[1])};
}

} // namespace

Result<ProcessResult> run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
    if (argv.empty()) return fail("no program to run");
    auto in = make_pipe();
    if (!in) return std::unexpected(in.error());
    auto out = make_pipe();
    if (!out) return std::unexpected(out.error());
    auto err = make_pipe();
    if (!err) return std::unexpected(err.error());

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in->read.get(), 0);
    posix_spawn_file_actions_adddup2(&actions, out->write.get(), 1);
    posix_spawn_file_actions_adddup2(&actions, err->write.get(), 2);

    std::vector<std::string> args = argv;
    std::vector<std::string> vars = merged_environment(options.env, options.unset);
    auto arg_pointers = pointers(args);
    auto var_pointers = pointers(vars);
    pid_t pid = 0;
    int rc = posix_spawnp(&pid, args[0].c_str(), &actions, nullptr, arg_pointers.data(), var_pointers.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return fail_as(ErrorKind::refused, "cannot run " + argv[0] + ": " + strerror(rc));
    in->read = Fd();
    out->write = Fd();
    err->write = Fd();

    ProcessResult result;
    SigpipeBlocked no_sigpipe;
    const Ending ending = exchange(pid, std::move(in->write), out->read.get(), err->read.get(), options, result);
    if (ending.timed_out)
        return fail_as(ErrorKind::timeout, argv[0] + " did not finish within " +
                                               std::to_string(options.timeout.count() / 1000) + " s; stopped it");
    if (!ending.exited)
        return fail_as(ErrorKind::io, "cannot tell how " + argv[0] + " ended: " + strerror(ending.wait_error));
    const int status = ending.status;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return result;
}

std::optional<fs::path> find_on_path(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::string_view rest = path ? path : "/usr/local/bin:/usr/bin:/bin";
    while (true) {
        size_t colon = rest.find(':');
        std::string_view dir = rest.substr(0, colon);
        if (!dir.empty()) {
            fs::path candidate = fs::path(dir) / name;
            struct stat st;
            if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
                return candidate;
        }
        if (colon == std::string_view::npos) return std::nullopt;
        rest.remove_prefix(colon + 1);
    }
}

} // namespace pp
