// util/shared_library.h: one idiom for the system libraries opened when
// first needed (libcurl, libgit2), tried on zlib, which every Debian has.
#include "util/shared_library.h"

#include <curl/curl.h>
#include <doctest/doctest.h>
#include <zlib.h>

#include <cstring>

using namespace pp;

namespace {

#define PP_TEST_ZLIB_FUNCTIONS(X) X(, zlibVersion) X(, crc32)
struct Zlib {
    PP_SHARED_LIBRARY_FUNCTIONS(PP_TEST_ZLIB_FUNCTIONS)
};

// A function zlib does not have, typed by libcurl's header.
#define PP_TEST_WRONG_FUNCTIONS(X) X(, crc32) X(curl_, easy_init)
struct Wrong {
    PP_SHARED_LIBRARY_FUNCTIONS(PP_TEST_WRONG_FUNCTIONS)
};

} // namespace

TEST_CASE("shared library: a list of functions is loaded by soname into typed pointers named without their prefix") {
    auto zlib = SharedLibrary::load<Zlib>("libz.so.1", "zlib1g", "zlib 1.x");
    REQUIRE_MESSAGE(zlib, zlib.error().to_string());
    CHECK(std::strlen(zlib->zlibVersion()) > 0);
    const char* text = "abc";
    CHECK(zlib->crc32(0, reinterpret_cast<const Bytef*>(text), 3) == 0x352441c2);
}

TEST_CASE("shared library: a missing function or library is one error naming it and what provides it") {
    auto wrong = SharedLibrary::load<Wrong>("libz.so.1", "zlib1g", "zlib 1.x");
    REQUIRE_FALSE(wrong);
    CHECK(wrong.error().to_string() == "libz.so.1 has no curl_easy_init: expected zlib 1.x");
    auto absent = SharedLibrary::load<Zlib>("libpaperpress-absent.so.9", "paperpress-absent9", "absent 9");
    REQUIRE_FALSE(absent);
    CHECK(
        absent.error().to_string().starts_with("cannot load libpaperpress-absent.so.9 (install paperpress-absent9): "));
}
