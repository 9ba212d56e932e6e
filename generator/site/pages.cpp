#include "site/pages.h"

#include "core/arxiv_id.h"
#include "site/render_markdown.h"
#include "util/text.h"

#include <array>
#include <cstdio>

namespace pp {

namespace {

using List = kainjow::mustache::list;

void put(TemplateData& data, const std::string& key, std::string value) {
    if (!value.empty()) set_moved(data, key, text_data(std::move(value)));
}

std::string count_text(std::optional<long long> n) { return n ? std::to_string(*n) : "unknown"; }
// "$0.40" (cents when that is exact), "$0.0035" (every digit otherwise), "unknown".
std::string money_text(std::optional<double> amount) {
    if (!amount) return "unknown";
    char cents[64];
    std::snprintf(cents, sizeof cents, "%.2f", *amount);
    std::string text = "$";
    text += parse_double(cents) == *amount ? std::string(cents) : format_double(*amount);
    return text;
}

std::string plural(long long n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

TemplateData link(const std::string& href, const std::string& label) {
    TemplateData data;
    data.set("href", href);
    data.set("label", label);
    return data;
}

std::string month_label(int year, int month) { return month_name(month) + " " + std::to_string(year); }

// Fields every page has: site, page (title, canonical URL), nav.
TemplateData page_base(const SiteContext& site, const std::string& kind, const std::string& title,
                       const std::string& site_path) {
    TemplateData data;
    TemplateData s;
    s.set("title", site.config.title);
    put(s, "description", site.config.description);
    put(s, "author", site.config.author);
    s.set("base", site.urls.base_path());
    s.set("home", site.urls.href(home_path()));
    s.set("archive", site.urls.href(archive_path()));
    s.set("feed", site.urls.href(feed_path()));
    s.set("data", site.urls.href(data_index_path()));
    put(s, "stylesheet", site.stylesheet);
    put(s, "script", site.script);
    put(s, "search_script", site.search_script);
    if (site.search_page) s.set("search", site.urls.href(search_page_path()));
    s.set("search_index", site.urls.href(search_index_path()));
    if (!site.katex_css.empty() && !site.katex_js.empty()) {
        TemplateData math;
        math.set("css", site.katex_css);
        math.set("js", site.katex_js);
        put(math, "auto_render", site.katex_auto_render);
        s.set("math", math);
    }
    set_moved(data, "site", std::move(s));

    TemplateData page;
    page.set("kind", kind);
    page.set("title", title);
    page.set("canonical", site.urls.absolute(site_path));
    page.set("is_" + kind, true);
    set_moved(data, "page", std::move(page));
    return data;
}

void set_nav(TemplateData& data, std::optional<TemplateData> prev, std::optional<TemplateData> up,
             std::optional<TemplateData> next) {
    TemplateData nav;
    bool any = false;
    if (prev) set_moved(nav, "prev", std::move(*prev)), any = true;
    if (up) set_moved(nav, "up", std::move(*up)), any = true;
    if (next) set_moved(nav, "next", std::move(*next)), any = true;
    if (any) set_moved(data, "nav", std::move(nav));
}

std::string paper_anchor(const std::string& id) {
    std::string anchor = "p-" + id;
    for (char& c : anchor)
        if (c == '/') c = '-';
    return anchor;
}

TemplateData paper_data(const Paper& paper, std::size_t number) {
    TemplateData data;
    set_moved(data, "number", text_data(std::to_string(number)));
    set_moved(data, "anchor", text_data(paper_anchor(paper.id)));
    set_moved(data, "id", text_data(std::string(paper.id)));
    set_moved(data, "title", text_data(std::string(paper.title)));
    set_moved(data, "abs_url", text_data(arxiv_abs_url(paper.id)));
    set_moved(data, "pdf_url", text_data(arxiv_pdf_url(paper.id)));
    set_moved(data, "html_url", text_data(arxiv_html_url(paper.id)));
    put(data, "authors", join(paper.authors, ", "));
    put(data, "abstract_html", plain_text_to_html(paper.abstract));
    put(data, "comment", paper.comment);
    if (paper.relevance) put(data, "relevance", std::to_string(*paper.relevance));
    if (paper.novelty) put(data, "novelty", std::to_string(*paper.novelty));
    if (paper.relevance && paper.novelty) put(data, "score", std::to_string(paper.score()));
    data.set("has_scores", paper.relevance.has_value() || paper.novelty.has_value());
    data.set("author_match", paper.author_match);
    put(data, "topic", paper.topic);
    put(data, "also_topics", join(paper.also_topics, ", "));
    put(data, "topic_note", paper.topic_note);
    put(data, "unscored", paper.unscored);
    return data;
}

// The day's whole content, shared by the day page and the home page.
TemplateData day_data(const SiteContext& site, const Day& day, const std::string& prompt_html,
                      const std::string& prompt_url) {
    TemplateData data;
    data.set("date", day.date.iso());
    data.set("long_date", long_date(day.date));
    data.set("href", site.urls.href(day_path_of(day.date)));
    data.set("failed", day.status == DayStatus::failed);
    data.set("status", std::string(to_string(day.status)));
    data.set("incomplete", day.status == DayStatus::partial || day.status == DayStatus::stale);
    data.set("reason", day.reason);
    if (day.remedial) {
        TemplateData remedial;
        remedial.set("from", day.remedial->from.iso());
        remedial.set("to", day.remedial->to.iso());
        remedial.set("single_day", day.remedial->from == day.remedial->to);
        if (day.remedial->generated) remedial.set("generated", day.remedial->generated->iso());
        set_moved(data, "remedial", std::move(remedial));
    }
    data.set("model", day.model.empty() ? std::string("unknown") : day.model);
    if (day.tokens) {
        TemplateData tokens;
        tokens.set("prompt", std::to_string(day.tokens->prompt));
        tokens.set("completion", std::to_string(day.tokens->completion));
        tokens.set("cached", std::to_string(day.tokens->cached));
        tokens.set("total", std::to_string(day.tokens->prompt + day.tokens->completion));
        set_moved(data, "tokens", std::move(tokens));
    }
    TemplateData cost;
    cost.set("prompt", money_text(day.cost.prompt));
    cost.set("completion", money_text(day.cost.completion));
    cost.set("total", money_text(day.cost.total));
    set_moved(data, "cost", std::move(cost));
    TemplateData counts;
    counts.set("arxiv", count_text(day.counts.arxiv));
    counts.set("scanned", count_text(day.counts.scanned));
    counts.set("relevant", count_text(day.counts.relevant));
    set_moved(data, "counts", std::move(counts));

    List papers;
    papers.reserve(day.papers.size()); // kainjow's data moves without noexcept: growing would copy every paper
    for (std::size_t i = 0; i < day.papers.size(); ++i) papers.push_back(paper_data(day.papers[i], i + 1));
    data.set("paper_count", plural(static_cast<long long>(day.papers.size()), "paper", "papers"));
    data.set("has_papers", !day.papers.empty());
    set_moved(data, "papers", list_data(std::move(papers)));
    put(data, "prompt_html", prompt_html);
    put(data, "prompt_url", prompt_url);
    return data;
}

std::optional<TemplateData> day_link(const SiteContext& site, std::optional<std::size_t> index) {
    if (!index) return std::nullopt;
    const auto& day = site.graph.days[*index];
    return link(site.urls.href(day_path_of(day.date)), day.date.iso());
}

std::optional<TemplateData> month_link(const SiteContext& site, std::optional<std::size_t> index) {
    if (!index) return std::nullopt;
    const auto& month = site.graph.months[*index];
    return link(site.urls.href(month_path_of(month.year, month.month)), month_label(month.year, month.month));
}

std::optional<TemplateData> year_link(const SiteContext& site, std::optional<std::size_t> index) {
    if (!index) return std::nullopt;
    int year = site.graph.years[*index].year;
    return link(site.urls.href(year_path_of(year)), std::to_string(year));
}

std::optional<std::size_t> before(std::size_t i) { return i > 0 ? std::optional(i - 1) : std::nullopt; }
std::optional<std::size_t> after(std::size_t i, std::size_t size) {
    return i + 1 < size ? std::optional(i + 1) : std::nullopt;
}

// Navigation of a day that is in the graph: previous/next day with a file, up to its month.
void set_day_nav(const SiteContext& site, TemplateData& data, const Date& date) {
    auto index = site.graph.find_day(date);
    if (!index) return;
    set_nav(data, day_link(site, before(*index)), month_link(site, site.graph.month_of_day(*index)),
            day_link(site, after(*index, site.graph.days.size())));
}

TemplateData day_list_entry(const SiteContext& site, const DaySummary& day) {
    TemplateData data;
    data.set("href", site.urls.href(day_path_of(day.date)));
    data.set("date", day.date.iso());
    data.set("weekday", weekday_name(day.date.weekday()).substr(0, 3));
    data.set("paper_count", plural(day.papers, "paper", "papers"));
    data.set("failed", day.status == DayStatus::failed);
    data.set("remedial", day.remedial);
    List titles;
    for (const auto& title : day.top_titles) titles.push_back(TemplateData(title));
    data.set("has_titles", !day.top_titles.empty());
    data.set("top_titles", titles);
    return data;
}

} // namespace

std::string render_prompt(const std::string& prompt_markdown) { return markdown_to_html(prompt_markdown); }

TemplateData day_page(const SiteContext& site, const Day& day, const std::string& prompt_html,
                      const std::string& prompt_url) {
    auto data = page_base(site, "day", "arXiv papers for " + day.date.iso(), day_path_of(day.date));
    set_moved(data, "day", day_data(site, day, prompt_html, prompt_url));
    set_day_nav(site, data, day.date);
    return data;
}

TemplateData home_page(const SiteContext& site, const Day* latest, const std::string& prompt_html,
                       const std::string& prompt_url) {
    auto data = page_base(site, "home", site.config.title, home_path());
    if (latest) {
        set_moved(data, "day", day_data(site, *latest, prompt_html, prompt_url));
        set_day_nav(site, data, latest->date);
    }
    List recent;
    const auto& days = site.graph.days;
    const auto shown = std::min<std::size_t>(days.size(), static_cast<std::size_t>(site.config.home_days));
    recent.reserve(shown);
    for (std::size_t i = 0; i < shown; ++i) recent.push_back(day_list_entry(site, days[days.size() - 1 - i]));
    data.set("has_recent", shown > 0);
    set_moved(data, "recent", list_data(std::move(recent)));
    return data;
}

TemplateData month_page(const SiteContext& site, std::size_t index) {
    const auto& month = site.graph.months[index];
    auto data = page_base(site, "month", month_label(month.year, month.month), month_path_of(month.year, month.month));
    TemplateData m;
    m.set("name", month_label(month.year, month.month));
    m.set("day_count", plural(static_cast<long long>(month.days.size()), "day", "days"));
    m.set("paper_count", plural(month.papers, "paper", "papers"));
    m.set("iso", search_shard_name(month.year, month.month)); // "2025-02"
    m.set("year", std::to_string(month.year));
    m.set("month", search_shard_name(month.year, month.month).substr(5)); // "02"
    data.set("month", m);

    // Sunday-first calendar: padding cells before the 1st and after the last day.
    List weekdays;
    for (int w = 0; w < 7; ++w) weekdays.push_back(TemplateData(weekday_name(w).substr(0, 3)));
    List weeks;
    List cells;
    const int lead = Date{month.year, month.month, 1}.weekday();
    const int length = Date::days_in_month(month.year, month.month);
    for (int i = 0; i < lead; ++i) cells.push_back(TemplateData());
    for (int d = 1; d <= length; ++d) {
        TemplateData cell;
        cell.set("day", std::to_string(d));
        Date date{month.year, month.month, d};
        if (auto found = site.graph.find_day(date)) {
            cell.set("href", site.urls.href(day_path_of(date)));
            cell.set("title", plural(site.graph.days[*found].papers, "paper", "papers"));
        }
        cells.push_back(cell);
        if (cells.size() == 7) {
            weeks.push_back(TemplateData("cells", cells));
            cells = List();
        }
    }
    if (!cells.empty()) {
        while (cells.size() < 7) cells.push_back(TemplateData());
        weeks.push_back(TemplateData("cells", cells));
    }
    TemplateData calendar;
    calendar.set("weekdays", weekdays);
    calendar.set("weeks", weeks);
    data.set("calendar", calendar);

    List days;
    days.reserve(month.days.size());
    for (auto d : month.days) days.push_back(day_list_entry(site, site.graph.days[d]));
    set_moved(data, "days", list_data(std::move(days)));
    set_nav(data, month_link(site, before(index)), year_link(site, site.graph.year_of_month(index)),
            month_link(site, after(index, site.graph.months.size())));
    return data;
}

TemplateData year_page(const SiteContext& site, std::size_t index) {
    const auto& year = site.graph.years[index];
    auto data = page_base(site, "year", std::to_string(year.year), year_path_of(year.year));
    TemplateData y;
    y.set("name", std::to_string(year.year));
    y.set("day_count", plural(year.days, "day", "days"));
    y.set("paper_count", plural(year.papers, "paper", "papers"));
    data.set("year", y);
    List months;
    for (int m = 1; m <= 12; ++m) {
        TemplateData month;
        month.set("name", month_name(m));
        if (auto found = site.graph.find_month(year.year, m)) {
            const auto& node = site.graph.months[*found];
            month.set("href", site.urls.href(month_path_of(year.year, m)));
            month.set("day_count", plural(static_cast<long long>(node.days.size()), "day", "days"));
            month.set("paper_count", plural(node.papers, "paper", "papers"));
        }
        months.push_back(month);
    }
    // The same twelve as three rows of four, for a table.
    List rows;
    for (std::size_t r = 0; r < 3; ++r) {
        List row;
        for (std::size_t k = 0; k < 4; ++k) row.push_back(months[r * 4 + k]);
        rows.push_back(TemplateData("months", row));
    }
    data.set("months", months);
    data.set("month_rows", rows);
    set_nav(data, year_link(site, before(index)), link(site.urls.href(archive_path()), "Archive"),
            year_link(site, after(index, site.graph.years.size())));
    return data;
}

TemplateData archive_page(const SiteContext& site) {
    auto data = page_base(site, "archive", "Archive", archive_path());
    List years;
    for (auto it = site.graph.years.rbegin(); it != site.graph.years.rend(); ++it) {
        TemplateData year;
        year.set("name", std::to_string(it->year));
        year.set("href", site.urls.href(year_path_of(it->year)));
        year.set("day_count", plural(it->days, "day", "days"));
        year.set("paper_count", plural(it->papers, "paper", "papers"));
        List months;
        for (auto m : it->months) {
            const auto& node = site.graph.months[m];
            TemplateData month;
            month.set("name", month_name(node.month));
            month.set("href", site.urls.href(month_path_of(node.year, node.month)));
            month.set("day_count", plural(static_cast<long long>(node.days.size()), "day", "days"));
            month.set("paper_count", plural(node.papers, "paper", "papers"));
            months.push_back(month);
        }
        year.set("months", months);
        years.push_back(year);
    }
    data.set("has_years", !years.empty());
    data.set("years", years);
    set_nav(data, std::nullopt, link(site.urls.href(home_path()), "Home"), std::nullopt);
    return data;
}

TemplateData not_found_page(const SiteContext& site) {
    return page_base(site, "404", "Page not found", not_found_path());
}

TemplateData search_page(const SiteContext& site) {
    auto data = page_base(site, "search", "Search", search_page_path());
    set_nav(data, std::nullopt, link(site.urls.href(home_path()), "Home"), std::nullopt);
    return data;
}

TemplateData prompt_page(const SiteContext& site, const std::string& site_path, const std::string& prompt_html) {
    auto data = page_base(site, "prompt", "Selection prompt", site_path);
    put(data, "prompt_html", prompt_html);
    return data;
}

} // namespace pp
