#include "site/day_stage.h"

#include "content/day_file.h"
#include "util/redact.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace pp {

namespace {

// The hash of what the lists show of a day. Made once per day and build:
// the month pages, the data index and the sitemap all list every day.
std::uint64_t summary_key(const DaySummary& s) {
    const auto count = [](const std::optional<long long>& c) { return c ? static_cast<std::uint64_t>(*c) : ~0ull; };
    const std::uint64_t numbers[] = {date_number(s.date),
                                     static_cast<std::uint64_t>(s.status),
                                     static_cast<std::uint64_t>(s.papers),
                                     static_cast<std::uint64_t>(s.remedial),
                                     count(s.counts.arxiv),
                                     s.counts.arxiv.has_value(),
                                     count(s.counts.scanned),
                                     s.counts.scanned.has_value(),
                                     count(s.counts.relevant),
                                     s.counts.relevant.has_value(),
                                     s.top_titles.size()};
    Hasher h;
    h.add(std::string_view(reinterpret_cast<const char*>(numbers), sizeof numbers));
    for (const auto& title : s.top_titles) h.add(title);
    return h.value();
}

} // namespace

void MonthWriters::before_day() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return waiting_ == 0; });
}

void MonthWriters::write(const std::function<void()>& write) {
    {
        std::unique_lock lock(mutex_);
        ++waiting_;
        changed_.wait(lock, [this] { return writing_ < 2; });
        --waiting_;
        ++writing_;
    }
    changed_.notify_all();
    write();
    {
        std::lock_guard lock(mutex_);
        --writing_;
    }
    changed_.notify_all();
}

DayStage::DayStage(BuildContext& build)
    : build_(build),
      content_dir_(open_directory(build.options.content_dir.empty() ? fs::path(".") : build.options.content_dir)) {}

std::vector<DayTask> DayStage::tasks_for(ContentScan& scan) {
    std::vector<DayTask> tasks;
    tasks.reserve(scan.days.size());
    auto& recorded_days = build_.store.state().days;
    auto recorded = recorded_days.begin(); // both in date order
    for (auto& file : scan.days) {
        while (recorded != recorded_days.end() && recorded->first < file.date) ++recorded;
        DayTask& task = tasks.emplace_back();
        if (recorded != recorded_days.end() && recorded->first == file.date) task.old = &recorded->second;
        task.file = std::move(file);
    }
    // The feed's days and a few more (quiet or failed days among them), at most 64.
    const auto recent = std::min<std::size_t>(static_cast<std::size_t>(std::max(build_.config.feed_days, 1)) + 4, 64);
    if (!tasks.empty()) recent_from_ = tasks[tasks.size() - std::min(recent, tasks.size())].file.date;
    return tasks;
}

// Renders every day whose outputs are out of date, in parallel, a day at a
// time, newest month first. What a month's data file and best-of need of a
// parsed day (its JSON, its best papers) is kept in the month's MonthWork,
// not the day; the worker that finishes a month's last day makes them
// (finish_month). So no day is parsed twice, and memory holds a day per
// worker and the few months under way, whatever the number of workers. A
// day that cannot be read drops out of the site graph; its neighbours are
// then rendered again with their new prev/next links, until nothing changes.
std::vector<DayTask*> DayStage::process(std::vector<DayTask>& tasks) {
    for (bool first = true;; first = false) {
        std::vector<DayTask*> live = live_days(tasks);
        std::deque<MonthWork> months; // the days to render, by month, newest first
        queue_months(live, months);
        if (months.empty()) return live;
        // The first round renders every day, so it meets every month once;
        // later rounds only change neighbours' links, not the data.
        render_months(months, first && (build_.config.data != "none" || build_.config.month_best > 0));
    }
}

// The days not failed so far; the site graph gets their dates (nav needs only those).
std::vector<DayTask*> DayStage::live_days(std::vector<DayTask>& tasks) {
    std::vector<DayTask*> live;
    std::vector<DaySummary> dates;
    for (auto& task : tasks)
        if (!task.failed) {
            live.push_back(&task);
            DaySummary summary;
            summary.date = task.file.date;
            dates.push_back(std::move(summary));
        }
    build_.graph = build_site_graph(std::move(dates));
    return live;
}

// The days whose neighbours changed (all of them, the first time), by month.
void DayStage::queue_months(const std::vector<DayTask*>& live, std::deque<MonthWork>& months) {
    for (std::size_t i = live.size(); i-- > 0;) {
        auto prev = i > 0 ? std::optional(live[i - 1]->file.date) : std::nullopt;
        auto next = i + 1 < live.size() ? std::optional(live[i + 1]->file.date) : std::nullopt;
        if (live[i]->done && live[i]->prev == prev && live[i]->next == next) continue;
        live[i]->prev = prev;
        live[i]->next = next;
        const Date date = live[i]->file.date;
        if (months.empty() || months.back().days.front()->file.date.year != date.year ||
            months.back().days.front()->file.date.month != date.month)
            months.emplace_back();
        months.back().days.insert(months.back().days.begin(), live[i]);
    }
}

void DayStage::render_months(std::deque<MonthWork>& months, bool keep_shares) {
    // A nightly append's work is all in the newest month, and then
    // overlaps the other workers' checks of the unchanged months.
    std::vector<std::pair<MonthWork*, std::size_t>> work;
    for (auto& month : months) {
        month.shares = std::vector<std::optional<DayShare>>(month.days.size());
        month.left = month.days.size();
        // A new day changes its month's data file and best-of, which need
        // every day of the month. (A day whose file failed to parse is not
        // recorded either: its month's days are parsed at each build until
        // it is mended, as the build reports it.)
        month.has_new_day =
            std::any_of(month.days.begin(), month.days.end(), [](const DayTask* task) { return !task->old; });
        for (std::size_t d = 0; d < month.days.size(); ++d) work.emplace_back(&month, d);
    }
    build_.workers->parallel_for(work.size(), [&](std::size_t i) {
        auto [month, d] = work[i];
        if (keep_shares) month_writers_.before_day();
        DayTask* task = month->days[d];
        std::optional<Day> day = process_day(*task);
        // Parsed here, on every worker, not one after another by the
        // worker that finishes the month.
        if (!day && keep_shares && month->has_new_day && !task->failed)
            if (auto parsed = parse_day_file(task->file.path)) day = std::move(*parsed);
        if (day) remember(*day);
        if (day && build_.day_parsed) build_.day_parsed(*day);
        task->done = true;
        if (!keep_shares) return;
        if (day) month->shares[d] = share_of(*day);
        if (--month->left == 0) month_writers_.write([&] { finish_month(*month); });
    });
}

// Brings the day's record up to date and renders its outputs that are out
// of date. Returns the day if it had to be parsed (for the month data).
std::optional<Day> DayStage::process_day(DayTask& task) {
    std::optional<Day> day;
    if (!task.have_record && !bring_record_up_to_date(task, day)) return std::nullopt;
    const fs::path& path = task.file.path;
    const Prompt& prompt = build_.prompts.get(task.record.prompt);
    const Date date = task.file.date;
    Hasher page = build_.page_key("day");
    page.add(task.record.hash).add(prompt.hash).add(task.record.prompt);
    page.add(date_number(task.prev.value_or(Date{0, 0, 0}))).add(date_number(task.next.value_or(Date{0, 0, 0})));
    auto load = [&]() -> const Day* {
        if (!day) {
            auto parsed = parse_day_file(path);
            if (!parsed) {
                build_.error(parsed.error());
                return nullptr;
            }
            day = std::move(*parsed);
        }
        return &*day;
    };
    build_.produce_page("day", day_path_of(date), page.value(), [&] {
        const Day* d = load();
        if (!d) return TemplateData();
        const SiteContext& site = *build_.site;
        return build_.prompt_pages ? day_page(site, *d, {}, build_.prompt_href(prompt))
                                   : day_page(site, *d, prompt.html);
    });
    if (build_.config.data != "day") return day; // the feed and the home page parse their days instead
    const std::uint64_t json_key =
        Hasher().add(build_.data_key).add(std::string_view("day json")).add(task.record.hash).value();
    build_.store.produce(
        day_data_path(date), json_key,
        [&]() -> std::optional<std::string> {
            const Day* d = load();
            if (!d) return std::nullopt;
            return day_json(build_.urls, *d);
        },
        OutputStore::Kept::key_and_bytes); // read back by the feed and the home page
    return day;
}

// The last build's record when the file is as it was (by its stamp, else by
// its hash); else the file parsed, into `day`. False: the day failed.
bool DayStage::bring_record_up_to_date(DayTask& task, std::optional<Day>& day) {
    const fs::path& path = task.file.path;
    auto failed = [&](Error e) {
        task.failed = true;
        build_.error(std::move(e));
        return false;
    };
    auto stamp = build_.options.environment().stamp_at(content_dir_, day_relative_path(task.file.date));
    if (!stamp)
        return failed(Error{path.string(), 0, std::string("cannot read the day file: ") + std::strerror(errno)});
    DayRecord* old = task.old;
    if (old && old->size == stamp->size && old->mtime_ns == stamp->mtime_ns &&
        old->mtime_ns < build_.store.state().trusted_before_ns) {
        task.record = std::move(*old); // each day's record is used once
    } else {
        auto text = read_file_inside(build_.options.content_dir, path);
        if (!text) return failed(text.error());
        std::uint64_t hash = hash_bytes(*text);
        if (old && old->hash == hash) {
            task.record = std::move(*old);
        } else {
            ++parsed_;
            // A known secret pasted into a day never reaches a page, the data or the search index
            // (gzip'd outputs the output store's last pass cannot read).
            if (holds_secret(*text)) *text = redact_secrets(std::move(*text));
            auto parsed = read_day(*text, path.string());
            if (!parsed) return failed(parsed.error());
            // The site graph's days are the tasks' days, in their order.
            if (auto wrong = misdated(*parsed, task.file)) return failed(std::move(*wrong));
            task.record.hash = hash;
            task.record.prompt = parsed->prompt;
            task.record.summary = day_summary(*parsed);
            day = std::move(*parsed);
        }
        task.record.size = stamp->size;
        task.record.mtime_ns = stamp->mtime_ns;
    }
    task.summary_key = summary_key(task.record.summary);
    task.have_record = true;
    return true;
}

DayStage::DayShare DayStage::share_of(const Day& day) {
    DayShare share;
    const auto text = build_.config.data_has_full_text() ? PaperText::full : PaperText::listing;
    if (build_.config.data != "none") share.json = shelf_.put(day_json(build_.urls, day, text));
    if (build_.config.month_best > 0) share.best = day_best(day, build_.config.month_best);
    return share;
}

// A month whose days are all processed: its data file, and its best-of,
// kept for the month page when every day's share is at hand.
void DayStage::finish_month(MonthWork& month) {
    if (build_.config.data != "none") write_month_data(month);
    bool complete = true;
    for (std::size_t d = 0; d < month.days.size(); ++d)
        if (!month.days[d]->failed && !month.shares[d]) complete = false;
    if (build_.config.month_best > 0 && complete) {
        std::vector<DayBest> days;
        for (auto& share : month.shares)
            if (share) days.push_back(std::move(share->best));
        auto best = month_best(days, build_.config.month_best);
        const Date first = month.days.front()->file.date;
        std::lock_guard lock(mutex_);
        month_bests_.emplace(first.year * 100 + first.month, std::move(best));
    }
    month.shares = std::vector<std::optional<DayShare>>(); // the month's memory goes back before the next one's
}

// data/YYYY-MM.json, made again when a day of the month changed, from the
// days' shares (the days no worker parsed are parsed here).
void DayStage::write_month_data(MonthWork& month) {
    const Date first = month.days.front()->file.date;
    Hasher key;
    key.add(build_.data_key).add(std::string_view("month data"));
    key.add(static_cast<std::uint64_t>(first.year * 100 + first.month));
    bool any = false;
    for (const DayTask* task : month.days)
        if (!task->failed) {
            key.add(date_number(task->file.date)).add(task->record.hash);
            any = true;
        }
    if (!any) return; // a month of unreadable days has no data
    build_.store.produce(
        month_data_path(first.year, first.month), key.value(),
        [&]() -> std::optional<PageBuffer> {
            std::vector<std::string_view> jsons;
            for (std::size_t d = 0; d < month.days.size(); ++d) {
                if (month.days[d]->failed) continue;
                if (!month.shares[d]) {
                    auto day = parse_day_file(month.days[d]->file.path);
                    if (!day) {
                        build_.error(day.error());
                        return std::nullopt;
                    }
                    remember(*day); // (render_months remembered the days it parsed)
                    if (build_.day_parsed) build_.day_parsed(*day);
                    month.shares[d] = share_of(*day);
                }
                jsons.push_back(month.shares[d]->json.view());
            }
            PageBuffer json = month_data_json(first.year, first.month, jsons);
            for (auto& share : month.shares)
                if (share) share->json = {};
            // Plain JSON: GitHub Pages compresses it on the wire, and a site
            // branch stores a night's change as a delta (docs/data.md).
            return json;
        },
        OutputStore::Kept::key_and_bytes); // read back by the trends page
}

Result<std::vector<Day>> DayStage::month_read_back(int year, int month) {
    const std::string site_path = month_data_path(year, month);
    const std::uint64_t recorded = build_.store.recorded_bytes(site_path);
    if (recorded == 0) return fail("no month data recorded");
    auto json = build_.store.read(site_path);
    if (!json) return std::unexpected(json.error());
    if (hash_bytes(*json) != recorded) {
        tampered_ = true;
        return fail(site_path + " is not what this build wrote");
    }
    return month_days_from_json(*json);
}

std::optional<MonthBest> DayStage::best_of_month(int year, int month) {
    std::lock_guard lock(mutex_);
    auto it = month_bests_.find(year * 100 + month);
    return it == month_bests_.end() ? std::nullopt : std::optional(it->second);
}

void DayStage::record(const std::vector<DayTask*>& live) {
    auto& days = build_.store.state().days;
    auto recorded = days.begin(); // into the last build's map nodes where the day is not new
    for (std::size_t i = 0; i < live.size(); ++i) {
        DayTask& task = *live[i];
        task.record.summary = std::move(build_.graph.days[i]);
        while (recorded != days.end() && recorded->first < task.file.date) recorded = days.erase(recorded);
        if (recorded != days.end() && recorded->first == task.file.date) (recorded++)->second = std::move(task.record);
        else days.emplace_hint(recorded, task.file.date, std::move(task.record));
    }
    days.erase(recorded, days.end()); // days that are gone, or failed
}

// Read back from its JSON data (`data: day`); from the day file if that
// cannot be read. Only bytes that hash to what this build recorded for them
// are used. The newest days are read once: the feed, the home page and the
// month data share them.
Result<Day> DayStage::rendered_day(const DayTask& task) {
    const bool recent = task.file.date >= recent_from_;
    std::unique_lock reading(recent_reading_, std::defer_lock);
    if (recent) reading.lock(); // a second reader of the same day waits, then finds it
    if (auto day = remembered(task.file.date)) return std::move(*day);
    auto day = read_back(task);
    if (recent && day) remember(*day);
    return day;
}

Result<Day> DayStage::read_back(const DayTask& task) {
    const std::string site_path = day_data_path(task.file.date);
    const std::uint64_t recorded = build_.store.recorded_bytes(site_path);
    auto json = recorded != 0 ? build_.store.read(site_path) : fail("no JSON data recorded");
    if (json && hash_bytes(*json) != recorded) {
        tampered_ = true;
    } else if (json) {
        if (auto day = day_from_json(*json)) {
            day->prompt = task.record.prompt;
            return day;
        }
    }
    return parse_day_file(task.file.path);
}

Result<Day> DayStage::parse_day_file(const fs::path& path) {
    ++parsed_;
    return load_day(path);
}

void DayStage::remember(const Day& day) {
    if (day.date < recent_from_) return;
    std::lock_guard lock(mutex_);
    recent_.emplace(day.date, day);
}

std::optional<Day> DayStage::remembered(const Date& date) {
    std::lock_guard lock(mutex_);
    auto it = recent_.find(date);
    return it == recent_.end() ? std::nullopt : std::optional(it->second);
}

} // namespace pp
