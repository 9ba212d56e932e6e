// The preview's HTTP server (cpp-httplib): serves the build output folder
// and tells open pages when a new build finished.
//
// - A directory URL serves its index.html; a directory without its trailing
//   slash is redirected to it; a missing file gets the site's 404.html with
//   status 404 (looked up as any file is). Paths with "." or ".." segments (after URL decoding) are
//   refused with 403, and so is anything that resolves outside the folder.
// - Every HTML response gets a small script before </body>, added at serve
//   time only (the files on disk are exactly what `paperpress build` makes):
//   it listens on /__paperpress/events (Server-Sent Events) and reloads the
//   page when the build token changes (at most max_event_streams pages at
//   once, the server keeps threads for files; a closed page frees its stream
//   at once, a refused one asks again later). When the last build failed, an
//   overlay with the error is added too, over the last good page.
// - Responses are not cached (Cache-Control: no-store), so a reload always
//   shows the latest build.
// - Bound to loopback, it answers only requests whose Host is a loopback
//   name (403 otherwise): a page on another site whose name an attacker
//   points at 127.0.0.1 (DNS rebinding) cannot read the preview.
// - A request for more than one byte range gets 416: a few thousand ranges
//   of one file would otherwise make a reply a thousand times its size. A
//   file other than a page is sent from disk, only the range asked for.
// - Slow clients are cut off (serve/request_guard.h): a whole request must
//   come within request_deadline, and neither a slow request nor a reply its
//   client does not read can keep a new connection waiting.
#pragma once

#include "serve/request_guard.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/files.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace pp {

inline constexpr std::string_view events_path = "/__paperpress/events";

// Open pages that get live reload at once; more get 503 on the event
// stream (and still load), so they can never take every server thread.
inline constexpr int max_event_streams = 32;
// The server's threads: the event streams' and 16 more for files.
inline constexpr int server_threads = max_event_streams + 16;

// Is `host` a loopback name the preview binds (127.0.0.1, localhost, ::1)?
bool is_loopback_host(std::string_view host);

// Is a request's Host header a loopback name, with or without a port:
// "localhost", "127.0.0.1:8000", "[::1]:8000"?
bool loopback_host_header(std::string_view host_header);

// "text/html; charset=utf-8" for index.html, "font/woff2" for a .woff2, ...;
// application/octet-stream for what it does not know.
std::string content_type_for(const fs::path& file);

// The snippet added to HTML pages: the reload script for build `token`, and
// the error overlay when `build_error` is not empty.
std::string live_reload_snippet(const std::string& token, const std::string& build_error);

// `html` with `snippet` inserted before its last </body> (any case), or
// appended when there is none.
std::string inject_before_body_end(std::string html, std::string_view snippet);

// Where a decoded URL path leads inside the output folder `root`.
struct SiteLookup {
    enum class Kind { file, redirect, not_found, forbidden } kind = Kind::not_found;
    fs::path file;        // Kind::file: the file to send
    std::string location; // Kind::redirect: the URL path with its trailing slash
};
SiteLookup lookup_site_path(const fs::path& root, std::string_view url_path);

// What a Range header asks of a file of `size` bytes: RFC 9110's one range
// (`bytes=10-19`, `bytes=10-`, `bytes=-5`); a header that is not a byte
// range is ignored (the whole file), a list of ranges is unsatisfiable.
struct ByteRange {
    enum class Kind { whole, part, unsatisfiable } kind = Kind::whole;
    std::uint64_t offset = 0, length = 0; // Kind::part
};
ByteRange byte_range_for(std::string_view range_header, std::uint64_t size);

struct PreviewServerOptions {
    Clock* clock = nullptr;                                  // times the request deadlines; nullptr: real_clock()
    Clock::duration request_deadline = pp::request_deadline; // a test shortens it
};

class PreviewServer {
public:
    // Serves the files under `root`; `log` gets one line per server problem.
    explicit PreviewServer(fs::path root, std::function<void(const std::string&)> log = {},
                           PreviewServerOptions options = {});
    ~PreviewServer(); // stops
    PreviewServer(const PreviewServer&) = delete;
    PreviewServer& operator=(const PreviewServer&) = delete;

    // Binds `host`:`port` (port 0: a free port); returns the port bound.
    Result<int> bind(const std::string& host, int port);
    // Serves on its own threads until stop().
    void start();
    // Stops listening, ends the event streams, waits for the threads.
    void stop();

    // A build finished: open pages reload. A non-empty `error` is shown on
    // every HTML page until a build succeeds.
    void build_finished(const std::string& error);
    std::string token() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace pp
