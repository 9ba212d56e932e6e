// Email over SMTP with libcurl: STARTTLS (required or opportunistic), AUTH
// with a login from the environment, and a MIME multipart/alternative body
// (plain text and HTML, quoted-printable) built here with a deterministic
// boundary. Date and Message-ID come from the day, not the clock, so the
// same day's message is the same bytes (and a retry is not a second mail).
#pragma once

#include "core/date.h"
#include "notify/message.h"
#include "notify/transport.h"
#include "util/error.h"

#include <string>
#include <vector>

namespace pp {

struct SmtpRequest {
    std::string url;  // smtp://host:587 or smtps://host:465
    std::string from; // as configured: "Name <addr>" or "addr"
    std::vector<std::string> to;
    std::string username, password; // empty: no AUTH
    bool require_tls = true;        // CURLUSESSL_ALL; false: CURLUSESSL_TRY
    bool insecure_tls = false;      // TEST ONLY: no certificate verification
};

// "Name <a@b>" -> "a@b"; "a@b" -> "a@b".
std::string mail_address(const std::string& mailbox);

// The whole message (headers and body, CRLF line ends).
std::string build_mime(const Message& message, const std::string& from, const std::vector<std::string>& to,
                       const Date& date);

// Quoted-printable (RFC 2045) with CRLF line ends; exposed for tests.
std::string quoted_printable(std::string_view text);
// A header value as RFC 2047 encoded words when it is not plain ASCII.
std::string encode_header(std::string_view value);

// Sends `mime` to every recipient, retrying (new connection each time) on
// errors a retry can cure; login refused, TLS unavailable or an unverifiable
// certificate fail at once.
Result<void> send_smtp(const SmtpRequest& request, const std::string& mime, const SendOptions& options);

} // namespace pp
