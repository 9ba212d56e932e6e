// A system library opened by soname when first needed, rather than linked:
// a library the program links is mapped, with everything it brings, into
// every start, even of the commands that never use it (docs/performance.md).
// The soname fixes the ABI; the functions are typed by the header the
// program was compiled with. Never closed: once opened, it stays, as if linked.
//
// One idiom for every such library (libcurl, libgit2): a list macro names
// its functions, each as X(prefix, name) for the C function prefix##name,
// and a struct of typed pointers, one member `name` each, is made from it:
//
//   #define PP_FOO_FUNCTIONS(X) X(foo_, init) X(foo_, run)
//   struct FooLibrary {
//       PP_SHARED_LIBRARY_FUNCTIONS(PP_FOO_FUNCTIONS)
//   };
//   auto foo = SharedLibrary::load<FooLibrary>("libfoo.so.1", "libfoo1", "libfoo 1.x");
//   foo->run(...);
#pragma once

#include "util/error.h"

#include <string>
#include <utility>

#define PP_SHARED_LIBRARY_POINTER(prefix, name) decltype(&::prefix##name) name = nullptr;
#define PP_SHARED_LIBRARY_VISIT(prefix, name) visit(#prefix #name, name);
// The members of a library's struct: a typed pointer for each function of
// LIST, and each(visit), which calls visit(C name, pointer) for each.
#define PP_SHARED_LIBRARY_FUNCTIONS(LIST)                                                                              \
    LIST(PP_SHARED_LIBRARY_POINTER)                                                                                    \
    template <class Visit>                                                                                             \
    void each(Visit&& visit) {                                                                                         \
        LIST(PP_SHARED_LIBRARY_VISIT)                                                                                  \
    }

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

    // Opens `soname` and finds every function of `Functions` (a struct made
    // with PP_SHARED_LIBRARY_FUNCTIONS); the error says what is missing and
    // which package, or which version (`expected`), provides it.
    template <class Functions>
    static Result<Functions> load(const std::string& soname, const std::string& package, const std::string& expected) {
        auto library = open(soname, package);
        if (!library) return std::unexpected(library.error());
        Functions functions;
        functions.each([&](const char* name, auto& pointer) { library->find(name, pointer); });
        if (auto found = library->check(expected); !found) return std::unexpected(found.error());
        return functions;
    }

private:
    SharedLibrary(void* handle, std::string soname) : handle_(handle), soname_(std::move(soname)) {}
    void* symbol(const char* name);

    void* handle_;
    std::string soname_;
    std::string missing_; // the first name not found
};

} // namespace pp
