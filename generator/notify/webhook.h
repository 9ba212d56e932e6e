// The generic webhook: the day's data as JSON, POSTed to any URL (Discord or
// Matrix bridges, home-grown bots). Any 2xx answer is success.
#pragma once

#include "notify/transport.h"
#include "util/error.h"

#include <string>

namespace pp {

Result<void> send_webhook(const std::string& url, const std::string& json, const SendOptions& options);

} // namespace pp
