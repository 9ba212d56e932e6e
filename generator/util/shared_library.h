// A system library opened by soname when first needed, rather than linked:
// a library the program links is mapped, with everything it brings, into
// every start, even of the commands that never use it (docs/performance.md).
// The soname fixes the ABI; the functions are typed by the header the
// program was compiled with. Never closed: once opened, it stays, as if linked.
#pragma once

#include "util/error.h"

#include <string>
#include <utility>

namespace pp {

class SharedLibrary {
public:
    // Opens `soname`; the error names the Debian `package` that provides it.
    static Result<SharedLibrary> open(const std::string& soname, const std::string& package);

    // Sets `out` to the function `name` (null when there is none). The first
    // name not found is kept for check(), so a run of lookups is checked once.
    template <class Function>
    void find(const char* name, Function& out) {
        out = reinterpret_cast<Function>(symbol(name));
    }

    // "libx.so.1 has no x_init: expected <what>", or nothing when every find succeeded.
    Result<void> check(const std::string& expected) const;

private:
    SharedLibrary(void* handle, std::string soname) : handle_(handle), soname_(std::move(soname)) {}
    void* symbol(const char* name);

    void* handle_;
    std::string soname_;
    std::string missing_; // the first name not found
};

} // namespace pp
