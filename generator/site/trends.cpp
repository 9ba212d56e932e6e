#include "site/trends.h"

#include "core/tex.h"
#include "site/render_markdown.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <unordered_map>

namespace pp {

namespace {

using List = kainjow::mustache::list;

// SVG coordinates with one decimal: the same numbers give the same bytes.
std::string num(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", value);
    std::string out = text;
    if (out.ends_with(".0")) out.resize(out.size() - 2);
    return out;
}

// "$0.42"; below a cent, every digit that counts ("$0.0035").
std::string dollars(double amount) {
    char text[32];
    std::snprintf(text, sizeof text, amount == 0 || amount >= 0.01 ? "$%.2f" : "$%.4f", amount);
    return text;
}

std::string count_label(double value) { return std::to_string(static_cast<long long>(value)); }

double total(const ChartBar& bar) {
    double sum = 0;
    for (double part : bar.parts) sum += part;
    return sum;
}

double largest(const std::vector<ChartBar>& bars) {
    double most = 0;
    for (const auto& bar : bars) most = std::max(most, total(bar));
    return most > 0 ? most : 1;
}

std::string svg_open(const std::string& title, double height) {
    const std::string escaped = html_escape(title);
    return "<svg class=\"chart-svg\" viewBox=\"0 0 360 " + num(height) + "\" role=\"img\" aria-label=\"" + escaped +
           "\"><title>" + escaped + "</title>";
}

std::string rect(std::size_t part, double x, double y, double width, double height) {
    return "<rect class=\"s" + std::to_string(part) + "\" x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" +
           num(width) + "\" height=\"" + num(height) + "\"/>";
}

std::string text(double x, double y, const char* anchor, const std::string& label) {
    return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\">" + html_escape(label) +
           "</text>";
}

TemplateData cell(std::string value) {
    TemplateData data;
    data.set("value", std::move(value));
    return data;
}

List cells_of(std::vector<std::string> values) {
    List cells;
    for (auto& value : values) cells.push_back(cell(std::move(value)));
    return cells;
}

TemplateData row(std::string label, List cells) {
    TemplateData data;
    data.set("label", std::move(label));
    data.set("cells", std::move(cells));
    return data;
}

TemplateData chart(const std::string& id, const std::string& title, std::string svg, const std::string& label_head,
                   const std::vector<std::string>& columns, List rows) {
    TemplateData data;
    data.set("id", id);
    data.set("title", title);
    data.set("svg", std::move(svg));
    data.set("label_head", label_head);
    List heads;
    for (const auto& name : columns) heads.push_back(TemplateData("name", name));
    data.set("columns", heads);
    data.set("rows", std::move(rows));
    data.set("legend", false);
    return data;
}

std::string month_label(const MonthTrend& m) {
    char text[16];
    std::snprintf(text, sizeof text, "%04d-%02d", m.year, m.month);
    return text;
}

TemplateData picks_chart(const Trends& trends) {
    std::vector<ChartBar> bars;
    List rows;
    for (const auto& [date, picks] : trends.picks) {
        bars.push_back({date.iso().substr(5), {static_cast<double>(picks)}});
        rows.push_back(row(date.iso(), cells_of({std::to_string(picks)})));
    }
    const std::string title = "Picks per announcement day, the newest " + std::to_string(bars.size()) + " days";
    return chart("picks-per-day", title, column_svg(title, bars, std::max<std::size_t>(1, (bars.size() + 5) / 6)),
                 "Day", {"Picks"}, std::move(rows));
}

// A bar a month, stacked by the most picked topics and the rest.
TemplateData topics_chart(const Trends& trends) {
    std::vector<std::string> columns;
    for (const auto& topic : trends.topics) columns.push_back(topic);
    columns.push_back(trends.topics.empty() ? "Picks" : "Other topics");
    std::vector<ChartBar> bars;
    List rows;
    for (const auto& m : trends.months) {
        ChartBar bar{month_name(m.month).substr(0, 3), std::vector<double>(columns.size(), 0)};
        for (const auto& [topic, count] : m.topics) {
            auto it = std::find(trends.topics.begin(), trends.topics.end(), topic);
            bar.parts[static_cast<std::size_t>(it - trends.topics.begin())] += count;
        }
        List cells;
        for (double part : bar.parts) cells.push_back(cell(count_label(part)));
        rows.push_back(row(month_label(m), std::move(cells)));
        bars.push_back(std::move(bar));
    }
    const std::string title = "Topics of the picks per month";
    auto data = chart("topics-per-month", title, column_svg(title, bars), "Month", columns, std::move(rows));
    List legend;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        TemplateData key;
        key.set("name", columns[i]);
        key.set("class", "s" + std::to_string(i));
        legend.push_back(key);
    }
    data.set("legend", legend);
    return data;
}

TemplateData authors_chart(const Trends& trends) {
    std::vector<ChartBar> bars;
    List rows;
    for (const auto& [name, picks] : trends.authors) {
        bars.push_back({name, {static_cast<double>(picks)}});
        rows.push_back(row(name, cells_of({std::to_string(picks)})));
    }
    const std::string title = "Most frequent authors among the picks";
    return chart("authors", title, row_svg(title, bars), "Author", {"Picks"}, std::move(rows));
}

TemplateData cost_chart(const Trends& trends) {
    std::vector<ChartBar> bars;
    List rows;
    for (const auto& m : trends.months) {
        bars.push_back({month_name(m.month).substr(0, 3), {m.cost}});
        rows.push_back(row(month_label(m), cells_of({dollars(m.cost), std::to_string(m.unknown_cost_days)})));
    }
    const std::string title = "LLM cost per month (US dollars)";
    return chart("cost-per-month", title, column_svg(title, bars), "Month", {"Known cost", "Days of unknown cost"},
                 std::move(rows));
}

// One month's days counted. Each distinct text is made readable once (a
// month of picks names the same authors and topics again and again).
class MonthCounter {
public:
    void add(const Day& day);
    MonthTally finish() &&;

private:
    const std::string& readable(const std::string& written, bool author);

    MonthTally tally_;
    std::unordered_map<std::string, std::string> readable_authors_, readable_topics_;
    std::unordered_map<std::string, int> authors_;
    std::vector<const std::string*> names_; // a paper's, as made readable
};

const std::string& MonthCounter::readable(const std::string& written, bool author) {
    auto [it, added] = (author ? readable_authors_ : readable_topics_).try_emplace(written);
    if (added) it->second = tex_to_unicode(author ? split_author(written).name : written);
    return it->second;
}

void MonthCounter::add(const Day& day) {
    MonthTrend& month = tally_.trend;
    month.year = day.date.year;
    month.month = day.date.month;
    ++month.days;
    month.picks += static_cast<int>(day.papers.size());
    if (day.cost.total) month.cost += *day.cost.total;
    else ++month.unknown_cost_days;
    for (const Paper& paper : day.papers) {
        ++month.topics[readable(paper.topic, false)];
        names_.clear(); // a name written twice counts once (sorted: a collaboration lists thousands)
        for (const auto& author : paper.authors)
            if (const std::string& name = readable(author, true); !name.empty()) names_.push_back(&name);
        std::sort(names_.begin(), names_.end(), [](const auto* a, const auto* b) { return *a < *b; });
        names_.erase(std::unique(names_.begin(), names_.end(), [](const auto* a, const auto* b) { return *a == *b; }),
                     names_.end());
        for (const std::string* name : names_) ++authors_[*name];
    }
    tally_.picks.emplace_back(day.date, static_cast<int>(day.papers.size()));
}

MonthTally MonthCounter::finish() && {
    tally_.authors.assign(authors_.begin(), authors_.end());
    std::sort(tally_.authors.begin(), tally_.authors.end());
    return std::move(tally_);
}

// The `limit` largest counts, most first; a tie in name order.
std::vector<std::pair<std::string, int>> most(const std::unordered_map<std::string_view, int>& counts,
                                              std::size_t limit) {
    std::vector<const std::pair<const std::string_view, int>*> order;
    order.reserve(counts.size());
    for (const auto& entry : counts) order.push_back(&entry);
    const auto first = order.begin() + static_cast<std::ptrdiff_t>(std::min(limit, order.size()));
    std::partial_sort(order.begin(), first, order.end(), [](const auto* a, const auto* b) {
        return a->second != b->second ? a->second > b->second : a->first < b->first;
    });
    std::vector<std::pair<std::string, int>> top;
    for (auto it = order.begin(); it != first; ++it) top.emplace_back((*it)->first, (*it)->second);
    return top;
}

} // namespace

MonthTally tally_month(std::span<const Day> days) {
    MonthCounter counter;
    for (const Day& day : days) counter.add(day);
    return std::move(counter).finish();
}

Trends trends_of(const std::vector<MonthTally>& months) {
    Trends trends;
    std::unordered_map<std::string_view, int> authors, topics; // views into `months`
    for (const MonthTally& tally : months) {
        if (tally.trend.days == 0) continue; // a month none of whose days could be read
        trends.months.push_back(tally.trend);
        trends.picks.insert(trends.picks.end(), tally.picks.begin(), tally.picks.end());
        for (const auto& [topic, count] : tally.trend.topics)
            if (!topic.empty()) topics[topic] += count;
        for (const auto& [name, count] : tally.authors) authors[name] += count;
    }
    if (trends.picks.size() > trend_days)
        trends.picks.erase(trends.picks.begin(), trends.picks.end() - static_cast<std::ptrdiff_t>(trend_days));
    trends.authors = most(authors, trend_authors);
    for (auto& [topic, count] : most(topics, trend_topics)) trends.topics.push_back(std::move(topic));
    return trends;
}

Trends trends_of(const std::vector<Day>& days) {
    std::vector<MonthTally> months;
    for (std::size_t from = 0; from < days.size();) {
        std::size_t to = from;
        while (to < days.size() && days[to].date.year == days[from].date.year &&
               days[to].date.month == days[from].date.month)
            ++to;
        months.push_back(tally_month(std::span(days).subspan(from, to - from)));
        from = to;
    }
    return trends_of(months);
}

// Bars up from a baseline, the largest total written at the top of the axis.
std::string column_svg(const std::string& title, const std::vector<ChartBar>& bars, std::size_t label_every) {
    constexpr double width = 360, height = 170, left = 34, top = 8, bottom = 18;
    const double plot = height - top - bottom, most = largest(bars);
    const double slot = bars.empty() ? 0 : (width - left) / static_cast<double>(bars.size());
    std::string svg = svg_open(title, height);
    svg += "<line class=\"axis\" x1=\"" + num(left) + "\" y1=\"" + num(top + plot) + "\" x2=\"" + num(width) +
           "\" y2=\"" + num(top + plot) + "\"/>";
    const bool money = title.find("dollars") != std::string::npos;
    svg += text(left - 4, top + 8, "end", money ? dollars(most) : count_label(most));
    svg += text(left - 4, top + plot, "end", "0");
    for (std::size_t i = 0; i < bars.size(); ++i) {
        double y = top + plot;
        const double x = left + slot * static_cast<double>(i) + slot * 0.1;
        for (std::size_t p = 0; p < bars[i].parts.size(); ++p) {
            const double h = plot * bars[i].parts[p] / most;
            if (h <= 0) continue;
            y -= h;
            svg += rect(p, x, y, slot * 0.8, h);
        }
        if (i % label_every == 0) svg += text(x + slot * 0.4, height - 4, "middle", bars[i].label);
    }
    return svg + "</svg>";
}

// A row per bar: its label, then the bar and its value.
std::string row_svg(const std::string& title, const std::vector<ChartBar>& bars) {
    constexpr double width = 360, row = 30, value_room = 40;
    const double most = largest(bars), height = std::max(row, row * static_cast<double>(bars.size()));
    std::string svg = svg_open(title, height);
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const double y = row * static_cast<double>(i);
        const double length = std::max(1.0, (width - value_room) * total(bars[i]) / most);
        svg += text(0, y + 11, "start", bars[i].label);
        svg += rect(0, 0, y + 15, length, 10);
        svg += text(length + 4, y + 24, "start", count_label(total(bars[i])));
    }
    return svg + "</svg>";
}

std::string trends_page_path() { return "trends/"; }

TemplateData trends_page(const SiteContext& site, const Trends& trends) {
    auto data = home_linked_page(site, "trends", "Trends", trends_page_path());
    data.set("has_days", !trends.months.empty());
    if (trends.months.empty()) data.set("span", false);
    else data.set("span", month_label(trends.months.front()) + " to " + month_label(trends.months.back()));
    List charts;
    if (!trends.months.empty()) {
        charts.push_back(picks_chart(trends));
        charts.push_back(topics_chart(trends));
        charts.push_back(authors_chart(trends));
        charts.push_back(cost_chart(trends));
    }
    set_moved(data, "charts", list_data(std::move(charts)));
    return data;
}

} // namespace pp
