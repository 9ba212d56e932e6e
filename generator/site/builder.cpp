#include "site/builder.h"

#include "content/content_tree.h"
#include "search/words.h"
#include "site/assets.h"
#include "site/build_context.h"
#include "site/day_stage.h"
#include "site/list_outputs.h"
#include "site/search_stage.h"
#include "util/memory.h"
#include "util/program.h"

#include <future>
#include <set>

namespace pp {

namespace {

// Whatever changes how this program renders: its code (util/program.h).
std::uint64_t program_key() {
    Hasher h;
    h.add(std::string_view("paperpress site 1")).add(program_identity());
    return h.value();
}

// One build: it checks and locks, then hands the work to its rooms in order
// (site/build_context.h lists them).
class Build {
public:
    // `distrust_outputs`: render every output again, reading nothing back.
    Build(const BuildOptions& options, BuildReport& report, bool distrust_outputs)
        : build_(options, report), report_(report), distrust_outputs_(distrust_outputs) {}

    void run();
    bool found_tampered_output() const { return tampered_; }

private:
    bool check_content_folder();
    bool check_content(const ContentScan& scan);
    bool content_problem(const std::string& problem);
    bool open_theme();
    void note_scan(const ContentScan& scan);
    std::map<std::string, std::string> write_assets();
    void set_keys(std::uint64_t program, const std::map<std::string, std::string>& versioned);
    void start_workers();
    void build_graph(const std::vector<DayTask*>& live);
    void report_prompt_errors(const std::vector<DayTask*>& live);

    BuildContext build_;
    BuildReport& report_; // written here only between the parallel stages
    const bool distrust_outputs_;
    bool complete_scan_ = true; // every content folder could be listed
    bool tampered_ = false;
};

// The build, step by step: inputs, static files, keys, days (with their
// month data), the lists made from the site graph, then the state.
void Build::run() {
    const std::int64_t start = build_.options.environment().now_ns();
    if (!check_content_folder() || !build_.store.lock()) return;
    // The content is listed under the lock (a build that waited for another
    // sees the days that one came with), while the theme and the last build's
    // state load: each side takes about a sixth of a no-change build.
    auto scanning = std::async(std::launch::async, [this] { return scan_content(build_.options.content_dir); });
    const bool themed = open_theme();
    if (themed) build_.store.load_state(distrust_outputs_);
    ContentScan scan = scanning.get(); // its day files move into the tasks
    if (!themed || !check_content(scan)) return;
    note_scan(scan);
    const std::uint64_t program = program_key();
    set_keys(program, write_assets());
    start_workers();
    DayStage days(build_);
    std::vector<DayTask> tasks = days.tasks_for(scan);
    SearchStage search(build_, tasks);
    if (search.enabled()) build_.day_parsed = [&search](const Day& day) { search.add(day); };
    auto live = days.process(tasks);
    search.write(live);
    build_graph(live);
    write_lists(build_, days, live);
    build_.workers->retire(); // they exit while the state is saved
    report_prompt_errors(live);
    days.record(live);
    tampered_ = days.found_tampered_output();
    report_.parsed = days.parsed();
    build_.store.finish(program, start, complete_scan_);
    report_.written = static_cast<int>(report_.written_files.size());
}

bool Build::open_theme() {
    auto theme = load_theme(build_.options.themes_dir, build_.config.theme, build_.options.site_dir);
    if (!theme) {
        report_.errors.push_back(theme.error());
        return false;
    }
    build_.theme = std::move(*theme);
    return true;
}

void Build::note_scan(const ContentScan& scan) {
    for (const auto& misplaced : scan.misplaced) report_.warnings.push_back(misplaced.to_string());
    // Days in a folder that cannot be listed are not gone: nothing is removed.
    report_.errors.insert(report_.errors.end(), scan.unreadable.begin(), scan.unreadable.end());
    complete_scan_ = scan.unreadable.empty();
}

// Why `search_index` (on by default) builds no word index: said, not silent (issue 46).
std::string no_word_index(const Theme& theme, const Config& config) {
    const std::string off = "; set 'search_index: false' in paperpress.yaml to build without it";
    if (!theme.layouts.contains("search"))
        return "search_index: theme '" + theme.name +
               "' has no search layout (layouts/search.mustache): no search page and no word index are built (copy "
               "themes/default/layouts/search.mustache into the theme" +
               off + ")";
    return "search_index: 'data: " + config.data + "' builds no search page, so no word index is built" + off;
}

// Static files first; the links to the stylesheet and scripts carry a
// hash of their bytes, so browsers fetch them again exactly when they
// change. Returns site path -> href?v=hash.
std::map<std::string, std::string> Build::write_assets() {
    Assets assets = read_assets(*build_.theme, build_.options, report_.errors);
    // The search page folds and splits words with the build's own tables (search/words.h).
    if (build_.theme->layouts.contains("search")) assets.emplace_back("static/search-words.js", search::words_script());
    std::map<std::string, std::string> versioned;
    for (const auto& [site_path, bytes] : assets) {
        versioned[site_path] = build_.urls.href(site_path) + "?v=" + hash_hex(bytes).substr(0, 10);
        build_.store.write(site_path, hash_bytes(bytes), bytes, false);
    }
    build_.store.write(".nojekyll", 0, "", false);
    return versioned;
}

// The site context the pages share, and the keys every page's and every
// data file's inputs start from.
void Build::set_keys(std::uint64_t program, const std::map<std::string, std::string>& versioned) {
    auto href_of = [&](const std::string& site_path) {
        auto it = versioned.find(site_path);
        return it == versioned.end() ? std::string() : it->second;
    };
    build_.program_key = program;
    const Config& config = build_.config;
    const Theme& theme = *build_.theme;
    SiteContext context{page_settings(config), build_.urls, build_.graph, href_of("static/style.css")};
    context.script = href_of("static/site.js");
    context.search_page = theme.layouts.contains("search") && config.data != "none"; // it reads the month data
    context.search_words = context.search_page && config.search_index;
    if (config.search_index && !context.search_words) report_.warnings.push_back(no_word_index(theme, config));
    context.search_script = href_of(context.search_words ? "static/search-index.js" : "static/search.js");
    context.search_words_js = href_of("static/search-words.js");
    context.starred_page = theme.layouts.contains("starred");
    context.trends_page = theme.layouts.contains("trends");
    context.range_page = theme.layouts.contains("range") && config.data != "none"; // it reads the month data
    context.preferences_page = theme.layouts.contains("preferences");
    context.prefs_script = href_of("static/prefs.js");
    build_.prompt_pages = theme.layouts.contains("prompt");
    context.katex_css = href_of("static/katex/katex.min.css");
    context.katex_js = href_of("static/katex/katex.min.js");
    context.katex_auto_render = href_of("static/katex/contrib/auto-render.min.js");
    Hasher global;
    global.add(program).add(theme.name);
    for (const auto* files : {&theme.layouts, &theme.partials})
        for (const auto& [name, file] : *files) global.add(name).add(file.text);
    add_page_settings(global, context.settings); // every config value a page can read
    global.add(context.stylesheet);
    for (const auto* href : {&context.script, &context.search_script, &context.search_words_js, &context.prefs_script,
                             &context.katex_css, &context.katex_js, &context.katex_auto_render})
        global.add(*href);
    global.add(static_cast<std::uint64_t>(context.search_page)).add(static_cast<std::uint64_t>(build_.prompt_pages));
    global.add(static_cast<std::uint64_t>(context.search_words));
    global.add(static_cast<std::uint64_t>(context.starred_page));
    for (bool page : {context.trends_page, context.range_page, context.preferences_page})
        global.add(static_cast<std::uint64_t>(page));
    build_.global_key = global.value();
    build_.data_key = Hasher()
                          .add(program)
                          .add(config.title)
                          .add(config.description)
                          .add(config.author)
                          .add(config.base_url)
                          .add(static_cast<std::uint64_t>(config.feed_days))
                          .add(config.data)
                          .value();
    build_.site.emplace(std::move(context));
}

// The workers, each with a heap sized to a day (the unit of work), as the
// last build recorded the days; nothing pre-faulted for a first build.
void Build::start_workers() {
    std::uint64_t largest = 0;
    for (const auto& [date, day] : build_.store.state().days) largest = std::max(largest, day.size);
    // A parsed day and its rendered page take about three times the file's bytes.
    const std::size_t heap = static_cast<std::size_t>(std::min<std::uint64_t>(3 * largest, 8u << 20));
    const unsigned jobs = build_.options.jobs;
    build_.workers.emplace(job_count(jobs ? std::optional(jobs) : std::nullopt), heap);
    report_.jobs = build_.workers->size();
}

// The graph takes the days' summaries (DayStage::record gives them back),
// in date order, as the day stage left them: its days are the live days.
void Build::build_graph(const std::vector<DayTask*>& live) {
    std::vector<DaySummary> summaries;
    summaries.reserve(live.size());
    for (DayTask* task : live) {
        report_.papers += task->record.summary.papers;
        summaries.push_back(std::move(task->record.summary));
    }
    report_.days = static_cast<int>(live.size());
    build_.graph = build_site_graph(std::move(summaries));
}

// A prompt that cannot be read is reported once, at the first day that names it.
void Build::report_prompt_errors(const std::vector<DayTask*>& live) {
    if (!build_.prompts.any_failed()) return;
    std::set<std::string> reported;
    for (const DayTask* task : live) {
        const Prompt& prompt = build_.prompts.get(task->record.prompt);
        if (prompt.error && reported.insert(task->record.prompt).second)
            report_.errors.push_back(
                in_file(*prompt.error, day_path(build_.options.content_dir, task->file.date).string()));
    }
}

// A content folder that is missing or a file is a mistake (a typo in
// --content), and so is one without days when there is a site built from
// days: building from it would remove the whole site. A new site's first
// build may start from an empty folder.
bool Build::check_content_folder() {
    std::error_code ec;
    const auto status = fs::status(build_.options.content_dir, ec);
    if (!fs::exists(status))
        return content_problem("expected the content folder (YYYY/MM/YYYY-MM-DD.md day files); there is none");
    if (!fs::is_directory(status))
        return content_problem("expected the content folder, a folder of day files; this is a file");
    return true;
}

bool Build::check_content(const ContentScan& scan) {
    std::error_code ec;
    if (scan.days.empty() && scan.unreadable.empty() && fs::exists(state_path(build_.options.out_dir), ec))
        return content_problem("expected day files (YYYY/MM/YYYY-MM-DD.md) in the content folder; it has none");
    return true;
}

bool Build::content_problem(const std::string& problem) {
    report_.errors.push_back({build_.options.content_dir.string(), 0, problem + ": nothing was built or removed"});
    return false;
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
        report.warnings.insert(
            report.warnings.begin(),
            "an output read back (data/days/*.json, data/YYYY-MM.json) was changed since it was written: built "
            "everything again");
    }
    std::sort(report.written_files.begin(), report.written_files.end());
    std::sort(report.removed_files.begin(), report.removed_files.end());
    return report;
}

} // namespace pp
