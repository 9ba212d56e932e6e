// Pacing for an LLM endpoint's limits, shared by the scorer's workers:
// requests per minute, a token budget per minute (a bucket that refills
// continuously, as providers count), and a pause for everyone when the
// endpoint says to wait, none of it past the run's deadline for waiting
// (llm.max_wait_minutes). Plus the estimate of a request's tokens that the
// budget is charged with, learnt from the replies' usage. The waits between
// retries are util/backoff.h's.
#pragma once

#include "util/clock.h"
#include "util/error.h"

#include <chrono>
#include <mutex>
#include <random>

namespace pp {

class RateLimiter {
public:
    // 0 for either limit: none. No request starts after `deadline`.
    RateLimiter(int requests_per_minute, long long tokens_per_minute = 0, Clock& clock = real_clock(),
                Clock::time_point deadline = Clock::time_point::max());

    // Waits for a request slot and `tokens` of the token budget, first come
    // first served. A request larger than the whole budget waits for a full one.
    // A wait the endpoint asks for meanwhile (hold_off, a learnt budget)
    // sends it back to the queue. Returns the tokens charged (0 without a budget),
    // or at once, without waiting, an error naming the wait and what asks for
    // it when the request could not start by the deadline (a budget of 1 token
    // a minute announced, a reply's usage claiming 10^12 tokens).
    Result<long long> acquire(long long tokens = 0);
    // Corrects the budget once a request's real cost is known: `used` is 0
    // for a request the endpoint refused (429), the reply's usage otherwise.
    void settle(long long charged, long long used);
    // The endpoint asked to wait: no request starts before now + `delay`.
    void hold_off(Clock::duration delay);
    // The endpoint told its token budget (x-ratelimit-limit-tokens and
    // -remaining-tokens): kept from then on, unless one was configured.
    void learn_token_budget(long long per_minute, long long remaining);

private:
    void refill_to(Clock::time_point when);
    Result<Clock::time_point> reserve(long long tokens, bool& charged);
    Error too_late(double wait_seconds, bool for_tokens) const;

    Clock& clock_;
    std::mutex mutex_;
    Clock::duration interval_;
    bool budget_configured_;
    double tokens_per_second_;
    double capacity_;
    double available_;
    Clock::time_point counted_at_; // when `available_` was last brought up to date
    Clock::time_point next_start_; // the earliest start of the next request
    Clock::time_point paused_until_;
    Clock::time_point deadline_;
    long long largest_usage_ = 0;       // the most tokens a reply's usage claimed, for the error
    unsigned long long generation_ = 0; // changes when the endpoint's word changes the plan
};

// A request's tokens before it is sent: the prompt's bytes at the learnt
// bytes per token, and the learnt reply tokens per paper, with a margin.
// Starts pessimistic (3 bytes a token, 150 reply tokens a paper).
class TokenEstimate {
public:
    long long estimate(size_t prompt_bytes, size_t papers);
    void learn(size_t prompt_bytes, size_t papers, long long prompt_tokens, long long completion_tokens);

private:
    std::mutex mutex_;
    double prompt_bytes_ = 0, prompt_tokens_ = 0; // summed over replies with usage
    double papers_ = 0, completion_tokens_ = 0;
};

} // namespace pp
