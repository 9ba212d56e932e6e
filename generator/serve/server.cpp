#include "serve/server.h"

#include "site/render_markdown.h"
#include "util/text.h"

#include <fcntl.h>
#include <httplib.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

namespace pp {

namespace {

bool is_html(const fs::path& file) {
    const std::string ext = to_lower(file.extension().string());
    return ext == ".html" || ext == ".htm";
}

// Is `path` (normalized, absolute) inside `root` (normalized, absolute)?
bool inside(const fs::path& path, const fs::path& root) {
    auto p = path.begin();
    for (auto r = root.begin(); r != root.end(); ++r, ++p) {
        if (r->empty()) continue;
        if (p == path.end() || *p != *r) return false;
    }
    return true;
}

std::string message_page(const std::string& title, const std::string& text) {
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>" + html_escape(title) +
           "</title></head>\n<body>\n<h1>" + html_escape(title) + "</h1>\n<p>" + html_escape(text) +
           "</p>\n</body>\n</html>\n";
}

// A number of a Range header; one too large to hold is as good as infinite.
std::optional<std::uint64_t> range_number(std::string_view text) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc::result_out_of_range) return UINT64_MAX;
    return value;
}

// A file open for reading (or an eventfd), closed with its last owner.
struct OpenFile {
    int fd = -1;
    ~OpenFile() {
        if (fd >= 0) ::close(fd);
    }
};

// How an event stream's wait ended.
enum class StreamWake { news, quiet, page_gone };

// Waits up to `limit` for `wake` (an eventfd: the token changed, or the
// server stops) or for the page's side to close `socket`. POLLRDHUP: "stream
// socket peer closed connection, or shut down writing half" (poll(2), Linux
// 2.6.17); the page sends nothing after its request, so that is its close.
StreamWake wait_for_stream(int socket, int wake, std::chrono::milliseconds limit) {
    pollfd fds[2] = {{wake, POLLIN, 0}, {socket, POLLRDHUP, 0}};
    const int ready = ::poll(fds, socket >= 0 ? 2 : 1, static_cast<int>(limit.count()));
    if (ready <= 0) return ready < 0 && errno == EINTR ? StreamWake::news : StreamWake::quiet;
    if (socket >= 0 && fds[1].revents != 0) return StreamWake::page_gone;
    eventfd_t count = 0;
    ::eventfd_read(wake, &count); // resets it
    return StreamWake::news;
}

} // namespace

bool is_loopback_host(std::string_view host) {
    return host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]";
}

bool loopback_host_header(std::string_view host_header) {
    std::string host = to_lower(host_header);
    // The port: digits after the last ':' outside the brackets of an IPv6 address.
    const auto bracket = host.rfind(']');
    const auto colon = host.rfind(':');
    if (colon != std::string::npos && (bracket == std::string::npos || colon > bracket)) {
        std::string_view port = std::string_view(host).substr(colon + 1);
        if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos)
            return false;
        host.resize(colon);
    }
    return host == "localhost" || host == "127.0.0.1" || host == "[::1]";
}

std::string content_type_for(const fs::path& file) {
    static const std::pair<const char*, const char*> types[] = {
        {".html", "text/html; charset=utf-8"},
        {".htm", "text/html; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".json", "application/json"},
        {".xml", "application/xml"},
        {".txt", "text/plain; charset=utf-8"},
        {".md", "text/markdown; charset=utf-8"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".jpg", "image/jpeg"},
        {".jpeg", "image/jpeg"},
        {".gif", "image/gif"},
        {".webp", "image/webp"},
        {".ico", "image/x-icon"},
        {".woff2", "font/woff2"},
        {".woff", "font/woff"},
        {".ttf", "font/ttf"},
        {".otf", "font/otf"},
        {".map", "application/json"},
        {".pdf", "application/pdf"},
        {".gz", "application/gzip"}, // as GitHub Pages serves the month data: no Content-Encoding
    };
    const std::string ext = to_lower(file.extension().string());
    for (const auto& [suffix, type] : types)
        if (ext == suffix) return type;
    return "application/octet-stream";
}

std::string live_reload_snippet(const std::string& token, const std::string& build_error) {
    std::string snippet;
    if (!build_error.empty()) {
        snippet += "<div id=\"paperpress-build-error\" style=\"position:fixed;top:0;left:0;right:0;z-index:2147483647;"
                   "max-height:60vh;overflow:auto;margin:0;padding:1em 1.5em;background:#fff0f0;color:#8b0000;"
                   "border-bottom:3px solid #c00;font:14px/1.45 ui-monospace,monospace;white-space:pre-wrap\">"
                   "<strong>paperpress serve: the build failed; this page is from the last good build.</strong>\n" +
                   html_escape(build_error) + "</div>\n";
    }
    // The token is made of digits and '-' only, so it needs no escaping. A
    // refused stream (503: too many open pages) is failed for good, not
    // retried, by EventSource ("Once the user agent has failed the
    // connection, it does not attempt to reconnect", WHATWG HTML, Server-sent
    // events; readyState CLOSED, web-platform-tests eventsource/
    // request-status-error): the script opens it again, 1 s later, then 2, 4
    // ... up to 30 s. A lost connection EventSource retries by itself.
    snippet += "<script>/* paperpress serve: live reload */(function(){var t=\"" + token +
               "\",w=1000;if(!window.EventSource)return;(function c(){var s=new EventSource(\"" +
               std::string(events_path) +
               "\");s.onopen=function(){w=1000;};s.onmessage=function(e){if(e.data!==t){s.close();location.reload();"
               "}};s.onerror=function(){if(s.readyState===2){setTimeout(c,w);w=Math.min(2*w,30000);}};})();})();"
               "</script>\n";
    return snippet;
}

std::string inject_before_body_end(std::string html, std::string_view snippet) {
    const std::string folded = to_lower(html);
    const auto at = folded.rfind("</body>");
    if (at == std::string::npos) html.append(snippet);
    else html.insert(at, snippet);
    return html;
}

SiteLookup lookup_site_path(const fs::path& root, std::string_view url_path) {
    SiteLookup result;
    if (url_path.empty() || url_path.front() != '/') {
        result.kind = SiteLookup::Kind::forbidden;
        return result;
    }
    fs::path relative;
    std::size_t start = 1;
    while (start <= url_path.size()) {
        auto end = url_path.find('/', start);
        if (end == std::string_view::npos) end = url_path.size();
        const std::string_view segment = url_path.substr(start, end - start);
        if (segment == "." || segment == ".." || segment.find('\\') != std::string_view::npos ||
            segment.find('\0') != std::string_view::npos) {
            result.kind = SiteLookup::Kind::forbidden;
            return result;
        }
        if (!segment.empty()) relative /= std::string(segment);
        start = end + 1;
    }
    std::error_code ec;
    const fs::path base = fs::weakly_canonical(fs::absolute(root, ec), ec);
    fs::path target = base / relative;
    const bool wants_folder = url_path.back() == '/';
    if (wants_folder) {
        target /= "index.html";
    } else if (fs::is_directory(target, ec)) {
        // Built from the clean path: "//static" must not become the
        // protocol-relative "//static/", which names another host.
        result.kind = SiteLookup::Kind::redirect;
        result.location = "/" + relative.generic_string() + "/";
        return result;
    }
    if (!fs::is_regular_file(target, ec)) return result; // not_found
    // A symbolic link must not lead out of the folder.
    const fs::path real = fs::canonical(target, ec);
    if (ec || !inside(real, base)) {
        result.kind = SiteLookup::Kind::forbidden;
        return result;
    }
    result.kind = SiteLookup::Kind::file;
    result.file = real;
    return result;
}

ByteRange byte_range_for(std::string_view header, std::uint64_t size) {
    ByteRange range;
    constexpr std::string_view unit = "bytes=";
    if (!header.starts_with(unit)) return range; // not a byte range: ignored
    const std::string_view spec = header.substr(unit.size());
    const auto dash = spec.find('-');
    if (spec.find(',') != std::string_view::npos) {
        range.kind = ByteRange::Kind::unsatisfiable;
        return range;
    }
    if (dash == std::string_view::npos) return range;
    const auto first = range_number(spec.substr(0, dash));
    const auto last = range_number(spec.substr(dash + 1));
    if (dash == 0 && last) { // the last `*last` bytes
        if (*last == 0 || size == 0) range.kind = ByteRange::Kind::unsatisfiable;
        else range = {ByteRange::Kind::part, size - std::min(*last, size), std::min(*last, size)};
        return range;
    }
    if (!first || (last && *last < *first) || (!last && dash + 1 != spec.size())) return range; // invalid: ignored
    if (*first >= size) {
        range.kind = ByteRange::Kind::unsatisfiable;
        return range;
    }
    const std::uint64_t end = last ? std::min(*last, size - 1) : size - 1;
    return {ByteRange::Kind::part, *first, end - *first + 1};
}

struct PreviewServer::Impl {
    Impl(Clock& time, Clock::duration deadline)
        : clock(time), server(time, deadline, server_threads, [](httplib::Request& request) {
              // Ranges are cut here from the file (send_file), never by httplib from a
              // body in memory: its cut trusts the header's numbers.
              request.ranges.clear();
              return request.path == events_path; // a page's event stream lasts while it is open
          }) {}

    fs::path root;
    std::function<void(const std::string&)> log;
    Clock& clock;
    GuardedServer server;
    std::thread thread;

    mutable std::mutex mutex;
    std::set<int> stream_wakes; // an eventfd per open event stream, written when the token changes or at stop
    std::string session;
    long long generation = 0;
    std::string token;
    std::string build_error;
    bool stopping = false;
    std::atomic<bool> loopback_only{false}; // bound to loopback: only loopback Host names are answered
    std::atomic<int> event_streams{0};      // open live-reload streams
    int listening_socket = -1;

    void handle_file(const httplib::Request& request, httplib::Response& response);
    void handle_events(httplib::Response& response);
    bool send_event(std::string& sent, int wake, int socket, httplib::DataSink& sink);
    void wake_streams(); // under mutex
};

namespace {

// Sends `file` (not a page) from disk, only the range the request asks for;
// false when it cannot be opened (removed by a build meanwhile).
bool send_file(const fs::path& file, const httplib::Request& request, httplib::Response& response) {
    auto open = std::make_shared<OpenFile>();
    open->fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat info {};
    if (open->fd < 0 || ::fstat(open->fd, &info) != 0 || !S_ISREG(info.st_mode)) return false;
    const auto size = static_cast<std::uint64_t>(info.st_size);
    const ByteRange range = byte_range_for(request.get_header_value("Range"), size);
    response.set_header("Accept-Ranges", "bytes");
    if (range.kind == ByteRange::Kind::unsatisfiable) {
        response.status = 416;
        response.set_header("Content-Range", "bytes */" + std::to_string(size));
        return true;
    }
    std::uint64_t offset = 0, length = size;
    if (range.kind == ByteRange::Kind::part) {
        offset = range.offset;
        length = range.length;
        response.status = 206;
        response.set_header("Content-Range", "bytes " + std::to_string(offset) + "-" +
                                                 std::to_string(offset + length - 1) + "/" + std::to_string(size));
    }
    if (length == 0) { // httplib sends no Content-Length for an empty provider
        response.set_content("", content_type_for(file));
        return true;
    }
    response.set_content_provider(
        length, content_type_for(file), [open, offset](std::size_t at, std::size_t left, httplib::DataSink& sink) {
            char buffer[64 * 1024];
            const ssize_t got =
                ::pread(open->fd, buffer, std::min(left, sizeof buffer), static_cast<off_t>(offset + at));
            return got > 0 && sink.write(buffer, static_cast<std::size_t>(got)); // a file cut short ends the reply
        });
    return true;
}

} // namespace

PreviewServer::PreviewServer(fs::path root, std::function<void(const std::string&)> log, PreviewServerOptions options)
    : impl_(std::make_unique<Impl>(options.clock ? *options.clock : real_clock(), options.request_deadline)) {
    impl_->root = std::move(root);
    impl_->log = std::move(log);
    // A server started again gets new tokens, so pages left open reload.
    impl_->session = std::to_string(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count());
    impl_->token = impl_->session + "-0";

    auto& server = impl_->server;
    // Each open page holds one event stream (one thread) for as long as it
    // is open; at most max_event_streams of them, so pages and files always
    // have threads left (16, and slow clients give theirs up: request_guard.h).
    server.set_keep_alive_timeout(2);
    // httplib's default sets SO_REUSEPORT, which would let a second server
    // share a port that is in use; SO_REUSEADDR only allows a quick restart.
    server.set_socket_options([self = impl_.get()](socket_t sock) {
        int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
        self->listening_socket = sock;
    });
    Impl* self = impl_.get();
    server.set_pre_routing_handler([self](const httplib::Request& request, httplib::Response& response) {
        if (request.get_header_value("Range").find(',') != std::string::npos) {
            // No body: httplib cuts a routed reply into the request's ranges, and
            // thousands of ranges of even a short message would be the amplification refused.
            response.status = 416;
            return httplib::Server::HandlerResponse::Handled;
        }
        if (self->loopback_only && !loopback_host_header(request.get_header_value("Host"))) {
            response.status = 403;
            response.set_content("403 forbidden: the preview answers only loopback host names "
                                 "(localhost, 127.0.0.1, [::1])\n",
                                 "text/plain; charset=utf-8");
            return httplib::Server::HandlerResponse::Handled;
        }
        return httplib::Server::HandlerResponse::Unhandled;
    });
    server.Get(std::string(events_path),
               [self](const httplib::Request&, httplib::Response& response) { self->handle_events(response); });
    server.Get(R"(/.*)", [self](const httplib::Request& request, httplib::Response& response) {
        self->handle_file(request, response);
    });
}

PreviewServer::~PreviewServer() { stop(); }

Result<int> PreviewServer::bind(const std::string& host, int port) {
    auto& server = impl_->server;
    impl_->loopback_only = is_loopback_host(host);
    if (port == 0) {
        port = server.bind_to_any_port(host);
        if (port <= 0) return fail("cannot listen on " + host + " (no free port?)");
    } else if (!server.bind_to_port(host, port)) {
        return fail("cannot listen on " + host + ":" + std::to_string(port) +
                    " (in use? pick another with --port, or --port 0 for any free one)");
    }
    // A browser reopening many pages connects faster than the accept loop
    // wakes; Debian's compiled httplib listens with a backlog of 5, so the
    // kernel would drop the extra connections and each page wait 1-3 s for a
    // retransmit. Listening again on the same socket raises the backlog.
    if (impl_->listening_socket >= 0) ::listen(impl_->listening_socket, 128);
    return port;
}

void PreviewServer::start() {
    Impl* self = impl_.get();
    impl_->thread = std::thread([self] { self->server.listen_after_bind(); });
    for (int i = 0; i < 5000 && !impl_->server.is_running(); ++i) impl_->clock.sleep_for(std::chrono::milliseconds(1));
}

void PreviewServer::stop() {
    {
        std::lock_guard lock(impl_->mutex);
        impl_->stopping = true;
        impl_->wake_streams();
    }
    impl_->server.stop();
    if (impl_->thread.joinable()) impl_->thread.join();
}

void PreviewServer::build_finished(const std::string& error) {
    {
        std::lock_guard lock(impl_->mutex);
        ++impl_->generation;
        impl_->token = impl_->session + "-" + std::to_string(impl_->generation);
        impl_->build_error = error;
        impl_->wake_streams();
    }
}

std::string PreviewServer::token() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->token;
}

void PreviewServer::Impl::wake_streams() {
    for (int wake : stream_wakes) ::eventfd_write(wake, 1);
}

void PreviewServer::Impl::handle_events(httplib::Response& response) {
    response.set_header("Cache-Control", "no-store");
    auto wake = std::make_shared<OpenFile>();
    if (event_streams.fetch_add(1) >= max_event_streams || (wake->fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0) {
        // EventSource gives up on a 503 (the page's script opens it again later):
        // that page waits for live reload, the preview keeps serving.
        event_streams.fetch_sub(1);
        response.status = 503;
        response.set_content("too many open pages for live reload (" + std::to_string(max_event_streams) + ")\n",
                             "text/plain; charset=utf-8");
        return;
    }
    {
        std::lock_guard lock(mutex);
        stream_wakes.insert(wake->fd);
    }
    auto sent = std::make_shared<std::string>(); // the token this stream last sent
    const int socket = serving_socket();
    response.set_chunked_content_provider(
        "text/event-stream",
        [this, sent, wake, socket](std::size_t, httplib::DataSink& sink) {
            return send_event(*sent, wake->fd, socket, sink);
        },
        [this, wake](bool) {
            {
                std::lock_guard lock(mutex);
                stream_wakes.erase(wake->fd);
            }
            event_streams.fetch_sub(1); // the slot is free as soon as the page has gone
        });
}

// Sends the stream's next event: the token when it changed, else a comment
// after 15 s of quiet. False (the stream ends, its slot is free) when the
// page has closed it.
bool PreviewServer::Impl::send_event(std::string& sent, int wake, int socket, httplib::DataSink& sink) {
    for (;;) {
        std::string message;
        {
            std::lock_guard lock(mutex);
            if (stopping) {
                sink.done();
                return true;
            }
            if (token != sent) {
                message = (sent.empty() ? "retry: 1000\n" : "") + std::string("data: ") + token + "\n\n";
                sent = token;
            }
        }
        if (message.empty()) {
            const StreamWake woke = wait_for_stream(socket, wake, std::chrono::seconds(15));
            if (woke == StreamWake::page_gone) return false;
            if (woke == StreamWake::news) continue;
            message = ": keep-alive\n\n"; // a write also finds a page gone without a close (a lost network)
        }
        return sink.write(message.data(), message.size());
    }
}

void PreviewServer::Impl::handle_file(const httplib::Request& request, httplib::Response& response) {
    // The token is read before the file: a page newer than its token only
    // reloads once more, a page older than its token cannot happen.
    std::string current_token, current_error;
    {
        std::lock_guard lock(mutex);
        current_token = token;
        current_error = build_error;
    }
    response.set_header("Cache-Control", "no-store");
    const SiteLookup found = lookup_site_path(root, request.path);
    fs::path file = found.file;
    switch (found.kind) {
        case SiteLookup::Kind::forbidden:
            response.status = 403;
            response.set_content("403 forbidden: " + request.path + "\n", "text/plain; charset=utf-8");
            return;
        case SiteLookup::Kind::redirect:
            response.set_redirect(found.location, 301);
            return;
        case SiteLookup::Kind::not_found:
            // The site's 404 page, checked as any file is (a link out of the folder is not read).
            response.status = 404;
            file = lookup_site_path(root, "/404.html").file; // empty unless Kind::file
            break;
        case SiteLookup::Kind::file:
            // A page gets the reload script, so it is sent whole whatever the Range.
            if (!is_html(file) && send_file(file, request, response)) return;
            break;
    }
    auto bytes = is_html(file) ? read_file(file) : Result<std::string>(fail("removed"));
    if (!bytes) {
        if (found.kind == SiteLookup::Kind::file) {
            // Removed by a build between the lookup and the read.
            response.status = 404;
        }
        const std::string title = current_error.empty() ? "404 Not Found" : "The build failed";
        const std::string text = current_error.empty()
                                     ? request.path + " is not part of the site."
                                     : "paperpress serve could not build the site; fix the error and save.";
        response.set_content(
            inject_before_body_end(message_page(title, text), live_reload_snippet(current_token, current_error)),
            "text/html; charset=utf-8");
        return;
    }
    response.set_content(inject_before_body_end(std::move(*bytes), live_reload_snippet(current_token, current_error)),
                         "text/html; charset=utf-8");
}

} // namespace pp
