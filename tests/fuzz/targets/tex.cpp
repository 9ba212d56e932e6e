// TeX shown as text (core/tex.h) and abstracts with their links
// (site/render_markdown.h), on any bytes: no crash, every link an escaped
// http(s) URL, and no markup from the input (only the tags we write).
#include "core/tex.h"
#include "site/render_markdown.h"
#include "target.h"

#include <cstdlib>
#include <string_view>

namespace {

// The tags abstract_to_html writes besides links: paragraphs, and TeX's text formats
// (\textbf, \emph, {\it ...}, \texttt, \underline: site/render_markdown.cpp).
bool written_tag(std::string_view tag) {
    for (std::string_view name : {"p", "b", "i", "em", "code", "u"})
        for (std::string_view close : {"", "/"})
            if (tag.starts_with(std::string("<").append(close).append(name).append(">"))) return true;
    return tag.starts_with("</a>");
}

} // namespace

PAPERPRESS_FUZZ_TARGET(tex) {
    (void)pp::tex_to_unicode(input);
    (void)pp::tex_to_unicode(input, true);
    (void)pp::has_math(input);
    const std::string html = pp::abstract_to_html(input);
    for (std::size_t at = html.find('<'); at != std::string::npos; at = html.find('<', at + 1)) {
        std::string_view tag = std::string_view(html).substr(at);
        if (tag.starts_with("<a href=\"")) {
            tag.remove_prefix(9);
            if (!tag.starts_with("http://") && !tag.starts_with("https://")) std::abort();
        } else if (!written_tag(tag)) {
            std::abort();
        }
    }
}
