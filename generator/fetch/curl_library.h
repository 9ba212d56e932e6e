// libcurl, loaded when the program first goes on the network. Only the
// nightly run and the notifications do; build, check and serve never do,
// and linking libcurl would map it and the 17 libraries it alone brings
// (TLS, LDAP, RTMP, ...) into every start: `paperpress --version` took
// 11.7 ms with it, 6.4 without (docs/performance.md). Loaded by soname
// from the system's libcurl4, whose ABI the soname fixes; the functions
// are typed by the header the program was compiled with.
#pragma once

#include "util/error.h"

#include <curl/curl.h>

namespace pp {

// The libcurl functions paperpress calls.
struct CurlLibrary {
    decltype(&::curl_easy_init) easy_init;
    decltype(&::curl_easy_setopt) easy_setopt;
    decltype(&::curl_easy_perform) easy_perform;
    decltype(&::curl_easy_getinfo) easy_getinfo;
    decltype(&::curl_easy_reset) easy_reset;
    decltype(&::curl_easy_cleanup) easy_cleanup;
    decltype(&::curl_easy_strerror) easy_strerror;
    decltype(&::curl_slist_append) slist_append;
    decltype(&::curl_slist_free_all) slist_free_all;
};

// libcurl, loaded and initialised (curl_global_init) on the first call, once
// for the process; an error, the same on every call, says what is missing.
Result<const CurlLibrary*> curl_library();

} // namespace pp
