// util/subprocess: running a program, feeding it and reading it, on real
// programs of the system (sh, cat, head, true).
#include "util/subprocess.h"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>

#include <pthread.h>
#include <signal.h>

using namespace pp;

TEST_CASE("run_process: what goes in comes out, however large, with neither side waiting on the other") {
    std::string input;
    for (int i = 0; input.size() < (3 << 20); ++i) input += "line " + std::to_string(i) + "\n";
    ProcessOptions options;
    options.input = input;
    options.max_output = 8 << 20;
    auto ran = run_process({"cat"}, options);
    REQUIRE(ran);
    CHECK(ran->exit_code == 0);
    CHECK(ran->out == input);
    CHECK(ran->err.empty());
}

TEST_CASE("run_process: output past the limit is read and dropped, so the child finishes") {
    ProcessOptions options;
    options.max_output = 1000;
    auto ran = run_process({"head", "-c", "5000000", "/dev/zero"}, options);
    REQUIRE(ran);
    CHECK(ran->exit_code == 0);
    CHECK(ran->out.size() == 1000);
}

TEST_CASE("run_process: a child that never reads its input does not end this process") {
    ProcessOptions options;
    options.input = std::string(4 << 20, 'x'); // more than a pipe holds
    auto ran = run_process({"true"}, options);
    REQUIRE(ran);
    CHECK(ran->exit_code == 0);
}

TEST_CASE("run_process: the environment is this process's with the given variables set over it") {
    setenv("PP_SUBPROCESS_KEPT", "kept", 1);
    setenv("PP_SUBPROCESS_SET", "old", 1);
    ProcessOptions options;
    options.env = {"PP_SUBPROCESS_SET=new", "PP_SUBPROCESS_ADDED=a=b"};
    auto ran = run_process({"sh", "-c", "echo $PP_SUBPROCESS_KEPT $PP_SUBPROCESS_SET $PP_SUBPROCESS_ADDED"}, options);
    unsetenv("PP_SUBPROCESS_KEPT");
    unsetenv("PP_SUBPROCESS_SET");
    REQUIRE(ran);
    CHECK(ran->out == "kept new a=b\n");
}

TEST_CASE("run_process: the exit code and standard error are the child's; a missing program is an error") {
    auto ran = run_process({"sh", "-c", "echo out; echo oops >&2; exit 3"});
    REQUIRE(ran);
    CHECK(ran->exit_code == 3);
    CHECK(ran->out == "out\n");
    CHECK(ran->err == "oops\n");

    auto killed = run_process({"sh", "-c", "kill -9 $$"});
    REQUIRE(killed);
    CHECK(killed->exit_code == 128 + 9);

    auto missing = run_process({"pp-no-such-program-7f3"});
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.find("pp-no-such-program-7f3") != std::string::npos);
}

TEST_CASE("find_on_path: an executable file on PATH, or nothing") {
    auto sh = find_on_path("sh");
    REQUIRE(sh);
    CHECK(sh->filename() == "sh");
    CHECK(sh->is_absolute());
    CHECK_FALSE(find_on_path("pp-no-such-program-7f3"));
}

TEST_CASE("run_process: it ends when the child does, not when what the child left behind lets go of its output") {
    const auto started = std::chrono::steady_clock::now();
    auto ran = run_process({"sh", "-c", "sleep 30 & echo started; exit 4"});
    REQUIRE(ran);
    CHECK(ran->exit_code == 4);
    CHECK(ran->out == "started\n");
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
}

TEST_CASE("run_process: a child that outlives its timeout is stopped, and the run is an error") {
    ProcessOptions options;
    options.timeout = std::chrono::milliseconds(300);
    auto ran = run_process({"sleep", "30"}, options);
    REQUIRE_FALSE(ran);
    CHECK(ran.error().kind == ErrorKind::timeout);
    CHECK(ran.error().message.find("sleep") != std::string::npos);
}

TEST_CASE("run_process: variables can be taken out of the child's environment, by name or by prefix") {
    setenv("PP_SUBPROCESS_GONE", "x", 1);
    setenv("PP_SUBPROCESS_PREFIX_A", "y", 1);
    setenv("PP_SUBPROCESS_STAYS", "z", 1);
    ProcessOptions options;
    options.unset = {"PP_SUBPROCESS_GONE", "PP_SUBPROCESS_PREFIX_*"};
    auto ran = run_process({"sh", "-c",
                            "echo ${PP_SUBPROCESS_GONE-unset} ${PP_SUBPROCESS_PREFIX_A-unset} "
                            "${PP_SUBPROCESS_STAYS-unset}"},
                           options);
    unsetenv("PP_SUBPROCESS_GONE");
    unsetenv("PP_SUBPROCESS_PREFIX_A");
    unsetenv("PP_SUBPROCESS_STAYS");
    REQUIRE(ran);
    CHECK(ran->out == "unset unset z\n");
}

TEST_CASE("run_process: a SIGPIPE the caller holds pending is left to it") {
    sigset_t pipe, old, pending;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe, &old);
    pthread_kill(pthread_self(), SIGPIPE); // pending: this thread blocks it
    ProcessOptions options;
    options.input = std::string(4 << 20, 'x');
    auto ran = run_process({"true"}, options);
    sigpending(&pending);
    const bool still_pending = sigismember(&pending, SIGPIPE) == 1;
    timespec none{};
    while (sigtimedwait(&pipe, nullptr, &none) > 0) {}
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    REQUIRE(ran);
    CHECK(still_pending);
}
