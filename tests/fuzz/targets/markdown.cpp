// Markdown to HTML as the site renders it (site/render_markdown.h): any
// bytes as Markdown, and any bytes as an abstract, whose fast path must give
// the same HTML as cmark; and reading text out of any Markdown tree
// (content/markdown.h), a section at a time or whole: the same blocks.
#include "content/markdown.h"
#include "site/render_markdown.h"
#include "target.h"

#include <cstdlib>
#include <string>
#include <vector>

PAPERPRESS_FUZZ_TARGET(markdown) {
    (void)pp::markdown_to_html(input);
    if (pp::plain_text_to_html(input) != pp::plain_text_to_html_cmark(input)) std::abort();
    pp::MarkdownTree tree = pp::parse_markdown(input);
    auto describe = [](cmark_node* block, int lines_before) {
        char* html = cmark_render_html_with_mem(block, CMARK_OPT_DEFAULT, nullptr, cmark_get_default_mem_allocator());
        std::string text = std::to_string(lines_before + cmark_node_get_start_line(block)) + html;
        std::free(html);
        return text;
    };
    std::vector<std::string> whole, by_section;
    for (cmark_node* block = cmark_node_first_child(tree.get()); block; block = cmark_node_next(block)) {
        (void)pp::inline_text(block);
        whole.push_back(describe(block, 0));
    }
    pp::for_each_block(input, [&](cmark_node* block, int lines_before) {
        by_section.push_back(describe(block, lines_before));
        return true;
    });
    if (by_section != whole) std::abort();
}
