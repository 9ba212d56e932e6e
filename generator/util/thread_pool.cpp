#include "util/thread_pool.h"

#include "util/files.h"
#include "util/memory.h"
#include "util/text.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include <sched.h>

namespace pp {

ThreadPool::ThreadPool(unsigned threads, std::size_t heap_bytes) {
    for (unsigned k = 1; k < std::max(1u, threads); ++k)
        threads_.emplace_back([this, heap_bytes] { serve(heap_bytes); });
}

ThreadPool::~ThreadPool() { retire(); }

void ThreadPool::retire() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
}

void ThreadPool::parallel_for(std::size_t n, const std::function<void(std::size_t)>& f) {
    {
        std::unique_lock lock(mutex_);
        if (stopping_) { // retired: the caller alone
            lock.unlock();
            for (std::size_t i = 0; i < n; ++i) f(i);
            return;
        }
        job_ = &f;
        size_ = n;
        next_ = 0;
        busy_ = threads_.size();
        ++round_;
    }
    wake_.notify_all();
    work(f, n);
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return busy_ == 0; });
    job_ = nullptr;
}

void ThreadPool::work(const std::function<void(std::size_t)>& f, std::size_t n) {
    for (std::size_t i; (i = next_.fetch_add(1)) < n;) f(i);
}

void ThreadPool::serve(std::size_t heap_bytes) {
    populate_heap(heap_bytes);
    std::uint64_t seen = 0;
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return stopping_ || round_ != seen; });
        if (stopping_) return;
        seen = round_;
        const auto* f = job_;
        const std::size_t n = size_;
        lock.unlock();
        work(*f, n);
        lock.lock();
        if (--busy_ == 0) done_.notify_one();
    }
}

namespace {

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    return text;
}

std::optional<long long> whole_number(std::string_view text) { return parse_int(trimmed(text)); }

// CPUs a quota of `quota` µs per `period` µs allows, rounded up; none for no limit.
std::optional<unsigned> quota_cpus(std::optional<long long> quota, std::optional<long long> period) {
    if (!quota || !period || *quota <= 0 || *period <= 0) return std::nullopt;
    return static_cast<unsigned>(std::max(1ll, (*quota + *period - 1) / *period));
}

// "150000 100000" -> 2; "max 100000" -> none.
std::optional<unsigned> cgroup2_cpus(std::string_view cpu_max) {
    cpu_max = trimmed(cpu_max);
    const auto space = cpu_max.find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    return quota_cpus(whole_number(cpu_max.substr(0, space)), whole_number(cpu_max.substr(space + 1)));
}

std::string read_small(const char* path) {
    auto text = read_file(path, 4096);
    return text ? *text : std::string();
}

} // namespace

unsigned usable_cpus(const CpuLimits& limits) {
    unsigned cpus = limits.affinity > 0 ? limits.affinity : std::max(1u, std::thread::hardware_concurrency());
    auto quota = cgroup2_cpus(limits.cgroup2_max);
    if (!quota) quota = quota_cpus(whole_number(limits.cgroup1_quota), whole_number(limits.cgroup1_period));
    if (quota) cpus = std::min(cpus, *quota);
    return std::max(1u, cpus);
}

Result<std::optional<unsigned>> jobs_from_environment() {
    const char* env = std::getenv("PAPERPRESS_JOBS");
    if (!env || !*env) return std::nullopt;
    auto n = whole_number(env);
    if (!n || *n < 1) return fail("expected PAPERPRESS_JOBS to be a whole number from 1, got " + excerpt(env));
    return static_cast<unsigned>(std::min<long long>(*n, 256));
}

unsigned job_count(std::optional<unsigned> requested) {
    constexpr unsigned most = 256;
    if (requested && *requested > 0) return std::min(*requested, most);
    if (auto env = jobs_from_environment(); env && *env) return std::min(**env, most);
    return std::min(cpu_count(), most);
}

unsigned cpu_count() {
    cpu_set_t mask;
    CPU_ZERO(&mask);
    const unsigned affinity = ::sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : 0;
    // The process's own cgroup is mounted at /sys/fs/cgroup in a container;
    // on a host, the root's file is absent and only the mask counts.
    const std::string cpu_max = read_small("/sys/fs/cgroup/cpu.max");
    const std::string quota = read_small("/sys/fs/cgroup/cpu/cpu.cfs_quota_us");
    const std::string period = read_small("/sys/fs/cgroup/cpu/cpu.cfs_period_us");
    return usable_cpus({affinity, cpu_max, quota, period});
}

} // namespace pp
