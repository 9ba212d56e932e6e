#include "score/rate_limit.h"

#include <algorithm>
#include <cmath>

namespace pp {

namespace {

double seconds(Clock::duration length) { return std::chrono::duration<double>(length).count(); }

Clock::duration from_seconds(double value) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(value));
}

// A count for people, rounded up: "4000000001", never "4e+09".
std::string whole(double value) { return std::to_string(std::llround(std::ceil(std::clamp(value, 0.0, 1e18)))); }

} // namespace

RateLimiter::RateLimiter(int requests_per_minute, long long tokens_per_minute, Clock& clock, Clock::time_point deadline)
    : clock_(clock), interval_(requests_per_minute > 0 ? Clock::duration(std::chrono::minutes(1)) / requests_per_minute
                                                       : Clock::duration::zero()),
      budget_configured_(tokens_per_minute > 0),
      tokens_per_second_(tokens_per_minute > 0 ? static_cast<double>(tokens_per_minute) / 60.0 : 0.0),
      capacity_(static_cast<double>(std::max<long long>(0, tokens_per_minute))), available_(capacity_),
      counted_at_(clock.now()), next_start_(counted_at_), paused_until_(counted_at_), deadline_(deadline) {}

void RateLimiter::refill_to(Clock::time_point when) {
    if (when <= counted_at_) return;
    available_ = std::min(capacity_, available_ + tokens_per_second_ * seconds(when - counted_at_));
    counted_at_ = when;
}

// The earliest start for a request of `tokens`, its slot and tokens taken;
// an error, nothing taken, when it is after the deadline.
Result<Clock::time_point> RateLimiter::reserve(long long tokens, bool& charged) {
    const Clock::time_point now = clock_.now();
    Clock::time_point start = std::max({now, next_start_, paused_until_});
    charged = tokens_per_second_ > 0;
    double token_wait = 0; // seconds until the budget holds the request
    if (charged) {
        // Tokens are reserved in order: never start before the last reservation.
        start = std::max(start, counted_at_);
        refill_to(start);
        // A tenth of the budget stays in hand: requests reach the endpoint a little after their
        // start (queues, retries), and it counts them on arrival.
        double need = std::min(static_cast<double>(tokens) + capacity_ / 10, capacity_);
        token_wait = std::max(0.0, (need - available_) / tokens_per_second_);
    }
    // Compared in seconds: an overdrawn budget's wait may not fit the clock's nanoseconds.
    if (start > deadline_ || token_wait > seconds(deadline_ - start))
        return std::unexpected(too_late(seconds(start - now) + token_wait, token_wait > 0));
    if (charged) {
        start += from_seconds(token_wait);
        refill_to(start);
        available_ -= static_cast<double>(tokens);
    }
    next_start_ = start + interval_;
    return start;
}

// "the next request would wait 360000 s for the token budget of 1 a minute
// (...)": what holds it, for the person reading why the LLM stopped.
Error RateLimiter::too_late(double wait_seconds, bool for_tokens) const {
    std::string why;
    if (for_tokens) {
        why = "the token budget of " + whole(capacity_) + " a minute (" +
              (budget_configured_ ? "llm.tokens_per_minute" : "the endpoint's x-ratelimit-limit-tokens header") + ")";
        if (available_ < 0)
            why += ", overdrawn by " + whole(-available_) + " tokens (replies' usage: up to " +
                   std::to_string(largest_usage_) + " a reply)";
    } else {
        why = paused_until_ > deadline_ ? "the wait the endpoint asked for" : "llm.requests_per_minute";
    }
    return Error{{}, 0, "the next request would wait " + whole(wait_seconds) + " s for " + why, ErrorKind::refused};
}

Result<long long> RateLimiter::acquire(long long tokens) {
    for (;;) {
        bool charged = false;
        unsigned long long generation;
        Result<Clock::time_point> start;
        {
            std::lock_guard lock(mutex_);
            generation = generation_;
            start = reserve(tokens, charged);
        }
        if (!start) return std::unexpected(start.error());
        clock_.sleep_until(*start);
        std::lock_guard lock(mutex_);
        if (generation == generation_) return charged ? tokens : 0;
        // A 429 or a learnt budget came in while this request waited: queue again.
        if (charged) available_ = std::min(capacity_, available_ + static_cast<double>(tokens));
    }
}

void RateLimiter::settle(long long charged, long long used) {
    std::lock_guard lock(mutex_);
    largest_usage_ = std::max(largest_usage_, used);
    if (tokens_per_second_ <= 0) return;
    available_ = std::min(capacity_, available_ + static_cast<double>(charged - used));
}

void RateLimiter::hold_off(Clock::duration delay) {
    std::lock_guard lock(mutex_);
    paused_until_ = std::max(paused_until_, clock_.now() + delay);
    ++generation_;
}

void RateLimiter::learn_token_budget(long long per_minute, long long remaining) {
    if (budget_configured_ || per_minute <= 0) return;
    std::lock_guard lock(mutex_);
    if (tokens_per_second_ > 0) return; // learnt already
    capacity_ = static_cast<double>(per_minute);
    tokens_per_second_ = capacity_ / 60.0;
    counted_at_ = std::max(counted_at_, clock_.now());
    available_ = std::clamp(static_cast<double>(remaining), 0.0, capacity_);
    ++generation_;
}

long long TokenEstimate::estimate(size_t prompt_bytes, size_t papers) {
    std::lock_guard lock(mutex_);
    // Until replies say otherwise: about 3 bytes a token (English is nearer 4), 150 reply tokens a paper.
    double bytes_per_token = prompt_tokens_ > 0 ? std::clamp(prompt_bytes_ / prompt_tokens_, 1.0, 8.0) : 3.0;
    double per_paper = papers_ > 0 ? completion_tokens_ / papers_ : 150.0;
    // 10% over the learnt rates: charging a little too much costs a short wait, too little a 429.
    return static_cast<long long>(
               1.1 * (static_cast<double>(prompt_bytes) / bytes_per_token + per_paper * static_cast<double>(papers))) +
           1;
}

void TokenEstimate::learn(size_t prompt_bytes, size_t papers, long long prompt_tokens, long long completion_tokens) {
    if (prompt_tokens <= 0) return; // no usage: nothing to learn from
    std::lock_guard lock(mutex_);
    prompt_bytes_ += static_cast<double>(prompt_bytes);
    prompt_tokens_ += static_cast<double>(prompt_tokens);
    papers_ += static_cast<double>(papers);
    completion_tokens_ += static_cast<double>(completion_tokens);
}

} // namespace pp
