// Markdown through cmark-gfm: escaping so any outside text survives a round
// trip through a day file, and reading text back out of the syntax tree.
#pragma once

#include <cmark-gfm.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pp {

// Parses `text` (CommonMark only, no extensions: day files are read by
// their core syntax) and hands the document to `read`, returning what it
// returns. The nodes live in an arena of the calling thread (a day file makes
// thousands of small nodes and buffers, all freed together) and only for the
// call: reading allocates too (cmark_node_get_literal copies a literal out on
// first use), so a tree must not outlive the call or leave its thread, and
// this shape makes that impossible by construction.
bool with_markdown(std::string_view text, const std::function<bool(cmark_node* document)>& read);

// A top-level block of a document, as for_each_block gives it.
struct MarkdownBlock {
    // A node of cmark's tree; or null for a paragraph of plain text (lines of
    // text and backslash escapes, nothing else cmark would read as syntax),
    // which for_each_block reads itself: abstracts are most of a day file,
    // and cmark's inline parser was most of the time spent reading one.
    cmark_node* node = nullptr;
    int lines_before = 0; // a node's line numbers count from the lines_before + 1st line of the text
    int line = 0;         // the block's first line in the text (from 1)
    std::string text;     // a plain paragraph's text, as inline_text() gives a paragraph's
};

// How for_each_block reads a document.
struct BlockReading {
    bool plain_paragraphs = true; // false: cmark reads every block (the reference the tests compare with)
    // When given, offered each section's text first (where the sections are
    // read alone, and in order with the blocks): returns true when it has
    // read the section itself, whose blocks are then not visited; false
    // leaves the section to cmark.
    std::function<bool(std::string_view section)> read_section = {};
};

// Calls `visit(block)` with each top-level block of the document in order,
// until it returns false (then returns false). Where it is safe, each "## "
// section is parsed on its own, so memory holds one section's nodes rather
// than a whole day's (about ten times its bytes), and the plain paragraphs
// that end a section are read without cmark; the blocks, their lines and
// their text are the same either way. A block lives until `visit` returns.
bool for_each_block(std::string_view text, const std::function<bool(const MarkdownBlock&)>& visit,
                    const BlockReading& reading = {});

// Plain text: only text and backslash escapes, none of the other inline
// syntax (code, emphasis, entities, links, autolinks, HTML), which cmark's
// inline parser reads as the text with the escapes decoded. These append
// that text to `out`, as inline_text() would give it.
// Up to the first byte of other syntax, or a backslash ending the text (a
// hard line break at the end of a line); returns where that is (or the
// size of `text`), and `out` holds the text before it.
std::size_t append_plain_until_syntax(std::string_view text, std::string& out);
// The whole of `text`, one line's worth; false (and `out` unfinished) when it
// holds other syntax, ends with a blank (cmark drops those at a line's end),
// or holds bytes cmark would replace (NUL, CR, invalid UTF-8).
bool append_plain_text(std::string_view text, std::string& out);

// The paragraphs of `text` (with no CR) when it holds only plain paragraphs
// (lines that start with text: no block syntax) and blank lines, each as
// inline_text() gives a paragraph; nullopt for anything else.
std::optional<std::vector<std::string>> plain_paragraphs(std::string_view text);

// Escapes one line of text so that, as inline Markdown anywhere in a line
// (link text, list item, paragraph), it reads back as exactly this text.
// Leading and trailing blanks become character references, which Markdown
// would otherwise strip. `at_line_start`: the text begins a line of the file,
// so block syntax ("# ", "- ", "1. ") must be escaped too.
std::string escape_markdown_line(std::string_view line, bool at_line_start);

// Escapes multi-line text; lines after the first get `indent` in front, so
// the text can sit inside a list item; a blank line starts a new paragraph.
std::string escape_markdown_lines(std::string_view text, std::string_view indent, bool first_at_line_start);

// The text of a node's inline content: escapes and references decoded, soft
// and hard line breaks as "\n", emphasis and links reduced to their text.
std::string inline_text(cmark_node* node);

// The same for `first` and the inline nodes after it.
std::string inline_text_from(cmark_node* first);

// Type name for error messages ("paragraph", "heading", ...).
std::string node_kind(cmark_node* node);

} // namespace pp
