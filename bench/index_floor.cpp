// What the word index (search/) costs a full build, step by step: each step
// on one thread, its CPU time (user and system) as a share of a full build
// without the index on one thread (`build -j 1`), run in the same process
// first, as is one with the index. Two of the steps are ones any index of
// every word takes, whatever its tables (split the text into words; write
// the files a query fetches); their sum, as this code does them, is printed
// last (docs/performance.md weighs what the fastest way of each would cost).
//   bench_index_floor CONTENT THEMES OUT
// OUT is emptied first (it must be empty or made by an earlier run); the
// site goes to OUT/site, the index's files to OUT/index.
#include "content/content_tree.h"
#include "search/index.h"
#include "search/period_words.h"
#include "search/words.h"
#include "site/builder.h"

#include <sys/resource.h>

#include <cstdio>
#include <map>
#include <memory>

using namespace pp;

namespace {

double cpu_seconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
    };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

struct Step {
    const char* name;
    double seconds;
};

template <class Work>
Step timed(const char* name, Work&& work) {
    const double start = cpu_seconds();
    work();
    return {name, cpu_seconds() - start};
}

// A full build on one thread: its CPU seconds, or -1 when it failed.
double full_build(const fs::path& content, const fs::path& themes, const fs::path& out, bool search_index) {
    BuildOptions options;
    options.content_dir = content;
    options.out_dir = out;
    options.themes_dir = themes;
    options.config.math = false;
    options.config.search_index = search_index;
    options.jobs = 1;
    const double start = cpu_seconds();
    const BuildReport report = build_site(options);
    const double seconds = cpu_seconds() - start;
    if (!report.ok()) std::fprintf(stderr, "build: %s\n", report.errors.front().message.c_str());
    return report.ok() ? seconds : -1;
}

void write_or_say(const fs::path& path, std::string_view bytes) {
    if (auto written = write_file_if_changed(path, bytes); !written)
        std::fprintf(stderr, "%s: %s\n", path.c_str(), written.error().message.c_str());
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: bench_index_floor CONTENT THEMES OUT\n");
        return 2;
    }
    const fs::path content = argv[1], themes = argv[2], out = argv[3];
    const fs::path marker = out / ".bench_index_floor";
    std::error_code ec;
    if (!fs::is_empty(out, ec) && !ec && !fs::exists(marker)) {
        std::fprintf(stderr, "%s: expected an empty folder or one an earlier run made\n", out.c_str());
        return 2;
    }
    fs::remove_all(out, ec);
    if (auto made = write_file_atomic(marker, ""); !made) {
        std::fprintf(stderr, "%s: %s\n", marker.c_str(), made.error().message.c_str());
        return 1;
    }
    const double build = full_build(content, themes, out / "site", false);
    const double build_with_index = full_build(content, themes, out / "site-with-index", true);
    if (build <= 0 || build_with_index <= 0) return 1;

    std::vector<Day> days;
    std::vector<Step> steps;
    steps.push_back(timed("parse the day files (the build does it too)", [&] {
        for (const auto& file : scan_content(content).days)
            if (auto day = load_day(file.path)) days.push_back(std::move(*day));
            else std::fprintf(stderr, "%s\n", day.error().message.c_str());
    }));
    std::uint64_t bytes = 0, words = 0;
    volatile std::uint64_t odd = 0; // a use of each byte that the compiler keeps
    auto each_field = [&](auto&& use) {
        for (const auto& day : days)
            for (const auto& paper : day.papers) search::for_each_indexed_field(paper, use);
    };
    steps.push_back(timed("read each byte of the indexed text once", [&] {
        each_field([&](std::string_view text, int) {
            bytes += text.size();
            std::uint64_t sum = 0;
            for (char c : text) sum += static_cast<unsigned char>(c) & 1u;
            odd = odd + sum;
        });
    }));
    steps.push_back(timed("split it into folded words (no lookup)", [&] {
        each_field([&](std::string_view text, int) {
            search::for_each_indexed_word(text, [&](std::string_view) { ++words; });
        });
    }));
    const double split_seconds = steps.back().seconds;
    if (days.empty()) {
        std::fprintf(stderr, "%s: no day could be read\n", content.c_str());
        return 1;
    }

    const Date newest = days.back().date;
    std::map<std::string, std::vector<const Day*>> periods;
    for (const auto& day : days) periods[search::period_of(day.date, newest)].push_back(&day);
    std::map<std::string, std::unique_ptr<search::PeriodWords>> period_words;
    steps.push_back(timed("gather the words (PeriodWords::add)", [&] {
        for (const auto& [name, period] : periods) {
            std::vector<Date> dates;
            for (const Day* day : period) dates.push_back(day->date);
            auto& gathered = period_words[name] = std::make_unique<search::PeriodWords>(name, std::move(dates));
            for (std::size_t i = 0; i < period.size(); ++i) gathered->add(*period[i], i);
        }
    }));
    std::vector<std::pair<std::string, std::string>> files; // site path, bytes
    steps.push_back(timed("join and write the chunks (finish)", [&] {
        for (auto& [name, gathered] : period_words)
            gathered->finish(search::chunk_text_bytes, [&](std::string_view first_word, std::string_view text) {
                files.emplace_back(search::chunk_path(name, first_word), text);
            });
    }));
    steps.push_back(timed("make the days' result files", [&] {
        for (const auto& day : days) files.emplace_back(search::day_meta_path(day.date), search::day_meta_file(day));
    }));
    std::uint64_t index_bytes = 0;
    steps.push_back(timed("write the index's files", [&] {
        for (const auto& [path, file] : files) {
            write_or_say(out / "index" / path, file);
            index_bytes += file.size();
        }
    }));

    std::printf("full build on one thread, CPU: %.2f s without the index, %.2f s with it (+%.0f%%)\n", build,
                build_with_index, 100 * (build_with_index - build) / build);
    std::printf("indexed: %zu days, %.0f MB of text, %llu words; the index: %zu files, %.1f MB\n\n", days.size(),
                static_cast<double>(bytes) / 1e6, static_cast<unsigned long long>(words), files.size(),
                static_cast<double>(index_bytes) / 1e6);
    std::printf("| step | CPU, s | share of the build |\n| --- | --- | --- |\n");
    for (const auto& step : steps)
        std::printf("| %s | %.2f | %.1f%% |\n", step.name, step.seconds, 100 * step.seconds / build);
    const double any_index = split_seconds + steps.back().seconds;
    std::printf(
        "\nwhat any index takes, as done here (split into words, write the files): %.2f s, %.1f%% of the build\n",
        any_index, 100 * any_index / build);
    return 0;
}
