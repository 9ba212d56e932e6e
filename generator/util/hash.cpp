#include "util/hash.h"

#include <xxhash.h>

namespace pp {

Hasher& Hasher::add(std::string_view bytes) {
    h_ = XXH3_64bits_withSeed(bytes.data(), bytes.size(), h_);
    return *this;
}

Hasher& Hasher::add(std::uint64_t value) {
    // A number and the string of its 8 bytes differ in their seed's tweak.
    h_ = XXH3_64bits_withSeed(&value, sizeof value, h_ ^ 0x9e3779b97f4a7c15ull);
    return *this;
}

std::uint64_t hash_bytes(std::string_view bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

std::string hex64(std::uint64_t value) {
    char buffer[16];
    for (int i = 15; i >= 0; --i) {
        buffer[i] = "0123456789abcdef"[value & 15];
        value >>= 4;
    }
    return std::string(buffer, 16);
}

std::string hash_hex(std::string_view bytes) { return hex64(hash_bytes(bytes)); }

} // namespace pp
