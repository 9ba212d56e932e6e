#include "pipeline/progress.h"

#include <cstdio>
#include <unistd.h>

namespace pp {

Progress::Progress(std::string label) : label_(std::move(label)), terminal_(::isatty(STDERR_FILENO) != 0) {}

void Progress::update(size_t done, size_t total) {
    std::lock_guard lock(mutex_);
    if (total == 0) return;
    if (terminal_) {
        const int width = 30;
        int filled = static_cast<int>(static_cast<double>(done) / static_cast<double>(total) * width);
        std::fprintf(stderr, "\r%s [%.*s%*s] %zu/%zu", label_.c_str(), filled, "##############################",
                     width - filled, "", done, total);
        std::fflush(stderr);
        drawn_ = true;
        return;
    }
    int tenth = static_cast<int>(done * 10 / total);
    if (tenth == last_tenth_) return;
    last_tenth_ = tenth;
    std::fprintf(stderr, "%s: %zu/%zu\n", label_.c_str(), done, total);
}

void Progress::finish() {
    std::lock_guard lock(mutex_);
    if (terminal_ && drawn_) std::fprintf(stderr, "\n");
    drawn_ = false;
}

} // namespace pp
