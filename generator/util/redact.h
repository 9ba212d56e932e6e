// One redaction for every text that leaves the process: a log line, an
// error, a notification, a day file, a commit message. URLs lose their
// userinfo and the values of query parameters that name a secret, and the
// secret values the program was given (API keys, tokens, passwords) are
// replaced wherever they appear, e.g. in a 401 body that echoes the key.
#pragma once

#include <string>
#include <string_view>

namespace pp {

// "https://user:pw@host/v1?key=abc&q=x" -> "https://***@host/v1?key=***&q=x".
std::string redact_url(std::string_view url);

// `text` with every URL in it redacted as redact_url does, and every
// registered secret value replaced by "[$NAME]".
std::string redact(std::string_view text);

// Remembers `value` (read from the variable `name`) as a secret for
// redact(), for the life of the process. Values under 4 bytes are ignored:
// too short to search for without hiding ordinary text.
void register_secret(std::string_view value, std::string_view name);

} // namespace pp
