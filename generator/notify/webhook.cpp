#include "notify/webhook.h"

#include "notify/http_post.h"

namespace pp {

Result<void> send_webhook(const std::string& url, const std::string& json, const SendOptions& options) {
    auto response = post_json(url, json, {}, options);
    if (!response) return std::unexpected(response.error());
    return {};
}

} // namespace pp
