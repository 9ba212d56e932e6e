#include "fetch/http_client.h"

#include "util/text.h"

#include <curl/curl.h>

#include <algorithm>
#include <mutex>
#include <thread>

namespace pp {

namespace {

size_t append_body(char* data, size_t size, size_t count, void* target) {
    static_cast<std::string*>(target)->append(data, size * count);
    return size * count;
}

size_t read_header(char* data, size_t size, size_t count, void* target) {
    std::string_view line(data, size * count);
    auto colon = line.find(':');
    if (colon != std::string_view::npos) {
        std::string name = to_lower(trim(line.substr(0, colon)));
        if (name == "retry-after") *static_cast<std::string*>(target) = std::string(trim(line.substr(colon + 1)));
    }
    return size * count;
}

bool retryable_status(long status) { return status == 429 || status >= 500; }

// Only the scheme, host and path: query strings may carry keys or tokens.
std::string loggable(const std::string& url) { return url.substr(0, url.find('?')); }

} // namespace

void http_global_init() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

HttpClient::HttpClient(HttpOptions options) : options_(std::move(options)) {
    http_global_init();
    curl_ = curl_easy_init();
}

HttpClient::~HttpClient() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

Result<HttpResponse> HttpClient::get(const std::string& url) { return perform(url, nullptr, {}); }

Result<HttpResponse> HttpClient::post(const std::string& url, const std::string& body,
                                      const std::vector<std::string>& headers) {
    return perform(url, &body, headers);
}

void HttpClient::wait_for_turn() {
    auto now = std::chrono::steady_clock::now();
    if (last_start_ != std::chrono::steady_clock::time_point{} && now < last_start_ + options_.min_interval)
        std::this_thread::sleep_until(last_start_ + options_.min_interval);
    last_start_ = std::chrono::steady_clock::now();
}

Result<HttpResponse> HttpClient::perform(const std::string& url, const std::string* body,
                                         const std::vector<std::string>& headers) {
    auto wait = options_.backoff;
    Result<HttpResponse> result;
    for (int attempt_number = 1;; ++attempt_number) {
        wait_for_turn();
        result = attempt(url, body, headers);
        bool retry = false;
        std::string reason;
        auto delay = wait;
        if (!result) {
            retry = true;
            reason = result.error().message;
        } else if (retryable_status(result->status)) {
            retry = true;
            reason = "HTTP " + std::to_string(result->status);
            if (auto seconds = parse_int(result->retry_after); seconds && *seconds >= 0) {
                // Never sooner than the minimum interval: arXiv's 3 s holds for retries too.
                delay = std::max<std::chrono::milliseconds>(std::chrono::seconds(*seconds), options_.min_interval);
                reason += ", Retry-After " + result->retry_after + " s";
            }
        }
        if (!retry || attempt_number >= options_.max_attempts) break;
        delay = std::min(delay, options_.max_wait);
        if (options_.on_retry)
            options_.on_retry(loggable(url) + ": " + reason + "; retry " + std::to_string(attempt_number) + " of " +
                              std::to_string(options_.max_attempts - 1) + " in " +
                              std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(delay).count()) +
                              " ms");
        std::this_thread::sleep_for(delay);
        // The interval counts from the retry, not from the failed attempt.
        last_start_ = {};
        wait *= 2;
    }
    if (!result) return result;
    if (result->status < 200 || result->status >= 300) {
        std::string excerpt = result->body.substr(0, 200);
        return fail("HTTP " + std::to_string(result->status) + " from " + loggable(url) +
                    (excerpt.empty() ? "" : ": " + excerpt));
    }
    return result;
}

Result<HttpResponse> HttpClient::attempt(const std::string& url, const std::string* body,
                                         const std::vector<std::string>& headers) {
    CURL* curl = static_cast<CURL*>(curl_);
    curl_easy_reset(curl); // keeps the connection cache: the same connection is reused
    HttpResponse response;
    curl_slist* header_list = nullptr;
    for (const auto& header : headers) header_list = curl_slist_append(header_list, header.c_str());
    // No "Expect: 100-continue": servers that ignore it would cost a second per large POST.
    if (body) header_list = curl_slist_append(header_list, "Expect:");
    char error_buffer[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_USERAGENT, options_.user_agent.c_str());
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(std::chrono::milliseconds(options_.timeout).count()));
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 20L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, read_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response.retry_after);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_buffer);
    if (header_list) curl_easy_setopt(curl, CURLOPT_HTTPHEADER, header_list);
    if (body) {
        curl_easy_setopt(curl, CURLOPT_POST, 1L);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body->data());
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body->size()));
    }
    CURLcode code = curl_easy_perform(curl);
    curl_slist_free_all(header_list);
    if (code != CURLE_OK) {
        std::string detail = error_buffer[0] ? error_buffer : curl_easy_strerror(code);
        return fail(loggable(url) + ": " + detail);
    }
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    return response;
}

} // namespace pp
