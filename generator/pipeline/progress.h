// Progress on long work: a redrawn bar on a terminal, plain lines otherwise
// (CI logs), at most one line per tenth of the work.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>

namespace pp {

class Progress {
public:
    explicit Progress(std::string label);
    void update(size_t done, size_t total);
    void finish();

private:
    std::mutex mutex_;
    std::string label_;
    bool terminal_;
    int last_tenth_ = -1;
    bool drawn_ = false;
};

} // namespace pp
