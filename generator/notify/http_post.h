// A JSON POST through the project's polite HttpClient (retries, backoff).
#pragma once

#include "fetch/http_client.h"
#include "notify/transport.h"

#include <string>
#include <vector>

namespace pp {

Result<HttpResponse> post_json(const std::string& url, const std::string& json,
                               const std::vector<std::string>& extra_headers, const SendOptions& options);

} // namespace pp
