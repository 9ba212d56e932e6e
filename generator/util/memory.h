// Process-wide memory tuning for programs that allocate and free many
// page-sized strings on several threads (the site build).
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

namespace pp {

// glibc's defaults hand freed memory back to the kernel and fault it in
// again page by page, which cost a full build more time than rendering.
// Keeps freed memory for reuse (a few MB of peak memory). Once per process.
// (The paperpress program allocates with jemalloc, whose own settings are in
// cli/allocator.cpp; this tunes glibc's allocator, for the tests and a
// build without jemalloc.)
void keep_freed_memory();

// Faults in `bytes` of the calling thread's heap in one call and frees them
// for reuse: where a page fault costs about 10 µs (small virtual machines),
// faulting a heap in page by page costs more than a small build's work.
// (Under jemalloc the pages go to the arena of the CPU the thread runs on,
// which reuses them for what it allocates next.)
// Size it to the work the thread will do; 0 does nothing. In blocks of at
// most 16 MB, so that after keep_freed_memory() they come from the heap and
// stay. `huge_pages` asks the kernel to back them with 2 MB pages (for a
// large index read at once).
void populate_heap(std::size_t bytes, bool huge_pages = false);

// `bytes` rounded up to whole 2 MB pages; pages of their own of that size,
// aligned and asked to be huge (throws std::bad_alloc when mmap fails); and
// their release (nullptr: nothing).
std::size_t huge_page_bytes(std::size_t bytes);
void* map_huge_pages(std::size_t bytes);
void unmap_huge_pages(void* pages, std::size_t bytes);

// An allocator for a run's large arrays (the learned scorer's: a few hundred
// megabytes touched once, where faulting them in 4 KB at a time costs nearly
// as much as the work): from 4 MB up on huge pages of their own, below from
// the heap.
template <class T>
struct HugePageAllocator {
    using value_type = T;
    static constexpr std::size_t threshold = std::size_t{4} << 20;
    HugePageAllocator() = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>&) {}
    T* allocate(std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        return static_cast<T*>(bytes < threshold ? ::operator new(bytes) : map_huge_pages(bytes));
    }
    void deallocate(T* p, std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < threshold) ::operator delete(p);
        else unmap_huge_pages(p, bytes);
    }
    friend bool operator==(const HugePageAllocator&, const HugePageAllocator&) { return true; }
};

// A large buffer on pages of its own, given back to the kernel when it
// goes. For buffers of megabytes made now and then by any thread (a month's
// data file): from the heap, each thread's arena would keep the largest it
// ever held for the rest of the process, and memory would grow with the
// number of threads. Asks for 2 MB pages, so it faults in a few steps.
class PageBuffer {
public:
    explicit PageBuffer(std::size_t capacity); // 0: no pages; throws std::bad_alloc when mmap fails
    PageBuffer(PageBuffer&& other) noexcept;
    PageBuffer& operator=(PageBuffer&& other) noexcept;
    PageBuffer(const PageBuffer&) = delete;
    PageBuffer& operator=(const PageBuffer&) = delete;
    ~PageBuffer();

    char* data() { return static_cast<char*>(data_); }
    std::size_t size() const { return size_; }
    std::size_t capacity() const { return capacity_; }
    void resize(std::size_t size);       // at most capacity()
    void append(std::string_view bytes); // at most capacity() - size()
    std::string_view view() const { return {static_cast<const char*>(data_), size_}; }
    operator std::string_view() const { return view(); }

private:
    void release();

    void* data_ = nullptr;
    std::size_t size_ = 0, capacity_ = 0;
};

// Bytes that many threads keep for a while (each day's share of its month's
// data, until the month is complete), packed into blocks of their own. From
// the heap, each would pin its thread's heap at its highest point while it
// lives, and every thread's heap would stay that large: memory would grow
// with the number of threads. A block goes back once its last bytes do.
// Its items must go before it.
class Shelf {
public:
    // Bytes on the shelf, dropped when this goes.
    class Item {
    public:
        Item() = default;
        Item(Item&& other) noexcept;
        Item& operator=(Item&& other) noexcept;
        Item(const Item&) = delete;
        Item& operator=(const Item&) = delete;
        ~Item();
        std::string_view view() const { return bytes_; }

    private:
        friend class Shelf;
        Item(Shelf* shelf, std::size_t block, std::string_view bytes) : shelf_(shelf), block_(block), bytes_(bytes) {}
        void drop();
        Shelf* shelf_ = nullptr;
        std::size_t block_ = 0;
        std::string_view bytes_;
    };

    explicit Shelf(std::size_t block_size = std::size_t{2} << 20) : block_size_(block_size) {}
    Item put(std::string_view bytes); // thread-safe; nothing is shelved for no bytes
    std::size_t blocks_held() const;  // for tests

private:
    struct Block {
        PageBuffer buffer;
        std::size_t items = 0;
    };
    void drop(std::size_t block);

    const std::size_t block_size_;
    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<Block>> blocks_; // a dropped block's slot stays, empty
    std::size_t current_ = 0;                    // the block being filled, if any
};

} // namespace pp
