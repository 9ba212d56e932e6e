// util/backoff: the one schedule every retry loop waits by.
#include "test_support.h"
#include "util/backoff.h"

#include <doctest/doctest.h>

using namespace pp;
using namespace pp::test;
using namespace std::chrono_literals;

TEST_CASE("backoff: the steps double up to the cap; without jitter they are exact") {
    FakeClock clock;
    Backoff backoff({100ms, 350ms, false});
    std::vector<Clock::duration> waits;
    for (int i = 0; i < 4; ++i) waits.push_back(*backoff.next(clock));
    CHECK(waits == std::vector<Clock::duration>{100ms, 200ms, 350ms, 350ms});
}

TEST_CASE("backoff: jitter waits half to all of each step, the same for the same seed") {
    FakeClock clock;
    Backoff first({1000ms, 8000ms, true, 42}), again({1000ms, 8000ms, true, 42});
    for (auto step : {1000ms, 2000ms, 4000ms, 8000ms}) {
        const auto wait = *first.next(clock);
        CHECK(wait >= step / 2);
        CHECK(wait <= step);
        CHECK(*again.next(clock) == wait);
    }
}

TEST_CASE("backoff: a delay the peer asked for wins, with at most an eighth of the step (2 s at most) added") {
    FakeClock clock;
    Backoff exact({100ms, 1000ms, false});
    CHECK(*exact.next(clock, 5000ms) == 5000ms);
    Backoff jittered({1000ms, 60000ms, true, 7});
    const auto wait = *jittered.next(clock, 30000ms);
    CHECK(wait >= 30000ms);
    CHECK(wait <= 30000ms + 125ms);
}

TEST_CASE("backoff: no wait ends after the deadline, as the clock counts") {
    FakeClock clock;
    Backoff backoff({1000ms, 1000ms, false}, clock.now() + 2500ms);
    REQUIRE(backoff.next(clock));
    clock.advance(1000ms);
    REQUIRE(backoff.next(clock));
    clock.advance(1000ms);
    CHECK_FALSE(backoff.next(clock));                            // 2 s gone: a third second would end at 3 s
    CHECK(backoff.next(clock, 100ms) == Clock::duration(100ms)); // a short asked delay still fits
}

TEST_CASE("backoff: a delay asked for beyond what the clock can count is past any deadline, never a negative wait") {
    FakeClock clock;
    // Retry-After: 9300000000 (295 years): its nanoseconds overflow the clock's 64 bits.
    const std::chrono::milliseconds asked(9'300'000'000'000);
    Backoff bounded({1000ms, 1000ms, false}, clock.now() + 1h);
    CHECK_FALSE(bounded.next(clock, asked));
    Backoff unbounded({1000ms, 1000ms, false});
    CHECK_FALSE(unbounded.next(clock, asked));
    CHECK(unbounded.next(clock, 86'400'000ms) == Clock::duration(24h)); // a long wait that fits is kept
}
