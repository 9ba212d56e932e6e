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

// What `read` makes of the document `text` parses to.
template <class Read>
auto read_document(const std::string& text, Read read) {
    decltype(read(nullptr)) result{};
    with_markdown(text, [&](cmark_node* document) {
        result = read(document);
        return true;
    });
    return result;
}

// The document's first block's inline text.
std::string first_text(const std::string& text) {
    return read_document(text, [](cmark_node* document) { return inline_text(cmark_node_first_child(document)); });
}

// Puts `text` where a day file puts a paragraph and reads it back.
std::string paragraph_round_trip(const std::string& text) {
    return read_document(escape_markdown_lines(text, "", true) + "\n", [](cmark_node* document) {
        std::string out;
        for (cmark_node* block = cmark_node_first_child(document); block; block = cmark_node_next(block)) {
            REQUIRE(cmark_node_get_type(block) == CMARK_NODE_PARAGRAPH);
            if (!out.empty()) out += "\n\n";
            out += inline_text(block);
        }
        return out;
    });
}

// Puts `text` in link text, as a paper title is.
std::string link_round_trip(const std::string& text) {
    return read_document("## [" + escape_markdown_line(text, false) + "](https://arxiv.org/abs/1)\n",
                         [](cmark_node* document) {
                             cmark_node* heading = cmark_node_first_child(document);
                             REQUIRE(cmark_node_get_type(heading) == CMARK_NODE_HEADING);
                             cmark_node* link = cmark_node_first_child(heading);
                             REQUIRE(cmark_node_get_type(link) == CMARK_NODE_LINK);
                             CHECK(cmark_node_next(link) == nullptr);
                             return inline_text(link);
                         });
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
    for (std::string text :
         {"# not a heading", "- not a list", "+ nor this", "1. not ordered", "12) nor this", "> not a quote",
          "=== not an underline", "---", "    four spaces, not code", "| a | b |\n|---|---|",
          "line one\n- line two\n# line three", "  leading and trailing  "}) {
        CHECK(paragraph_round_trip(text) == text);
    }
}

TEST_CASE("paragraph breaks and line breaks are kept") {
    CHECK(paragraph_round_trip("first paragraph\n\nsecond\nwith a second line") ==
          "first paragraph\n\nsecond\nwith a second line");
}

TEST_CASE("non-ASCII text passes through untouched") {
    CHECK(paragraph_round_trip("Zdeborová, Šola, Bühlmann — “quotes” ∑ 漢字") ==
          "Zdeborová, Šola, Bühlmann — “quotes” ∑ 漢字");
}

TEST_CASE("trees stay intact while others are parsed and dropped, on one thread and on several") {
    // Nodes live in the parsing thread's arena, reused only once that
    // thread holds no tree: a live tree must never see its memory reused.
    CHECK(first_text("first *tree*\n") == "first tree");
    std::string longer, plain; // larger than the two trees: reused memory would run over the outer one
    for (int i = 0; i < 2000; ++i) {
        longer += " *tree* " + std::to_string(i);
        plain += " tree " + std::to_string(i);
    }
    with_markdown("second tree\n", [&](cmark_node* second) {
        for (int i = 0; i < 3; ++i) CHECK(first_text(longer) == plain.substr(1));
        CHECK(inline_text(cmark_node_first_child(second)) == "second tree");
        return true;
    });

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
                for (int i = 0; i < 200; ++i)
                    results[t] = paragraph_round_trip("thread " + std::to_string(t) + " *round* " + std::to_string(i));
            });
    }
    for (std::size_t t = 0; t < results.size(); ++t)
        CHECK(results[t] == "thread " + std::to_string(t) + " *round* 199");
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
        CHECK(first_text(images + "\n") == "word");
    }
    CHECK(first_text(nested(1'000'000, "*", "*") + " and more\n") == "word and more");
    // inline_text_from walks the siblings after the first too, at any depth.
    CHECK(read_document("a " + nested(1'000'000, "_", "_") + " b `c`\n", [](cmark_node* document) {
              return inline_text_from(cmark_node_first_child(cmark_node_first_child(document)));
          }) == "a word b c");
}

TEST_CASE("cmark-gfm renders input nested 100,000 deep to HTML") {
    for (const auto& [open, close] : std::vector<std::pair<std::string, std::string>>{
             {"![", "](u)"}, {"*", "*"}, {"[", "](u)"}, {"> ", ""}, {"- ", ""}, {"~~", "~~"}, {"<a>", "</a>"}}) {
        INFO("nesting " << open);
        std::string html = markdown_to_html(nested(100'000, open, close) + "\n");
        CHECK(html.find("word") != std::string::npos);
    }
}

namespace {

// A block as its first line and its HTML; a paragraph as its line and its
// text, which is what a reader takes of it (and all a plain one has).
std::string describe(const MarkdownBlock& block) {
    if (!block.node) return std::to_string(block.line) + ": paragraph " + block.text;
    if (cmark_node_get_type(block.node) == CMARK_NODE_PARAGRAPH)
        return std::to_string(block.line) + ": paragraph " + inline_text(block.node);
    char* html = cmark_render_html_with_mem(block.node, CMARK_OPT_DEFAULT, nullptr, cmark_get_default_mem_allocator());
    std::string text = std::to_string(block.line) + ": " + html;
    std::free(html);
    return text;
}

// The blocks as the whole document parses.
std::vector<std::string> blocks_whole(const std::string& text) {
    return read_document(text, [](cmark_node* document) {
        std::vector<std::string> blocks;
        for (cmark_node* node = cmark_node_first_child(document); node; node = cmark_node_next(node))
            blocks.push_back(describe({node, 0, cmark_node_get_start_line(node), {}}));
        return blocks;
    });
}

std::vector<std::string> blocks_by_section(const std::string& text, int* plain = nullptr) {
    std::vector<std::string> blocks;
    for_each_block(text, [&](const MarkdownBlock& block) {
        blocks.push_back(describe(block));
        if (plain && !block.node) ++*plain;
        return true;
    });
    return blocks;
}

} // namespace

TEST_CASE("for_each_block: the same blocks and lines as the whole document, section by section where that is safe") {
    const std::string sections =
        "# Day\n\n## [One](https://arxiv.org/abs/1)\n\n- **ID:** 1\n\nAn *abstract*\nover two lines.\n"
        "##\n## [Two](https://arxiv.org/abs/2)\n- **ID:** 2\n  continued\n\n> quote\n## [Three](u)\n\nLast.\n";
    const std::vector<std::string> documents = {
        sections,
        sections + "\n[one]: https://example.org/\n", // a link defined at the end serves the first section
        "See [the paper][one].\n\n" + sections + "[one]: https://example.org/\n",
        sections + "```\n## inside a fence\n```\n" + sections, // a fence holds a line like a section's start
        sections + "~~~\n## inside\n~~~\n",
        sections + "<!--\n## inside a comment\n-->\n" + sections,
        "   [one]: /x\n" + sections,
        "See [the paper][one].\n\n" + sections + "> [one]: https://example.org/\n", // defined in a quote
        "- [one]: /x\n" + sections + "[one] again\n",
        "text\r```\r## inside a fence\r```\r" + sections, // lone carriage returns end lines too
        "a\r\n## [One](u)\r\n\r\nb\r\n## [Two](u)\rc\r",
        "\xEF\xBB\xBF```\nfoo\n## x\n", // after a byte order mark, the first line's fence
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
    CHECK_FALSE(for_each_block(sections, [&](const MarkdownBlock&) { return ++seen < 3; }));
    CHECK(seen == 3);
}

TEST_CASE("for_each_block: the plain paragraphs that end a section read as cmark reads them, and nothing else is taken "
          "for one") {
    const std::string head = "## [T](https://arxiv.org/abs/1)\n\n- **ID:** 1\n\n";
    struct Case {
        std::string body;
        int plain; // paragraphs read without cmark
    };
    const std::vector<Case> cases = {
        {"An abstract\nover two lines.\n\nA second paragraph.\n", 2},
        {"Escapes: \\*not emphasis\\*, \\_x\\_, \\`code\\`, \\[a\\](b), \\<b\\>, \\&amp; and \\\\.\n", 1},
        {"A backslash \\a before a letter, \\ a space, \\é and a dollar $\\sqrt{x}$ stays.\n", 1},
        {"1\\. An escaped list number, 2D models, 2024 and (i) a start.\n", 1},
        {"\\# an escaped heading\n\\- and a list marker\n", 1},
        {"Ünïcödé and tabs\tinside.\n", 1},
        {"$x$ starts, \"quotes\" too, and 'these'.\n", 1},
        // What cmark reads otherwise is left to it, and so is all before it.
        {"*Emphasis* here.\n", 0},
        {"Code `x` here.\n", 0},
        {"An &amp; entity.\n", 0},
        {"A <b>tag</b>.\n", 0},
        {"A [link](u).\n", 0},
        {"A hard break\\\nhere.\n", 0},
        {"Trailing blanks  \nhere.\n", 0},
        {"Trailing tab\t\n", 0},
        {"1. A list\n", 0},
        {"1) A list\n", 0},
        {"- A list\n", 0},
        {"+ A list\n", 0},
        {"> A quote\n", 0},
        {"    Indented code\n", 0},
        {" One space in\n", 0},
        {"A setext heading\n---\n", 0},
        {"A setext heading\n===\n", 0},
        {"A line\n# then a heading\n", 0},
        {"A line\n- then a list\n", 0},
        {std::string("A NUL\0 byte\n", 12), 0},
        {"Bad \xC3 UTF-8\n", 0},
        {"First.\n\n*Not plain.*\n\nLast.\n", 1}, // only the run after the last other block
        {"- item\n\n  Indented: the item's.\n\nThen plain.\n", 1},
        {"> quote\n\nAfter the quote.\n", 1},
        {"- item\nlazy continuation\n", 0},
    };
    for (const auto& c : cases) {
        const std::string document = head + c.body + "## [U](https://arxiv.org/abs/2)\n\n" + c.body;
        CAPTURE(document);
        int plain = 0;
        CHECK(blocks_by_section(document, &plain) == blocks_whole(document));
        CHECK(plain == 2 * c.plain);
    }
    // A document that is read whole (a fence in it) takes no shortcut, nor one with CRs.
    int plain = 0;
    const std::string fenced = head + "Plain.\n\n```\ncode\n\nText in a fence.\n```\n";
    CHECK(blocks_by_section(fenced, &plain) == blocks_whole(fenced));
    const std::string crs = head + "Plain.\r\n\r\nMore.\r\n";
    CHECK(blocks_by_section(crs, &plain) == blocks_whole(crs));
    CHECK(plain == 0);
}
