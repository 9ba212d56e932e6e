#include "util/shared_library.h"

#include <dlfcn.h>

namespace pp {

Result<SharedLibrary> SharedLibrary::open(const std::string& soname, const std::string& package) {
    void* handle = ::dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = ::dlerror();
        return fail("cannot load " + soname + " (install " + package + "): " + (why ? why : "unknown error"));
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
