#include "util/memory.h"

#include <cstdint>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>
#include <utility>
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

// Whole 2 MB pages, aligned to 2 MB: the kernel backs only those with a huge page.
PageBuffer::PageBuffer(std::size_t capacity) {
    if (capacity == 0) return;
    constexpr std::size_t huge = std::size_t{2} << 20;
    capacity = (capacity + huge - 1) & ~(huge - 1);
    void* pages = ::mmap(nullptr, capacity + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) throw std::bad_alloc();
    const auto start = reinterpret_cast<std::uintptr_t>(pages);
    const std::uintptr_t aligned = (start + huge - 1) & ~(huge - 1);
    if (aligned > start) ::munmap(pages, aligned - start);
    if (const std::size_t after = start + huge - aligned) ::munmap(reinterpret_cast<void*>(aligned + capacity), after);
    data_ = reinterpret_cast<void*>(aligned);
    ::madvise(data_, capacity, MADV_HUGEPAGE); // a hint
    capacity_ = capacity;
}

PageBuffer::PageBuffer(PageBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)) {}

PageBuffer& PageBuffer::operator=(PageBuffer&& other) noexcept {
    if (this != &other) {
        this->~PageBuffer();
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
        capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
}

PageBuffer::~PageBuffer() {
    if (data_) ::munmap(data_, capacity_);
}

void PageBuffer::resize(std::size_t size) {
    if (size > capacity_) throw std::length_error("PageBuffer::resize beyond its capacity");
    size_ = size;
}

void PageBuffer::append(std::string_view bytes) {
    if (bytes.size() > capacity_ - size_) throw std::length_error("PageBuffer::append beyond its capacity");
    if (!bytes.empty()) std::memcpy(data() + size_, bytes.data(), bytes.size());
    size_ += bytes.size();
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
