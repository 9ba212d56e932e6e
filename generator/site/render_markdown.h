// Markdown to HTML through cmark-gfm with the GFM table, autolink and
// strikethrough extensions. Raw HTML in the input is never passed through
// (no CMARK_OPT_UNSAFE): cmark-gfm replaces it with a comment.
#pragma once

#include <string>
#include <string_view>

namespace pp {

std::string markdown_to_html(std::string_view markdown);

// An abstract as arXiv gives it (plain text with TeX in it) to HTML
// paragraphs for a reader: TeX accents and escapes shown as Unicode
// (core/tex.h), math kept for the math renderer, and links made from the
// unescaped text: \url{U}, \href{U}{text}, [text](U) and bare http(s) URLs,
// without the "\_" escapes, the closing "}" or trailing punctuation.
std::string abstract_to_html(std::string_view text);

// Escapes & < > " ' for HTML text and attribute values; ' becomes
// `apostrophe` (kainjow's templates write "&apos;").
std::string html_escape(std::string_view text, const char* apostrophe = "&#39;");

} // namespace pp
