#include "publish/libgit2.h"

#include "util/shared_library.h"

#include <cstdio>
#include <cstdlib>

namespace pp::libgit2 {

namespace {

constexpr const char* soname = "libgit2.so." LIBGIT2_SOVERSION;

Functions loaded;

struct Shutdown {
    ~Shutdown() { loaded.libgit2_shutdown(); }
};

Result<void> open() {
    auto library = SharedLibrary::load<Functions>(soname, "libgit2-" LIBGIT2_SOVERSION, "libgit2 " LIBGIT2_SOVERSION);
    if (!library) return std::unexpected(library.error());
    loaded = *library;
    if (loaded.libgit2_init() < 0) return fail(std::string("cannot initialise ") + soname);
    static Shutdown at_exit;
    return {};
}

const Result<void>& opened() {
    static const Result<void> result = open(); // thread-safe, once
    return result;
}

} // namespace

Result<void> load() { return opened(); }

const Functions& functions() {
    if (const auto& result = opened(); !result) {
        // A caller that did not go through load() (open_repository does).
        std::fprintf(stderr, "paperpress: %s\n", result.error().to_string().c_str());
        std::abort();
    }
    return loaded;
}

} // namespace pp::libgit2
