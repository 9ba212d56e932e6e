#include "content/unpicked_section.h"

#include "content/markdown.h"
#include "core/arxiv_id.h"
#include "util/redact.h"
#include "util/text.h"

namespace pp {

std::optional<std::pair<std::string, std::string_view>> read_written_link(std::string_view text) {
    constexpr std::string_view abs_prefix = "](https://arxiv.org/abs/";
    if (!text.starts_with('[') || !plain_utf8(text)) return std::nullopt;
    text.remove_prefix(1);
    std::string title;
    text.remove_prefix(append_plain_until_syntax(text, title));
    if (title.empty() || !text.starts_with(abs_prefix) || !text.ends_with(')')) return std::nullopt;
    return std::pair{std::move(title), text.substr(abs_prefix.size(), text.size() - abs_prefix.size() - 1)};
}

std::string write_unpicked(const std::vector<Unpicked>& unpicked) {
    if (unpicked.empty()) return {};
    std::string out = "\n" + std::string(unpicked_heading) + "\n\n";
    for (const auto& paper : unpicked)
        out +=
            "- [" + escape_markdown_line(redact_secrets(paper.title), false) + "](" + arxiv_abs_url(paper.id) + ")\n";
    return out;
}

std::optional<std::vector<Unpicked>> read_written_unpicked(std::string_view section) {
    const std::string start = std::string(unpicked_heading) + "\n\n";
    if (!section.starts_with(start)) return std::nullopt;
    std::vector<Unpicked> out;
    for (std::size_t at = start.size(); at < section.size();) {
        const std::size_t end = section.find('\n', at);
        if (end == std::string_view::npos || !section.substr(at).starts_with("- ")) return std::nullopt;
        auto link = read_written_link(section.substr(at + 2, end - at - 2));
        if (!link || !is_canonical_arxiv_id(link->second) || out.size() == max_papers_per_day) return std::nullopt;
        out.push_back({std::string(link->second), tidy_line(link->first)});
        at = end + 1;
    }
    if (out.empty()) return std::nullopt;
    return out;
}

bool is_unpicked_heading(cmark_node* heading) {
    cmark_node* text = cmark_node_first_child(heading);
    return text && !cmark_node_next(text) && cmark_node_get_type(text) == CMARK_NODE_TEXT &&
           trim(cmark_node_get_literal(text)) == unpicked_heading.substr(3);
}

namespace {

// An item's only block: a paragraph holding one link (blanks around it aside).
cmark_node* item_link(cmark_node* item) {
    cmark_node* paragraph = cmark_node_first_child(item);
    if (!paragraph || cmark_node_next(paragraph) || cmark_node_get_type(paragraph) != CMARK_NODE_PARAGRAPH)
        return nullptr;
    cmark_node* link = nullptr;
    for (cmark_node* child = cmark_node_first_child(paragraph); child; child = cmark_node_next(child)) {
        if (cmark_node_get_type(child) == CMARK_NODE_LINK && !link) link = child;
        else if (cmark_node_get_type(child) != CMARK_NODE_TEXT || !trim(cmark_node_get_literal(child)).empty())
            return nullptr;
    }
    return link;
}

} // namespace

Result<void> read_unpicked_list(cmark_node* list, int offset, std::vector<Unpicked>& out) {
    constexpr std::string_view abs = "https://arxiv.org/abs/";
    for (cmark_node* item = cmark_node_first_child(list); item; item = cmark_node_next(item)) {
        const int line = cmark_node_get_start_line(item) + offset - 1;
        cmark_node* link = item_link(item);
        if (!link)
            return fail("expected a paper not picked as '- [Title](https://arxiv.org/abs/ID)', one a line", {}, line);
        const char* url = cmark_node_get_url(link);
        const std::string_view target = url ? url : "";
        const std::string title = tidy_line(inline_text(link)); // one line, as a paper's title
        if (!target.starts_with(abs) || !is_canonical_arxiv_id(target.substr(abs.size())))
            return fail("expected the link of a paper not picked to be https://arxiv.org/abs/ and an arXiv ID without "
                        "version, got " +
                            excerpt(target),
                        {}, line);
        if (title.empty()) return fail("expected the title of a paper not picked in the link's brackets", {}, line);
        if (out.size() == max_papers_per_day)
            return fail("expected at most " + std::to_string(max_papers_per_day) + " papers not picked, got more", {},
                        line);
        out.push_back({std::string(target.substr(abs.size())), title});
    }
    return {};
}

} // namespace pp
