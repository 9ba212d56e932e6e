// One polite HTTP client over libcurl: a single reused connection, a minimum
// interval between requests, retries with exponential backoff on 429, 5xx
// and network errors, and Retry-After honoured. Used for arXiv (interval
// 3 s, as its terms ask) and for the LLM endpoint (one client per worker).
#pragma once

#include "util/error.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pp {

struct HttpOptions {
    std::string user_agent = "paperpress/0.1";
    std::chrono::milliseconds min_interval{0};     // between request starts
    int max_attempts = 4;                          // first try + retries
    std::chrono::milliseconds backoff{2000};       // doubles after each failure
    std::chrono::milliseconds max_wait{120000};    // cap for backoff and Retry-After
    std::chrono::seconds timeout{60};
    // Called before each retry with a human-readable reason (for the log).
    std::function<void(const std::string&)> on_retry;
};

struct HttpResponse {
    long status = 0;
    std::string body;
    std::string retry_after; // the Retry-After header, if any
};

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
    Result<HttpResponse> post(const std::string& url, const std::string& body,
                              const std::vector<std::string>& headers);

private:
    Result<HttpResponse> perform(const std::string& url, const std::string* body,
                                 const std::vector<std::string>& headers);
    Result<HttpResponse> attempt(const std::string& url, const std::string* body,
                                 const std::vector<std::string>& headers);
    void wait_for_turn();

    HttpOptions options_;
    void* curl_; // CURL*, kept for connection reuse
    std::chrono::steady_clock::time_point last_start_{};
};

// Initialises libcurl once per process (call from main before threads start).
void http_global_init();

} // namespace pp
