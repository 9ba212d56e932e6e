#include "site/pages.h"

#include "core/arxiv_id.h"
#include "core/tex.h"
#include "site/paper_data.h"
#include "site/render_markdown.h"
#include "util/text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>

namespace pp {

namespace {

using List = kainjow::mustache::list;

void put_link(TemplateData& data, const std::string& key, std::optional<TemplateData> value) {
    if (value) set_moved(data, key, std::move(*value));
    else data.set(key, false);
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

// Fields every page has: site, page (title, canonical URL), nav. KaTeX's
// files only on pages with `math`.
// `description`: what a search result or a share preview says of the page
// (the site's description when empty).
TemplateData page_base(const SiteContext& site, const std::string& kind, const std::string& title,
                       const std::string& site_path, bool math = false, const std::string& description = {}) {
    TemplateData data;
    TemplateData s;
    s.set("title", site.settings.title);
    put_text(s, "description", site.settings.description);
    put_text(s, "author", site.settings.author);
    s.set("base", site.urls.base_path());
    s.set("home", site.urls.href(home_path()));
    s.set("archive", site.urls.href(archive_path()));
    s.set("feed", site.urls.href(feed_path()));
    s.set("data", site.urls.href(data_index_path()));
    put_text(s, "stylesheet", site.stylesheet);
    put_text(s, "script", site.script);
    put_text(s, "search_script", site.search_script);
    put_text(s, "search_words_js", site.search_words_js);
    if (site.search_page) s.set("search", site.urls.href(search_page_path()));
    if (site.starred_page) s.set("starred", site.urls.href(starred_page_path()));
    if (site.trends_page) s.set("trends", site.urls.href(trends_page_path()));
    if (site.range_page) s.set("range", site.urls.href(range_page_path()));
    if (site.preferences_page) s.set("preferences", site.urls.href(preferences_page_path()));
    put_text(s, "prefs_script", site.prefs_script);
    s.set("search_index", site.urls.href(data_index_path())); // the search reads the month data it lists
    s.set("search_words", site.search_words);                 // ... or the word index (search/index.json)
    if (math && !site.katex_css.empty() && !site.katex_js.empty()) {
        TemplateData katex;
        katex.set("css", site.katex_css);
        katex.set("js", site.katex_js);
        put_text(katex, "auto_render", site.katex_auto_render);
        s.set("math", katex);
    } else {
        s.set("math", false);
    }
    set_moved(data, "site", std::move(s));

    TemplateData page;
    page.set("kind", kind);
    page.set("title", title);
    page.set("canonical", site.urls.absolute(site_path));
    page.set("is_" + kind, true);
    put_text(page, "description", description.empty() ? site.settings.description : description);
    page.set("keys", kind == "day" || kind == "month" || kind == "year" || kind == "home"); // site.js's shortcuts
    set_moved(data, "page", std::move(page));
    data.set("nav", false); // set_nav() gives the pages that have one theirs
    return data;
}

void set_nav(TemplateData& data, std::optional<TemplateData> prev, std::optional<TemplateData> up,
             std::optional<TemplateData> next) {
    if (!prev && !up && !next) {
        data.set("nav", false);
        return;
    }
    TemplateData nav;
    put_link(nav, "prev", std::move(prev));
    put_link(nav, "up", std::move(up));
    put_link(nav, "next", std::move(next));
    set_moved(data, "nav", std::move(nav));
}

bool paper_has_math(const Paper& paper) { return has_math(paper.title) || has_math(paper.abstract); }
bool day_has_math(const Day& day) { return std::any_of(day.papers.begin(), day.papers.end(), paper_has_math); }

// How a day is marked in lists and calendars: not by colour alone.
struct DayState {
    const char* name;  // a CSS class: papers, failed, quiet, partial
    const char* mark;  // a symbol beside the date
    const char* label; // words for the list ("" when the paper count says it)
};

DayState day_state(DayStatus status, int papers) {
    if (status == DayStatus::failed) return {"failed", "✕", "run failed"};
    if (status == DayStatus::partial || status == DayStatus::stale) return {"partial", "◐", "partial"};
    if (papers == 0) return {"quiet", "○", "no papers"};
    return {"papers", "", ""};
}

void set_state(TemplateData& data, const DaySummary& day) {
    const DayState state = day_state(day.status, day.papers);
    data.set("state", std::string(state.name));
    put_text(data, "mark", state.mark);
    put_text(data, "state_label", state.label);
}

// "23 failed, 2 quiet" for the days of a month or a year; "" when all have papers.
std::string state_counts(const SiteGraph& graph, const std::vector<std::size_t>& days) {
    int failed = 0, quiet = 0, partial = 0;
    for (auto d : days) {
        const std::string name = day_state(graph.days[d].status, graph.days[d].papers).name;
        failed += name == "failed";
        quiet += name == "quiet";
        partial += name == "partial";
    }
    std::vector<std::string> parts;
    if (failed) parts.push_back(std::to_string(failed) + " failed");
    if (partial) parts.push_back(std::to_string(partial) + " partial");
    if (quiet) parts.push_back(std::to_string(quiet) + " quiet");
    return join(parts, ", ");
}

std::vector<std::size_t> days_of_year(const SiteGraph& graph, const YearNode& year) {
    std::vector<std::size_t> days;
    for (auto m : year.months) days.insert(days.end(), graph.months[m].days.begin(), graph.months[m].days.end());
    return days;
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
        put_text(remedial, "generated", day.remedial->generated ? day.remedial->generated->iso() : "");
        set_moved(data, "remedial", std::move(remedial));
    } else {
        data.set("remedial", false);
    }
    data.set("model", day.model.empty() ? std::string("unknown") : day.model);
    if (day.tokens) {
        TemplateData tokens;
        tokens.set("prompt", std::to_string(day.tokens->prompt));
        tokens.set("completion", std::to_string(day.tokens->completion));
        tokens.set("cached", std::to_string(day.tokens->cached));
        tokens.set("total", std::to_string(day.tokens->prompt + day.tokens->completion));
        set_moved(data, "tokens", std::move(tokens));
    } else {
        data.set("tokens", false);
    }
    TemplateData cost;
    cost.set("prompt", money_text(day.cost.prompt));
    cost.set("completion", money_text(day.cost.completion));
    cost.set("total", money_text(day.cost.total));
    cost.set("split", day.cost.prompt.has_value() || day.cost.completion.has_value()); // any part known
    set_moved(data, "cost", std::move(cost));
    TemplateData counts;
    counts.set("arxiv", count_text(day.counts.arxiv));
    counts.set("scanned", count_text(day.counts.scanned));
    counts.set("relevant", count_text(day.counts.relevant));
    set_moved(data, "counts", std::move(counts));

    set_papers(data, day, site.settings.group_by_topic);
    put_text(data, "prompt_html", prompt_html);
    put_text(data, "prompt_url", prompt_url);
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

// A calendar cell: day 0 pads the first and last week.
TemplateData calendar_cell(const SiteContext& site, const MonthNode& month, int d) {
    TemplateData cell;
    put_text(cell, "day", d ? std::to_string(d) : "");
    const auto found = d ? site.graph.find_day(Date{month.year, month.month, d}) : std::nullopt;
    if (!found) {
        for (const char* key : {"href", "title", "state", "mark", "state_label"}) cell.set(key, false);
        return cell;
    }
    const auto& day = site.graph.days[*found];
    cell.set("href", site.urls.href(day_path_of(day.date)));
    const DayState state = day_state(day.status, day.papers);
    cell.set("title", *state.label ? std::string(state.label) : plural(day.papers, "paper", "papers"));
    set_state(cell, day);
    return cell;
}

TemplateData day_list_entry(const SiteContext& site, const DaySummary& day) {
    TemplateData data;
    data.set("href", site.urls.href(day_path_of(day.date)));
    data.set("date", day.date.iso());
    data.set("weekday", weekday_name(day.date.weekday()).substr(0, 3));
    data.set("paper_count", plural(day.papers, "paper", "papers"));
    data.set("failed", day.status == DayStatus::failed);
    set_state(data, day);
    data.set("remedial", day.remedial);
    List titles;
    for (const auto& title : day.top_titles) titles.push_back(TemplateData(tex_for_page(title)));
    data.set("has_titles", !day.top_titles.empty());
    data.set("top_titles", titles);
    return data;
}

void set_month_best(const SiteContext& site, TemplateData& data, const MonthBest& best) {
    List papers;
    for (std::size_t i = 0; i < best.papers.size(); ++i) {
        const auto& [date, paper] = best.papers[i];
        TemplateData entry;
        entry.set("rank", std::to_string(i + 1));
        entry.set("title", tex_for_page(paper.title));
        entry.set("href", site.urls.href(day_path_of(date)) + "#" + paper_anchor(paper.id));
        entry.set("date", date.iso());
        entry.set("id", paper.id);
        entry.set("abs_url", arxiv_abs_url(paper.id));
        put_text(entry, "authors", tex_to_unicode(join(paper.authors, ", ")));
        put_text(entry, "score", paper.relevance && paper.novelty ? std::to_string(paper.score()) : "");
        entry.set("author_match", paper.author_match);
        put_text(entry, "topic", tex_to_unicode(paper.topic));
        papers.push_back(entry);
    }
    data.set("has_best", !best.papers.empty());
    set_moved(data, "best", list_data(std::move(papers)));
    List topics;
    bool named = false;
    for (const auto& [name, count] : best.topics) {
        TemplateData topic;
        topic.set("name", name.empty() ? std::string("No topic") : name);
        topic.set("count", std::to_string(count));
        topics.push_back(topic);
        named = named || !name.empty();
    }
    data.set("has_topics", named);
    set_moved(data, "topics", list_data(std::move(topics)));
}

} // namespace

std::string render_prompt(const std::string& prompt_markdown) { return markdown_to_html(prompt_markdown); }

// "3 papers for Tuesday, 20 May 2025: First title; Second; Third."
static std::string day_description(const Day& day) {
    if (day.status == DayStatus::failed)
        return "The run for " + long_date(day.date) + " failed; no papers were selected.";
    std::string text =
        plural(static_cast<long long>(day.papers.size()), "paper", "papers") + " for " + long_date(day.date);
    std::vector<std::string> titles;
    for (std::size_t i = 0; i < day.papers.size() && i < 3; ++i) titles.push_back(tex_to_plain(day.papers[i].title));
    return text + (titles.empty() ? "" : ": " + join(titles, "; ")) + ".";
}

TemplateData day_page(const SiteContext& site, const Day& day, const std::string& prompt_html,
                      const std::string& prompt_url) {
    auto data = page_base(site, "day", "arXiv papers for " + day.date.iso(), day_path_of(day.date), day_has_math(day),
                          day_description(day));
    set_moved(data, "day", day_data(site, day, prompt_html, prompt_url));
    set_day_nav(site, data, day.date);
    return data;
}

TemplateData home_page(const SiteContext& site, const Day* latest, const std::string& prompt_html,
                       const std::string& prompt_url) {
    auto data = page_base(site, "home", site.settings.title, home_path(), latest && day_has_math(*latest));
    if (latest) {
        set_moved(data, "day", day_data(site, *latest, prompt_html, prompt_url));
        set_day_nav(site, data, latest->date);
    } else {
        data.set("day", false);
    }
    // The newer days without papers: why the home page shows an older day.
    // One line however many there are, so the papers stay near the top.
    std::vector<std::size_t> newer;
    for (auto i = site.graph.days.size(); latest && i-- > 0 && latest->date < site.graph.days[i].date;)
        newer.insert(newer.begin(), i);
    data.set("has_newer", !newer.empty());
    if (newer.empty()) {
        data.set("newer", false);
    } else {
        TemplateData note;
        note.set("count", plural(static_cast<long long>(newer.size()), "day", "days"));
        put_text(note, "states", state_counts(site.graph, newer));
        set_moved(note, "first", *day_link(site, newer.front()));
        set_moved(note, "last", *day_link(site, newer.back()));
        note.set("single", newer.size() == 1);
        set_moved(data, "newer", std::move(note));
    }
    List recent;
    const auto& days = site.graph.days;
    const auto shown = std::min<std::size_t>(days.size(), static_cast<std::size_t>(site.settings.home_days));
    recent.reserve(shown);
    for (std::size_t i = 0; i < shown; ++i) recent.push_back(day_list_entry(site, days[days.size() - 1 - i]));
    data.set("has_recent", shown > 0);
    set_moved(data, "recent", list_data(std::move(recent)));
    return data;
}

TemplateData month_page(const SiteContext& site, std::size_t index, const MonthBest& best,
                        const MonthOverview& overview) {
    const auto& month = site.graph.months[index];
    // Math in the titles it shows: the best-of's and the day list's.
    bool math =
        std::any_of(best.papers.begin(), best.papers.end(), [](const auto& e) { return has_math(e.paper.title); });
    for (auto d : month.days)
        for (const auto& title : site.graph.days[d].top_titles) math = math || has_math(title);
    std::string description = month_label(month.year, month.month) + ": " +
                              plural(static_cast<long long>(month.days.size()), "day", "days") + ", " +
                              plural(month.papers, "paper", "papers");
    std::vector<std::string> titles;
    for (std::size_t i = 0; i < best.papers.size() && i < 3; ++i)
        titles.push_back(tex_to_plain(best.papers[i].paper.title));
    if (!titles.empty()) description += ". Best: " + join(titles, "; ");
    auto data = page_base(site, "month", month_label(month.year, month.month), month_path_of(month.year, month.month),
                          math, description + ".");
    TemplateData m;
    m.set("name", month_label(month.year, month.month));
    m.set("day_count", plural(static_cast<long long>(month.days.size()), "day", "days"));
    put_text(m, "states", state_counts(site.graph, month.days));
    m.set("paper_count", plural(month.papers, "paper", "papers"));
    m.set("iso", month_data_name(month.year, month.month)); // "2025-02"
    m.set("year", std::to_string(month.year));
    m.set("month", month_data_name(month.year, month.month).substr(5)); // "02"
    data.set("month", m);

    // Sunday-first calendar: padding cells before the 1st and after the last day.
    List weekdays;
    for (int w = 0; w < 7; ++w) weekdays.push_back(TemplateData(weekday_name(w).substr(0, 3)));
    List weeks;
    List cells;
    const int lead = Date{month.year, month.month, 1}.weekday();
    const int length = Date::days_in_month(month.year, month.month);
    for (int i = 0; i < lead; ++i) cells.push_back(calendar_cell(site, month, 0));
    for (int d = 1; d <= length; ++d) {
        cells.push_back(calendar_cell(site, month, d));
        if (cells.size() == 7) {
            weeks.push_back(TemplateData("cells", cells));
            cells = List();
        }
    }
    if (!cells.empty()) {
        while (cells.size() < 7) cells.push_back(calendar_cell(site, month, 0));
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
    set_month_best(site, data, best);
    if (!overview.html.empty()) {
        TemplateData o;
        o.set("html", overview.html);
        o.set("generated", overview.generated);
        put_text(o, "model", overview.model);
        put_text(o, "cost", overview.cost);
        data.set("overview", o);
    } else {
        data.set("overview", false);
    }
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
    put_text(y, "states", state_counts(site.graph, days_of_year(site.graph, year)));
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
            put_text(month, "states", state_counts(site.graph, node.days));
            month.set("paper_count", plural(node.papers, "paper", "papers"));
        } else {
            for (const char* key : {"href", "day_count", "states", "paper_count"}) month.set(key, false);
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
        put_text(year, "states", state_counts(site.graph, days_of_year(site.graph, *it)));
        year.set("paper_count", plural(it->papers, "paper", "papers"));
        List months;
        for (auto m : it->months) {
            const auto& node = site.graph.months[m];
            TemplateData month;
            month.set("name", month_name(node.month));
            month.set("href", site.urls.href(month_path_of(node.year, node.month)));
            month.set("day_count", plural(static_cast<long long>(node.days.size()), "day", "days"));
            put_text(month, "states", state_counts(site.graph, node.days));
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

std::string starred_page_path() { return "starred/"; }

TemplateData starred_page(const SiteContext& site) {
    // KaTeX on the pages whose titles come from the browser: any may hold math.
    auto data = page_base(site, "starred", "Starred papers", starred_page_path(), true);
    // Where the feedback file is proposed (site.js makes the link): data only, escaped by the template.
    if (!site.settings.repository.empty()) {
        TemplateData feedback;
        feedback.set("repository", site.settings.repository);
        feedback.set("branch", site.settings.branch.empty() ? std::string("main") : site.settings.branch);
        set_moved(data, "feedback", std::move(feedback));
    } else {
        data.set("feedback", false);
    }
    set_nav(data, std::nullopt, link(site.urls.href(home_path()), "Home"), std::nullopt);
    return data;
}

TemplateData home_linked_page(const SiteContext& site, const std::string& kind, const std::string& title,
                              const std::string& site_path) {
    auto data = page_base(site, kind, title, site_path);
    set_nav(data, std::nullopt, link(site.urls.href(home_path()), "Home"), std::nullopt);
    return data;
}

std::string range_page_path() { return "range/"; }
std::string preferences_page_path() { return "preferences/"; }

TemplateData search_page(const SiteContext& site) {
    auto data = page_base(site, "search", "Search", search_page_path(), true);
    data.set("abstracts",
             site.settings.data_has_full_text); // the month data holds the free text to search (in its key)
    set_nav(data, std::nullopt, link(site.urls.href(home_path()), "Home"), std::nullopt);
    return data;
}

TemplateData prompt_page(const SiteContext& site, const std::string& site_path, const std::string& prompt_html) {
    auto data = page_base(site, "prompt", "Selection prompt", site_path);
    put_text(data, "prompt_html", prompt_html);
    return data;
}

} // namespace pp
