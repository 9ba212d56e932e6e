#include "util/gzip.h"

#include <libdeflate.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

namespace pp {

namespace {

struct CompressorFree {
    void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
};
struct DecompressorFree {
    void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};

using Compressor = std::unique_ptr<libdeflate_compressor, CompressorFree>;

// Compressors (a few hundred KB each) are lent out rather than kept by every
// thread: only as many exist as have compressed at once.
class CompressorPool {
public:
    explicit CompressorPool(int level) : level_(level) {}

    Compressor take() {
        {
            std::lock_guard lock(mutex_);
            if (!idle_.empty()) {
                Compressor c = std::move(idle_.back());
                idle_.pop_back();
                return c;
            }
        }
        Compressor c(libdeflate_alloc_compressor(level_));
        if (!c) throw std::bad_alloc();
        return c;
    }
    void give_back(Compressor c) {
        std::lock_guard lock(mutex_);
        idle_.push_back(std::move(c));
    }

private:
    const int level_;
    std::mutex mutex_;
    std::vector<Compressor> idle_;
};

// Level 4 usually, 1 when fast (why: gzip.h).
CompressorPool& compressors(Effort effort = Effort::usual) {
    static CompressorPool usual(4), fast(1);
    return effort == Effort::fast ? fast : usual;
}

} // namespace

PageBuffer gzip(std::string_view bytes) {
    Compressor c = compressors().take();
    PageBuffer out(libdeflate_gzip_compress_bound(c.get(), bytes.size()));
    out.resize(libdeflate_gzip_compress(c.get(), bytes.data(), bytes.size(), out.data(), out.capacity()));
    compressors().give_back(std::move(c));
    return out;
}

std::string gzip_small(std::string_view bytes, Effort effort) {
    CompressorPool& pool = compressors(effort);
    Compressor c = pool.take();
    std::string out(libdeflate_gzip_compress_bound(c.get(), bytes.size()), '\0');
    out.resize(libdeflate_gzip_compress(c.get(), bytes.data(), bytes.size(), out.data(), out.size()));
    pool.give_back(std::move(c));
    return out;
}

Result<std::string> gunzip(std::string_view file, std::size_t max_size) {
    if (file.size() < 18 || static_cast<unsigned char>(file[0]) != 0x1f || static_cast<unsigned char>(file[1]) != 0x8b)
        return fail("expected a gzip file");
    // The trailer ends with the size, modulo 2^32, little-endian.
    std::size_t size = 0;
    for (std::size_t i = 1; i <= 4; ++i) size = (size << 8) | static_cast<unsigned char>(file[file.size() - i]);
    if (size > max_size)
        return fail("a gzip file of " + std::to_string(size) + " bytes, over the limit of " + std::to_string(max_size));
    thread_local std::unique_ptr<libdeflate_decompressor, DecompressorFree> d(libdeflate_alloc_decompressor());
    std::string out(size, '\0');
    std::size_t in_used = 0, out_used = 0;
    if (libdeflate_gzip_decompress_ex(d.get(), file.data(), file.size(), out.data(), out.size(), &in_used, &out_used) !=
            LIBDEFLATE_SUCCESS ||
        in_used != file.size() || out_used != size)
        return fail("a damaged gzip file (or more than one member)");
    return out;
}

} // namespace pp
