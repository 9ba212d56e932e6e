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
        else page.notes.push_back("paper " + paper.id + ": field '" + label + "' is not a number: " + excerpt(value));
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

// The page, a line at a time: the page's furniture (banner, title, cost,
// usage table, counts, prompt), then each paper's heading and fields.
class LegacyReader {
public:
    explicit LegacyReader(const std::string& file) : file_(file) {}

    Result<void> read_line(std::string_view line) {
        ++line_number_;
        if (line.ends_with('\r')) line.remove_suffix(1);
        if (in_prompt_) {
            prompt_ += std::string(line) + "\n";
            return {};
        }
        if (in_html_) return add_html_line(line);
        if (auto page_line = read_page_line(line)) return *page_line;
        read_paper_line(line);
        return {};
    }

    Result<LegacyPage> finish() {
        finish_paper();
        if (!saw_title_) return fail("expected a title line '# Personalized Daily ArXiv Papers DATE'", file_, 1);
        for (const auto& p : page_.day.papers)
            if (p.id.empty()) return fail("a paper section has no arXiv ID: " + excerpt(p.title), file_, 0);
        page_.prompt = tidy_text(prompt_);
        return std::move(page_);
    }

private:
    Result<void> add_html_line(std::string_view line) {
        html_table_ += std::string(line) + "\n";
        if (trim(line) == "</table>") {
            in_html_ = false;
            if (!page_.day.tokens) read_html_table(html_table_, page_.day);
        }
        return {};
    }

    // A line of the page around the papers; nullopt when it is none.
    std::optional<Result<void>> read_page_line(std::string_view line) {
        Day& day = page_.day;
        if (line.starts_with("> This is a remedial run")) {
            auto from = date_after(line, "from "), to = date_after(line, " to ");
            if (!from || !to)
                return fail("expected 'from MM/DD/YYYY to MM/DD/YYYY' in the remedial banner", file_, line_number_);
            day.remedial = Remedial{*from, *to, std::nullopt};
        } else if (line.starts_with("> Results generated on") && day.remedial) {
            day.remedial->generated = date_after(line, "generated on ");
        } else if (starts_with_nocase(line, "# Personalized Daily Arxiv Papers")) {
            auto stamp = trim(line.substr(line.rfind(' ') + 1));
            page_.header_date =
                stamp.find('/') != std::string_view::npos ? parse_us_date(stamp) : parse_iso_date(stamp);
            if (!page_.header_date)
                return fail("expected a date in the title, as MM/DD/YYYY or YYYY-MM-DD", file_, line_number_);
            saw_title_ = true;
        } else if (starts_with_nocase(line, "# Paper selection prompt")) {
            finish_paper();
            paper_ = nullptr;
            in_prompt_ = true;
        } else if (line.starts_with("Total cost:")) {
            day.cost.total = dollars(line.substr(11));
        } else if (trim(line) == "<table>" && !paper_) {
            in_html_ = true;
            html_table_ = "<table>\n";
        } else if (line.starts_with("|") && !paper_) {
            read_markdown_table_line(line, day);
        } else if (starts_with_nocase(line, "Total arXiv papers:") ||
                   starts_with_nocase(line, "Total scanned papers:") ||
                   starts_with_nocase(line, "Total relevant papers:")) {
            return read_count(line);
        } else {
            return std::nullopt;
        }
        return Result<void>{};
    }

    Result<void> read_count(std::string_view line) {
        auto number = parse_int(trim(line.substr(line.find(':') + 1)));
        if (!number) return fail("expected a number after the colon", file_, line_number_);
        std::string which = to_lower(line.substr(6, 4));
        Counts& counts = page_.day.counts;
        (which == "arxi" ? counts.arxiv : which == "scan" ? counts.scanned : counts.relevant) = number;
        return {};
    }

    void read_paper_line(std::string_view line) {
        if (auto heading = paper_heading(line)) {
            finish_paper();
            paper_ = &page_.day.papers.emplace_back();
            paper_->title = heading->title;
            paper_->id = heading->id;
            field_.clear();
            return;
        }
        if (!paper_) return; // table of contents and other page furniture
        if (trim(line).empty() || trim(line) == "---" || line.starts_with("#")) {
            field_.clear();
        } else if (auto f = field_line(line)) {
            field_ = f->first;
            set_field(*paper_, f->first, f->second, page_);
        } else if (!field_.empty() && to_lower(field_) == "abstract") {
            paper_->abstract += "\n" + std::string(line);
        } else if (!field_.empty() && to_lower(field_) == "comment") {
            paper_->comment += "\n" + std::string(line);
        }
    }

    void finish_paper() {
        if (!paper_) return;
        if (paper_->comment == "Author match") {
            paper_->author_match = true;
            paper_->comment.clear();
        }
        tidy_paper(*paper_);
    }

    const std::string& file_;
    LegacyPage page_;
    Paper* paper_ = nullptr;
    std::string field_;      // the field whose value continues on the next line
    std::string html_table_; // an HTML table being collected
    std::string prompt_;
    bool in_prompt_ = false, in_html_ = false, saw_title_ = false;
    int line_number_ = 0;
};

} // namespace

Result<LegacyPage> parse_legacy_markdown(std::string_view text, const std::string& file) {
    LegacyReader reader(file);
    for (auto line : split(without_bom(text), '\n'))
        if (auto read = reader.read_line(line); !read) return std::unexpected(read.error());
    return reader.finish();
}

} // namespace pp
