#include "fetch/curl_library.h"

#include "util/shared_library.h"

namespace pp {

namespace {

constexpr const char* soname = "libcurl.so.4"; // libcurl's ABI since 7.16

Result<const CurlLibrary*> load() {
    auto curl = SharedLibrary::open(soname, "libcurl4");
    if (!curl) return std::unexpected(curl.error());
    static CurlLibrary library;
    curl->find("curl_easy_init", library.easy_init);
    curl->find("curl_easy_setopt", library.easy_setopt);
    curl->find("curl_easy_perform", library.easy_perform);
    curl->find("curl_easy_getinfo", library.easy_getinfo);
    curl->find("curl_easy_reset", library.easy_reset);
    curl->find("curl_easy_cleanup", library.easy_cleanup);
    curl->find("curl_easy_strerror", library.easy_strerror);
    curl->find("curl_slist_append", library.slist_append);
    curl->find("curl_slist_free_all", library.slist_free_all);
    decltype(&::curl_global_init) global_init = nullptr;
    curl->find("curl_global_init", global_init);
    if (auto found = curl->check("libcurl 7.x or 8.x"); !found) return std::unexpected(found.error());
    if (global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return fail(std::string("cannot initialise ") + soname);
    return &library;
}

} // namespace

Result<const CurlLibrary*> curl_library() {
    static const Result<const CurlLibrary*> library = load(); // thread-safe, once
    return library;
}

} // namespace pp
