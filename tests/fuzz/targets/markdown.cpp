// Markdown to HTML as the site renders it (site/render_markdown.h): any
// bytes as Markdown, and any bytes as an abstract, whose fast path must give
// the same HTML as cmark; and reading text out of any Markdown tree
// (content/markdown.h).
#include "content/markdown.h"
#include "site/render_markdown.h"
#include "target.h"

#include <cstdlib>

PAPERPRESS_FUZZ_TARGET(markdown) {
    (void)pp::markdown_to_html(input);
    if (pp::plain_text_to_html(input) != pp::plain_text_to_html_cmark(input)) std::abort();
    pp::MarkdownTree tree = pp::parse_markdown(input);
    for (cmark_node* block = cmark_node_first_child(tree.get()); block; block = cmark_node_next(block))
        (void)pp::inline_text(block);
}
