#include "util/memory.h"

#include <cstdint>
#include <cstdlib>
#include <mutex>

#include <malloc.h>
#include <sys/mman.h>

namespace pp {

void populate_heap(std::size_t bytes) {
    if (bytes == 0) return;
    void* block = std::malloc(bytes);
    if (!block) return;
    const std::uintptr_t page = 4096;
    const std::uintptr_t start = (reinterpret_cast<std::uintptr_t>(block) + page - 1) & ~(page - 1);
    const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(block) + bytes) & ~(page - 1);
#ifdef MADV_POPULATE_WRITE
    if (end > start) ::madvise(reinterpret_cast<void*>(start), end - start, MADV_POPULATE_WRITE); // Linux 5.14+
#endif
    std::free(block);
}

void keep_freed_memory() {
    static std::once_flag once;
    std::call_once(once, [] {
        mallopt(M_MMAP_THRESHOLD, 64 << 20);
        mallopt(M_TRIM_THRESHOLD, 256 << 20);
        mallopt(M_TOP_PAD, 4 << 20);
    });
}

} // namespace pp
