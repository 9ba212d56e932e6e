#include "site/render_markdown.h"

#include "content/markdown.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>

#include <cstdlib>
#include <memory>
#include <mutex>

namespace pp {

namespace {

struct ParserDeleter {
    void operator()(cmark_parser* parser) const { cmark_parser_free(parser); }
};

constexpr const char* extension_names[] = {"table", "autolink", "strikethrough"};

} // namespace

std::string markdown_to_html(std::string_view markdown) {
    static std::once_flag registered;
    std::call_once(registered, [] { cmark_gfm_core_extensions_ensure_registered(); });

    const int options = CMARK_OPT_DEFAULT;
    std::unique_ptr<cmark_parser, ParserDeleter> parser(cmark_parser_new(options));
    for (const char* name : extension_names)
        if (cmark_syntax_extension* extension = cmark_find_syntax_extension(name))
            cmark_parser_attach_syntax_extension(parser.get(), extension);
    cmark_parser_feed(parser.get(), markdown.data(), markdown.size());
    MarkdownTree document(cmark_parser_finish(parser.get()));
    char* html = cmark_render_html(document.get(), options, cmark_parser_get_syntax_extensions(parser.get()));
    std::string out = html ? html : "";
    std::free(html);
    return out;
}

std::string plain_text_to_html(std::string_view text) {
    if (text.empty()) return {};
    return markdown_to_html(escape_markdown_lines(text, "", true));
}

std::string html_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

} // namespace pp
