// Hashing for change detection and content-addressed names: xxHash's XXH3
// (libxxhash), as ccache uses it. Fast and well mixed; not for security.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pp {

// A 64-bit hash of a sequence of values. Each add() hashes its value seeded
// with the hash so far, so the boundaries between values count: ("ab", "c")
// and ("a", "bc") hash differently.
class Hasher {
public:
    Hasher& add(std::string_view bytes);
    Hasher& add(std::uint64_t value);
    std::uint64_t value() const { return h_; }

private:
    std::uint64_t h_ = 0x6a09e667f3bcc909ull;
};

// XXH3 of the bytes.
std::uint64_t hash_bytes(std::string_view bytes);

// hash_bytes as 16 lower-case hex digits: names content-addressed files.
std::string hash_hex(std::string_view bytes);

// A value as 16 lower-case hex digits.
std::string hex64(std::uint64_t value);

} // namespace pp
