// One redaction for every text that leaves the process, applied at one
// choke point per kind of sink:
// - stdout and stderr: RedactedOutput, installed by the command line, cleans
//   each line printed (so every log, error, warning and note);
// - errors quoting what came back (util/text.h excerpt) are cleaned before
//   they are cut, so a cut never leaves a prefix of a secret;
// - the day file (write_day), the site as built (OutputStore::write), a
//   notification (notify/notifier.cpp) and a commit message (publish/git.cpp).
// URLs lose their userinfo and the values of query parameters that name a
// secret, and the secret values the program was given (API keys, tokens,
// passwords, secret URLs) are replaced wherever they appear, e.g. in a 401
// body that echoes the key.
#pragma once

#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace pp {

// "https://user:pw@host/v1?key=abc&q=x" -> "https://***@host/v1?key=***&q=x".
std::string redact_url(std::string_view url);

// `text` with every URL in it redacted as redact_url does, then
// redact_secrets'.
std::string redact(std::string_view text);

// `text` with every registered secret value replaced by "[$NAME]", and a
// prefix of one (4 bytes or more) cut off by "…" too. For what is published
// (day files, site pages): their other URLs are left as they are.
std::string redact_secrets(std::string text);

// Whether a registered secret value is in `text`: false at once when none is.
bool holds_secret(std::string_view text);

// Remembers `value` (read from the variable `name`) as a secret for
// redact(), for the life of the process. Values under 4 bytes are ignored:
// too short to search for without hiding ordinary text. A URL's fragments
// that are secret on their own are remembered too, as the same name: the
// values of its query parameters and its path segments that look like
// tokens (a Slack webhook's .../services/T.../B.../XXXX), since a peer's
// error may echo its path or query without the rest.
void register_secret(std::string_view value, std::string_view name);

// While alive, what is written to `stream` (std::cout, std::cerr) goes to
// its buffer line by line, each line redacted: a line is written when it
// ends ('\n' or '\r'), so a secret printed in pieces is whole when it is
// redacted; the rest is written at the end. Safe to share between threads.
class RedactedOutput final : public std::streambuf {
public:
    explicit RedactedOutput(std::ostream& stream);
    ~RedactedOutput() override;
    RedactedOutput(const RedactedOutput&) = delete;
    RedactedOutput& operator=(const RedactedOutput&) = delete;

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

private:
    void write_lines(bool all); // under mutex_
    std::ostream& stream_;
    std::streambuf* target_;
    std::string pending_;
    std::mutex mutex_;
};

} // namespace pp
