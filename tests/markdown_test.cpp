// content/markdown: escaping makes any text survive a Markdown round trip.
#include "content/markdown.h"
#include "site/render_markdown.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

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

TEST_CASE("trees stay intact while others are parsed and dropped, on one thread and on several") {
    // Nodes live in the parsing thread's arena, reused only once that
    // thread holds no tree: a live tree must never see its memory reused.
    auto text_of = [](const MarkdownTree& tree) { return inline_text(cmark_node_first_child(tree.get())); };
    std::optional<MarkdownTree> first(parse_markdown("first *tree*\n"));
    MarkdownTree second = parse_markdown("second tree\n");
    first.reset();
    std::string longer, plain; // larger than the two trees: reused memory would run over the second one
    for (int i = 0; i < 2000; ++i) {
        longer += " *tree* " + std::to_string(i);
        plain += " tree " + std::to_string(i);
    }
    for (int i = 0; i < 3; ++i) CHECK(text_of(parse_markdown(longer)) == plain.substr(1));
    CHECK(text_of(second) == "second tree");

    // One paragraph larger than the arena's blocks.
    std::string big;
    while (big.size() < (3u << 20)) big += "word" + std::to_string(big.size()) + " ";
    big.pop_back();
    CHECK(paragraph_round_trip(big) == big);

    std::vector<std::string> results(4);
    {
        std::vector<std::jthread> threads;
        for (std::size_t t = 0; t < results.size(); ++t)
            threads.emplace_back([&, t] {
                for (int i = 0; i < 200; ++i) results[t] = paragraph_round_trip("thread " + std::to_string(t) + " *round* " + std::to_string(i));
            });
    }
    for (std::size_t t = 0; t < results.size(); ++t) CHECK(results[t] == "thread " + std::to_string(t) + " *round* 199");
}

namespace {

// `depth` copies of `open`, a word, then `depth` copies of `close`.
std::string nested(int depth, const std::string& open, const std::string& close) {
    std::string out;
    for (int i = 0; i < depth; ++i) out += open;
    out += "word";
    for (int i = 0; i < depth; ++i) out += close;
    return out;
}

} // namespace

TEST_CASE("text nested a million deep is read back without overflowing the stack") {
    // Images in images, emphasis in emphasis, links in links: each level is a node inside the last.
    {
        const std::string images = nested(1'000'000, "![", "](u)");
        MarkdownTree tree = parse_markdown(images + "\n");
        cmark_node* paragraph = cmark_node_first_child(tree.get());
        REQUIRE(paragraph != nullptr);
        CHECK(inline_text(paragraph) == "word");
    }
    {
        MarkdownTree emphasis = parse_markdown(nested(1'000'000, "*", "*") + " and more\n");
        CHECK(inline_text(cmark_node_first_child(emphasis.get())) == "word and more");
    }
    // inline_text_from walks the siblings after the first too, at any depth.
    MarkdownTree mixed = parse_markdown("a " + nested(1'000'000, "_", "_") + " b `c`\n");
    CHECK(inline_text_from(cmark_node_first_child(cmark_node_first_child(mixed.get()))) == "a word b c");
}

TEST_CASE("cmark-gfm renders input nested 100,000 deep to HTML") {
    for (const auto& [open, close] : std::vector<std::pair<std::string, std::string>>{
             {"![", "](u)"}, {"*", "*"}, {"[", "](u)"}, {"> ", ""}, {"- ", ""}, {"~~", "~~"}, {"<a>", "</a>"}}) {
        INFO("nesting " << open);
        std::string html = markdown_to_html(nested(100'000, open, close) + "\n");
        CHECK(html.find("word") != std::string::npos);
        CHECK(plain_text_to_html(nested(100'000, open, close)).find("word") != std::string::npos);
    }
}

namespace {

// Each top-level block as its first line and its HTML, as the whole document parses.
std::vector<std::string> blocks_whole(const std::string& text) {
    MarkdownTree tree = parse_markdown(text);
    std::vector<std::string> blocks;
    for (cmark_node* block = cmark_node_first_child(tree.get()); block; block = cmark_node_next(block)) {
        char* html = cmark_render_html_with_mem(block, CMARK_OPT_DEFAULT, nullptr, cmark_get_default_mem_allocator());
        blocks.push_back(std::to_string(cmark_node_get_start_line(block)) + ": " + html);
        std::free(html);
    }
    return blocks;
}

std::vector<std::string> blocks_by_section(const std::string& text) {
    std::vector<std::string> blocks;
    for_each_block(text, [&](cmark_node* block, int lines_before) {
        char* html = cmark_render_html_with_mem(block, CMARK_OPT_DEFAULT, nullptr, cmark_get_default_mem_allocator());
        blocks.push_back(std::to_string(lines_before + cmark_node_get_start_line(block)) + ": " + html);
        std::free(html);
        return true;
    });
    return blocks;
}

} // namespace

TEST_CASE("for_each_block: the same blocks and lines as the whole document, section by section where that is safe") {
    const std::string sections = "# Day\n\n## [One](https://arxiv.org/abs/1)\n\n- **ID:** 1\n\nAn *abstract*\nover two lines.\n"
                                 "##\n## [Two](https://arxiv.org/abs/2)\n- **ID:** 2\n  continued\n\n> quote\n## [Three](u)\n\nLast.\n";
    const std::vector<std::string> documents = {
        sections,
        sections + "\n[one]: https://example.org/\n",       // a link defined at the end serves the first section
        "See [the paper][one].\n\n" + sections + "[one]: https://example.org/\n",
        sections + "```\n## inside a fence\n```\n" + sections, // a fence holds a line like a section's start
        sections + "~~~\n## inside\n~~~\n",
        sections + "<!--\n## inside a comment\n-->\n" + sections,
        "   [one]: /x\n" + sections,
        "See [the paper][one].\n\n" + sections + "> [one]: https://example.org/\n", // defined in a quote
        "- [one]: /x\n" + sections + "[one] again\n",
        "text\r```\r## inside a fence\r```\r" + sections, // lone carriage returns end lines too
        "a\r\n## [One](u)\r\n\r\nb\r\n## [Two](u)\rc\r",
        "\xEF\xBB\xBF```\nfoo\n## x\n",          // after a byte order mark, the first line's fence
        "\xEF\xBB\xBF<!--\n## [T](u)\n-->\n" + sections,
        "- item\n## [Heading](u) ends the list\ntext\n",
        "",
        "## only a heading",
    };
    for (const auto& document : documents) {
        CAPTURE(document);
        CHECK(blocks_by_section(document) == blocks_whole(document));
    }
    // The visitor stops the walk.
    int seen = 0;
    CHECK_FALSE(for_each_block(sections, [&](cmark_node*, int) { return ++seen < 3; }));
    CHECK(seen == 3);
}
