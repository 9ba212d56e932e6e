#include "site/list_outputs.h"

#include "content/month_summary.h"
#include "site/render_markdown.h"
#include "site/trends.h"
#include "site/trends_cache.h"
#include "util/text.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <mutex>
#include <set>

namespace pp {

namespace {

// What a list output is made from, declared once per kind: its key is the
// hash of these inputs, and its render is handed them.
struct ListInputs {
    std::vector<std::uint64_t> summaries; // summary_key of the days shown by their summary
    std::vector<const DayTask*> days;     // days shown in full
    std::vector<std::uint64_t> numbers;   // months, years, neighbours, prompt hashes
};

struct ListOutput {
    std::string kind; // the layout, for a page
    std::string site_path;
    bool page = false;
    ListInputs inputs;
    std::function<std::optional<std::string>(const ListInputs&)> render; // data files
    std::function<TemplateData(const ListInputs&)> data;                 // pages
};

ListOutput page_output(std::string kind, std::string site_path, ListInputs inputs,
                       std::function<TemplateData(const ListInputs&)> data) {
    return ListOutput{std::move(kind), std::move(site_path), true, std::move(inputs), {}, std::move(data)};
}

ListOutput data_output(std::string kind, std::string site_path, ListInputs inputs,
                       std::function<std::optional<std::string>(const ListInputs&)> render) {
    return ListOutput{std::move(kind), std::move(site_path), false, std::move(inputs), std::move(render), {}};
}

ListInputs all_summaries(const std::vector<DayTask*>& live) {
    ListInputs in;
    for (const DayTask* task : live) in.summaries.push_back(task->summary_key);
    return in;
}

class Lists {
public:
    Lists(BuildContext& build, DayStage& days, const std::vector<DayTask*>& live)
        : build_(build), days_(days), live_(live), graph_(build.graph), config_(build.config) {}

    std::vector<ListOutput> outputs();
    void produce(const ListOutput& out);
    int months_counted() const { return months_counted_; }
    // Whether one of the output's days could not be read by a list this
    // build: what it made may lack the day.
    bool lacks_a_day(const ListOutput& out) const;

private:
    std::uint64_t key_of(const ListOutput& out) const;
    std::vector<Day> full_days(const ListInputs& in);
    ListOutput feed();
    ListOutput data_index();
    ListOutput sitemap_file();
    ListOutput home();
    ListOutput month(std::size_t m);
    MonthOverview month_overview(int year, int month);
    MonthBest best_of_month(int year, int month, const ListInputs& inputs, int limit);
    ListOutput year(std::size_t y);
    ListOutput archive();
    std::vector<ListOutput> prompts();
    ListOutput search();
    ListOutput trends();
    KeptTally month_tally(std::size_t m, std::vector<KeptTally>& kept);
    std::uint64_t month_number(std::size_t m) const;
    void add_month_size(ListInputs& in, std::size_t m) const;

    BuildContext& build_;
    DayStage& days_;
    const std::vector<DayTask*>& live_;
    const SiteGraph& graph_;
    const Config& config_;
    int months_counted_ = 0; // by the trends page (one output: one thread)
    mutable std::mutex unread_mutex_;
    std::set<const DayTask*> unread_; // the days full_days() could not read
};

// In the order they are made, the heaviest first.
std::vector<ListOutput> Lists::outputs() {
    std::vector<ListOutput> lists;
    lists.push_back(feed());
    lists.push_back(data_index());
    lists.push_back(sitemap_file());
    lists.push_back(home());
    for (std::size_t m = graph_.months.size(); m-- > 0;) lists.push_back(month(m));
    for (std::size_t y = 0; y < graph_.years.size(); ++y) lists.push_back(year(y));
    lists.push_back(archive());
    if (build_.prompt_pages)
        for (auto& out : prompts()) lists.push_back(std::move(out));
    const SiteContext& site = *build_.site;
    lists.push_back(
        page_output("404", not_found_path(), {}, [&site](const ListInputs&) { return not_found_page(site); }));
    if (site.search_page) lists.push_back(search());
    if (site.starred_page) // its feedback link's repository and branch are page settings, in every page's key
        lists.push_back(
            page_output("starred", starred_page_path(), {}, [&site](const ListInputs&) { return starred_page(site); }));
    if (site.trends_page) lists.push_back(trends());
    if (site.range_page)
        lists.push_back(page_output("range", range_page_path(), {{}, {}, range_page_inputs(graph_)},
                                    [&site](const ListInputs&) { return range_page(site); }));
    if (site.preferences_page)
        lists.push_back(page_output("preferences", preferences_page_path(), {}, [&site](const ListInputs&) {
            return home_linked_page(site, "preferences", "Preferences", preferences_page_path());
        }));
    return lists;
}

// The key of everything a list output is made from: its kind and path, the
// theme and settings (pages) or the settings (data), and its inputs.
std::uint64_t Lists::key_of(const ListOutput& out) const {
    Hasher key;
    key.add(out.page ? build_.global_key : build_.data_key).add(out.kind).add(out.site_path);
    key.add(static_cast<std::uint64_t>(out.inputs.summaries.size()));
    for (std::uint64_t summary : out.inputs.summaries) key.add(summary);
    key.add(static_cast<std::uint64_t>(out.inputs.days.size()));
    for (const DayTask* task : out.inputs.days)
        key.add(date_number(task->file.date)).add(task->record.hash).add(task->record.prompt);
    key.add(static_cast<std::uint64_t>(out.inputs.numbers.size()));
    for (std::uint64_t n : out.inputs.numbers) key.add(n);
    return key.value();
}

void Lists::produce(const ListOutput& out) {
    const std::uint64_t key = key_of(out);
    if (!out.page) return build_.store.produce(out.site_path, key, [&] { return out.render(out.inputs); });
    build_.produce_page(out.kind, out.site_path, key, [&] { return out.data(out.inputs); });
}

// The days in `in.days`, read back. A day that cannot be read is an error,
// left out, and noted: what is made without it is made again next time.
std::vector<Day> Lists::full_days(const ListInputs& in) {
    std::vector<Day> days;
    for (const DayTask* task : in.days) {
        auto day = days_.rendered_day(*task);
        if (day) {
            days.push_back(std::move(*day));
            continue;
        }
        build_.error(day.error());
        std::lock_guard lock(unread_mutex_);
        unread_.insert(task);
    }
    return days;
}

bool Lists::lacks_a_day(const ListOutput& out) const {
    std::lock_guard lock(unread_mutex_);
    return std::any_of(out.inputs.days.begin(), out.inputs.days.end(),
                       [&](const DayTask* task) { return unread_.contains(task); });
}

// Feed: the newest feed_days days with papers in full, and the newer
// failed or quiet days as short notices (feed_days()).
ListOutput Lists::feed() {
    ListInputs in;
    for (auto i : feed_days(graph_.days, config_.feed_days)) in.days.push_back(live_[i]);
    return data_output("feed", feed_path(), std::move(in),
                       [this](const ListInputs& inputs) -> std::optional<std::string> {
                           const std::vector<Day> days = full_days(inputs);
                           std::vector<const Day*> feed_days;
                           for (const auto& day : days) feed_days.push_back(&day);
                           return atom_feed(config_, build_.urls, feed_days);
                       });
}

ListOutput Lists::data_index() {
    return data_output(
        "index", data_index_path(), all_summaries(live_),
        [this](const ListInputs&) -> std::optional<std::string> { return index_json(config_, build_.urls, graph_); });
}

ListOutput Lists::sitemap_file() {
    return data_output(
        "sitemap", sitemap_path(), all_summaries(live_),
        [this](const ListInputs&) -> std::optional<std::string> { return sitemap(build_.urls, graph_); });
}

// Home: the newest day with papers in full (else the newest day), with its
// prompt and the link to the day before; the newer days (failed, quiet or
// partial) noted above it; and the recent days' summaries.
ListOutput Lists::home() {
    ListInputs in;
    auto shown_day = live_.size();
    while (shown_day > 0 && graph_.days[shown_day - 1].papers == 0) --shown_day;
    if (shown_day == 0) shown_day = live_.size();
    if (shown_day > 0) {
        const DayTask* latest = live_[shown_day - 1];
        in.days.push_back(latest);
        in.numbers.push_back(build_.prompts.get(latest->record.prompt).hash);
        if (shown_day > 1) in.numbers.push_back(date_number(live_[shown_day - 2]->file.date));
        for (auto i = shown_day; i < live_.size(); ++i) in.summaries.push_back(live_[i]->summary_key);
    }
    const auto shown = std::min<std::size_t>(live_.size(), static_cast<std::size_t>(std::max(0, config_.home_days)));
    for (std::size_t i = 0; i < shown; ++i) in.summaries.push_back(live_[live_.size() - 1 - i]->summary_key);
    return page_output("home", home_path(), std::move(in), [this](const ListInputs& inputs) {
        std::vector<Day> days = full_days(inputs);
        const SiteContext& site = *build_.site;
        if (days.empty()) return home_page(site, nullptr, {});
        const Prompt& prompt = build_.prompts.get(inputs.days.front()->record.prompt);
        return build_.prompt_pages ? home_page(site, &days.front(), {}, build_.prompt_href(prompt))
                                   : home_page(site, &days.front(), prompt.html);
    });
}

// A month page: its days' summaries, its year, the months before and
// after, its overview (summary.md), and with a best-of its days in full.
ListOutput Lists::month(std::size_t m) {
    const auto& month = graph_.months[m];
    const int best = config_.month_best;
    ListInputs in;
    for (auto d : month.days) {
        in.summaries.push_back(live_[d]->summary_key);
        if (best > 0) in.days.push_back(live_[d]);
    }
    auto overview = std::make_shared<MonthOverview>(month_overview(month.year, month.month));
    in.numbers = {month_number(m),
                  static_cast<std::uint64_t>(graph_.years[graph_.year_of_month(m)].year),
                  m > 0 ? month_number(m - 1) : 0,
                  m + 1 < graph_.months.size() ? month_number(m + 1) : 0,
                  static_cast<std::uint64_t>(best),
                  Hasher().add(overview->html).add(overview->model).add(overview->cost).value()};
    return page_output("month", month_path_of(month.year, month.month), std::move(in),
                       [this, m, best, overview](const ListInputs& inputs) {
                           const auto& node = graph_.months[m];
                           return month_page(*build_.site, m, best_of_month(node.year, node.month, inputs, best),
                                             *overview);
                       });
}

// The month's summary.md rendered for its page; a file that cannot be read is an error.
MonthOverview Lists::month_overview(int year, int month) {
    MonthOverview overview;
    auto summary = load_month_summary(build_.options.content_dir, year, month);
    if (!summary) {
        build_.error(summary.error());
        return overview;
    }
    if (!*summary) return overview;
    overview.html = markdown_to_html((*summary)->markdown);
    overview.generated = (*summary)->generated;
    overview.model = (*summary)->model;
    if ((*summary)->cost) overview.cost = "$" + format_double(*(*summary)->cost);
    return overview;
}

// The best-of that the day stage made from the same days, else one made
// from the days read back.
MonthBest Lists::best_of_month(int year, int month, const ListInputs& inputs, int limit) {
    if (auto made = days_.best_of_month(year, month)) return std::move(*made);
    return month_best(full_days(inputs), limit);
}

// A year page: its months' sizes, and the years before and after.
ListOutput Lists::year(std::size_t y) {
    ListInputs in;
    auto year_number = [&](std::size_t i) { return static_cast<std::uint64_t>(graph_.years[i].year); };
    in.numbers = {year_number(y), y > 0 ? year_number(y - 1) : 0, y + 1 < graph_.years.size() ? year_number(y + 1) : 0};
    for (auto m : graph_.years[y].months) add_month_size(in, m);
    return page_output("year", year_path_of(graph_.years[y].year), std::move(in),
                       [this, y](const ListInputs&) { return year_page(*build_.site, y); });
}

// The archive: every year's and month's sizes.
ListOutput Lists::archive() {
    ListInputs in;
    for (const auto& year : graph_.years) {
        in.numbers.insert(in.numbers.end(),
                          {static_cast<std::uint64_t>(year.year), static_cast<std::uint64_t>(year.days),
                           static_cast<std::uint64_t>(year.papers)});
        for (auto m : year.months) add_month_size(in, m);
    }
    return page_output("archive", archive_path(), std::move(in),
                       [this](const ListInputs&) { return archive_page(*build_.site); });
}

// One page per selection prompt the days use, linked from their pages
// instead of repeating it on each.
std::vector<ListOutput> Lists::prompts() {
    std::set<std::string> references;
    for (const DayTask* task : live_) references.insert(task->record.prompt);
    std::vector<ListOutput> pages;
    for (const auto& reference : references) {
        const Prompt& prompt = build_.prompts.get(reference);
        if (reference.empty() || prompt.error) continue;
        ListInputs in;
        in.numbers.push_back(prompt.hash);
        pages.push_back(page_output("prompt", prompt.site_path, std::move(in), [this, &prompt](const ListInputs&) {
            return prompt_page(*build_.site, prompt.site_path, prompt.html);
        }));
    }
    return pages;
}

ListOutput Lists::search() {
    ListInputs in; // the page says what it searches
    in.numbers.push_back(static_cast<std::uint64_t>(config_.data_has_full_text()));
    return page_output("search", search_page_path(), std::move(in),
                       [this](const ListInputs&) { return search_page(*build_.site); });
}

// Trends: the days of the newest trend_months months, made again when one
// of them changed. Each month is counted once and its tally kept beside the
// output folder (site/trends_cache.h); a month whose days changed is counted
// from its data file (not a month of day files), a month without one from
// its days.
ListOutput Lists::trends() {
    ListInputs in;
    const std::size_t first_month = graph_.months.size() > static_cast<std::size_t>(trend_months)
                                        ? graph_.months.size() - static_cast<std::size_t>(trend_months)
                                        : 0;
    for (std::size_t m = first_month; m < graph_.months.size(); ++m)
        for (auto d : graph_.months[m].days) in.days.push_back(live_[d]);
    return page_output("trends", trends_page_path(), std::move(in), [this, first_month](const ListInputs&) {
        const fs::path& out = build_.options.out_dir;
        std::vector<KeptTally> kept =
            build_.store.reads_back() ? load_tallies(out, build_.program_key) : std::vector<KeptTally>{};
        std::vector<KeptTally> tallies;
        for (std::size_t m = first_month; m < graph_.months.size(); ++m) tallies.push_back(month_tally(m, kept));
        if (auto saved = save_tallies(out, tallies, build_.program_key); !saved) build_.error(saved.error());
        std::vector<MonthTally> months;
        for (auto& [key, tally] : tallies) months.push_back(std::move(tally));
        return trends_page(*build_.site, trends_of(months));
    });
}

// Month m's tally: the one kept when it was counted from the same days, else counted now.
KeptTally Lists::month_tally(std::size_t m, std::vector<KeptTally>& kept) {
    const MonthNode& node = graph_.months[m];
    Hasher key;
    key.add(month_number(m));
    for (auto d : node.days) key.add(date_number(live_[d]->file.date)).add(live_[d]->record.hash);
    for (auto& tally : kept)
        if (tally.key == key.value() && tally.tally.trend.year == node.year && tally.tally.trend.month == node.month)
            return std::move(tally);
    auto month = days_.month_read_back(node.year, node.month);
    bool whole = true;
    if (!month) {
        ListInputs one;
        for (auto d : node.days) one.days.push_back(live_[d]);
        month = full_days(one);
        whole = month->size() == one.days.size();
    }
    ++months_counted_;
    // A tally without one of its days is kept under a key no build makes: it is counted again.
    return {whole ? key.value() : incomplete_key(key.value()), tally_month(*month)};
}

std::uint64_t Lists::month_number(std::size_t m) const {
    return static_cast<std::uint64_t>(graph_.months[m].year * 100 + graph_.months[m].month);
}

void Lists::add_month_size(ListInputs& in, std::size_t m) const {
    in.numbers.insert(in.numbers.end(), {month_number(m), graph_.months[m].days.size(),
                                         static_cast<std::uint64_t>(graph_.months[m].papers)});
    // Failed, quiet and partial days are counted and marked.
    for (auto d : graph_.months[m].days) in.numbers.push_back(static_cast<std::uint64_t>(graph_.days[d].status));
}

} // namespace

// The outputs do not depend on each other, so they are made in parallel (and
// without nested parallel loops: each new thread's heap faults in afresh).
void write_lists(BuildContext& build, DayStage& days, const std::vector<DayTask*>& live) {
    Lists lists(build, days, live);
    const std::vector<ListOutput> outputs = lists.outputs();
    build.workers->parallel_for(outputs.size(), [&](std::size_t i) { lists.produce(outputs[i]); });
    for (const auto& out : outputs)
        if (lists.lacks_a_day(out)) build.store.record_incomplete(out.site_path);
    build.report.unshared().trend_months_counted = lists.months_counted();
}

} // namespace pp
