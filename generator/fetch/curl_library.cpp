#include "fetch/curl_library.h"

#include "util/shared_library.h"

namespace pp {

namespace {

constexpr const char* soname = "libcurl.so.4"; // libcurl's ABI since 7.16

Result<const CurlLibrary*> load() {
    static Result<CurlLibrary> library = SharedLibrary::load<CurlLibrary>(soname, "libcurl4", "libcurl 7.x or 8.x");
    if (!library) return std::unexpected(library.error());
    if (library->global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return fail(std::string("cannot initialise ") + soname);
    return &*library;
}

} // namespace

Result<const CurlLibrary*> curl_library() {
    static const Result<const CurlLibrary*> library = load(); // thread-safe, once
    return library;
}

} // namespace pp
