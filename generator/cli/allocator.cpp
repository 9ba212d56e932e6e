// The program's allocator is jemalloc (linked in by generator/CMakeLists.txt),
// which a build spends a tenth less time in than glibc's; these are its
// settings, read before main. An arena per CPU rather than one per thread
// (as glibc's and jemalloc's default do): what the heap holds follows the
// CPUs the build runs on, not how many workers `--jobs` asks for. Freed
// pages go back after a second instead of ten (docs/performance.md).
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "percpu_arena:percpu,dirty_decay_ms:1000";
}
