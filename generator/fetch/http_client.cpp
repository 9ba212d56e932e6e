#include "fetch/http_client.h"

#include "util/backoff.h"

#include "fetch/curl_library.h"
#include "util/redact.h"
#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace pp {

namespace {

// The body, up to the peer's cap: past it the callback takes nothing, which
// makes libcurl stop the transfer (CURLE_WRITE_ERROR) before the rest is read.
struct BodySink {
    std::string& body;
    std::size_t cap;
    bool over = false;
};

size_t append_body(char* data, size_t size, size_t count, void* target) {
    auto& sink = *static_cast<BodySink*>(target);
    if (size * count > sink.cap - sink.body.size()) {
        sink.over = true;
        return 0;
    }
    sink.body.append(data, size * count);
    return size * count;
}

// "4 MiB (4194304 bytes)", or the bytes alone for a cap of no whole MiB.
std::string describe_cap(std::size_t bytes) {
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        return std::to_string(bytes >> 20) + " MiB (" + std::to_string(bytes) + " bytes)";
    return std::to_string(bytes) + " bytes";
}

// "host:port" of an https URL, lower case, without userinfo; nothing for another scheme.
std::optional<std::string> https_origin(std::string_view url) {
    if (to_lower(url.substr(0, 8)) != "https://") return std::nullopt;
    std::string_view authority = url.substr(8);
    authority = authority.substr(0, authority.find_first_of("/?#"));
    if (auto at = authority.rfind('@'); at != std::string_view::npos) authority = authority.substr(at + 1);
    std::string host = to_lower(authority);
    if (host.empty()) return std::nullopt;
    size_t bracket = host.rfind(']');
    if (host.find(':', bracket == std::string::npos ? 0 : bracket) == std::string::npos) host += ":443";
    return host;
}

// Headers of the last response only: a redirect's or a 100's are replaced.
size_t read_header(char* data, size_t size, size_t count, void* target) {
    auto& headers = *static_cast<std::map<std::string, std::string>*>(target);
    std::string_view line(data, size * count);
    if (line.starts_with("HTTP/")) headers.clear();
    auto colon = line.find(':');
    if (colon != std::string_view::npos)
        headers[to_lower(trim(line.substr(0, colon)))] = std::string(trim(line.substr(colon + 1)));
    return size * count;
}

// A whole or decimal number ("2", "1.5"), such as a delay; not an HTTP date.
std::optional<double> plain_number(std::string_view text) {
    text = trim(text);
    if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789.") != std::string_view::npos)
        return std::nullopt;
    char* end = nullptr;
    std::string copy(text);
    double value = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size()) return std::nullopt;
    return value;
}

std::optional<std::chrono::milliseconds> milliseconds_of(std::optional<double> value, double scale) {
    if (!value) return std::nullopt;
    return std::chrono::milliseconds(static_cast<long long>(std::ceil(*value * scale)));
}

// "Please try again in 1.2s." / "in 20ms" / "in 6m0s" in an error body.
std::optional<std::chrono::milliseconds> try_again_in(const std::string& body) {
    const std::string lower = to_lower(std::string_view(body).substr(0, 4096));
    auto at = lower.find("try again in ");
    if (at == std::string::npos) return std::nullopt;
    std::string_view rest = std::string_view(lower).substr(at + 13);
    size_t used = 0;
    if (auto delay = parse_duration(rest, &used)) return delay;
    // "try again in 20 seconds"
    size_t digits = rest.find_first_not_of("0123456789.");
    if (digits == 0 || digits == std::string_view::npos) return std::nullopt;
    if (rest.substr(digits).starts_with(" second")) return milliseconds_of(plain_number(rest.substr(0, digits)), 1000);
    return std::nullopt;
}

// x-ratelimit-reset-requests / -tokens, preferring the exhausted ones.
std::optional<std::chrono::milliseconds> reset_delay(const HttpResponse& response) {
    std::optional<std::chrono::milliseconds> any, exhausted;
    for (const char* kind : {"requests", "tokens"}) {
        auto reset = parse_duration(response.header(std::string("x-ratelimit-reset-") + kind));
        if (!reset) continue;
        any = std::max(any.value_or(std::chrono::milliseconds(0)), *reset);
        if (response.header(std::string("x-ratelimit-remaining-") + kind) == "0")
            exhausted = std::max(exhausted.value_or(std::chrono::milliseconds(0)), *reset);
    }
    return exhausted ? exhausted : any;
}

bool retryable_status(long status) { return status == 429 || status >= 500; }

// A transfer that failed without an answer: a timeout may have reached the
// peer; a URL libcurl cannot use is ours to mend, not the network's.
ErrorKind transfer_error_kind(CURLcode code) {
    if (code == CURLE_OPERATION_TIMEDOUT) return ErrorKind::timeout;
    if (code == CURLE_URL_MALFORMAT || code == CURLE_UNSUPPORTED_PROTOCOL) return ErrorKind::invalid;
    return ErrorKind::network;
}

// What another attempt may mend: no answer, or no answer in time.
bool retryable(ErrorKind kind) { return kind == ErrorKind::network || kind == ErrorKind::timeout; }

// Userinfo and secret query values may carry keys or tokens.
std::string loggable(const std::string& url) { return redact_url(url); }

constexpr int max_redirects = 5;

} // namespace

std::string HttpResponse::header(const std::string& lower_case_name) const {
    auto it = headers.find(lower_case_name);
    return it == headers.end() ? std::string() : it->second;
}

std::optional<std::chrono::milliseconds> parse_duration(std::string_view text, size_t* used) {
    static constexpr std::pair<std::string_view, double> units[] = {
        {"ms", 1.0}, {"us", 1e-3}, {"µs", 1e-3}, {"ns", 1e-6}, {"h", 3600e3}, {"m", 60e3}, {"s", 1e3}};
    double total_ms = 0;
    size_t at = 0;
    bool any = false;
    auto digit_at = [&](size_t i) { return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); };
    // A number starts with a digit, or a point and a digit ("1.5s", ".5s"); "1s." ends at the "s".
    while (digit_at(at) || (at < text.size() && text[at] == '.' && digit_at(at + 1))) {
        size_t number_end = text.find_first_not_of("0123456789.", at);
        if (number_end == std::string_view::npos) return std::nullopt; // a number without a unit
        char* end = nullptr;
        std::string number(text.substr(at, number_end - at));
        double value = std::strtod(number.c_str(), &end);
        if (end != number.c_str() + number.size()) return std::nullopt;
        bool matched = false;
        for (auto [unit, scale] : units)
            if (text.substr(number_end).starts_with(unit)) {
                total_ms += value * scale;
                at = number_end + unit.size();
                matched = any = true;
                break;
            }
        if (!matched) return std::nullopt;
    }
    if (!any || total_ms > 1e10) return std::nullopt;
    if (used) *used = at;
    return std::chrono::milliseconds(static_cast<long long>(std::ceil(total_ms)));
}

std::optional<std::chrono::milliseconds> server_retry_delay(const HttpResponse& response) {
    if (auto ms = milliseconds_of(plain_number(response.header("retry-after-ms")), 1)) return ms;
    if (auto seconds = milliseconds_of(plain_number(response.header("retry-after")), 1000)) return seconds;
    if (auto text = try_again_in(response.body)) return text;
    return reset_delay(response);
}

bool same_https_origin(const std::string& from, const std::string& to) {
    auto a = https_origin(from);
    return a && a == https_origin(to);
}

Error http_status_error(const HttpResponse& response, const std::string& url) {
    // Redacted before it is cut, so a key that an endpoint echoes is hidden whole.
    std::string excerpt = redact(std::string_view(response.body).substr(0, 4096)).substr(0, 200);
    return Error{{},
                 0,
                 "HTTP " + std::to_string(response.status) + " from " + loggable(url) +
                     (excerpt.empty() ? "" : ": " + excerpt),
                 ErrorKind::http,
                 response.status};
}

HttpClient::HttpClient(HttpOptions options) : options_(std::move(options)) {
    if (auto curl = curl_library()) curl_ = (*curl)->easy_init();
}

HttpClient::~HttpClient() {
    if (curl_) (*curl_library())->easy_cleanup(static_cast<CURL*>(curl_));
}

Result<HttpResponse> HttpClient::get(const std::string& url) { return perform(url, nullptr, {}); }

Result<HttpResponse> HttpClient::post(const std::string& url, const std::string& body,
                                      const std::vector<std::string>& headers) {
    return perform(url, &body, headers);
}

Result<HttpResponse> HttpClient::send(const std::string& url, const std::string* body,
                                      const std::vector<std::string>& headers) {
    wait_for_turn();
    return attempt(url, body, headers);
}

void HttpClient::wait_for_turn() {
    if (last_start_) clock().sleep_until(*last_start_ + options_.min_interval);
    last_start_ = clock().now();
}

Result<HttpResponse> HttpClient::perform(const std::string& url, const std::string* body,
                                         const std::vector<std::string>& headers) {
    if (auto library = curl_library(); !library) return std::unexpected(library.error()); // no retry helps
    // Polite peers (arXiv) get no jitter: the same steps every time.
    Backoff backoff({options_.backoff, options_.max_wait, false});
    Result<HttpResponse> result;
    for (int attempt_number = 1;; ++attempt_number) {
        wait_for_turn();
        result = attempt(url, body, headers);
        bool retry = false;
        std::string reason;
        std::optional<std::chrono::milliseconds> asked;
        if (!result) {
            retry = retryable(result.error().kind);
            reason = result.error().message; // it names the URL already
        } else if (retryable_status(result->status)) {
            retry = true;
            reason = loggable(url) + ": HTTP " + std::to_string(result->status);
            if ((asked = server_retry_delay(*result))) {
                reason += ", the server asked to wait " + std::to_string(asked->count()) + " ms";
                // Never sooner than the minimum interval (arXiv's 3 s holds for retries too), never past the cap.
                asked = std::min(std::max<std::chrono::milliseconds>(*asked, options_.min_interval), options_.max_wait);
            }
        }
        if (!retry || attempt_number >= options_.max_attempts) break;
        const Clock::duration delay = *backoff.next(clock(), asked);
        if (options_.on_retry)
            options_.on_retry(reason + "; retry " + std::to_string(attempt_number) + " of " +
                              std::to_string(options_.max_attempts - 1) + " in " +
                              std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(delay).count()) +
                              " ms");
        clock().sleep_for(delay);
        // The interval counts from the retry, not from the failed attempt.
        last_start_.reset();
    }
    if (!result) return result;
    if (result->status < 200 || result->status >= 300) return std::unexpected(http_status_error(*result, url));
    return result;
}

// One request, and the redirects a same-origin-only peer may follow (a
// redirect-anywhere peer's are followed by libcurl inside attempt_once).
Result<HttpResponse> HttpClient::attempt(const std::string& url, const std::string* body,
                                         const std::vector<std::string>& headers) {
    std::string current = url;
    for (int hops = 0;; ++hops) {
        auto response = attempt_once(current, body, headers);
        if (!response || options_.peer.redirects_anywhere || response->status < 300 || response->status >= 400 ||
            response->location.empty())
            return response;
        if (!same_https_origin(current, response->location) || hops >= max_redirects) {
            return fail_as(ErrorKind::refused, loggable(current) + ": refused to follow HTTP " +
                                                   std::to_string(response->status) + " to " +
                                                   loggable(response->location) + ": a " + options_.peer.kind +
                                                   " is followed only to the same origin over https, at most " +
                                                   std::to_string(max_redirects) + " times");
        }
        // 307 and 308 repeat the request; 301, 302 and 303 turn it into a GET.
        if (response->status != 307 && response->status != 308) body = nullptr;
        current = response->location;
    }
}

Result<HttpResponse> HttpClient::attempt_once(const std::string& url, const std::string* body,
                                              const std::vector<std::string>& headers) {
    auto library = curl_library();
    if (!library) return std::unexpected(library.error());
    if (!curl_) return fail(loggable(url) + ": could not start libcurl");
    const CurlLibrary& lib = **library;
    CURL* curl = static_cast<CURL*>(curl_);
    lib.easy_reset(curl); // keeps the connection cache: the same connection is reused
    HttpResponse response;
    curl_slist* header_list = nullptr;
    for (const auto& header : headers) header_list = lib.slist_append(header_list, header.c_str());
    // No "Expect: 100-continue": servers that ignore it would cost a second per large POST.
    if (body) header_list = lib.slist_append(header_list, "Expect:");
    char error_buffer[CURL_ERROR_SIZE] = {0};
    lib.easy_setopt(curl, CURLOPT_URL, url.c_str());
    lib.easy_setopt(curl, CURLOPT_USERAGENT, options_.user_agent.c_str());
    lib.easy_setopt(curl, CURLOPT_FOLLOWLOCATION, options_.peer.redirects_anywhere ? 1L : 0L);
    lib.easy_setopt(curl, CURLOPT_MAXREDIRS, static_cast<long>(max_redirects));
    lib.easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    lib.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    lib.easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.timeout.count()));
    lib.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 20L);
    lib.easy_setopt(curl, CURLOPT_WRITEFUNCTION, append_body);
    BodySink sink{response.body, options_.peer.max_reply_bytes};
    lib.easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
    lib.easy_setopt(curl, CURLOPT_HEADERFUNCTION, read_header);
    lib.easy_setopt(curl, CURLOPT_HEADERDATA, &response.headers);
    lib.easy_setopt(curl, CURLOPT_ERRORBUFFER, error_buffer);
    if (header_list) lib.easy_setopt(curl, CURLOPT_HTTPHEADER, header_list);
    if (body) {
        lib.easy_setopt(curl, CURLOPT_POST, 1L);
        lib.easy_setopt(curl, CURLOPT_POSTFIELDS, body->data());
        lib.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body->size()));
    }
    CURLcode code = lib.easy_perform(curl);
    lib.slist_free_all(header_list);
    if (sink.over) {
        return fail_as(ErrorKind::too_large,
                       loggable(url) + ": the " + options_.peer.kind + " is larger than its cap of " +
                           describe_cap(options_.peer.max_reply_bytes) + "; the rest was not read");
    }
    if (code != CURLE_OK) {
        std::string detail = error_buffer[0] ? error_buffer : lib.easy_strerror(code);
        return fail_as(transfer_error_kind(code), loggable(url) + ": " + redact(detail));
    }
    lib.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    if (!options_.peer.redirects_anywhere) {
        char* location = nullptr;
        if (lib.easy_getinfo(curl, CURLINFO_REDIRECT_URL, &location) == CURLE_OK && location)
            response.location = location;
    }
    return response;
}

} // namespace pp
