// How long to wait before trying again, for every retry loop (the HTTP
// client, the LLM session, SMTP): an exponential schedule, optionally with
// jitter from a seeded source, a delay the peer asked for honoured, and a
// deadline no wait may pass. The waiting itself goes through the Clock, so
// tests use a fake one.
#pragma once

#include "util/clock.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <random>

namespace pp {

class Backoff {
public:
    struct Schedule {
        std::chrono::milliseconds first;
        std::chrono::milliseconds cap; // no step waits longer
        // Full jitter: each step waits a random time from half to all of it,
        // so clients refused together do not come back together.
        bool jitter = true;
        std::uint64_t seed = 0; // of the jitter; 0: a random seed
    };

    explicit Backoff(Schedule schedule, Clock::time_point deadline = Clock::time_point::max());

    // The next wait, and the step doubles. `asked`: the delay the peer asked
    // for (Retry-After), which wins over the step, plus (with jitter) a little
    // of the step so that the clients it told do not return at once. Nothing
    // when the wait would end after the deadline, as `clock` counts (without
    // one: after the clock's last time point, so no delay overflows it).
    std::optional<Clock::duration> next(Clock& clock, std::optional<std::chrono::milliseconds> asked = std::nullopt);

private:
    Schedule schedule_;
    Clock::time_point deadline_;
    std::chrono::milliseconds step_;
    std::minstd_rand random_;
};

} // namespace pp
