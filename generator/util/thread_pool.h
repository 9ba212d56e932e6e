// A fixed set of threads for one job made of independent pieces (the site
// build), the caller being one of them; and how many threads to start.
#pragma once

#include "util/error.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <vector>

namespace pp {

class ThreadPool {
public:
    // `threads` in all, counting the caller (at least 1). The others live as
    // long as the pool, so each one's heap (glibc gives every thread its own)
    // is populated once with `heap_bytes` (util/memory.h), rather than
    // faulted in by every parallel loop.
    ThreadPool(unsigned threads, std::size_t heap_bytes);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    unsigned size() const { return static_cast<unsigned>(threads_.size()) + 1; }

    // Runs f(0..n-1) on every thread; returns when all are done. Not nested.
    void parallel_for(std::size_t n, const std::function<void(std::size_t)>& f);

    // Lets the other threads exit while the caller goes on; after it,
    // parallel_for runs on the caller alone. The destructor joins them: a
    // thread takes about a millisecond to wake, free its heap and exit, so a
    // caller with work left retires the pool first. Called by the pool's
    // owner between loops, never while one runs.
    void retire();

private:
    void work(const std::function<void(std::size_t)>& f, std::size_t n);
    void serve(std::size_t heap_bytes);

    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(std::size_t)>* job_ = nullptr;
    std::size_t size_ = 0;
    std::atomic<std::size_t> next_{0};
    std::size_t busy_ = 0; // threads still on this round
    std::uint64_t round_ = 0;
    bool stopping_ = false;
    std::vector<std::jthread> threads_; // last: joined before the rest is destroyed
};

// What decides how many CPUs this process may use, as the kernel shows it.
struct CpuLimits {
    unsigned affinity = 0;           // CPUs in sched_getaffinity's mask (0: unknown)
    std::string_view cgroup2_max;    // /sys/fs/cgroup/cpu.max: "max 100000" or "150000 100000"
    std::string_view cgroup1_quota;  // cpu.cfs_quota_us: "-1" or "150000"
    std::string_view cgroup1_period; // cpu.cfs_period_us: "100000"
};

// The CPUs `limits` allow: the affinity mask's count, lowered to a CPU
// quota rounded up (1.5 CPUs: 2), at least 1.
unsigned usable_cpus(const CpuLimits& limits);

// The CPUs this process may use: its affinity mask's, lowered to its
// cgroup's quota (usable_cpus() of what the kernel shows).
unsigned cpu_count();

// $PAPERPRESS_JOBS: none when unset, or an error naming a value that is not
// a whole number from 1 (job_count() then ignores it; the CLI warns).
Result<std::optional<unsigned>> jobs_from_environment();

// The threads for a job: `requested` (--jobs) if given, else
// $PAPERPRESS_JOBS if it is a whole number from 1, else the CPUs this process
// may use (its affinity mask and its cgroup's quota). Never more than 256.
unsigned job_count(std::optional<unsigned> requested = std::nullopt);

} // namespace pp
