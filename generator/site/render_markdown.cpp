#include "site/render_markdown.h"

#include "core/tex.h"
#include "util/text.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>

namespace pp {

namespace {

struct ParserDeleter {
    void operator()(cmark_parser* parser) const { cmark_parser_free(parser); }
};
struct NodeDeleter {
    void operator()(cmark_node* node) const { cmark_node_free(node); }
};

constexpr const char* extension_names[] = {"table", "autolink", "strikethrough"};

} // namespace

std::string markdown_to_html(std::string_view markdown) {
    static std::once_flag registered;
    std::call_once(registered, [] { cmark_gfm_core_extensions_ensure_registered(); });

    // cmark-gfm adds the attached extensions' special characters to a global
    // table when a parse finishes and removes them after, so two parsers with
    // extensions at once lose each other's autolinks: one at a time.
    static std::mutex one_parser;
    std::lock_guard lock(one_parser);
    const int options = CMARK_OPT_DEFAULT;
    std::unique_ptr<cmark_parser, ParserDeleter> parser(cmark_parser_new(options));
    for (const char* name : extension_names)
        if (cmark_syntax_extension* extension = cmark_find_syntax_extension(name))
            cmark_parser_attach_syntax_extension(parser.get(), extension);
    cmark_parser_feed(parser.get(), markdown.data(), markdown.size());
    std::unique_ptr<cmark_node, NodeDeleter> document(cmark_parser_finish(parser.get()));
    char* html = cmark_render_html(document.get(), options, cmark_parser_get_syntax_extensions(parser.get()));
    std::string out = html ? html : "";
    std::free(html);
    return out;
}

namespace {

constexpr ByteSet html_escaped("&<>\"'");

const char* html_entity(char c) {
    switch (c) {
        case '&':
            return "&amp;";
        case '<':
            return "&lt;";
        case '>':
            return "&gt;";
        case '"':
            return "&quot;";
        default:
            return "&#39;";
    }
}

struct Link {
    std::size_t begin = 0, end = 0; // the span of the source text it replaces
    std::string url, label;
};

bool url_char(char c) {
    return static_cast<unsigned char>(c) > ' ' && std::string_view("\"<>{}$`|^").find(c) == std::string_view::npos;
}

// A URL as written in TeX or escaped Markdown, as a browser needs it:
// "\_" and friends lose their backslash, blanks at the ends go.
std::string unescaped_url(std::string_view url) {
    url = trim(url);
    std::string out;
    for (std::size_t i = 0; i < url.size(); ++i) {
        if (url[i] == '\\' && i + 1 < url.size() && !is_letter_or_digit(static_cast<unsigned char>(url[i + 1]))) ++i;
        out += url[i];
    }
    return out;
}

bool web_url(std::string_view url) {
    if (!url.starts_with("http://") && !url.starts_with("https://")) return false;
    return std::all_of(url.begin(), url.end(), [](char c) { return static_cast<unsigned char>(c) > ' ' && c != '"'; });
}

// The text of a link as shown: "\texttt{x}" and braces unwrapped, TeX converted.
std::string link_label(std::string_view tex) {
    std::string plain;
    for (std::size_t i = 0; i < tex.size(); ++i) {
        if (tex[i] == '\\' && i + 1 < tex.size() && std::isalpha(static_cast<unsigned char>(tex[i + 1]))) {
            std::size_t end = i + 1;
            while (end < tex.size() && std::isalpha(static_cast<unsigned char>(tex[end]))) ++end;
            if (end < tex.size() && tex[end] == '{') { // a formatting command: keep its argument
                i = end;
                continue;
            }
        }
        if (tex[i] != '{' && tex[i] != '}') plain += tex[i];
    }
    return tex_to_unicode(trim(plain), true);
}

// A bare URL from `at`: up to a blank or a character URLs do not hold in
// running text, without the sentence's punctuation or an unmatched ")".
std::optional<Link> bare_url(std::string_view text, std::size_t at) {
    std::size_t end = at;
    while (end < text.size() && url_char(text[end])) {
        if (text[end] == '\\' &&
            (end + 1 == text.size() || is_letter_or_digit(static_cast<unsigned char>(text[end + 1]))))
            break;
        if (text.substr(end, 2) == "](") break; // "U](U)": a Markdown link without its "[", two URLs
        end += text[end] == '\\' ? 2 : 1;
    }
    end = std::min(end, text.size());
    for (;;) {
        std::string_view url = text.substr(at, end - at);
        const char last = url.empty() ? '\0' : url.back();
        const auto opened = [&](char open, char close) {
            return std::count(url.begin(), url.end(), open) < std::count(url.begin(), url.end(), close);
        };
        if (std::string_view(".,;:!?'*").find(last) != std::string_view::npos && last != '\0') --end;
        else if ((last == ')' && opened('(', ')')) || (last == ']' && opened('[', ']'))) --end;
        else if (last == '\\') --end;
        else break;
    }
    std::string url = unescaped_url(text.substr(at, end - at));
    if (!web_url(url) || url.find("://") + 3 == url.size()) return std::nullopt;
    return Link{at, end, url, url};
}

// \url{U} or \href{U}{label} at `at` (the backslash).
std::optional<Link> tex_link(std::string_view text, std::size_t at) {
    const bool href = text.substr(at).starts_with("\\href{");
    const std::size_t open = at + (href ? 5 : 4);
    const std::size_t close = group_end(text, open);
    if (close == std::string_view::npos) return std::nullopt;
    Link link{at, close + 1, unescaped_url(text.substr(open + 1, close - open - 1)), {}};
    link.label = link.url;
    if (href) {
        if (close + 1 >= text.size() || text[close + 1] != '{') return std::nullopt;
        const std::size_t label_end = group_end(text, close + 1);
        if (label_end == std::string_view::npos) return std::nullopt;
        link.label = link_label(text.substr(close + 2, label_end - close - 2));
        link.end = label_end + 1;
    }
    if (!web_url(link.url)) return std::nullopt;
    // "$\href{U}{\text{here}}$": the math is only the link's wrapping.
    if (link.begin > 0 && text[link.begin - 1] == '$' && link.end < text.size() && text[link.end] == '$') {
        --link.begin;
        ++link.end;
    }
    if (link.label.empty()) link.label = link.url;
    return link;
}

// [label](U) at `at` (the '[').
std::optional<Link> markdown_link(std::string_view text, std::size_t at) {
    const std::size_t middle = text.find("](", at);
    if (middle == std::string_view::npos ||
        text.substr(at + 1, middle - at - 1).find_first_of("[]\n") != std::string_view::npos)
        return std::nullopt;
    const std::size_t close = text.find(')', middle + 2);
    if (close == std::string_view::npos) return std::nullopt;
    std::string url = unescaped_url(text.substr(middle + 2, close - middle - 2));
    if (!web_url(url)) return std::nullopt;
    std::string label = link_label(text.substr(at + 1, middle - at - 1));
    return Link{at, close + 1, url, label.empty() ? url : label};
}

std::optional<Link> link_at(std::string_view text, std::size_t at) {
    std::string_view rest = text.substr(at);
    if (rest.starts_with("\\url{") || rest.starts_with("\\href{")) return tex_link(text, at);
    if (rest.starts_with("[")) return markdown_link(text, at);
    if ((rest.starts_with("http://") || rest.starts_with("https://")) &&
        (at == 0 || !is_letter_or_digit(static_cast<unsigned char>(text[at - 1]))))
        return bare_url(text, at);
    return std::nullopt;
}

// `text` with its TeX accents as letters, escaped, onto `out`: text without
// TeX is not copied on the way (a day's abstracts are most of its page).
void append_text(std::string& out, std::string_view text) {
    if (has_tex(text)) append_replacing(out, tex_to_unicode(text, true), html_escaped, html_entity);
    else append_replacing(out, text, html_escaped, html_entity);
}

// TeX's text-mode formatting as HTML (KaTeX typesets only math, so
// "\textbf{x}" outside it would show as written); "" for plain text.
struct TextFormat {
    std::string_view command; // with its opening brace
    const char* tag;
};
constexpr TextFormat text_formats[] = {
    {"\\textbf{", "b"},    {"\\emph{", "em"}, {"\\textit{", "i"},   {"\\textsl{", "i"}, {"\\texttt{", "code"},
    {"\\underline{", "u"}, {"\\textsc{", ""}, {"\\textrm{", ""},    {"\\textsf{", ""},  {"\\textup{", ""},
    {"\\textnormal{", ""}, {"\\text{", ""},   {"\\footnote{", "("}, // in parentheses: a page has no foot
};
// The older switches, which act to the end of their group: {\it x}, {\bf x}.
constexpr TextFormat format_switches[] = {
    {"{\\it", "i"},    {"{\\em", "em"}, {"{\\bf", "b"}, {"{\\sl", "i"},
    {"{\\tt", "code"}, {"{\\rm", ""},   {"{\\sf", ""},  {"{\\sc", ""},
};

struct Formatted {
    const char* tag;
    std::size_t open, close; // the group's braces
    std::size_t start;       // where its text starts
};

// A formatting command at `at` (the backslash), outside math, with its
// argument closed; or a switch whose group opens just before `at`.
std::optional<Formatted> format_at(std::string_view line, std::size_t at) {
    for (const auto& format : text_formats) {
        if (!line.substr(at).starts_with(format.command)) continue;
        const std::size_t open = at + format.command.size() - 1;
        const std::size_t close = group_end(line, open);
        if (close == std::string_view::npos || in_math(line, at)) return std::nullopt;
        return Formatted{format.tag, open, close, open + 1};
    }
    if (at == 0) return std::nullopt;
    for (const auto& format : format_switches) {
        std::size_t start = at - 1 + format.command.size();
        if (!line.substr(at - 1).starts_with(format.command) ||
            (start < line.size() && std::isalpha(static_cast<unsigned char>(line[start]))))
            continue;
        const std::size_t close = group_end(line, at - 1);
        if (close == std::string_view::npos || in_math(line, at)) return std::nullopt;
        while (start < close && line[start] == ' ') ++start;
        return Formatted{format.tag, at - 1, close, start};
    }
    return std::nullopt;
}

void append_abstract_line(std::string& out, std::string_view line);

void append_formatted(std::string& out, std::string_view line, const Formatted& format) {
    const std::string_view tag = format.tag;
    const bool note = tag == "(";
    if (note) out.append(" (");
    else if (!tag.empty()) out.append("<").append(tag).append(">");
    append_abstract_line(out, line.substr(format.start, format.close - format.start));
    if (note) out.append(")");
    else if (!tag.empty()) out.append("</").append(tag).append(">");
}

// One line of an abstract: links as <a>, text formatting as HTML, the rest
// converted and escaped.
void append_abstract_line(std::string& out, std::string_view line) {
    // \url, \href, [label](U), and the colon of http(s):// (rarer than its 'h').
    constexpr ByteSet link_marks("\\[:");
    const char* const begin = line.data();
    const char* const end = begin + line.size();
    std::size_t done = 0;
    for (const char* p = find_first_of(begin, end, link_marks); p < end; p = find_first_of(p + 1, end, link_marks)) {
        std::size_t at = static_cast<std::size_t>(p - begin);
        if (*p == ':') { // back to the scheme
            const std::string_view before = line.substr(0, at);
            const std::size_t scheme = before.ends_with("https") ? 5 : before.ends_with("http") ? 4 : 0;
            if (scheme == 0 || at - scheme < done) continue;
            at -= scheme;
        }
        if (*p == '\\') {
            if (auto format = format_at(line, at); format && format->open + 1 > done) {
                append_text(out, line.substr(done, std::min(at, format->open) - done));
                append_formatted(out, line, *format);
                done = format->close + 1;
                p = begin + format->close;
                continue;
            }
        }
        auto link = link_at(line, at);
        if (!link) continue;
        append_text(out, line.substr(done, link->begin - done));
        out += "<a href=\"" + html_escape(link->url) + "\">" + html_escape(link->label) + "</a>";
        done = link->end;
        p = begin + link->end - 1;
    }
    append_text(out, line.substr(done));
}

} // namespace

std::string abstract_to_html(std::string_view text) {
    std::string out;
    bool open = false;
    for (std::size_t start = 0; start <= text.size();) {
        std::size_t end = std::min(text.find('\n', start), text.size());
        std::string_view line = text.substr(start, end - start);
        if (trim(line).empty()) {
            if (open) out += "</p>\n";
            open = false;
        } else {
            out += open ? "\n" : "<p>";
            open = true;
            append_abstract_line(out, line);
        }
        start = end + 1;
    }
    if (open) out += "</p>\n";
    return out;
}

std::string html_escape(std::string_view text, const char* apostrophe) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    append_replacing(out, text, html_escaped, [apostrophe](char c) { return c == '\'' ? apostrophe : html_entity(c); });
    return out;
}

} // namespace pp
