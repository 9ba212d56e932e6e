#include "util/memory.h"

#include <cstdint>
#include <cstdlib>
#include <algorithm>
#include <mutex>
#include <vector>

#include <malloc.h>
#include <sys/mman.h>

namespace pp {

void populate_heap(std::size_t bytes, bool huge_pages) {
    constexpr std::size_t block_size = std::size_t{16} << 20; // under keep_freed_memory's mmap threshold
    constexpr std::uintptr_t page = 4096;
    std::vector<void*> blocks;
    for (std::size_t done = 0; done < bytes; done += block_size) {
        const std::size_t size = std::min(block_size, bytes - done);
        void* block = std::malloc(size);
        if (!block) break;
        blocks.push_back(block);
        const std::uintptr_t start = (reinterpret_cast<std::uintptr_t>(block) + page - 1) & ~(page - 1);
        const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(block) + size) & ~(page - 1);
        if (end <= start) continue;
        if (huge_pages) ::madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE); // a hint
#ifdef MADV_POPULATE_WRITE
        ::madvise(reinterpret_cast<void*>(start), end - start, MADV_POPULATE_WRITE); // Linux 5.14+
#endif
    }
    for (void* block : blocks) std::free(block);
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
