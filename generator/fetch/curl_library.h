// libcurl, loaded when the program first goes on the network. Only the
// nightly run and the notifications do; build, check and serve never do,
// and linking libcurl would map it and the 17 libraries it alone brings
// (TLS, LDAP, RTMP, ...) into every start: `paperpress --version` took
// 11.7 ms with it, 6.4 without (docs/performance.md). Loaded by soname
// from the system's libcurl4, whose ABI the soname fixes; the functions
// are typed by the header the program was compiled with.
#pragma once

#include "util/error.h"
#include "util/shared_library.h"

#include <curl/curl.h>

namespace pp {

// The libcurl functions paperpress calls: curl_easy_init is easy_init.
// clang-format off
#define PP_CURL_FUNCTIONS(X) \
    X(curl_, easy_init) \
    X(curl_, easy_setopt) \
    X(curl_, easy_perform) \
    X(curl_, easy_getinfo) \
    X(curl_, easy_reset) \
    X(curl_, easy_cleanup) \
    X(curl_, easy_strerror) \
    X(curl_, slist_append) \
    X(curl_, slist_free_all) \
    X(curl_, global_init)
// clang-format on

struct CurlLibrary {
    PP_SHARED_LIBRARY_FUNCTIONS(PP_CURL_FUNCTIONS)
};

// libcurl, loaded and initialised (curl_global_init) on the first call, once
// for the process; an error, the same on every call, says what is missing.
Result<const CurlLibrary*> curl_library();

} // namespace pp
