// content/markdown: escaping makes any text survive a Markdown round trip.
#include "content/markdown.h"

#include <doctest/doctest.h>

using namespace pp;

namespace {

// Puts `text` where a day file puts a paragraph and reads it back.
std::string paragraph_round_trip(const std::string& text) {
    MarkdownTree tree = parse_markdown(escape_markdown_lines(text, "", true) + "\n");
    std::string out;
    for (cmark_node* block = cmark_node_first_child(tree.get()); block; block = cmark_node_next(block)) {
        REQUIRE(cmark_node_get_type(block) == CMARK_NODE_PARAGRAPH);
        if (!out.empty()) out += "\n\n";
        out += inline_text(block);
    }
    return out;
}

// Puts `text` in link text, as a paper title is.
std::string link_round_trip(const std::string& text) {
    MarkdownTree tree = parse_markdown("## [" + escape_markdown_line(text, false) + "](https://arxiv.org/abs/1)\n");
    cmark_node* heading = cmark_node_first_child(tree.get());
    REQUIRE(cmark_node_get_type(heading) == CMARK_NODE_HEADING);
    cmark_node* link = cmark_node_first_child(heading);
    REQUIRE(cmark_node_get_type(link) == CMARK_NODE_LINK);
    CHECK(cmark_node_next(link) == nullptr);
    return inline_text(link);
}

} // namespace

TEST_CASE("LaTeX and Markdown punctuation survive exactly") {
    for (std::string text : {
             "$\\mathcal{O}(n)$ bounds for Zdeborov\\'a's model",
             "a < b > c & d; x_1 * y_2 = z | w ~ v",
             "brackets ] [ and [link](http://x) and ![img](y) and `code`",
             "**not bold** __not bold__ *not em* <b>not html</b> &amp; not an entity",
             "trailing backslash \\",
             "http://example.com/path_with_underscores and www.example.org",
             "O(n^2) \\sum_{i=1}^{n} \\frac{a}{b} \\| x \\|_2",
         }) {
        CHECK(paragraph_round_trip(text) == text);
        CHECK(link_round_trip(text) == text);
    }
}

TEST_CASE("text that looks like block syntax stays text") {
    for (std::string text : {"# not a heading", "- not a list", "+ nor this", "1. not ordered", "12) nor this",
                             "> not a quote", "=== not an underline", "---", "    four spaces, not code",
                             "| a | b |\n|---|---|", "line one\n- line two\n# line three", "  leading and trailing  "}) {
        CHECK(paragraph_round_trip(text) == text);
    }
}

TEST_CASE("paragraph breaks and line breaks are kept") {
    CHECK(paragraph_round_trip("first paragraph\n\nsecond\nwith a second line") ==
          "first paragraph\n\nsecond\nwith a second line");
}

TEST_CASE("non-ASCII text passes through untouched") {
    CHECK(paragraph_round_trip("Zdeborová, Šola, Bühlmann — “quotes” ∑ 漢字") == "Zdeborová, Šola, Bühlmann — “quotes” ∑ 漢字");
}
