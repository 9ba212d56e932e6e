// The program's allocator is jemalloc when the build found it
// (generator/CMakeLists.txt): a full build is a ninth faster than with
// glibc's. These are its settings, read before main. An arena per CPU,
// where both allocators' defaults give threads arenas of their own: what
// the heaps hold follows the CPUs the build runs on, not how many workers
// `--jobs` asks for. Freed pages go back after a second instead of ten
// (docs/performance.md).
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "percpu_arena:percpu,dirty_decay_ms:1000";
}
