// Markdown to HTML as the site renders it (site/render_markdown.h): any
// bytes as Markdown; and reading text out of any Markdown tree
// (content/markdown.h), a section at a time (plain paragraphs read without
// cmark) or whole: the same blocks, lines and text.
#include "content/markdown.h"
#include "site/render_markdown.h"
#include "target.h"

#include <cstdlib>
#include <string>
#include <vector>

PAPERPRESS_FUZZ_TARGET(markdown) {
    (void)pp::markdown_to_html(input);
    // Paragraphs are compared by their text (all a reader takes of them, and
    // all a plain one has), other blocks by their HTML; both by their line.
    auto describe = [](const pp::MarkdownBlock& block) {
        std::string text = std::to_string(block.line) + ": ";
        if (!block.node) return text + "paragraph " + block.text;
        if (cmark_node_get_type(block.node) == CMARK_NODE_PARAGRAPH)
            return text + "paragraph " + pp::inline_text(block.node);
        char* html =
            cmark_render_html_with_mem(block.node, CMARK_OPT_DEFAULT, nullptr, cmark_get_default_mem_allocator());
        text += html;
        std::free(html);
        return text;
    };
    std::vector<std::string> whole, by_section;
    pp::with_markdown(input, [&](cmark_node* document) {
        for (cmark_node* node = cmark_node_first_child(document); node; node = cmark_node_next(node))
            whole.push_back(describe({node, 0, cmark_node_get_start_line(node), {}}));
        return true;
    });
    pp::for_each_block(input, [&](const pp::MarkdownBlock& block) {
        by_section.push_back(describe(block));
        return true;
    });
    if (by_section != whole) std::abort();
}
