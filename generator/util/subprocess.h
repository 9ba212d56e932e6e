// Running another program and collecting what it says: for the one place
// paperpress hands work to a tool it did not write (a push with git's own
// client, publish/push_git.cpp).
#pragma once

#include "util/error.h"
#include "util/files.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace pp {

struct ProcessResult {
    int exit_code = 0; // 128 + the signal's number when a signal ended it
    std::string out;   // its standard output, at most ProcessOptions::max_output bytes
    std::string err;   // its standard error, the same
};

struct ProcessOptions {
    std::vector<std::string> env;         // "NAME=value", set over this process's environment
    std::vector<std::string> unset;       // names taken out of it; "NAME_*" takes every name that starts so
    std::string input;                    // its standard input (then end of file)
    size_t max_output = 1 << 20;          // more is read and dropped, so the child never blocks on a full pipe
    std::chrono::milliseconds timeout{0}; // then it is killed and the run is an error; 0: no limit
};

// Runs `argv` (argv[0] looked up on PATH) and waits for it: until it exits,
// not until whatever it started lets go of its output. An error when it
// cannot be started, when it outlives the timeout, or when its end cannot be
// read; a nonzero exit is the caller's to judge.
Result<ProcessResult> run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// The full path of `name` on PATH (an executable regular file), or nothing.
std::optional<fs::path> find_on_path(const std::string& name);

} // namespace pp
