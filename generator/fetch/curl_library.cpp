#include "fetch/curl_library.h"

#include <dlfcn.h>

#include <string>

namespace pp {

namespace {

constexpr const char* soname = "libcurl.so.4";

template <class Function>
bool find(void* handle, const char* name, Function& out, std::string& missing) {
    out = reinterpret_cast<Function>(::dlsym(handle, name));
    if (!out && missing.empty()) missing = name;
    return out != nullptr;
}

Result<const CurlLibrary*> load() {
    // Never closed: the process keeps libcurl once it has it, as if linked.
    void* handle = ::dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = ::dlerror();
        return fail(std::string("cannot load ") + soname + " (install libcurl4): " + (why ? why : "unknown error"));
    }
    static CurlLibrary library;
    std::string missing;
    find(handle, "curl_easy_init", library.easy_init, missing);
    find(handle, "curl_easy_setopt", library.easy_setopt, missing);
    find(handle, "curl_easy_perform", library.easy_perform, missing);
    find(handle, "curl_easy_getinfo", library.easy_getinfo, missing);
    find(handle, "curl_easy_reset", library.easy_reset, missing);
    find(handle, "curl_easy_cleanup", library.easy_cleanup, missing);
    find(handle, "curl_easy_strerror", library.easy_strerror, missing);
    find(handle, "curl_slist_append", library.slist_append, missing);
    find(handle, "curl_slist_free_all", library.slist_free_all, missing);
    decltype(&::curl_global_init) global_init = nullptr;
    find(handle, "curl_global_init", global_init, missing);
    if (!missing.empty()) return fail(std::string(soname) + " has no " + missing + ": expected libcurl 7.x or 8.x");
    if (global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return fail(std::string("cannot initialise ") + soname);
    return &library;
}

} // namespace

Result<const CurlLibrary*> curl_library() {
    static const Result<const CurlLibrary*> library = load(); // thread-safe, once
    return library;
}

} // namespace pp
