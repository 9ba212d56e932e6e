#include "util/backoff.h"

#include <algorithm>

namespace pp {

namespace {

std::uint_fast32_t seed_of(std::uint64_t seed) {
    return seed != 0 ? static_cast<std::uint_fast32_t>(seed) : std::random_device{}();
}

} // namespace

Backoff::Backoff(Schedule schedule, Clock::time_point deadline)
    : schedule_(schedule), deadline_(deadline), step_(schedule.first), random_(seed_of(schedule.seed)) {}

std::optional<Clock::duration> Backoff::next(Clock& clock, std::optional<std::chrono::milliseconds> asked) {
    auto step = std::min(step_, schedule_.cap);
    step_ = std::min(step_ * 2, schedule_.cap);
    if (schedule_.jitter) {
        std::uniform_int_distribution<long long> spread(step.count() / 2, std::max(step.count() / 2, step.count()));
        step = std::chrono::milliseconds(spread(random_));
    }
    // What is left before the deadline, in milliseconds first: an asked delay
    // (Retry-After: 999999999999) may not fit the clock's nanoseconds.
    const Clock::duration left = deadline_ - clock.now();
    if (asked && *asked > std::chrono::duration_cast<std::chrono::milliseconds>(left)) return std::nullopt;
    Clock::duration wait = step;
    if (asked) {
        using namespace std::chrono_literals;
        wait = *asked + (schedule_.jitter ? std::min<Clock::duration>(step / 8, 2s) : Clock::duration{});
    }
    if (wait > left) return std::nullopt;
    return wait;
}

} // namespace pp
