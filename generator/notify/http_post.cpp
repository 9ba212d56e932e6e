#include "notify/http_post.h"
#include "util/version.h"

#include <algorithm>

namespace pp {

Result<HttpResponse> post_json(const std::string& url, const std::string& json,
                               const std::vector<std::string>& extra_headers, const SendOptions& options) {
    HttpOptions http;
    http.peer = HttpPeer::notify();
    http.user_agent = user_agent("notifications");
    http.max_attempts = options.attempts;
    http.backoff = options.backoff;
    http.max_wait = std::max(options.backoff * 8, std::chrono::milliseconds(60000));
    http.timeout = std::chrono::duration_cast<std::chrono::seconds>(options.timeout);
    if (http.timeout.count() < 1) http.timeout = std::chrono::seconds(1);
    http.on_retry = options.on_retry;
    HttpClient client(http);
    std::vector<std::string> headers = {"Content-Type: application/json; charset=utf-8"};
    headers.insert(headers.end(), extra_headers.begin(), extra_headers.end());
    return client.post(url, json, headers);
}

} // namespace pp
