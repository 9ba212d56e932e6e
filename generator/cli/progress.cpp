#include "cli/progress.h"

#include <cstdio>
#include <unistd.h>

namespace pp {

ProgressLine::ProgressLine() : terminal_(::isatty(STDERR_FILENO) != 0) {}

void ProgressLine::update(const std::string& task, size_t done, size_t total) {
    std::lock_guard lock(mutex_);
    if (total == 0) return;
    if (task != task_) {
        end_locked();
        task_ = task;
        last_tenth_ = -1;
    }
    if (terminal_) {
        const int width = 30;
        int filled = static_cast<int>(static_cast<double>(done) / static_cast<double>(total) * width);
        std::fprintf(stderr, "\r%s [%.*s%*s] %zu/%zu", task.c_str(), filled, "##############################",
                     width - filled, "", done, total);
        std::fflush(stderr);
        drawn_ = true;
        return;
    }
    int tenth = static_cast<int>(done * 10 / total);
    if (tenth == last_tenth_) return;
    last_tenth_ = tenth;
    std::fprintf(stderr, "%s: %zu/%zu\n", task.c_str(), done, total);
}

void ProgressLine::end() {
    std::lock_guard lock(mutex_);
    end_locked();
}

void ProgressLine::end_locked() {
    if (terminal_ && drawn_) std::fprintf(stderr, "\n");
    drawn_ = false;
}

} // namespace pp
