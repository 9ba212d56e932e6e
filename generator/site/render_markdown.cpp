#include "site/render_markdown.h"

#include "content/markdown.h"
#include "util/text.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

namespace pp {

namespace {

struct ParserDeleter {
    void operator()(cmark_parser* parser) const { cmark_parser_free(parser); }
};
struct NodeDeleter {
    void operator()(cmark_node* node) const { cmark_node_free(node); }
};

constexpr const char* extension_names[] = {"table", "autolink", "strikethrough"};

} // namespace

std::string markdown_to_html(std::string_view markdown) {
    static std::once_flag registered;
    std::call_once(registered, [] { cmark_gfm_core_extensions_ensure_registered(); });

    // cmark-gfm adds the attached extensions' special characters to a global
    // table when a parse finishes and removes them after, so two parsers with
    // extensions at once lose each other's autolinks: one at a time.
    static std::mutex one_parser;
    std::lock_guard lock(one_parser);
    const int options = CMARK_OPT_DEFAULT;
    std::unique_ptr<cmark_parser, ParserDeleter> parser(cmark_parser_new(options));
    for (const char* name : extension_names)
        if (cmark_syntax_extension* extension = cmark_find_syntax_extension(name))
            cmark_parser_attach_syntax_extension(parser.get(), extension);
    cmark_parser_feed(parser.get(), markdown.data(), markdown.size());
    std::unique_ptr<cmark_node, NodeDeleter> document(cmark_parser_finish(parser.get()));
    char* html = cmark_render_html(document.get(), options, cmark_parser_get_syntax_extensions(parser.get()));
    std::string out = html ? html : "";
    std::free(html);
    return out;
}

namespace {

// Strictly valid UTF-8 (no overlong forms, surrogates or NUL): what cmark
// passes through unchanged.
bool plain_utf8(std::string_view text) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const auto* end = p + text.size();
    constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    auto has_zero = [](std::uint64_t w) { return ((w - ones) & ~w & highs) != 0; };
    while (p < end) {
        // Eight bytes at a time while they are ASCII other than NUL and CR.
        for (std::uint64_t w; end - p >= 8; p += 8) {
            std::memcpy(&w, p, 8);
            if ((w & highs) || has_zero(w) || has_zero(w ^ (ones * '\r'))) break;
        }
        if (p == end) break;
        unsigned char c = *p;
        if (c < 0x80) {
            if (c == 0 || c == '\r') return false;
            ++p;
            continue;
        }
        int length = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (length == 0 || end - p < length) return false;
        for (int i = 1; i < length; ++i)
            if ((p[i] & 0xC0) != 0x80) return false;
        if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] > 0x9F) || (c == 0xF0 && p[1] < 0x90) ||
            (c == 0xF4 && p[1] > 0x8F))
            return false;
        p += length;
    }
    return true;
}

// Whether `text` ends with `suffix` (lower case), ignoring ASCII case.
bool ends_with_nocase(std::string_view text, std::string_view suffix) {
    if (text.size() < suffix.size()) return false;
    text.remove_prefix(text.size() - suffix.size());
    for (std::size_t i = 0; i < suffix.size(); ++i) {
        char c = text[i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c != suffix[i]) return false;
    }
    return true;
}

// What the GFM autolink extension turns into links: URLs, www., e-mail.
// Every trigger has an '@', a ':' or a '.', so only those are looked at.
bool may_autolink(std::string_view text) {
    if (text.find('@') != std::string_view::npos) return true;
    for (std::size_t at = text.find(':'); at != std::string_view::npos; at = text.find(':', at + 1)) {
        std::string_view before = text.substr(0, at);
        if (text.substr(at).starts_with("://") || ends_with_nocase(before, "mailto") || ends_with_nocase(before, "xmpp"))
            return true;
    }
    for (std::size_t at = text.find('.'); at != std::string_view::npos; at = text.find('.', at + 1))
        if (ends_with_nocase(text.substr(0, at), "www")) return true;
    return false;
}

constexpr ByteSet html_escaped("&<>\"'");
constexpr ByteSet cmark_escaped("&<>\""); // cmark leaves ' as it is

const char* html_entity(char c) {
    switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    default: return "&#39;";
    }
}

} // namespace

std::string plain_text_to_html_cmark(std::string_view text) {
    if (text.empty()) return {};
    return markdown_to_html(escape_markdown_lines(text, "", true));
}

// The same bytes as plain_text_to_html_cmark without a Markdown round trip:
// escaped text reads back as itself, so cmark gives one <p> per run of
// non-empty lines, lines joined by "\n", with & < > " escaped. Text that
// cmark would treat otherwise (invalid UTF-8, NUL, CR, autolinks) takes the
// cmark path.
std::string plain_text_to_html(std::string_view text) {
    if (text.empty()) return {};
    if (!plain_utf8(text) || may_autolink(text)) return plain_text_to_html_cmark(text);
    std::string out;
    out.reserve(text.size() + text.size() / 16 + 16);
    bool open = false;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (line.empty()) {
            if (open) out += "</p>\n";
            open = false;
        } else {
            out += open ? "\n" : "<p>";
            open = true;
            append_replacing(out, line, cmark_escaped, html_entity);
        }
        start = end + 1;
    }
    if (open) out += "</p>\n";
    return out;
}

std::string html_escape(std::string_view text, const char* apostrophe) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    append_replacing(out, text, html_escaped, [apostrophe](char c) { return c == '\'' ? apostrophe : html_entity(c); });
    return out;
}

} // namespace pp
