// The days of a build: each day's record brought up to date (parsed only
// when its file changed), its page (and with `data: day` its JSON) rendered
// when out of date, and each month's data file and best-of made once the
// month's days are done. The newest days are kept as parsed, for the feed
// and the home page (rendered_day).
#pragma once

#include "content/content_tree.h"
#include "site/build_context.h"
#include "site/feeds.h"
#include "util/memory.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace pp {

struct DayTask {
    DayFile file;
    DayRecord* old = nullptr; // the last build's record of the day, if any
    bool have_record = false;
    bool failed = false;
    DayRecord record;
    bool done = false; // rendered for the neighbours below
    std::optional<Date> prev, next;
    std::uint64_t summary_key = 0; // of record.summary
};

// Month files are written two at a time, whatever the number of workers:
// each needs megabytes while it is made. While a completed month waits for
// a writer, no worker starts another day, so months do not pile up.
class MonthWriters {
public:
    void before_day();
    void write(const std::function<void()>& write);

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    int writing_ = 0, waiting_ = 0;
};

class DayStage {
public:
    // After the store's lock is taken and its state loaded.
    explicit DayStage(BuildContext& build);

    // One task per day file (moved out of the scan), with the last build's
    // record of the day; the newest of them are kept once parsed.
    std::vector<DayTask> tasks_for(ContentScan& scan);
    // Renders the days; returns those that could be read, in date order (the
    // site graph's days). The graph then holds only their dates.
    std::vector<DayTask*> process(std::vector<DayTask>& tasks);
    // The days' records go back into the state, with their summaries from
    // the site graph (moved: the lists are made).
    void record(const std::vector<DayTask*>& live);

    // A day whose outputs this build has made or found up to date, as parsed
    // or read back.
    Result<Day> rendered_day(const DayTask& task);
    // The best-of the month's data pass made, when every day was at hand.
    std::optional<MonthBest> best_of_month(int year, int month);
    // The month's days as its data file holds them (no prompt, no free text with
    // `data: month`), when its bytes are what the store recorded.
    Result<std::vector<Day>> month_read_back(int year, int month);

    int parsed() const { return parsed_; }
    // A file read back did not hash to what was recorded when it was written.
    bool found_tampered_output() const { return tampered_; }

private:
    // What a month's data file and best-of need of one of its days.
    struct DayShare {
        Shelf::Item json; // day_json, with data: month or day
        DayBest best;     // with a month best-of
    };
    struct MonthWork {
        std::vector<DayTask*> days;                  // in date order
        std::vector<std::optional<DayShare>> shares; // of the days parsed so far
        std::atomic<std::size_t> left{0};            // days not yet processed
        bool has_new_day = false;                    // a day the last build did not record: see process()
    };

    std::vector<DayTask*> live_days(std::vector<DayTask>& tasks);
    void queue_months(const std::vector<DayTask*>& live, std::deque<MonthWork>& months);
    void render_months(std::deque<MonthWork>& months, bool keep_shares);
    std::optional<Day> process_day(DayTask& task);
    bool bring_record_up_to_date(DayTask& task, std::optional<Day>& day);
    DayShare share_of(const Day& day);
    void finish_month(MonthWork& month);
    void write_month_data(MonthWork& month);
    Result<Day> read_back(const DayTask& task);
    Result<Day> parse_day_file(const fs::path& path);
    void remember(const Day& day);
    std::optional<Day> remembered(const Date& date);

    BuildContext& build_;
    Fd content_dir_; // stat()s relative to it walk shorter paths
    std::atomic<int> parsed_{0};
    std::atomic<bool> tampered_{false};
    MonthWriters month_writers_;
    Shelf shelf_; // the days' shares of their month's data (DayShare::json)
    std::mutex mutex_;
    std::map<int, MonthBest> month_bests_; // by YYYYMM: best-ofs finish_month made (mutex_)
    // The newest days (from recent_from_ on) as this build parsed them, for
    // the feed and the home page (mutex_).
    std::map<Date, Day> recent_;
    Date recent_from_{9999, 12, 31};
    std::mutex recent_reading_;
};

} // namespace pp
