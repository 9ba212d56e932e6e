#include "content/legacy_markdown.h"

#include "core/arxiv_id.h"
#include "util/bom.h"
#include "util/text.h"

#include <pugixml.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace pp {

namespace {

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && to_lower(s.substr(0, prefix.size())) == to_lower(prefix);
}

// "$0.14" -> 0.14
std::optional<double> dollars(std::string_view cell) {
    cell = trim(cell);
    if (cell.starts_with('$')) cell.remove_prefix(1);
    return parse_double(cell);
}

std::string strip_emphasis(std::string_view cell) {
    cell = trim(cell);
    while (!cell.empty() && (cell.front() == '*' || cell.front() == '_')) cell.remove_prefix(1);
    while (!cell.empty() && (cell.back() == '*' || cell.back() == '_')) cell.remove_suffix(1);
    return std::string(trim(cell));
}

// One row of the usage table, from either the Markdown or the HTML variant.
// Token rows are [model?] Token(s) prompt completion total [arxiv scanned relevant];
// cost rows are Cost $prompt $completion $total.
void read_usage_row(const std::vector<std::string>& cells, Day& day) {
    for (size_t i = 0; i < cells.size(); ++i) {
        std::string label = to_lower(strip_emphasis(cells[i]));
        auto number = [&](size_t k) -> std::optional<long long> {
            return i + k < cells.size() ? parse_int(trim(cells[i + k])) : std::nullopt;
        };
        if (label == "token" || label == "tokens") {
            if (i > 0 && !parse_int(trim(cells[i - 1])) && !trim(cells[i - 1]).empty())
                day.model = strip_emphasis(cells[i - 1]);
            if (number(1) && number(2)) day.tokens = Tokens{*number(1), *number(2), 0};
            if (number(4)) day.counts.arxiv = number(4);
            if (number(5)) day.counts.scanned = number(5);
            if (number(6)) day.counts.relevant = number(6);
            return;
        }
        if (label == "cost") {
            auto cost = [&](size_t k) { return i + k < cells.size() ? dollars(cells[i + k]) : std::nullopt; };
            day.cost = Cost{cost(1), cost(2), cost(3)};
            return;
        }
    }
}

// "| *[gpt-4o]* | Prompt | ..." -> model name from the header cell.
void read_markdown_table_line(std::string_view line, Day& day) {
    std::vector<std::string> cells;
    auto parts = split(trim(line), '|');
    for (size_t i = 1; i + 1 < parts.size(); ++i) cells.emplace_back(trim(parts[i]));
    if (cells.empty()) return;
    std::string first = strip_emphasis(cells[0]);
    if (first.size() > 2 && first.front() == '[' && first.back() == ']') {
        day.model = first.substr(1, first.size() - 2);
        return;
    }
    read_usage_row(cells, day);
}

std::string node_text(const pugi::xml_node& node) {
    std::string out;
    for (auto& text : node.select_nodes(".//text()")) out += text.node().value();
    return std::string(trim(out));
}

// The usage table is a few rows; a bigger one is not the reference's, and
// nested rows in it would cost quadratic time to read.
constexpr std::size_t max_html_table_bytes = 64 * 1024;

void read_html_table(const std::string& html, Day& day) {
    if (html.size() > max_html_table_bytes) return;
    pugi::xml_document doc;
    if (!doc.load_string(html.c_str())) return;
    for (auto& row : doc.select_nodes("//tbody/tr")) {
        std::vector<std::string> cells;
        for (auto& cell : row.node().select_nodes("td")) cells.push_back(node_text(cell.node()));
        read_usage_row(cells, day);
    }
}

struct PaperHeading {
    std::string title;
    std::string id;
};

// "## 3. [Title](https://arxiv.org/abs/2505.13052) <a id="link3"></a>"
std::optional<PaperHeading> paper_heading(std::string_view line) {
    if (!line.starts_with("## ") && !line.starts_with("### ")) return std::nullopt;
    const std::string_view marker = "](https://arxiv.org/abs/";
    auto url = line.rfind(marker);
    auto open = line.find('[');
    if (url == std::string_view::npos || open == std::string_view::npos || open > url) return std::nullopt;
    auto close = line.find(')', url + marker.size());
    if (close == std::string_view::npos) return std::nullopt;
    auto id = parse_arxiv_id(line.substr(url + marker.size(), close - url - marker.size()));
    return PaperHeading{std::string(line.substr(open + 1, url - open - 1)), id ? id->id : std::string()};
}

// "**Label:** value" -> {label, value}
std::optional<std::pair<std::string, std::string>> field_line(std::string_view line) {
    if (!line.starts_with("**")) return std::nullopt;
    auto end = line.find(":**", 2);
    if (end == std::string_view::npos) return std::nullopt;
    return std::pair{std::string(line.substr(2, end - 2)), std::string(trim(line.substr(end + 3)))};
}

std::optional<Date> date_after(std::string_view line, std::string_view marker) {
    auto pos = line.find(marker);
    if (pos == std::string_view::npos) return std::nullopt;
    auto rest = trim(line.substr(pos + marker.size()));
    auto end = rest.find_first_of(" .");
    return parse_us_date(rest.substr(0, end));
}

void set_field(Paper& paper, const std::string& label, const std::string& value, LegacyPage& page) {
    std::string key = to_lower(label);
    if (key == "arxiv id") {
        auto id = parse_arxiv_id(value);
        if (id) paper.id = id->id;
    } else if (key == "authors") {
        paper.authors = split_top_level_commas(value);
    } else if (key == "abstract") {
        paper.abstract = std::string(strip_announce_prefix(value));
    } else if (key == "comment") {
        paper.comment = value;
    } else if (key == "relevance" || key == "novelty") {
        // Kept as the page says it, within int's range; the importer checks it is 0 to 10.
        auto number = parse_double(value);
        if (number && std::isfinite(*number))
            (key == "relevance" ? paper.relevance : paper.novelty) =
                static_cast<int>(std::clamp(std::round(*number), -1e6, 1e6));
        else
            page.notes.push_back("paper " + paper.id + ": field '" + label + "' is not a number: " + excerpt(value));
    } else if (key == "primary topic") {
        paper.topic = value;
    } else if (key == "also matches") {
        paper.also_topics = {value};
    } else if (key == "topic match") {
        paper.topic_note = value;
    } else {
        page.notes.push_back("paper " + paper.id + ": field " + excerpt(label) + " is not kept");
    }
}

} // namespace

Result<LegacyPage> parse_legacy_markdown(std::string_view text, const std::string& file) {
    text = without_bom(text);
    LegacyPage page;
    Day& day = page.day;
    Paper* paper = nullptr;
    std::string field;      // the field whose value continues on the next line
    std::string html_table; // an HTML table being collected
    std::string prompt;
    bool in_prompt = false, in_html = false, saw_title = false;
    int line_number = 0;

    auto finish_paper = [&]() {
        if (paper) {
            if (paper->comment == "Author match") {
                paper->author_match = true;
                paper->comment.clear();
            }
            tidy_paper(*paper);
        }
    };

    for (auto raw : split(text, '\n')) {
        ++line_number;
        std::string_view line = raw;
        if (line.ends_with('\r')) line.remove_suffix(1);
        if (in_prompt) {
            prompt += std::string(line) + "\n";
            continue;
        }
        if (in_html) {
            html_table += std::string(line) + "\n";
            if (trim(line) == "</table>") {
                in_html = false;
                if (!day.tokens) read_html_table(html_table, day);
            }
            continue;
        }
        if (line.starts_with("> This is a remedial run")) {
            auto from = date_after(line, "from "), to = date_after(line, " to ");
            if (!from || !to) return fail("expected 'from MM/DD/YYYY to MM/DD/YYYY' in the remedial banner", file, line_number);
            day.remedial = Remedial{*from, *to, std::nullopt};
            continue;
        }
        if (line.starts_with("> Results generated on") && day.remedial) {
            day.remedial->generated = date_after(line, "generated on ");
            continue;
        }
        if (starts_with_nocase(line, "# Personalized Daily Arxiv Papers")) {
            auto stamp = trim(line.substr(line.rfind(' ') + 1));
            page.header_date = stamp.find('/') != std::string_view::npos ? parse_us_date(stamp) : parse_iso_date(stamp);
            if (!page.header_date) return fail("expected a date in the title, as MM/DD/YYYY or YYYY-MM-DD", file, line_number);
            saw_title = true;
            continue;
        }
        if (starts_with_nocase(line, "# Paper selection prompt")) {
            finish_paper();
            paper = nullptr;
            in_prompt = true;
            continue;
        }
        if (line.starts_with("Total cost:")) {
            day.cost.total = dollars(line.substr(11));
            continue;
        }
        if (trim(line) == "<table>" && !paper) {
            in_html = true;
            html_table = "<table>\n";
            continue;
        }
        if (line.starts_with("|") && !paper) {
            read_markdown_table_line(line, day);
            continue;
        }
        if (starts_with_nocase(line, "Total arXiv papers:") || starts_with_nocase(line, "Total scanned papers:") ||
            starts_with_nocase(line, "Total relevant papers:")) {
            auto colon = line.find(':');
            auto number = parse_int(trim(line.substr(colon + 1)));
            if (!number) return fail("expected a number after the colon", file, line_number);
            std::string which = to_lower(line.substr(6, 4));
            (which == "arxi" ? day.counts.arxiv : which == "scan" ? day.counts.scanned : day.counts.relevant) = number;
            continue;
        }
        if (auto heading = paper_heading(line)) {
            finish_paper();
            paper = &day.papers.emplace_back();
            paper->title = heading->title;
            paper->id = heading->id;
            field.clear();
            continue;
        }
        if (!paper) continue; // table of contents and other page furniture
        if (trim(line).empty() || trim(line) == "---" || line.starts_with("#")) {
            field.clear();
            continue;
        }
        if (auto f = field_line(line)) {
            field = f->first;
            set_field(*paper, f->first, f->second, page);
        } else if (!field.empty() && to_lower(field) == "abstract") {
            paper->abstract += "\n" + std::string(line);
        } else if (!field.empty() && to_lower(field) == "comment") {
            paper->comment += "\n" + std::string(line);
        }
    }
    finish_paper();
    if (!saw_title) return fail("expected a title line '# Personalized Daily ArXiv Papers DATE'", file, 1);
    for (const auto& p : day.papers)
        if (p.id.empty()) return fail("a paper section has no arXiv ID: " + excerpt(p.title), file, 0);
    page.prompt = tidy_text(prompt);
    return page;
}

} // namespace pp
