#include "util/redact.h"

#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <mutex>
#include <utility>
#include <vector>

namespace pp {

namespace {

struct Secrets {
    std::mutex mutex;
    std::vector<std::pair<std::string, std::string>> values; // value, "[$NAME]"; longest first
};

Secrets& secrets() {
    static Secrets instance;
    return instance;
}

// Query parameters whose value is a credential (matched case-insensitively,
// the whole name or its last "_"/"-" part: "api_key", "x-api-key", "access_token").
bool secret_parameter(std::string_view name) {
    static constexpr std::string_view names[] = {"key",       "apikey", "token",      "secret",  "password",
                                                 "passwd",    "pass",   "pwd",        "auth",    "sig",
                                                 "signature", "code",   "credential", "session", "jwt"};
    std::string lower = to_lower(name);
    auto last = lower.find_last_of("_-");
    std::string_view tail =
        last == std::string::npos ? std::string_view(lower) : std::string_view(lower).substr(last + 1);
    for (auto candidate : names)
        if (lower == candidate || tail == candidate) return true;
    return false;
}

// Bytes that end a URL inside running text.
bool url_end(char c) {
    return static_cast<unsigned char>(c) <= ' ' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`' ||
           c == '\\' || c == ')' || c == ']' || c == '}' || c == ',';
}

std::string redact_query(std::string_view query) {
    std::string out;
    size_t start = 0;
    while (start <= query.size()) {
        size_t end = std::min(query.find('&', start), query.size());
        std::string_view pair = query.substr(start, end - start);
        size_t equals = pair.find('=');
        if (equals != std::string_view::npos && secret_parameter(pair.substr(0, equals)))
            out.append(pair.substr(0, equals + 1)).append("***");
        else out.append(pair);
        if (end == query.size()) break;
        out += '&';
        start = end + 1;
    }
    return out;
}

// A URL's path segment or query value that is a secret on its own: 8 bytes
// or more with a digit, or 16 or more, as a Slack webhook's T.../B.../token
// (https://api.slack.com/messaging/webhooks: .../services/T00000000/
// B00000000/XXXXXXXXXXXXXXXXXXXXXXXX); not a word such as "services".
bool looks_like_token(std::string_view part) {
    bool digit = std::ranges::any_of(part, [](char c) { return c >= '0' && c <= '9'; });
    return part.size() >= 16 || (part.size() >= 8 && digit);
}

// The fragments of a secret URL a peer may echo without the rest: the URL
// before its query, its token-like path segments and its query values.
std::vector<std::string_view> url_fragments(std::string_view url) {
    std::vector<std::string_view> parts;
    size_t scheme = url.find("://");
    size_t path = scheme == std::string_view::npos ? scheme : url.find_first_of("/?#", scheme + 3);
    if (path == std::string_view::npos) return parts;
    size_t fragment = std::min(url.find('#', path), url.size());
    size_t query = std::min(url.find('?', path), fragment);
    if (query < fragment) parts.push_back(url.substr(0, query));
    for (auto segment : split(url.substr(path, query - path), '/'))
        if (looks_like_token(segment)) parts.push_back(segment);
    if (query == fragment) return parts;
    for (auto pair : split(url.substr(query + 1, fragment - query - 1), '&')) {
        size_t equals = pair.find('=');
        if (equals == std::string_view::npos) continue;
        std::string_view value = pair.substr(equals + 1);
        if (secret_parameter(pair.substr(0, equals)) || looks_like_token(value)) parts.push_back(value);
    }
    return parts;
}

void replace_all(std::string& text, const std::string& value, const std::string& label) {
    for (auto at = text.find(value); at != std::string::npos; at = text.find(value, at + label.size()))
        text.replace(at, value.size(), label);
}

// A prefix of `value` (4 bytes or more) right before text[at], the "…" of a
// cut, is replaced by `label`; returns where the "…" is now.
size_t replace_cut_prefix(std::string& text, size_t at, const std::string& value, const std::string& label) {
    for (size_t length = std::min(at, value.size() - 1); length >= 4; --length)
        if (text[at - length] == value[0] && text.compare(at - length, length, value, 0, length) == 0) {
            text.replace(at - length, length, label);
            return at - length + label.size();
        }
    return at;
}

constexpr std::string_view ellipsis = "\u2026";

} // namespace

std::string redact_url(std::string_view url) {
    std::string out;
    size_t scheme = url.find("://");
    size_t authority = scheme == std::string_view::npos ? 0 : scheme + 3;
    size_t authority_end = std::min(url.find_first_of("/?#", authority), url.size());
    size_t at = url.substr(0, authority_end).rfind('@');
    if (scheme != std::string_view::npos && at != std::string_view::npos && at >= authority)
        out.append(url.substr(0, authority)).append("***").append(url.substr(at, authority_end - at));
    else out.append(url.substr(0, authority_end));
    std::string_view rest = url.substr(authority_end);
    size_t query = rest.find('?');
    if (query == std::string_view::npos) return out.append(rest);
    size_t fragment = std::min(rest.find('#', query), rest.size());
    out.append(rest.substr(0, query + 1));
    out.append(redact_query(rest.substr(query + 1, fragment - query - 1)));
    return out.append(rest.substr(fragment));
}

std::string redact(std::string_view text) {
    std::string out;
    size_t done = 0;
    for (size_t mark = text.find("://"); mark != std::string_view::npos; mark = text.find("://", mark + 3)) {
        size_t start = mark;
        while (start > done && (std::isalnum(static_cast<unsigned char>(text[start - 1])) || text[start - 1] == '+' ||
                                text[start - 1] == '-' || text[start - 1] == '.'))
            --start;
        if (start == mark) continue; // "://" without a scheme
        size_t end = mark + 3;
        while (end < text.size() && !url_end(text[end])) ++end;
        out.append(text.substr(done, start - done));
        out.append(redact_url(text.substr(start, end - start)));
        done = end;
        mark = end - 3; // the next search starts at the URL's end
    }
    out.append(text.substr(done));
    return redact_secrets(std::move(out));
}

std::string redact_secrets(std::string text) {
    auto& all = secrets();
    std::lock_guard lock(all.mutex);
    for (const auto& [value, label] : all.values) replace_all(text, value, label);
    for (size_t at = text.find(ellipsis); at != std::string::npos; at = text.find(ellipsis, at + ellipsis.size()))
        for (const auto& [value, label] : all.values) at = replace_cut_prefix(text, at, value, label);
    return text;
}

bool holds_secret(std::string_view text) {
    auto& all = secrets();
    std::lock_guard lock(all.mutex);
    // Boyer-Moore-Horspool: the whole site passes here, and skipping by the
    // secret's length reads it 2-3 times faster than find().
    return std::ranges::any_of(all.values, [&](const auto& v) {
        std::boyer_moore_horspool_searcher searcher(v.first.begin(), v.first.end());
        return std::search(text.begin(), text.end(), searcher) != text.end();
    });
}

void register_secret(std::string_view value, std::string_view name) {
    if (value.size() < 4) return;
    const std::string label = "[$" + std::string(name) + "]";
    auto& all = secrets();
    std::lock_guard lock(all.mutex);
    std::vector<std::string_view> parts = url_fragments(value);
    parts.push_back(value);
    for (std::string_view part : parts)
        if (part.size() >= 4 &&
            std::ranges::find(all.values, part, [](const auto& v) { return v.first; }) == all.values.end())
            all.values.emplace_back(std::string(part), label);
    // Longest first, so a secret that contains another is replaced whole.
    std::ranges::stable_sort(all.values, std::greater{}, [](const auto& v) { return v.first.size(); });
}

RedactedOutput::RedactedOutput(std::ostream& stream) : stream_(stream), target_(stream.rdbuf()) { stream_.rdbuf(this); }

RedactedOutput::~RedactedOutput() {
    stream_.rdbuf(target_);
    std::lock_guard lock(mutex_);
    write_lines(true);
}

void RedactedOutput::write_lines(bool all) {
    size_t end = all ? pending_.size() : pending_.find_last_of("\n\r") + 1; // npos + 1: none
    if (end == 0) return;
    std::string lines = redact(std::string_view(pending_).substr(0, end));
    target_->sputn(lines.data(), static_cast<std::streamsize>(lines.size()));
    target_->pubsync();
    pending_.erase(0, end);
}

RedactedOutput::int_type RedactedOutput::overflow(int_type c) {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char byte = traits_type::to_char_type(c);
    xsputn(&byte, 1);
    return c;
}

std::streamsize RedactedOutput::xsputn(const char* s, std::streamsize n) {
    std::lock_guard lock(mutex_);
    pending_.append(s, static_cast<size_t>(n));
    if (std::string_view(s, static_cast<size_t>(n)).find_first_of("\n\r") != std::string_view::npos) write_lines(false);
    return n;
}

int RedactedOutput::sync() {
    std::lock_guard lock(mutex_);
    write_lines(false);
    return 0;
}

} // namespace pp
