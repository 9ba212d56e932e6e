#include "site/builder.h"

#include "content/content_tree.h"
#include "content/day_file.h"
#include "content/month_summary.h"
#include "content/prompt_store.h"
#include "site/build_state.h"
#include "site/feeds.h"
#include "site/pages.h"
#include "site/render_markdown.h"
#include "site/site_graph.h"
#include "site/theme.h"
#include "site/urls.h"
#include "util/gzip.h"
#include "util/lock.h"
#include "util/memory.h"
#include "util/program.h"
#include "util/text.h"
#include "util/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <future>
#include <iostream>
#include <iterator>
#include <mutex>
#include <optional>
#include <set>

namespace pp {

namespace {

// Whatever changes how this program renders: its code (util/program.h).
std::uint64_t program_key() {
    Hasher h;
    h.add(std::string_view("paperpress site 1")).add(program_identity());
    return h.value();
}

// The hash of what the lists show of a day. Made once per day and build:
// the month pages, the data index and the sitemap all list every day.
std::uint64_t summary_key(const DaySummary& s) {
    const auto count = [](const std::optional<long long>& c) { return c ? static_cast<std::uint64_t>(*c) : ~0ull; };
    const std::uint64_t numbers[] = {date_number(s.date), static_cast<std::uint64_t>(s.status),
                                     static_cast<std::uint64_t>(s.papers), static_cast<std::uint64_t>(s.remedial),
                                     count(s.counts.arxiv), s.counts.arxiv.has_value(),
                                     count(s.counts.scanned), s.counts.scanned.has_value(),
                                     count(s.counts.relevant), s.counts.relevant.has_value(),
                                     s.top_titles.size()};
    Hasher h;
    h.add(std::string_view(reinterpret_cast<const char*>(numbers), sizeof numbers));
    for (const auto& title : s.top_titles) h.add(title);
    return h.value();
}

struct Prompt {
    std::string text;
    std::string html;
    std::string site_path; // its page's (prompt_path_of)
    std::uint64_t hash = 0;
    std::optional<Error> error;
};

// Prompts by reference, each read once per build, shared by the workers.
class Prompts {
public:
    explicit Prompts(fs::path content) : content_(std::move(content)) {}
    const Prompt& get(const std::string& reference) {
        std::lock_guard lock(mutex_);
        if (auto it = prompts_.find(reference); it != prompts_.end()) return it->second;
        Prompt prompt;
        if (!reference.empty()) {
            auto text = load_prompt(content_, reference);
            if (text) prompt.text = std::move(*text);
            else prompt.error = text.error();
        }
        prompt.hash = hash_bytes(prompt.text);
        prompt.site_path = prompt_path_of(reference);
        prompt.html = render_prompt(prompt.text);
        if (prompt.error) any_failed_ = true;
        return prompts_.emplace(reference, std::move(prompt)).first->second;
    }
    bool any_failed() {
        std::lock_guard lock(mutex_);
        return any_failed_;
    }

private:
    fs::path content_;
    std::mutex mutex_;
    std::map<std::string, Prompt> prompts_;
    bool any_failed_ = false;
};

// Month files are written two at a time, whatever the number of workers:
// each needs megabytes while it is made. While a completed month waits for
// a writer, no worker starts another day, so months do not pile up.
class MonthWriters {
public:
    void before_day() {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return waiting_ == 0; });
    }
    template <class Write>
    void write(Write&& write) {
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

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    int writing_ = 0, waiting_ = 0;
};

struct DayTask {
    DayFile file;
    DayRecord* old = nullptr; // the last build's record of the day, if any
    bool have_record = false;
    bool failed = false;
    DayRecord record;
    bool done = false;       // rendered for the neighbours below
    std::optional<Date> prev, next;
    std::uint64_t summary_key = 0; // of record.summary
};

class Build {
public:
    // `distrust_outputs`: render every output again, reading nothing back.
    Build(const BuildOptions& options, BuildReport& report, bool distrust_outputs)
        : options_(options), report_(report), urls_(options.config.base_url), prompts_(options.content_dir),
          distrust_outputs_(distrust_outputs) {}

    void run();
    // A file read back did not hash to what was recorded when it was written.
    bool found_tampered_output() const { return tampered_; }

private:
    // --- outputs -------------------------------------------------------
    // The last build's records are brought up to date in place: each output
    // belongs to one task, so threads never share a record, and the map's
    // shape does not change while they run. New outputs wait in added_.
    std::string output_file(const std::string& site_path) const { return out_prefix_ + output_file_of(site_path); }

    void record(const std::string& site_path, const OutputRecord& made, bool written, bool rendered) {
        if (auto it = state_.outputs.find(site_path); it != state_.outputs.end()) {
            it->second = made;
        } else {
            std::lock_guard lock(mutex_);
            added_[site_path] = made;
        }
        ++files_;
        if (rendered) ++rendered_;
        if (written) {
            std::lock_guard lock(mutex_);
            report_.written_files.push_back(site_path);
        }
    }

    void error(Error e) {
        std::lock_guard lock(mutex_);
        report_.errors.push_back(std::move(e));
    }

    enum class Kept { key, key_and_bytes }; // what the state keeps of an output

    // Writes the bytes and records them as made from `key`.
    void write(const std::string& site_path, std::uint64_t key, std::string_view bytes, bool rendered = true,
               Kept kept = Kept::key) {
        auto outcome = write_file_if_changed(output_file(site_path), bytes);
        if (!outcome) {
            keep_previous(site_path);
            return error(outcome.error());
        }
        const std::uint64_t hash = kept == Kept::key_and_bytes ? hash_bytes(bytes) : 0;
        record(site_path, OutputRecord{key, bytes.size(), hash, true}, *outcome == WriteOutcome::written, rendered);
    }

    // Renders the output unless the last build made it from the same inputs
    // and it is still there, as large as it was made.
    template <class Render>
    void produce(const std::string& site_path, std::uint64_t key, Render&& render, Kept kept = Kept::key) {
        if (auto it = state_.outputs.find(site_path); it != state_.outputs.end() && it->second.key == key) {
            auto stamp = stamp_at(out_dir_, output_file_of(site_path));
            if (stamp && stamp->size == it->second.size) {
                it->second.made = true;
                ++files_;
                return;
            }
        }
        auto bytes = render(); // an optional string, or PageBuffer
        if (bytes) write(site_path, key, *bytes, true, kept);
        else keep_previous(site_path);
    }

    // An output that could not be made this time keeps its last version (and
    // its record, whose key still describes that version), rather than being
    // removed as stale.
    void keep_previous(const std::string& site_path) {
        if (auto it = state_.outputs.find(site_path); it != state_.outputs.end()) {
            it->second.made = true;
            it->second.bytes = 0; // not to be read back
        }
    }

    template <class Data>
    void produce_page(const std::string& layout, const std::string& site_path, std::uint64_t key, Data&& data) {
        produce(site_path, key, [&]() -> std::optional<std::string> {
            auto html = render_layout(*theme_, layout, data());
            if (!html) {
                error(html.error());
                return std::nullopt;
            }
            return std::move(*html);
        });
    }

    Hasher page_key(std::string_view kind) const {
        Hasher h;
        h.add(global_key_).add(kind);
        return h;
    }

    // --- days ----------------------------------------------------------
    // A day whose outputs this build has made or found up to date, read back
    // from its JSON data (`data: day`); from the day file if that cannot be
    // read. Only bytes that hash to what this build recorded for them are
    // used. The newest days are read once: the feed, the home page and the
    // month data share them.
    Result<Day> rendered_day(const DayTask& task) {
        const bool recent = task.file.date >= recent_from_;
        std::unique_lock reading(recent_reading_, std::defer_lock);
        if (recent) reading.lock(); // a second reader of the same day waits, then finds it
        if (auto day = remembered(task.file.date)) return std::move(*day);
        auto day = read_back(task);
        if (recent && day) remember(*day);
        return day;
    }

    Result<Day> read_back(const DayTask& task) {
        const std::string site_path = day_data_path(task.file.date);
        const std::uint64_t recorded = recorded_bytes(site_path);
        auto json = recorded != 0 ? read_file(output_file(site_path)) : fail("no JSON data recorded");
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

    // The hash of the bytes recorded for an output made or kept by this build; 0 if none.
    std::uint64_t recorded_bytes(const std::string& site_path) {
        if (auto it = state_.outputs.find(site_path); it != state_.outputs.end())
            return it->second.made ? it->second.bytes : 0;
        std::lock_guard lock(mutex_);
        auto it = added_.find(site_path);
        return it == added_.end() ? 0 : it->second.bytes;
    }

    void remember(const Day& day) {
        if (day.date < recent_from_) return;
        std::lock_guard lock(mutex_);
        recent_.emplace(day.date, day);
    }
    std::optional<Day> remembered(const Date& date) {
        std::lock_guard lock(mutex_);
        auto it = recent_.find(date);
        return it == recent_.end() ? std::nullopt : std::optional(it->second);
    }

    Result<Day> parse_day_file(const fs::path& path) {
        ++parsed_;
        return load_day(path);
    }

    bool check_content_folder();
    bool check_content(const ContentScan& scan);
    bool content_problem(const std::string& problem);
    bool open_theme();
    bool lock_output();
    void load_last_state();
    void note_scan(const ContentScan& scan);
    std::map<std::string, std::string> write_assets();
    void set_keys(const std::map<std::string, std::string>& versioned);
    void start_workers();
    void build_graph(const std::vector<DayTask*>& live);
    void report_prompt_errors(const std::vector<DayTask*>& live);
    void record_days(const std::vector<DayTask*>& live);
    Result<std::string> read_asset(const fs::path& source) const;
    bool removal_allowed();

    void collect_katex(std::vector<std::pair<std::string, std::string>>& assets);
    MonthOverview month_overview(int year, int month);
    std::optional<Day> process_day(DayTask& task, std::optional<Date> prev, std::optional<Date> next);
    std::vector<DayTask*> process_days(std::vector<DayTask>& tasks);
    // What a month's data file and best-of need of one of its days.
    struct DayShare {
        Shelf::Item json; // day_json, with data: month or day
        DayBest best;     // with a month best-of
    };
    struct MonthWork {
        std::vector<DayTask*> days;                // in date order
        std::vector<std::optional<DayShare>> shares; // of the days parsed so far
        std::atomic<std::size_t> left{0};          // days not yet processed
        bool has_new_day = false;                  // a day the last build did not record: see process_days
    };
    DayShare share_of(const Day& day);
    void finish_month(MonthWork& month);
    // --- lists: outputs made from the site graph -------------------------
    // What a list output is made from, declared once per kind: its key is
    // the hash of these inputs, and its render is handed them.
    struct ListInputs {
        std::vector<std::uint64_t> summaries;     // summary_key of the days shown by their summary
        std::vector<const DayTask*> days;         // days shown in full
        std::vector<std::uint64_t> numbers;       // months, years, neighbours, prompt hashes
    };
    struct ListOutput {
        std::string kind; // the layout, for a page
        std::string site_path;
        bool page = false;
        ListInputs inputs;
        std::function<std::optional<std::string>(const ListInputs&)> render; // data files
        std::function<TemplateData(const ListInputs&)> data;                  // pages
    };
    void write_lists(const std::vector<DayTask*>& live);
    std::uint64_t list_key(const ListOutput& out) const;
    void produce_list(const ListOutput& out);
    static ListOutput page_output(std::string kind, std::string site_path, ListInputs inputs,
                                  std::function<TemplateData(const ListInputs&)> data);
    static ListOutput data_output(std::string kind, std::string site_path, ListInputs inputs,
                                  std::function<std::optional<std::string>(const ListInputs&)> render);
    static ListInputs all_summaries(const std::vector<DayTask*>& live);
    std::vector<Day> full_days(const ListInputs& in);
    ListOutput feed_output(const std::vector<DayTask*>& live);
    ListOutput data_index_output(const std::vector<DayTask*>& live);
    ListOutput sitemap_output(const std::vector<DayTask*>& live);
    ListOutput home_output(const std::vector<DayTask*>& live);
    ListOutput month_output(const std::vector<DayTask*>& live, std::size_t m);
    MonthBest best_of_month(int year, int month, const ListInputs& inputs, int limit);
    ListOutput year_output(std::size_t y);
    ListOutput archive_output();
    std::vector<ListOutput> prompt_outputs(const std::vector<DayTask*>& live);
    std::string prompt_href(const Prompt& prompt) const;
    std::uint64_t month_number(std::size_t m) const;
    void add_month_size(ListInputs& in, std::size_t m) const;
    void remove_stale();
    void finish(std::int64_t start);

    const BuildOptions& options_;
    BuildReport& report_;
    SiteUrls urls_;
    Prompts prompts_;
    std::optional<Theme> theme_;
    std::optional<SiteContext> site_;
    SiteGraph graph_;
    BuildState state_;    // the last build's, brought up to date by this one
    std::map<std::string, OutputRecord> added_; // outputs the last build did not make
    std::uint64_t program_ = 0;
    std::string out_prefix_; // the output folder, ending in "/"
    Fd out_dir_, content_dir_; // stat()s relative to them walk shorter paths
    std::atomic<int> files_{0}, rendered_{0}, parsed_{0};
    bool complete_scan_ = true; // every content folder could be listed
    std::uint64_t global_key_ = 0;
    std::uint64_t data_key_ = 0; // JSON, feed, sitemap: the config, not the theme
    bool prompt_pages_ = false; // the theme has a `prompt` layout: days link to their prompt's page
    const bool distrust_outputs_;
    std::atomic<bool> tampered_{false};
    std::optional<TreeLock> lock_;
    std::mutex mutex_;
    MonthWriters month_writers_;
    Shelf shelf_; // the days' shares of their month's data (DayShare::json)
    std::map<int, MonthBest> month_bests_; // by YYYYMM: best-ofs finish_month made (mutex_)
    // The newest days (from recent_from_ on) as this build parsed them, for
    // the feed and the home page (mutex_).
    std::map<Date, Day> recent_;
    Date recent_from_{9999, 12, 31};
    std::mutex recent_reading_;
    std::optional<ThreadPool> workers_; // started once the work is known (start_workers)
};

// Brings the day's record up to date and renders its outputs that are out
// of date. Returns the day if it had to be parsed (for the month data).
std::optional<Day> Build::process_day(DayTask& task, std::optional<Date> prev, std::optional<Date> next) {
    const fs::path& path = task.file.path;
    std::optional<Day> day;
    auto failed = [&](Error e) {
        task.failed = true;
        error(std::move(e));
        return std::nullopt;
    };
    if (!task.have_record) {
        auto stamp = stamp_at(content_dir_, day_relative_path(task.file.date));
        if (!stamp) return failed(Error{path.string(), 0, std::string("cannot read the day file: ") + std::strerror(errno)});
        DayRecord* old = task.old;
        if (old && old->size == stamp->size && old->mtime_ns == stamp->mtime_ns && old->mtime_ns < state_.trusted_before_ns) {
            task.record = std::move(*old); // each day's record is used once
        } else {
            auto text = read_file_inside(options_.content_dir, path);
            if (!text) return failed(text.error());
            std::uint64_t hash = hash_bytes(*text);
            if (old && old->hash == hash) {
                task.record = std::move(*old);
            } else {
                ++parsed_;
                auto parsed = read_day(*text, path.string());
                if (!parsed) return failed(parsed.error());
                // The site graph's days are the tasks' days, in their order.
                if (auto wrong = misdated(*parsed, task.file)) return failed(std::move(*wrong));
                task.record.hash = hash;
                task.record.prompt = parsed->prompt;
                task.record.summary = summarize_day(*parsed);
                day = std::move(*parsed);
            }
            task.record.size = stamp->size;
            task.record.mtime_ns = stamp->mtime_ns;
        }
        task.summary_key = summary_key(task.record.summary);
        task.have_record = true;
    }

    const Prompt& prompt = prompts_.get(task.record.prompt);
    const Date date = task.file.date;
    Hasher page = page_key("day");
    page.add(task.record.hash).add(prompt.hash).add(task.record.prompt);
    page.add(date_number(prev.value_or(Date{0, 0, 0}))).add(date_number(next.value_or(Date{0, 0, 0})));
    const std::uint64_t page_key_value = page.value();
    const std::string page_path = day_path_of(date);
    auto load = [&]() -> const Day* {
        if (!day) {
            auto parsed = parse_day_file(path);
            if (!parsed) {
                error(parsed.error());
                return nullptr;
            }
            day = std::move(*parsed);
        }
        return &*day;
    };
    produce_page("day", page_path, page_key_value, [&] {
        const Day* d = load();
        if (!d) return TemplateData();
        return prompt_pages_ ? day_page(*site_, *d, {}, prompt_href(prompt)) : day_page(*site_, *d, prompt.html);
    });
    if (options_.config.data != "day") return day; // the feed and the home page parse their days instead
    const std::uint64_t json_key = Hasher().add(data_key_).add(std::string_view("day json")).add(task.record.hash).value();
    produce(day_data_path(date), json_key, [&]() -> std::optional<std::string> {
        const Day* d = load();
        if (!d) return std::nullopt;
        return day_json(urls_, *d);
    }, Kept::key_and_bytes); // read back by the feed and the home page
    return day;
}

// The build, step by step: inputs, static files, keys, days (with their
// month data), the lists made from the site graph, then the state.
void Build::run() {
    const std::int64_t start = now_ns();
    if (!check_content_folder() || !lock_output()) return;
    // The content is listed under the lock (a build that waited for another
    // sees the days that one came with), while the theme and the last build's
    // state load: each side takes about a sixth of a no-change build.
    auto scanning = std::async(std::launch::async, [this] { return scan_content(options_.content_dir); });
    const bool themed = open_theme();
    if (themed) load_last_state();
    ContentScan scan = scanning.get(); // its day files move into the tasks
    if (!themed || !check_content(scan)) return;
    note_scan(scan);
    const auto versioned = write_assets();
    set_keys(versioned);
    start_workers();
    std::vector<DayTask> tasks;
    tasks.reserve(scan.days.size());
    auto recorded = state_.days.begin(); // both in date order
    for (auto& file : scan.days) {
        while (recorded != state_.days.end() && recorded->first < file.date) ++recorded;
        DayTask& task = tasks.emplace_back();
        if (recorded != state_.days.end() && recorded->first == file.date) task.old = &recorded->second;
        task.file = std::move(file);
    }
    // The feed's days and a few more (quiet or failed days among them), at most 64.
    const auto recent = std::min<std::size_t>(static_cast<std::size_t>(std::max(options_.config.feed_days, 1)) + 4, 64);
    if (!tasks.empty()) recent_from_ = tasks[tasks.size() - std::min(recent, tasks.size())].file.date;
    auto live = process_days(tasks);
    build_graph(live);
    write_lists(live);
    workers_->retire(); // they exit while the state is saved
    report_prompt_errors(live);
    record_days(live);
    finish(start);
}

// The days' records go back into the state, with their summaries from the
// site graph (moved: the lists are made), into the last build's map nodes
// where the day is not new. Days that are gone, or failed, drop out.
void Build::record_days(const std::vector<DayTask*>& live) {
    auto recorded = state_.days.begin();
    for (std::size_t i = 0; i < live.size(); ++i) {
        DayTask& task = *live[i];
        task.record.summary = std::move(graph_.days[i]);
        while (recorded != state_.days.end() && recorded->first < task.file.date) recorded = state_.days.erase(recorded);
        if (recorded != state_.days.end() && recorded->first == task.file.date) (recorded++)->second = std::move(task.record);
        else state_.days.emplace_hint(recorded, task.file.date, std::move(task.record));
    }
    state_.days.erase(recorded, state_.days.end());
}

bool Build::open_theme() {
    auto theme = load_theme(options_.themes_dir, options_.config.theme, options_.site_dir);
    if (!theme) {
        report_.errors.push_back(theme.error());
        return false;
    }
    theme_ = std::move(*theme);
    return true;
}

void Build::note_scan(const ContentScan& scan) {
    for (const auto& misplaced : scan.misplaced) report_.warnings.push_back(misplaced.to_string());
    // Days in a folder that cannot be listed are not gone: nothing is removed.
    report_.errors.insert(report_.errors.end(), scan.unreadable.begin(), scan.unreadable.end());
    complete_scan_ = scan.unreadable.empty();
}

// Static files first; the links to the stylesheet and scripts carry a
// hash of their bytes, so browsers fetch them again exactly when they
// change. Returns site path -> href?v=hash.
std::map<std::string, std::string> Build::write_assets() {
    std::vector<std::pair<std::string, std::string>> assets;
    for (const auto& asset : theme_->assets) {
        auto bytes = read_asset(asset.source);
        if (!bytes) {
            report_.errors.push_back(bytes.error());
            continue;
        }
        assets.emplace_back(asset.site_path, std::move(*bytes));
    }
    if (theme_->math && options_.config.math) collect_katex(assets);
    std::map<std::string, std::string> versioned;
    for (const auto& [site_path, bytes] : assets) {
        versioned[site_path] = urls_.href(site_path) + "?v=" + hash_hex(bytes).substr(0, 10);
        write(site_path, hash_bytes(bytes), bytes, false);
    }
    write(".nojekyll", 0, "", false);
    return versioned;
}

// The site context the pages share, and the keys every page's and every
// data file's inputs start from.
void Build::set_keys(const std::map<std::string, std::string>& versioned) {
    auto href_of = [&](const std::string& site_path) {
        auto it = versioned.find(site_path);
        return it == versioned.end() ? std::string() : it->second;
    };
    const Config& config = options_.config;
    program_ = program_key();
    SiteContext context{config, urls_, graph_, href_of("static/style.css")};
    context.script = href_of("static/site.js");
    context.search_script = href_of("static/search.js");
    context.search_page = theme_->layouts.contains("search") && options_.config.data != "none"; // it reads the month data
    context.starred_page = theme_->layouts.contains("starred");
    prompt_pages_ = theme_->layouts.contains("prompt");
    context.katex_css = href_of("static/katex/katex.min.css");
    context.katex_js = href_of("static/katex/katex.min.js");
    context.katex_auto_render = href_of("static/katex/contrib/auto-render.min.js");
    Hasher global;
    global.add(program_).add(theme_->name);
    for (const auto* files : {&theme_->layouts, &theme_->partials})
        for (const auto& [name, file] : *files) global.add(name).add(file.text);
    global.add(config.title).add(config.description).add(config.author).add(config.base_url);
    global.add(static_cast<std::uint64_t>(config.home_days)).add(context.stylesheet);
    for (const auto* href : {&context.script, &context.search_script, &context.katex_css, &context.katex_js,
                             &context.katex_auto_render})
        global.add(*href);
    global.add(static_cast<std::uint64_t>(context.search_page)).add(static_cast<std::uint64_t>(prompt_pages_));
    global.add(static_cast<std::uint64_t>(context.starred_page)).add(static_cast<std::uint64_t>(config.group_by_topic));
    global_key_ = global.value();
    data_key_ = Hasher()
                    .add(program_)
                    .add(config.title)
                    .add(config.description)
                    .add(config.author)
                    .add(config.base_url)
                    .add(static_cast<std::uint64_t>(config.feed_days))
                    .add(config.data)
                    .value();
    site_.emplace(std::move(context));
}

// The workers, each with a heap sized to a day (the unit of work), as the
// last build recorded the days; nothing pre-faulted for a first build.
void Build::start_workers() {
    std::uint64_t largest = 0;
    for (const auto& [date, day] : state_.days) largest = std::max(largest, day.size);
    // A parsed day and its rendered page take about three times the file's bytes.
    const std::size_t heap = static_cast<std::size_t>(std::min<std::uint64_t>(3 * largest, 8u << 20));
    workers_.emplace(job_count(options_.jobs ? std::optional(options_.jobs) : std::nullopt), heap);
    report_.jobs = workers_->size();
}

// The graph takes the days' summaries (record_days gives them back), in
// date order, as process_days left them: its days are the live days.
void Build::build_graph(const std::vector<DayTask*>& live) {
    std::vector<DaySummary> summaries;
    summaries.reserve(live.size());
    for (DayTask* task : live) {
        report_.papers += task->record.summary.papers;
        summaries.push_back(std::move(task->record.summary));
    }
    report_.days = static_cast<int>(live.size());
    graph_ = build_site_graph(std::move(summaries));
}

// A prompt that cannot be read is reported once, at the first day that names it.
void Build::report_prompt_errors(const std::vector<DayTask*>& live) {
    if (!prompts_.any_failed()) return;
    std::set<std::string> reported;
    for (const DayTask* task : live) {
        const Prompt& prompt = prompts_.get(task->record.prompt);
        if (prompt.error && reported.insert(task->record.prompt).second)
            report_.errors.push_back(in_file(*prompt.error, day_path(options_.content_dir, task->file.date).string()));
    }
}

// A content folder that is missing or a file is a mistake (a typo in
// --content), and so is one without days when there is a site built from
// days: building from it would remove the whole site. A new site's first
// build may start from an empty folder.
bool Build::check_content_folder() {
    std::error_code ec;
    const auto status = fs::status(options_.content_dir, ec);
    if (!fs::exists(status))
        return content_problem("expected the content folder (YYYY/MM/YYYY-MM-DD.md day files); there is none");
    if (!fs::is_directory(status))
        return content_problem("expected the content folder, a folder of day files; this is a file");
    return true;
}

bool Build::check_content(const ContentScan& scan) {
    std::error_code ec;
    if (scan.days.empty() && scan.unreadable.empty() && fs::exists(state_path(options_.out_dir), ec))
        return content_problem("expected day files (YYYY/MM/YYYY-MM-DD.md) in the content folder; it has none");
    return true;
}

bool Build::content_problem(const std::string& problem) {
    report_.errors.push_back({options_.content_dir.string(), 0, problem + ": nothing was built or removed"});
    return false;
}

// Takes the output folder's lock (waiting for another build) and removes the
// temporary files of a build that was killed.
bool Build::lock_output() {
    const fs::path lock_file = lock_path(options_.out_dir);
    std::error_code ec;
    if (lock_file.has_parent_path()) fs::create_directories(lock_file.parent_path(), ec);
    const std::string shown = (options_.out_dir / "").string();
    auto lock = TreeLock::acquire(lock_file, [&](long pid) {
        std::string message = "another paperpress is building " + shown +
                              (pid > 0 ? " (pid " + std::to_string(pid) + ")" : std::string()) + "; waiting";
        if (options_.on_wait) options_.on_wait(message);
        else std::cerr << "paperpress: " << message << std::endl;
    });
    if (!lock) {
        report_.errors.push_back(lock.error());
        return false;
    }
    lock_ = std::move(*lock);
    out_prefix_ = (options_.out_dir / "").string(); // "site/"; "" for the current folder
    out_dir_ = open_directory(options_.out_dir.empty() ? fs::path(".") : options_.out_dir);
    content_dir_ = open_directory(options_.content_dir.empty() ? fs::path(".") : options_.content_dir);
    if (lock_->last_holder_died()) {
        // Its temporary files: in the output folder, and the state's beside it.
        auto removed = remove_temp_files(options_.out_dir);
        const fs::path state = state_path(options_.out_dir);
        const std::string prefix = state.filename().string() + ".tmp.";
        walk_tree(state.parent_path(), [&](const TreeEntry& entry) {
            if (entry.name.starts_with(prefix) && is_temp_file_name(entry.name) &&
                ::unlinkat(entry.folder_fd, std::string(entry.name).c_str(), 0) == 0)
                removed.emplace_back(entry.name);
            return false;
        }, {.recursive = false});
        if (!removed.empty())
            report_.warnings.push_back("the last build of " + shown + " was interrupted: removed its " +
                                       std::to_string(removed.size()) + " temporary files");
    }
    return true;
}

// The last build's state (nothing of it when it cannot be trusted).
void Build::load_last_state() {
    // The state's tables are most of what this thread allocates before the
    // days: its heap is populated once, sized to them (about three times the file).
    if (auto stamp = stamp_of(state_path(options_.out_dir)))
        populate_heap(static_cast<std::size_t>(std::min<std::uint64_t>(3 * stamp->size, 16u << 20)));
    state_ = load_state(options_.out_dir);
    if (!state_.rejected.empty())
        report_.warnings.push_back("the build state " + state_path(options_.out_dir).string() + " " + state_.rejected +
                                   ": building everything again");
    if (distrust_outputs_)
        for (auto& [path, output] : state_.outputs) output = OutputRecord{}; // render all, read nothing back
}

// A theme's or the site's static file, read only from inside its tree.
Result<std::string> Build::read_asset(const fs::path& source) const {
    const fs::path site_static = options_.site_dir / "static";
    const auto inside = [&source](const fs::path& root) {
        auto relative = source.lexically_normal().lexically_relative(root.lexically_normal());
        return !relative.empty() && *relative.begin() != "..";
    };
    return read_file_inside(inside(options_.themes_dir) ? options_.themes_dir : site_static, source);
}

// Renders every day whose outputs are out of date, in parallel, a day at a
// time, newest month first. What a month's data file and best-of need of a
// parsed day (its JSON, its best papers) is kept in the month's MonthWork,
// not the day; the worker that finishes a month's last day makes them
// (finish_month). So no day is parsed twice, and memory holds a day per
// worker and the few months under way, whatever the number of workers. A
// day that cannot be read drops out of the site graph; its neighbours are
// then rendered again with their new prev/next links, until nothing changes.
std::vector<DayTask*> Build::process_days(std::vector<DayTask>& tasks) {
    bool first = true;
    for (;; first = false) {
        std::vector<DayTask*> live;
        std::vector<DaySummary> dates;
        for (auto& task : tasks)
            if (!task.failed) {
                live.push_back(&task);
                DaySummary summary;
                summary.date = task.file.date;
                dates.push_back(std::move(summary));
            }
        graph_ = build_site_graph(std::move(dates)); // nav needs only the dates
        std::deque<MonthWork> months;                // the days to render, by month, newest first
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
        if (months.empty()) return live;
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
            month.has_new_day = std::any_of(month.days.begin(), month.days.end(), [](const DayTask* task) { return !task->old; });
            for (std::size_t d = 0; d < month.days.size(); ++d) work.emplace_back(&month, d);
        }
        // The first round renders every day, so it meets every month once;
        // later rounds only change neighbours' links, not the data.
        const bool keep_shares = first && (options_.config.data != "none" || options_.config.month_best > 0);
        workers_->parallel_for(work.size(), [&](std::size_t i) {
            auto [month, d] = work[i];
            if (keep_shares) month_writers_.before_day();
            DayTask* task = month->days[d];
            std::optional<Day> day = process_day(*task, task->prev, task->next);
            // Parsed here, on every worker, not one after another by the
            // worker that finishes the month.
            if (!day && keep_shares && month->has_new_day && !task->failed)
                if (auto parsed = parse_day_file(task->file.path)) day = std::move(*parsed);
            if (day) remember(*day);
            task->done = true;
            if (!keep_shares) return;
            if (day) month->shares[d] = share_of(*day);
            if (--month->left == 0) month_writers_.write([&] { finish_month(*month); });
        });
    }
}

Build::DayShare Build::share_of(const Day& day) {
    DayShare share;
    const auto text = options_.config.data_has_full_text() ? PaperText::full : PaperText::listing;
    if (options_.config.data != "none") share.json = shelf_.put(day_json(urls_, day, text));
    if (options_.config.month_best > 0) share.best = day_best(day, options_.config.month_best);
    return share;
}

// The pages and files made from the whole site graph. They do not depend
// on each other, so they are made in parallel, the heaviest first (and
// without nested parallel loops: each new thread's heap faults in afresh).
void Build::write_lists(const std::vector<DayTask*>& live) {
    std::vector<ListOutput> lists;
    lists.push_back(feed_output(live));
    lists.push_back(data_index_output(live));
    lists.push_back(sitemap_output(live));
    lists.push_back(home_output(live));
    for (std::size_t m = graph_.months.size(); m-- > 0;) lists.push_back(month_output(live, m));
    for (std::size_t y = 0; y < graph_.years.size(); ++y) lists.push_back(year_output(y));
    lists.push_back(archive_output());
    if (prompt_pages_)
        for (auto& out : prompt_outputs(live)) lists.push_back(std::move(out));
    lists.push_back(page_output("404", not_found_path(), {}, [this](const ListInputs&) { return not_found_page(*site_); }));
    if (site_->search_page) {
        ListInputs in; // the page says what it searches
        in.numbers.push_back(static_cast<std::uint64_t>(options_.config.data_has_full_text()));
        lists.push_back(page_output("search", search_page_path(), std::move(in),
                                    [this](const ListInputs&) { return search_page(*site_); }));
    }
    if (site_->starred_page)
        lists.push_back(page_output("starred", starred_page_path(), {}, [this](const ListInputs&) { return starred_page(*site_); }));
    workers_->parallel_for(lists.size(), [&](std::size_t i) { produce_list(lists[i]); });
}

// The key of everything a list output is made from: its kind and path, the
// theme and settings (pages) or the settings (data), and its inputs.
std::uint64_t Build::list_key(const ListOutput& out) const {
    Hasher key;
    key.add(out.page ? global_key_ : data_key_).add(out.kind).add(out.site_path);
    key.add(static_cast<std::uint64_t>(out.inputs.summaries.size()));
    for (std::uint64_t summary : out.inputs.summaries) key.add(summary);
    key.add(static_cast<std::uint64_t>(out.inputs.days.size()));
    for (const DayTask* task : out.inputs.days)
        key.add(date_number(task->file.date)).add(task->record.hash).add(task->record.prompt);
    key.add(static_cast<std::uint64_t>(out.inputs.numbers.size()));
    for (std::uint64_t n : out.inputs.numbers) key.add(n);
    return key.value();
}

void Build::produce_list(const ListOutput& out) {
    const std::uint64_t key = list_key(out);
    if (!out.page) return produce(out.site_path, key, [&] { return out.render(out.inputs); });
    produce_page(out.kind, out.site_path, key, [&] { return out.data(out.inputs); });
}

Build::ListOutput Build::page_output(std::string kind, std::string site_path, ListInputs inputs,
                                     std::function<TemplateData(const ListInputs&)> data) {
    ListOutput out{std::move(kind), std::move(site_path), true, std::move(inputs), {}, std::move(data)};
    return out;
}

Build::ListOutput Build::data_output(std::string kind, std::string site_path, ListInputs inputs,
                                     std::function<std::optional<std::string>(const ListInputs&)> render) {
    return ListOutput{std::move(kind), std::move(site_path), false, std::move(inputs), std::move(render), {}};
}

Build::ListInputs Build::all_summaries(const std::vector<DayTask*>& live) {
    ListInputs in;
    for (const DayTask* task : live) in.summaries.push_back(task->summary_key);
    return in;
}

// The days in `in.days`, read back (a day that cannot be read is an error and left out).
std::vector<Day> Build::full_days(const ListInputs& in) {
    std::vector<Day> days;
    for (const DayTask* task : in.days) {
        auto day = rendered_day(*task);
        if (day) days.push_back(std::move(*day));
        else error(day.error());
    }
    return days;
}

// Feed: the newest feed_days days with papers in full, and the newer
// failed or quiet days as short notices (feed_days()).
Build::ListOutput Build::feed_output(const std::vector<DayTask*>& live) {
    ListInputs in;
    for (auto i : feed_days(graph_.days, options_.config.feed_days)) in.days.push_back(live[i]);
    return data_output("feed", feed_path(), std::move(in), [this](const ListInputs& inputs) -> std::optional<std::string> {
        const std::vector<Day> days = full_days(inputs);
        std::vector<const Day*> feed_days;
        for (const auto& day : days) feed_days.push_back(&day);
        return atom_feed(options_.config, urls_, feed_days);
    });
}

Build::ListOutput Build::data_index_output(const std::vector<DayTask*>& live) {
    return data_output("index", data_index_path(), all_summaries(live), [this](const ListInputs&) -> std::optional<std::string> {
        return index_json(options_.config, urls_, graph_);
    });
}

Build::ListOutput Build::sitemap_output(const std::vector<DayTask*>& live) {
    return data_output("sitemap", sitemap_path(), all_summaries(live),
                       [this](const ListInputs&) -> std::optional<std::string> { return sitemap(urls_, graph_); });
}

// Home: the newest day with papers in full (else the newest day), with its
// prompt and the link to the day before; the newer days (failed, quiet or
// partial) noted above it; and the recent days' summaries.
Build::ListOutput Build::home_output(const std::vector<DayTask*>& live) {
    ListInputs in;
    auto shown_day = live.size();
    while (shown_day > 0 && graph_.days[shown_day - 1].papers == 0) --shown_day;
    if (shown_day == 0) shown_day = live.size();
    if (shown_day > 0) {
        const DayTask* latest = live[shown_day - 1];
        in.days.push_back(latest);
        in.numbers.push_back(prompts_.get(latest->record.prompt).hash);
        if (shown_day > 1) in.numbers.push_back(date_number(live[shown_day - 2]->file.date));
        for (auto i = shown_day; i < live.size(); ++i) in.summaries.push_back(live[i]->summary_key);
    }
    const auto shown = std::min<std::size_t>(live.size(), static_cast<std::size_t>(std::max(0, options_.config.home_days)));
    for (std::size_t i = 0; i < shown; ++i) in.summaries.push_back(live[live.size() - 1 - i]->summary_key);
    return page_output("home", home_path(), std::move(in), [this](const ListInputs& inputs) {
        std::vector<Day> days = full_days(inputs);
        const Day* latest = days.empty() ? nullptr : &days.front();
        if (!latest) return home_page(*site_, nullptr, {});
        const Prompt& prompt = prompts_.get(inputs.days.front()->record.prompt);
        return prompt_pages_ ? home_page(*site_, latest, {}, prompt_href(prompt)) : home_page(*site_, latest, prompt.html);
    });
}

// A month page: its days' summaries, its year, the months before and
// after, its overview (summary.md), and with a best-of its days in full.
Build::ListOutput Build::month_output(const std::vector<DayTask*>& live, std::size_t m) {
    const auto& month = graph_.months[m];
    const int best = options_.config.month_best;
    ListInputs in;
    for (auto d : month.days) {
        in.summaries.push_back(live[d]->summary_key);
        if (best > 0) in.days.push_back(live[d]);
    }
    auto overview = std::make_shared<MonthOverview>(month_overview(month.year, month.month));
    in.numbers = {month_number(m), static_cast<std::uint64_t>(graph_.years[graph_.year_of_month(m)].year),
                  m > 0 ? month_number(m - 1) : 0, m + 1 < graph_.months.size() ? month_number(m + 1) : 0,
                  static_cast<std::uint64_t>(best),
                  Hasher().add(overview->html).add(overview->model).add(overview->cost).value()};
    return page_output("month", month_path_of(month.year, month.month), std::move(in),
                       [this, m, best, overview](const ListInputs& inputs) {
                           const auto& node = graph_.months[m];
                           return month_page(*site_, m, best_of_month(node.year, node.month, inputs, best), *overview);
                       });
}

// The best-of that finish_month made from the same days, else one made
// from the days read back.
MonthBest Build::best_of_month(int year, int month, const ListInputs& inputs, int limit) {
    {
        std::lock_guard lock(mutex_);
        if (auto it = month_bests_.find(year * 100 + month); it != month_bests_.end()) return it->second;
    }
    return month_best(full_days(inputs), limit);
}

// A year page: its months' sizes, and the years before and after.
Build::ListOutput Build::year_output(std::size_t y) {
    ListInputs in;
    auto year_number = [&](std::size_t i) { return static_cast<std::uint64_t>(graph_.years[i].year); };
    in.numbers = {year_number(y), y > 0 ? year_number(y - 1) : 0, y + 1 < graph_.years.size() ? year_number(y + 1) : 0};
    for (auto m : graph_.years[y].months) add_month_size(in, m);
    return page_output("year", year_path_of(graph_.years[y].year), std::move(in),
                       [this, y](const ListInputs&) { return year_page(*site_, y); });
}

// The archive: every year's and month's sizes.
Build::ListOutput Build::archive_output() {
    ListInputs in;
    for (const auto& year : graph_.years) {
        in.numbers.insert(in.numbers.end(), {static_cast<std::uint64_t>(year.year), static_cast<std::uint64_t>(year.days),
                                             static_cast<std::uint64_t>(year.papers)});
        for (auto m : year.months) add_month_size(in, m);
    }
    return page_output("archive", archive_path(), std::move(in), [this](const ListInputs&) { return archive_page(*site_); });
}

// One page per selection prompt the days use, linked from their pages
// instead of repeating it on each.
std::vector<Build::ListOutput> Build::prompt_outputs(const std::vector<DayTask*>& live) {
    std::set<std::string> references;
    for (const DayTask* task : live) references.insert(task->record.prompt);
    std::vector<ListOutput> pages;
    for (const auto& reference : references) {
        const Prompt& prompt = prompts_.get(reference);
        if (reference.empty() || prompt.error) continue;
        ListInputs in;
        in.numbers.push_back(prompt.hash);
        pages.push_back(page_output("prompt", prompt.site_path, std::move(in), [this, &prompt](const ListInputs&) {
            return prompt_page(*site_, prompt.site_path, prompt.html);
        }));
    }
    return pages;
}

// The link to a prompt's page; "" when the day names none or it cannot be read.
std::string Build::prompt_href(const Prompt& prompt) const {
    return prompt.text.empty() || prompt.error ? std::string() : urls_.href(prompt.site_path);
}

std::uint64_t Build::month_number(std::size_t m) const {
    return static_cast<std::uint64_t>(graph_.months[m].year * 100 + graph_.months[m].month);
}

void Build::add_month_size(ListInputs& in, std::size_t m) const {
    in.numbers.insert(in.numbers.end(), {month_number(m), graph_.months[m].days.size(),
                                         static_cast<std::uint64_t>(graph_.months[m].papers)});
    // Failed, quiet and partial days are counted and marked.
    for (auto d : graph_.months[m].days) in.numbers.push_back(static_cast<std::uint64_t>(graph_.days[d].status));
}

// The month's summary.md rendered for its page; a file that cannot be read is an error.
MonthOverview Build::month_overview(int year, int month) {
    MonthOverview overview;
    auto summary = load_month_summary(options_.content_dir, year, month);
    if (!summary) {
        error(summary.error());
        return overview;
    }
    if (!*summary) return overview;
    overview.html = markdown_to_html((*summary)->markdown);
    overview.generated = (*summary)->generated;
    overview.model = (*summary)->model;
    if ((*summary)->cost) overview.cost = "$" + format_double(*(*summary)->cost);
    return overview;
}

// KaTeX's dist folder: the option, the environment, node_modules next to
// the config file or to the themes folder.
void Build::collect_katex(std::vector<std::pair<std::string, std::string>>& assets) {
    std::vector<fs::path> candidates;
    if (!options_.katex_dir.empty()) {
        candidates.push_back(options_.katex_dir);
    } else {
        if (const char* env = std::getenv("PAPERPRESS_KATEX_DIR"); env && *env) candidates.emplace_back(env);
        candidates.push_back(options_.site_dir / "node_modules/katex/dist");
        candidates.push_back(options_.themes_dir.parent_path() / "node_modules/katex/dist");
    }
    fs::path dist;
    std::error_code ec;
    for (const auto& candidate : candidates)
        if (fs::is_regular_file(candidate / "katex.min.js", ec) && fs::is_regular_file(candidate / "katex.min.css", ec)) {
            dist = candidate;
            break;
        }
    if (dist.empty()) {
        report_.errors.push_back({candidates.back().string(), 0,
                                  "expected KaTeX's files here: theme '" + theme_->name +
                                      "' typesets math with KaTeX (run scripts/setup, set $PAPERPRESS_KATEX_DIR, or "
                                      "turn math off with 'math: false' in paperpress.yaml)"});
        return;
    }
    std::vector<std::string> files = {"katex.min.js", "katex.min.css", "contrib/auto-render.min.js"};
    std::vector<std::string> fonts;
    walk_tree(dist / "fonts", [&](const TreeEntry& entry) {
        if (entry.kind == TreeEntry::Kind::file || entry.links_to_file()) fonts.push_back("fonts/" + std::string(entry.name));
        return false;
    }, {.recursive = false, .sorted = true});
    files.insert(files.end(), fonts.begin(), fonts.end());
    for (const auto& file : files) {
        const std::string site_path = "static/katex/" + file;
        // A site's or theme's own static/katex/<file> wins, as for every static file.
        if (std::any_of(assets.begin(), assets.end(), [&](const auto& a) { return a.first == site_path; })) continue;
        if (!fs::is_regular_file(dist / file, ec)) continue; // auto-render is optional
        auto bytes = read_file(dist / file);
        if (!bytes) {
            report_.errors.push_back(bytes.error());
            continue;
        }
        assets.emplace_back(site_path, std::move(*bytes));
    }
    std::sort(assets.begin(), assets.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

// A month whose days are all processed: its data file (data/YYYY-MM.json.gz),
// made again when a day of the month changed, from the days' shares (the
// days no worker parsed are parsed here), and its best-of, kept for the
// month page when every day's share is at hand.
void Build::finish_month(MonthWork& month) {
    const Date first = month.days.front()->file.date;
    const int month_number = first.year * 100 + first.month;
    auto complete = [&] {
        for (std::size_t d = 0; d < month.days.size(); ++d)
            if (!month.days[d]->failed && !month.shares[d]) return false;
        return true;
    };
    if (options_.config.data != "none") {
        Hasher key;
        key.add(data_key_).add(std::string_view("month data")).add(static_cast<std::uint64_t>(month_number));
        bool any = false;
        for (const DayTask* task : month.days)
            if (!task->failed) {
                key.add(date_number(task->file.date)).add(task->record.hash);
                any = true;
            }
        if (!any) return; // a month of unreadable days has no data
        produce(month_data_path(first.year, first.month), key.value(), [&]() -> std::optional<PageBuffer> {
            std::vector<std::string_view> jsons;
            for (std::size_t d = 0; d < month.days.size(); ++d) {
                if (month.days[d]->failed) continue;
                if (!month.shares[d]) {
                    auto day = parse_day_file(month.days[d]->file.path);
                    if (!day) {
                        error(day.error());
                        return std::nullopt;
                    }
                    remember(*day); // (process_days remembered the days it parsed)
                    month.shares[d] = share_of(*day);
                }
                jsons.push_back(month.shares[d]->json.view());
            }
            PageBuffer json = month_data_json(first.year, first.month, jsons);
            for (auto& share : month.shares)
                if (share) share->json = {};
            return gzip(json);
        });
    }
    if (options_.config.month_best > 0 && complete()) {
        std::vector<DayBest> days;
        for (auto& share : month.shares)
            if (share) days.push_back(std::move(share->best));
        auto best = month_best(days, options_.config.month_best);
        std::lock_guard lock(mutex_);
        month_bests_.emplace(month_number, std::move(best));
    }
    month.shares = std::vector<std::optional<DayShare>>(); // the month's memory goes back before the next one's
}

// Removes what the previous build wrote and this one did not: pages of
// deleted days, the old theme's static files. Folders left empty go too.
// Never through a link out of the output folder, and not more than half of
// the site unless forced.
void Build::remove_stale() {
    if (!removal_allowed()) return; // the outputs stay in the state: a later build removes them
    const fs::path root = options_.out_dir.empty() ? fs::path(".") : options_.out_dir;
    for (auto it = state_.outputs.begin(); it != state_.outputs.end();) {
        if (it->second.made) {
            ++it;
            continue;
        }
        auto removed = remove_file_inside(root, output_file_of(it->first));
        if (!removed) {
            report_.errors.push_back(removed.error());
            ++it;
            continue;
        }
        if (*removed) {
            ++report_.removed;
            report_.removed_files.push_back(it->first);
        }
        it = state_.outputs.erase(it);
    }
}

bool Build::removal_allowed() {
    if (!complete_scan_) return false;
    const auto stale = static_cast<std::size_t>(
        std::count_if(state_.outputs.begin(), state_.outputs.end(), [](const auto& o) { return !o.second.made; }));
    if (options_.force || stale * 2 <= state_.outputs.size()) return true;
    report_.errors.push_back({(options_.out_dir / "").string(), 0,
                              "expected a build to keep most of the site, but it would remove " + std::to_string(stale) +
                                  " of the " + std::to_string(state_.outputs.size()) +
                                  " files the last build made: nothing was removed (check the content folder, or "
                                  "build with --force)"});
    return false;
}

void Build::finish(std::int64_t start) {
    remove_stale();
    state_.outputs.merge(added_);
    state_.program = program_;
    report_.files = files_;
    report_.rendered = rendered_;
    report_.parsed = parsed_;
    report_.written = static_cast<int>(report_.written_files.size());
    if (auto saved = save_state(options_.out_dir, state_, start); !saved) report_.errors.push_back(saved.error());
}

} // namespace

BuildReport build_site(const BuildOptions& options) {
    keep_freed_memory();
    BuildReport report;
    bool tampered = false;
    {
        Build build(options, report, false);
        build.run();
        tampered = build.found_tampered_output();
    } // lets go of the lock
    if (tampered) {
        // A file read back was changed since it was written: build it all again.
        report = BuildReport{};
        Build(options, report, true).run();
        report.warnings.insert(report.warnings.begin(),
                               "an output read back (data/days/*.json) was changed since it was written: built "
                               "everything again");
    }
    std::sort(report.written_files.begin(), report.written_files.end());
    std::sort(report.removed_files.begin(), report.removed_files.end());
    return report;
}

} // namespace pp
