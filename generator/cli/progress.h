// Progress on long work, for a person: a redrawn bar on a terminal, plain
// lines otherwise (CI logs), at most one line per tenth of the work. The
// pipeline only reports (RunRequest::progress); how it is shown is the CLI's.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>

namespace pp {

class ProgressLine {
public:
    ProgressLine();
    // `done` of `total` of `task`; a new task starts its own line.
    void update(const std::string& task, size_t done, size_t total);
    // Ends a drawn bar's line, so that other output starts on a line of its own.
    void end();

private:
    void end_locked();
    std::mutex mutex_;
    bool terminal_;
    std::string task_;
    int last_tenth_ = -1;
    bool drawn_ = false;
};

} // namespace pp
