// A request's Range header (serve/server.h byte_range_for), on any bytes and
// for files of several sizes: no crash, and a part always lies inside the
// file, at least one byte long.
#include "serve/server.h"
#include "target.h"

#include <cstdint>
#include <cstdlib>

PAPERPRESS_FUZZ_TARGET(range_header) {
    for (std::uint64_t size :
         {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{100}, std::uint64_t{1} << 40, UINT64_MAX}) {
        const pp::ByteRange range = pp::byte_range_for(input, size);
        if (range.kind != pp::ByteRange::Kind::part) continue;
        if (range.length == 0 || range.offset >= size || range.length > size - range.offset) std::abort();
    }
}
