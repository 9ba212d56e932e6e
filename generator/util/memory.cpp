#include "util/memory.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <stdexcept>
#include <utility>
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

std::size_t huge_page_bytes(std::size_t bytes) {
    constexpr std::size_t huge = std::size_t{2} << 20;
    return (bytes + huge - 1) & ~(huge - 1);
}

// Whole 2 MB pages, aligned to 2 MB: the kernel backs only those with a huge page.
void* map_huge_pages(std::size_t bytes) {
    constexpr std::size_t huge = std::size_t{2} << 20;
    const std::size_t capacity = huge_page_bytes(bytes);
    void* pages = ::mmap(nullptr, capacity + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) throw std::bad_alloc();
    const auto start = reinterpret_cast<std::uintptr_t>(pages);
    const std::uintptr_t aligned = (start + huge - 1) & ~(huge - 1);
    if (aligned > start) ::munmap(pages, aligned - start);
    if (const std::size_t after = start + huge - aligned) ::munmap(reinterpret_cast<void*>(aligned + capacity), after);
    void* data = reinterpret_cast<void*>(aligned);
    ::madvise(data, capacity, MADV_HUGEPAGE); // a hint
    return data;
}

void unmap_huge_pages(void* pages, std::size_t bytes) {
    if (pages) ::munmap(pages, huge_page_bytes(bytes));
}

PageBuffer::PageBuffer(std::size_t capacity) {
    if (capacity == 0) return;
    data_ = map_huge_pages(capacity);
    capacity_ = huge_page_bytes(capacity);
}

PageBuffer::PageBuffer(PageBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)) {}

PageBuffer& PageBuffer::operator=(PageBuffer&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
        capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
}

PageBuffer::~PageBuffer() { release(); }

void PageBuffer::release() { unmap_huge_pages(std::exchange(data_, nullptr), capacity_); }

void PageBuffer::resize(std::size_t size) {
    if (size > capacity_) throw std::length_error("PageBuffer::resize beyond its capacity");
    size_ = size;
}

void PageBuffer::append(std::string_view bytes) {
    if (bytes.size() > capacity_ - size_) throw std::length_error("PageBuffer::append beyond its capacity");
    if (!bytes.empty()) std::memcpy(data() + size_, bytes.data(), bytes.size());
    size_ += bytes.size();
}

Shelf::Item::Item(Item&& other) noexcept
    : shelf_(std::exchange(other.shelf_, nullptr)), block_(other.block_), bytes_(other.bytes_) {}

Shelf::Item& Shelf::Item::operator=(Item&& other) noexcept {
    if (this != &other) {
        drop();
        shelf_ = std::exchange(other.shelf_, nullptr);
        block_ = other.block_;
        bytes_ = other.bytes_;
    }
    return *this;
}

Shelf::Item::~Item() { drop(); }

void Shelf::Item::drop() {
    if (Shelf* shelf = std::exchange(shelf_, nullptr)) shelf->drop(block_);
}

Shelf::Item Shelf::put(std::string_view bytes) {
    if (bytes.empty()) return Item();
    std::lock_guard lock(mutex_);
    Block* block = current_ < blocks_.size() ? blocks_[current_].get() : nullptr;
    if (block && block->items == 0) block->buffer.resize(0); // all its bytes were dropped: fill it again
    if (!block || block->buffer.capacity() - block->buffer.size() < bytes.size()) {
        if (block && block->items == 0) blocks_[current_].reset();
        const auto slot = std::find(blocks_.begin(), blocks_.end(), nullptr); // a dropped block's
        current_ = static_cast<std::size_t>(slot - blocks_.begin());
        if (slot == blocks_.end()) blocks_.emplace_back();
        blocks_[current_] = std::make_unique<Block>(Block{PageBuffer(std::max(block_size_, bytes.size())), 0});
        block = blocks_[current_].get();
    }
    const std::size_t at = block->buffer.size();
    block->buffer.append(bytes);
    ++block->items;
    return Item(this, current_, block->buffer.view().substr(at));
}

void Shelf::drop(std::size_t block) {
    std::lock_guard lock(mutex_);
    if (--blocks_[block]->items == 0 && block != current_) blocks_[block].reset();
}

std::size_t Shelf::blocks_held() const {
    std::lock_guard lock(mutex_);
    std::size_t held = 0;
    for (const auto& block : blocks_) held += block != nullptr;
    return held;
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
