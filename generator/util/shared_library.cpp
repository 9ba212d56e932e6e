#include "util/shared_library.h"

#include <dlfcn.h>

#include <string_view>

namespace pp {

Result<SharedLibrary> SharedLibrary::open(const std::string& soname, const std::string& package) {
    void* handle = ::dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* error = ::dlerror();
        std::string_view why = error ? error : "unknown error";
        if (why.starts_with(soname + ": ")) why.remove_prefix(soname.size() + 2); // dlerror names it too
        return fail("cannot load " + soname + " (install " + package + "): " + std::string(why));
    }
    return SharedLibrary(handle, soname);
}

void* SharedLibrary::symbol(const char* name) {
    void* found = ::dlsym(handle_, name);
    if (!found && missing_.empty()) missing_ = name;
    return found;
}

Result<void> SharedLibrary::check(const std::string& expected) const {
    if (missing_.empty()) return {};
    return fail(soname_ + " has no " + missing_ + ": expected " + expected);
}

} // namespace pp
