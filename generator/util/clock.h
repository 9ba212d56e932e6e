// The passage of time as a seam (LevelDB's Env, ninja's DiskInterface): code
// that waits (backoff, rate limits, polite intervals) asks a Clock, so tests
// can hand it a fake one whose sleeps advance time at once.
#pragma once

#include <chrono>

namespace pp {

class Clock {
public:
    using time_point = std::chrono::steady_clock::time_point;
    using duration = std::chrono::steady_clock::duration;

    virtual ~Clock() = default;
    virtual time_point now() = 0;
    virtual void sleep_for(duration length) = 0;
    // Sleeps until `when`; at once when it has passed.
    virtual void sleep_until(time_point when);
};

// The steady clock and real sleeps: the default everywhere.
Clock& real_clock();

} // namespace pp
