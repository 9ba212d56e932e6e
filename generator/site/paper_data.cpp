#include "site/paper_data.h"

#include "core/arxiv_id.h"
#include "core/tex.h"
#include "site/render_markdown.h"
#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace pp {

namespace {

using List = kainjow::mustache::list;

std::string plural(long long n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// `title` as shown (its simple formulas in Unicode: tex_for_page), and where
// that differs, `title_tex` as written for KaTeX (a reading list's BibTeX
// keeps "$\ell_1$").
void set_title(TemplateData& data, const std::string& title) {
    std::string shown = tex_for_page(title), written;
    if (title.find('$') != std::string::npos) { // only an inline formula is shown otherwise than written
        written = tex_to_unicode(title, true);
        if (written == shown) written.clear();
    }
    put_text(data, "title_tex", std::move(written));
    set_moved(data, "title", text_data(std::move(shown)));
}

} // namespace

std::string paper_anchor(const std::string& id) {
    std::string anchor = "p-" + id;
    for (char& c : anchor)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '-';
    return anchor;
}

namespace {

// The abstract's paragraphs without their `</p>`: HTML ends a paragraph at
// the next one and at the end of its element, and a day page has ~60 of them.
std::string lean_paragraphs(std::string html) {
    std::string out;
    out.reserve(html.size());
    for (std::size_t at = 0; at < html.size();) {
        const auto end = html.find("</p>\n", at);
        out.append(html, at, end == std::string::npos ? std::string::npos : end - at);
        if (end == std::string::npos) break;
        at = end + 5;
        if (at < html.size()) out += '\n';
    }
    return out;
}

// A scorer's note names topics by their internal identifiers
// ("efficiency_scaling"): shown as words. Only lowercase words joined by
// '_' are changed, so "x_1" stays.
std::string readable_identifiers(std::string text) {
    auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
    for (std::size_t at = 0; at < text.size();) {
        std::size_t end = at;
        while (end < text.size() && (lower(text[end]) || text[end] == '_')) ++end;
        const std::string_view word(text.data() + at, end - at);
        const bool identifier = word.find('_') != std::string_view::npos && lower(word.front()) && lower(word.back()) &&
                                word.find("__") == std::string_view::npos &&
                                (at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]))) &&
                                (end == text.size() || !std::isalnum(static_cast<unsigned char>(text[end])));
        if (identifier) std::replace(text.begin() + at, text.begin() + end, '_', ' ');
        at = end == at ? at + 1 : end;
    }
    return text;
}

} // namespace

TemplateData paper_data(const Paper& paper, std::size_t number) {
    TemplateData data;
    set_moved(data, "number", text_data(std::to_string(number)));
    set_moved(data, "anchor", text_data(paper_anchor(paper.id)));
    set_moved(data, "id", text_data(std::string(paper.id)));
    set_title(data, paper.title);
    set_moved(data, "abs_url", text_data(arxiv_abs_url(paper.id)));
    set_moved(data, "pdf_url", text_data(arxiv_pdf_url(paper.id)));
    put_text(data, "html_url", arxiv_html_url(paper.id)); // absent for papers arXiv has no HTML of
    put_text(data, "authors", tex_to_unicode(join(paper.authors, ", ")));
    put_text(data, "abstract_html", lean_paragraphs(abstract_to_html(paper.abstract)));
    put_text(data, "comment", paper.comment);
    put_text(data, "relevance", paper.relevance ? std::to_string(*paper.relevance) : "");
    put_text(data, "novelty", paper.novelty ? std::to_string(*paper.novelty) : "");
    put_text(data, "score", paper.relevance && paper.novelty ? std::to_string(paper.score()) : "");
    data.set("has_scores", paper.relevance.has_value() || paper.novelty.has_value());
    data.set("author_match", paper.author_match);
    put_text(data, "topic", paper.topic);
    put_text(data, "also_topics", join(paper.also_topics, ", "));
    put_text(data, "topic_note", readable_identifiers(paper.topic_note));
    put_text(data, "unscored", paper.unscored);
    put_text(data, "tldr", paper.summary.tldr);
    put_text(data, "motivation", paper.summary.motivation);
    put_text(data, "method", paper.summary.method);
    put_text(data, "result", paper.summary.result);
    put_text(data, "conclusion", paper.summary.conclusion);
    const PaperSummary& s = paper.summary;
    data.set("summary_more", !(s.motivation.empty() && s.method.empty() && s.result.empty() && s.conclusion.empty()));
    put_text(data, "summary_failed", paper.summary.failed);
    return data;
}

namespace {

struct TopicGroup {
    std::string name;
    std::vector<std::size_t> papers; // indices into the day's papers, in page order
};

// The day's papers by topic, in the order of each topic's best paper;
// papers without a topic last, as "Other topics". None when no paper has a topic.
std::vector<TopicGroup> topic_groups(const std::vector<Paper>& papers) {
    std::vector<TopicGroup> groups;
    TopicGroup other{"Other topics", {}};
    for (std::size_t i = 0; i < papers.size(); ++i) {
        const std::string topic = tex_to_unicode(papers[i].topic);
        if (topic.empty()) {
            other.papers.push_back(i);
            continue;
        }
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.name == topic; });
        if (it == groups.end()) groups.push_back({topic, {i}});
        else it->papers.push_back(i);
    }
    if (groups.empty()) return {};
    if (!other.papers.empty()) groups.push_back(std::move(other));
    return groups;
}

std::string topic_anchor(const std::string& name) {
    std::string anchor = "t-";
    for (unsigned char c : name)
        if (std::isalnum(c)) anchor += static_cast<char>(std::tolower(c));
        else if (anchor.back() != '-') anchor += '-';
    return anchor;
}

TemplateData topic_data(const std::string& name, std::size_t count, List papers) {
    TemplateData data;
    data.set("name", name);
    data.set("anchor", topic_anchor(name));
    data.set("count", std::to_string(count));
    set_moved(data, "papers", list_data(std::move(papers)));
    return data;
}

} // namespace

void set_papers(TemplateData& data, const Day& day, bool group_by_topic) {
    // By topic (best topic first, papers without one last), numbered in
    // the order shown; or the single ranked list.
    const auto groups = group_by_topic ? topic_groups(day.papers) : std::vector<TopicGroup>{};
    std::vector<std::size_t> order;
    for (const auto& group : groups) order.insert(order.end(), group.papers.begin(), group.papers.end());
    if (groups.empty())
        for (std::size_t i = 0; i < day.papers.size(); ++i) order.push_back(i);
    std::vector<TemplateData> shown;
    shown.reserve(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) shown.push_back(paper_data(day.papers[order[i]], i + 1));
    List papers, topics;
    papers.reserve(shown.size()); // kainjow's data moves without noexcept: growing would copy every paper
    std::size_t next = 0;
    for (const auto& group : groups) {
        List members;
        members.reserve(group.papers.size());
        for (std::size_t k = 0; k < group.papers.size(); ++k) members.push_back(shown[next++]);
        topics.push_back(topic_data(group.name, group.papers.size(), std::move(members)));
    }
    for (auto& paper : shown) papers.push_back(std::move(paper));
    data.set("paper_count", plural(static_cast<long long>(day.papers.size()), "paper", "papers"));
    data.set("has_papers", !day.papers.empty());
    data.set("many_papers", day.papers.size() > 20); // a theme may collapse the contents list
    // Some paper has a score: a theme keeps the line site.js's score filter goes into (no shift).
    data.set("scored", std::any_of(day.papers.begin(), day.papers.end(),
                                   [](const Paper& p) { return p.relevance && p.novelty; }));
    data.set("grouped", !groups.empty());
    set_moved(data, "topics", list_data(std::move(topics)));
    set_moved(data, "papers", list_data(std::move(papers)));
    // The rest of the announcement, titles and links only (docs/performance.md, "Not picked").
    List unpicked;
    unpicked.reserve(day.unpicked.size());
    for (const auto& paper : day.unpicked) {
        TemplateData entry;
        set_title(entry, paper.title);
        set_moved(entry, "abs_url", text_data(arxiv_abs_url(paper.id)));
        unpicked.push_back(std::move(entry));
    }
    data.set("has_unpicked", !day.unpicked.empty());
    data.set("unpicked_count", plural(static_cast<long long>(day.unpicked.size()), "paper", "papers"));
    set_moved(data, "unpicked", list_data(std::move(unpicked)));
}

} // namespace pp
