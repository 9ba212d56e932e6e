#include "notify/smtp.h"

#include "notify/channel.h"

#include "fetch/curl_library.h"
#include "fetch/http_client.h"
#include "util/backoff.h"
#include "util/hash.h"
#include "util/redact.h"
#include "util/text.h"

#include <algorithm>
#include <cstring>

namespace pp {

namespace {

std::string two_digits(int n) { return (n < 10 ? "0" : "") + std::to_string(n); }

// RFC 5322 date at midnight UTC of the day: "Wed, 28 May 2025 00:00:00 +0000".
std::string rfc5322_date(const Date& d) {
    return weekday_name(d.weekday()).substr(0, 3) + ", " + two_digits(d.day) + " " + month_name(d.month).substr(0, 3) +
           " " + std::to_string(d.year) + " 00:00:00 +0000";
}

std::string base64(std::string_view bytes) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        unsigned n = static_cast<unsigned>(static_cast<unsigned char>(bytes[i])) << 16 |
                     static_cast<unsigned>(static_cast<unsigned char>(bytes[i + 1])) << 8 |
                     static_cast<unsigned>(static_cast<unsigned char>(bytes[i + 2]));
        out += alphabet[n >> 18 & 63];
        out += alphabet[n >> 12 & 63];
        out += alphabet[n >> 6 & 63];
        out += alphabet[n & 63];
    }
    if (i < bytes.size()) {
        unsigned n = static_cast<unsigned>(static_cast<unsigned char>(bytes[i])) << 16;
        if (i + 1 < bytes.size()) n |= static_cast<unsigned>(static_cast<unsigned char>(bytes[i + 1])) << 8;
        out += alphabet[n >> 18 & 63];
        out += alphabet[n >> 12 & 63];
        out += i + 1 < bytes.size() ? alphabet[n >> 6 & 63] : '=';
        out += '=';
    }
    return out;
}

bool plain_ascii(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

// Header text never carries a line break (header injection).
std::string header_safe(std::string_view s) {
    std::string out;
    for (char c : s) out += (c == '\r' || c == '\n') ? ' ' : c;
    return out;
}

// "Name <a@b>" with a non-ASCII name: the name as encoded words.
std::string mailbox_header(const std::string& mailbox) {
    std::string safe = header_safe(mailbox);
    auto open = safe.rfind('<');
    if (open == std::string::npos || plain_ascii(safe)) return safe;
    std::string name(trim(std::string_view(safe).substr(0, open)));
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
    return encode_header(name) + " " + safe.substr(open);
}

std::string domain_of(const std::string& address) {
    auto at = address.rfind('@');
    std::string domain = at == std::string::npos ? "paperpress.invalid" : address.substr(at + 1);
    return domain.empty() ? "paperpress.invalid" : domain;
}

struct Upload {
    const std::string* data;
    std::size_t at = 0;
};

size_t read_upload(char* buffer, size_t size, size_t count, void* target) {
    auto* upload = static_cast<Upload*>(target);
    std::size_t n = std::min(size * count, upload->data->size() - upload->at);
    std::memcpy(buffer, upload->data->data() + upload->at, n);
    upload->at += n;
    return n;
}

bool retryable(CURLcode code) {
    switch (code) {
        case CURLE_LOGIN_DENIED:
        case CURLE_URL_MALFORMAT:
        case CURLE_UNSUPPORTED_PROTOCOL:
        case CURLE_USE_SSL_FAILED:
        case CURLE_PEER_FAILED_VERIFICATION:
        case CURLE_SSL_CACERT_BADFILE:
        case CURLE_SSL_CERTPROBLEM:
        case CURLE_NOT_BUILT_IN:
            return false;
        default:
            return true;
    }
}

struct Attempt {
    CURLcode code = CURLE_OK;
    std::string error;
};

Attempt attempt(const SmtpRequest& request, const std::string& mime, const SendOptions& options) {
    const CurlLibrary& lib = **curl_library(); // loaded: send_smtp checked
    CURL* curl = lib.easy_init();
    if (!curl) return {CURLE_FAILED_INIT, "could not start libcurl"};
    std::string from = "<" + mail_address(request.from) + ">";
    curl_slist* recipients = nullptr;
    for (const auto& to : request.to) recipients = lib.slist_append(recipients, ("<" + mail_address(to) + ">").c_str());
    Upload upload{&mime};
    char error_buffer[CURL_ERROR_SIZE] = {0};
    lib.easy_setopt(curl, CURLOPT_URL, request.url.c_str());
    lib.easy_setopt(curl, CURLOPT_MAIL_FROM, from.c_str());
    lib.easy_setopt(curl, CURLOPT_MAIL_RCPT, recipients);
    lib.easy_setopt(curl, CURLOPT_USE_SSL, static_cast<long>(request.require_tls ? CURLUSESSL_ALL : CURLUSESSL_TRY));
    if (!request.username.empty()) {
        lib.easy_setopt(curl, CURLOPT_USERNAME, request.username.c_str());
        lib.easy_setopt(curl, CURLOPT_PASSWORD, request.password.c_str());
    }
    if (request.insecure_tls) {
        lib.easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
        lib.easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    lib.easy_setopt(curl, CURLOPT_READFUNCTION, read_upload);
    lib.easy_setopt(curl, CURLOPT_READDATA, &upload);
    lib.easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    lib.easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(mime.size()));
    lib.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    lib.easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options.timeout.count()));
    lib.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                    static_cast<long>(std::min<long long>(options.timeout.count(), 20000)));
    lib.easy_setopt(curl, CURLOPT_ERRORBUFFER, error_buffer);
    CURLcode code = lib.easy_perform(curl);
    lib.slist_free_all(recipients);
    lib.easy_cleanup(curl);
    if (code == CURLE_OK) return {};
    return {code, error_buffer[0] ? error_buffer : lib.easy_strerror(code)};
}

} // namespace

std::string mail_address(const std::string& mailbox) {
    auto open = mailbox.rfind('<');
    auto close = mailbox.rfind('>');
    if (open != std::string::npos && close != std::string::npos && close > open)
        return std::string(trim(std::string_view(mailbox).substr(open + 1, close - open - 1)));
    return std::string(trim(mailbox));
}

std::string quoted_printable(std::string_view text) {
    static const char hex[] = "0123456789ABCDEF";
    std::string out;
    std::size_t line_length = 0;
    auto emit = [&](std::string_view token) {
        if (line_length + token.size() > 75) {
            out += "=\r\n";
            line_length = 0;
        }
        out += token;
        line_length += token.size();
    };
    std::size_t i = 0;
    while (i <= text.size()) {
        std::size_t end = text.find('\n', i);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(i, end - i);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        for (std::size_t k = 0; k < line.size(); ++k) {
            auto c = static_cast<unsigned char>(line[k]);
            bool last = k + 1 == line.size();
            bool literal = (c >= 33 && c <= 126 && c != '=') || ((c == ' ' || c == '\t') && !last);
            if (k == 0 && (c == '.' || (c == 'F' && line.substr(0, 5) == "From "))) literal = false;
            if (literal) {
                char ch = static_cast<char>(c);
                emit(std::string_view(&ch, 1));
            } else {
                char token[3] = {'=', hex[c >> 4], hex[c & 15]};
                emit(std::string_view(token, 3));
            }
        }
        if (end == text.size()) break;
        out += "\r\n";
        line_length = 0;
        i = end + 1;
    }
    return out;
}

std::string encode_header(std::string_view value) {
    std::string safe = header_safe(value);
    if (plain_ascii(safe)) return safe;
    // Encoded words of at most 45 bytes (60 base64 characters), cut between UTF-8 characters.
    std::string out;
    std::size_t i = 0;
    while (i < safe.size()) {
        std::size_t end = std::min(i + 45, safe.size());
        while (end < safe.size() && end > i && (static_cast<unsigned char>(safe[end]) & 0xC0) == 0x80) --end;
        if (end == i) end = std::min(i + 45, safe.size());
        if (!out.empty()) out += "\r\n ";
        out += "=?UTF-8?B?" + base64(std::string_view(safe).substr(i, end - i)) + "?=";
        i = end;
    }
    return out;
}

std::string build_mime(const Message& message, const std::string& from, const std::vector<std::string>& to,
                       const Date& date) {
    std::string text_part = quoted_printable(message.text);
    std::string html_part = quoted_printable(message.html);
    std::string recipients = join(to, ",");
    // "=_" never occurs in quoted-printable text, so the boundary cannot either.
    std::string hash = hash_hex(message.subject + "\n" + message.text + "\n" + message.html + "\n" + recipients);
    std::string boundary = "=_paperpress_" + date.iso() + "_" + hash;
    std::vector<std::string> to_headers;
    for (const auto& address : to) to_headers.push_back(mailbox_header(address));

    std::string out;
    out += "From: " + mailbox_header(from) + "\r\n";
    out += "To: " + join(to_headers, ",\r\n ") + "\r\n";
    out += "Subject: " + encode_header(message.subject) + "\r\n";
    out += "Date: " + rfc5322_date(date) + "\r\n";
    out += "Message-ID: <paperpress." + date.iso() + "." + hash + "@" + domain_of(mail_address(from)) + ">\r\n";
    out += "MIME-Version: 1.0\r\n";
    out += "Auto-Submitted: auto-generated\r\n";
    out += "Content-Type: multipart/alternative;\r\n boundary=\"" + boundary + "\"\r\n";
    out += "\r\n";
    out += "This is a message in MIME format: a plain-text part and an HTML part.\r\n";
    out += "\r\n--" + boundary + "\r\n";
    out += "Content-Type: text/plain; charset=utf-8\r\n";
    out += "Content-Transfer-Encoding: quoted-printable\r\n\r\n";
    out += text_part;
    out += "\r\n--" + boundary + "\r\n";
    out += "Content-Type: text/html; charset=utf-8\r\n";
    out += "Content-Transfer-Encoding: quoted-printable\r\n\r\n";
    out += html_part;
    out += "\r\n--" + boundary + "--\r\n";
    return out;
}

Result<void> send_smtp(const SmtpRequest& request, const std::string& mime, const SendOptions& options) {
    if (auto library = curl_library(); !library) return fail("SMTP: " + library.error().message); // no retry helps
    Clock& clock = options.clock ? *options.clock : real_clock();
    Backoff backoff({options.backoff, options.backoff * 8, false});
    for (int number = 1;; ++number) {
        Attempt result = attempt(request, mime, options);
        if (result.code == CURLE_OK) return {};
        if (!retryable(result.code) || number >= options.attempts) {
            return fail("SMTP " + result.error +
                        (number > 1 ? " (after " + std::to_string(number) + " attempts)" : ""));
        }
        const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(*backoff.next(clock));
        if (options.on_retry)
            options.on_retry("SMTP " + result.error + "; retry " + std::to_string(number) + " of " +
                             std::to_string(options.attempts - 1) + " in " + std::to_string(wait.count()) + " ms");
        clock.sleep_for(wait);
    }
}

namespace {

// notify.email. The login is never in the file: the section names the
// variables that hold it.
struct EmailSettings {
    std::string smtp_url; // smtp://host:587 (STARTTLS) or smtps://host:465
    std::string from;     // "paperpress <bot@example.org>" or "bot@example.org"
    std::vector<std::string> to;
    std::string username_env; // variables holding the SMTP login; empty: no AUTH
    std::string password_env;
    bool starttls = true;                  // true: TLS required (STARTTLS); false: used when offered
    std::string subject = default_subject; // mustache
    bool insecure_tls_for_tests = false;   // TEST ONLY: do not verify the server's certificate
};

// The message as e-mail, to every recipient, through the configured server.
Channel make_email(const EmailSettings& e, const ChannelInputs& in) {
    Channel c;
    c.name = "email (" + std::to_string(e.to.size()) + (e.to.size() == 1 ? " recipient)" : " recipients)");
    SmtpRequest request{e.smtp_url, e.from, e.to, {}, {}, e.starttls, e.insecure_tls_for_tests};
    if (!e.username_env.empty()) {
        request.username = c.use_secret(in, e.username_env, false); // a login name, shown as it is
        if (!request.username.empty()) request.password = c.use_secret(in, e.password_env);
    }
    std::string mime = build_mime(in.message, e.from, e.to, in.summary.date);
    c.preview = [e, m = in.message] {
        return "email via " + e.smtp_url + " from " + e.from + " to " + join(e.to, ", ") + "\nSubject: " + m.subject +
               "\n--- text/plain ---\n" + m.text + "--- text/html ---\n" + m.html;
    };
    c.send = [request, mime](const SendOptions& o) { return send_smtp(request, mime, o); };
    if (e.insecure_tls_for_tests)
        c.warning = "notify: warning: email.insecure_tls_for_tests is on: the SMTP server's certificate is not checked";
    return c;
}

// Does `url` carry a password in its userinfo (scheme://user:password@host)?
// libcurl would log in with it (CURLOPT_URL), but the file is committed.
bool url_has_password(std::string_view url) {
    const auto scheme = url.find("://");
    if (scheme == std::string_view::npos) return false;
    std::string_view authority = url.substr(scheme + 3);
    authority = authority.substr(0, authority.find_first_of("/?#"));
    const auto at = authority.rfind('@');
    return at != std::string_view::npos && authority.substr(0, at).find(':') != std::string_view::npos;
}

// Settings that depend on each other, checked once the section is read.
Result<void> check_email(const EmailSettings& e, const ChannelSection& section) {
    if (!e.smtp_url.starts_with("smtp://") && !e.smtp_url.starts_with("smtps://"))
        return section_problem(section, "'email.smtp_url' to start with smtp:// or smtps://, got " +
                                            excerpt(redact_url(e.smtp_url)));
    if (url_has_password(e.smtp_url))
        return section_problem(section, "'email.smtp_url' without a password (got " + excerpt(redact_url(e.smtp_url)) +
                                            "; the file is committed: the login goes in the variables "
                                            "'email.username_env' and 'email.password_env' name)");
    if (e.from.find('@') == std::string::npos) return section_problem(section, "'email.from' to be an email address");
    if (e.to.empty()) return section_problem(section, "at least one recipient in 'email.to'");
    for (const auto& to : e.to)
        if (to.find('@') == std::string::npos)
            return section_problem(section, "an email address in 'email.to', got " + excerpt(to));
    if (e.username_env.empty() != e.password_env.empty())
        return section_problem(section, "both 'email.username_env' and 'email.password_env', or neither");
    return {};
}

Result<ChannelSetup> read_email(const ChannelSection& section) {
    EmailSettings e;
    auto ok = read_section(section, [&](const Section& r) -> std::map<std::string, Setter> {
        return {{"smtp_url", r.text(e.smtp_url)},
                {"from", r.text(e.from)},
                {"to", r.list(e.to)},
                {"username_env", r.env_name(e.username_env)},
                {"password_env", r.env_name(e.password_env)},
                {"starttls", r.flag(e.starttls)},
                {"subject", r.text(e.subject)},
                {"insecure_tls_for_tests", r.flag(e.insecure_tls_for_tests)}};
    });
    if (!ok) return std::unexpected(ok.error());
    ChannelSetup setup;
    setup.enabled = !e.smtp_url.empty();
    if (setup.enabled)
        if (auto checked = check_email(e, section); !checked) return std::unexpected(checked.error());
    if (!e.password_env.empty()) setup.secret_variables.push_back(e.password_env);
    if (!e.username_env.empty()) setup.plain_variables.push_back(e.username_env);
    setup.subject = e.subject;
    setup.make = [e](const ChannelInputs& in) { return make_email(e, in); };
    return setup;
}

} // namespace

extern constinit const ChannelKind email_channel = {"email", read_email};

} // namespace pp
