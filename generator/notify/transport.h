// What every notification transport shares: how hard to try.
#pragma once

#include "util/clock.h"

#include <chrono>
#include <functional>
#include <string>

namespace pp {

struct SendOptions {
    int attempts = 4;                         // first try + retries
    std::chrono::milliseconds backoff{2000};  // before the first retry; doubles (util/backoff.h)
    std::chrono::milliseconds timeout{30000}; // per attempt
    // Called before each retry with the reason. The reason may name the
    // endpoint: callers redact secrets before showing it.
    std::function<void(const std::string&)> on_retry;
    Clock* clock = nullptr; // every wait goes through it; nullptr: real_clock()
};

} // namespace pp
