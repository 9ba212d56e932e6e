// One polite HTTP client over libcurl: a single reused connection, a minimum
// interval between requests, retries with exponential backoff on 429, 5xx
// and network errors, and the server's rate-limit signals honoured
// (server_retry_delay). Used for arXiv (interval 3 s, as its terms ask) and
// for the LLM endpoint (one client per worker, which retries by itself
// through send()). Every wait goes through a Clock, so tests wait no time.
#pragma once

#include "util/clock.h"
#include "util/error.h"
#include "util/version.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pp {

// What kind of peer a client talks to: how large a reply it may send, and
// whether its redirects are followed. LLM endpoints and notification hooks
// are sent secrets and whole days: they are followed only to the same
// origin over https (a 307 to another host would re-POST the body there).
struct HttpPeer {
    std::string kind = "HTTP reply";         // names the cap in errors: "LLM reply"
    std::size_t max_reply_bytes = 64u << 20; // the body, decoded; exceeded: the transfer stops
    bool redirects_anywhere = true;          // false: only to the same https origin

    static HttpPeer llm() { return {"LLM reply", 4u << 20, false}; }             // 4 MiB
    static HttpPeer feed() { return {"arXiv feed", 32u << 20, true}; }           // 32 MiB
    static HttpPeer api() { return {"arXiv API page", 32u << 20, true}; }        // 32 MiB
    static HttpPeer notify() { return {"notification reply", 1u << 20, false}; } // 1 MiB
};

// Is a redirect from `from` to `to` one a same-origin-only peer follows:
// both https, the same host and port?
bool same_https_origin(const std::string& from, const std::string& to);

struct HttpOptions {
    HttpPeer peer;
    std::string user_agent = pp::user_agent();
    std::chrono::milliseconds min_interval{0};  // between request starts
    int max_attempts = 4;                       // first try + retries
    std::chrono::milliseconds backoff{2000};    // doubles after each failure
    std::chrono::milliseconds max_wait{120000}; // cap for backoff and Retry-After
    std::chrono::milliseconds timeout{60000};   // per attempt
    Clock* clock = nullptr;                     // nullptr: real_clock()
    // Called before each retry with a human-readable reason (for the log).
    std::function<void(const std::string&)> on_retry;
};

struct HttpResponse {
    long status = 0;
    std::string body;
    std::map<std::string, std::string> headers; // by lower-case name; the last of a repeated header
    std::string location; // a same-origin-only peer's redirect target (absolute), when it answered 3xx
    std::string header(const std::string& lower_case_name) const;
};

// How long the server asked to wait before the next request, from (first
// found) `retry-after-ms`, `Retry-After` (seconds), the "Please try again in
// 1.2s" text of an OpenAI-style error body, else the `x-ratelimit-reset-*`
// headers ("1s", "6m0s", "20ms"; those whose remaining count is 0 when the
// response says which). Nothing when the response names no delay.
std::optional<std::chrono::milliseconds> server_retry_delay(const HttpResponse& response);

// A Go-style duration as rate-limit headers write it: "1s", "6m0s", "20ms",
// "1.5s", "1h2m3s"; rounded up to a millisecond. Reads from the start of
// `text`, and sets `used` (if given) to the characters read.
std::optional<std::chrono::milliseconds> parse_duration(std::string_view text, size_t* used = nullptr);

// "HTTP 429 from <redacted url>: <redacted body excerpt>": how a status that is
// not 2xx reads as an error.
Error http_status_error(const HttpResponse& response, const std::string& url);

class HttpClient {
public:
    explicit HttpClient(HttpOptions options);
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    // GET; an error after the retries, or for a status other than 2xx.
    Result<HttpResponse> get(const std::string& url);

    // POST with a body and extra headers ("Name: value"). Header values are
    // never logged: they may hold an API key.
    Result<HttpResponse> post(const std::string& url, const std::string& body, const std::vector<std::string>& headers);

    // One attempt at its turn (the minimum interval), no retries: any
    // status is a response; only a network error or a timeout is an error.
    // For callers with their own retry policy (the LLM scorer).
    Result<HttpResponse> send(const std::string& url, const std::string* body, const std::vector<std::string>& headers);

    // The peer of the next requests (one client fetches the feed, then API pages).
    void set_peer(HttpPeer peer) { options_.peer = std::move(peer); }

private:
    Result<HttpResponse> perform(const std::string& url, const std::string* body,
                                 const std::vector<std::string>& headers);
    Result<HttpResponse> attempt(const std::string& url, const std::string* body,
                                 const std::vector<std::string>& headers);
    Result<HttpResponse> attempt_once(const std::string& url, const std::string* body,
                                      const std::vector<std::string>& headers);
    void wait_for_turn();
    Clock& clock() const { return options_.clock ? *options_.clock : real_clock(); }

    HttpOptions options_;
    void* curl_; // CURL*, kept for connection reuse
    std::optional<Clock::time_point> last_start_;
};

} // namespace pp
