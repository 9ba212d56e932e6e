#include "content/markdown.h"

#include "util/text.h"

#include <cctype>

namespace pp {

MarkdownTree parse_markdown(std::string_view text) {
    return MarkdownTree(cmark_parse_document(text.data(), text.size(), CMARK_OPT_DEFAULT));
}

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string blank_reference(char c) { return c == '\t' ? "&#9;" : "&#32;"; }

// Characters that can start or end inline syntax anywhere in a line.
bool needs_escape(char c) {
    switch (c) {
    case '\\': case '`': case '*': case '_': case '[': case ']':
    case '<': case '>': case '&': case '|': case '~':
        return true;
    default:
        return false;
    }
}

// Escapes the block syntax a line could start with: headings, block quotes,
// list markers, setext underlines, ordered-list numbers ("1." / "1)").
std::string escape_line_start(std::string escaped) {
    if (escaped.empty()) return escaped;
    char first = escaped[0];
    if (first == '#' || first == '-' || first == '+' || first == '=')
        return escaped.insert(0, 1, '\\');
    size_t digits = 0;
    while (digits < escaped.size() && std::isdigit(static_cast<unsigned char>(escaped[digits])))
        ++digits;
    if (digits > 0 && digits < escaped.size() && (escaped[digits] == '.' || escaped[digits] == ')'))
        escaped.insert(escaped.begin() + static_cast<std::ptrdiff_t>(digits), '\\');
    return escaped;
}

} // namespace

std::string escape_markdown_line(std::string_view line, bool at_line_start) {
    size_t lead = 0;
    while (lead < line.size() && is_blank(line[lead])) ++lead;
    size_t tail = line.size();
    while (tail > lead && is_blank(line[tail - 1])) --tail;

    std::string out;
    for (size_t i = 0; i < lead; ++i) out += blank_reference(line[i]);
    std::string body;
    for (size_t i = lead; i < tail; ++i) {
        if (needs_escape(line[i])) body += '\\';
        body += line[i];
    }
    out += lead == 0 && at_line_start ? escape_line_start(std::move(body)) : body;
    for (size_t i = tail; i < line.size(); ++i) out += blank_reference(line[i]);
    return out;
}

std::string escape_markdown_lines(std::string_view text, std::string_view indent, bool first_at_line_start) {
    std::string out;
    bool first = true;
    for (auto line : split(text, '\n')) {
        if (!first) {
            out += '\n';
            if (!line.empty()) out += indent; // a blank line separates paragraphs
        }
        out += escape_markdown_line(line, !first || first_at_line_start);
        first = false;
    }
    return out;
}

static void append_inline_text(cmark_node* first, std::string& out) {
    for (cmark_node* node = first; node; node = cmark_node_next(node)) {
        switch (cmark_node_get_type(node)) {
        case CMARK_NODE_TEXT:
        case CMARK_NODE_CODE:
        case CMARK_NODE_HTML_INLINE:
            if (const char* literal = cmark_node_get_literal(node)) out += literal;
            break;
        case CMARK_NODE_SOFTBREAK:
        case CMARK_NODE_LINEBREAK:
            out += '\n';
            break;
        default:
            append_inline_text(cmark_node_first_child(node), out);
        }
    }
}

std::string inline_text(cmark_node* node) {
    std::string out;
    append_inline_text(cmark_node_first_child(node), out);
    return out;
}

std::string inline_text_from(cmark_node* first) {
    std::string out;
    append_inline_text(first, out);
    return out;
}

std::string node_kind(cmark_node* node) {
    const char* name = cmark_node_get_type_string(node);
    return name ? name : "node";
}

} // namespace pp
