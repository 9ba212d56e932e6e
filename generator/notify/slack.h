// Slack: an incoming webhook (the URL is the secret) or a bot token with
// chat.postMessage, as the reference system posts. Retries (429 with
// Retry-After, 5xx, network errors) come from HttpClient.
#pragma once

#include "notify/transport.h"
#include "util/error.h"

#include <string>

namespace pp {

// POSTs `payload` (slack_payload()) to an incoming-webhook URL; Slack answers "ok".
Result<void> send_slack_webhook(const std::string& webhook_url, const std::string& payload, const SendOptions& options);

// POSTs `payload` (with "channel") to <api_url>chat.postMessage with the bot
// token; Slack's {"ok": false, "error": ...} is an error naming the reason.
Result<void> send_slack_bot(const std::string& api_url, const std::string& token, const std::string& payload,
                            const SendOptions& options);

} // namespace pp
