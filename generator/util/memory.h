// Process-wide memory tuning for programs that allocate and free many
// page-sized strings on several threads (the site build).
#pragma once

#include <cstddef>

namespace pp {

// glibc's defaults hand freed memory back to the kernel and fault it in
// again page by page, which cost a full build more time than rendering.
// Keeps freed memory for reuse (a few MB of peak memory). Once per process.
void keep_freed_memory();

// Faults in `bytes` of the calling thread's heap in one call and frees them
// for reuse: where a page fault costs about 10 µs (small virtual machines),
// faulting a heap in page by page costs more than a small build's work.
// Size it to the work the thread will do; 0 does nothing. In blocks of at
// most 16 MB, so that after keep_freed_memory() they come from the heap and
// stay. `huge_pages` asks the kernel to back them with 2 MB pages (for a
// large index read at once).
void populate_heap(std::size_t bytes, bool huge_pages = false);

} // namespace pp
