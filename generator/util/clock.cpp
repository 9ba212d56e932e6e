#include "util/clock.h"

#include <thread>

namespace pp {

void Clock::sleep_until(time_point when) {
    auto current = now();
    if (when > current) sleep_for(when - current);
}

namespace {

class RealClock final : public Clock {
public:
    time_point now() override { return std::chrono::steady_clock::now(); }
    void sleep_for(duration length) override { std::this_thread::sleep_for(length); }
    void sleep_until(time_point when) override { std::this_thread::sleep_until(when); }
};

} // namespace

Clock& real_clock() {
    static RealClock clock;
    return clock;
}

} // namespace pp
