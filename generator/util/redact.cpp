#include "util/redact.h"

#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <mutex>
#include <utility>
#include <vector>

namespace pp {

namespace {

struct Secrets {
    std::mutex mutex;
    std::vector<std::pair<std::string, std::string>> values; // value, "[$NAME]"
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

std::string replace_secrets(std::string text) {
    auto& all = secrets();
    std::lock_guard lock(all.mutex);
    for (const auto& [value, label] : all.values)
        for (auto at = text.find(value); at != std::string::npos; at = text.find(value, at + label.size()))
            text.replace(at, value.size(), label);
    return text;
}

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
    return replace_secrets(std::move(out));
}

void register_secret(std::string_view value, std::string_view name) {
    if (value.size() < 4) return;
    auto& all = secrets();
    std::lock_guard lock(all.mutex);
    for (const auto& known : all.values)
        if (known.first == value) return;
    all.values.emplace_back(std::string(value), "[$" + std::string(name) + "]");
    // Longest first, so a secret that contains another is replaced whole.
    std::sort(all.values.begin(), all.values.end(),
              [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
}

} // namespace pp
