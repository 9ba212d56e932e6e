// TeX shown as text (core/tex.h) and abstracts with their links
// (site/render_markdown.h), on any bytes: no crash, every link an escaped
// http(s) URL, and no markup from the input (only the tags we write).
#include "core/tex.h"
#include "site/render_markdown.h"
#include "target.h"

#include <cstdlib>
#include <string_view>

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
        } else if (!tag.starts_with("<p>") && !tag.starts_with("</p>") && !tag.starts_with("</a>")) {
            std::abort();
        }
    }
}
