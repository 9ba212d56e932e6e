#include "site/search_stage.h"

#include "content/content_tree.h"
#include "util/thread_pool.h"

#include <algorithm>

namespace pp {

namespace {

std::uint64_t day_meta_key(const BuildContext& build, const DayTask& task) {
    return Hasher()
        .add(build.data_key)
        .add(std::string_view("search day"))
        .add(static_cast<std::uint64_t>(search::format_version))
        .add(task.record.hash)
        .value();
}

} // namespace

SearchStage::SearchStage(BuildContext& build, std::vector<DayTask>& tasks) : build_(build) {
    enabled_ = build.site && build.site->search_words && !tasks.empty();
    if (!enabled_) return;
    newest_ = tasks.back().file.date;
    const auto& outputs = build.store.state().outputs;
    if (const auto last = outputs.find(search::manifest_path); last != outputs.end())
        last_list_bytes_ = last->second.bytes;
    for (auto& task : tasks) parts_[search::period_of(task.file.date, newest_)].tasks.push_back(&task);
    // A shard a CPU: more workers than CPUs add no speed, only more tables of a period's words.
    const std::size_t most_shards = cpu_count();
    for (auto& [name, part] : parts_) {
        std::vector<Date> dates;
        for (const DayTask* task : part.tasks) dates.push_back(task->file.date);
        part.words = std::make_unique<search::PeriodWords>(name, std::move(dates), most_shards);
    }
}

std::optional<std::size_t> SearchStage::index_of(const Part& part, const Date& date) {
    auto task = std::lower_bound(part.tasks.begin(), part.tasks.end(), date,
                                 [](const DayTask* t, const Date& d) { return t->file.date < d; });
    if (task == part.tasks.end() || (*task)->file.date != date) return std::nullopt;
    return static_cast<std::size_t>(task - part.tasks.begin());
}

// The day's result file now; its period once every day of it has come.
void SearchStage::add(const Day& day) {
    if (!enabled_) return;
    auto it = parts_.find(search::period_of(day.date, newest_));
    if (it == parts_.end() || it->second.done) return;
    Part& part = it->second;
    const auto index = index_of(part, day.date);
    if (!index) return;
    write_day_meta(*part.tasks[*index], day);
    if (part.words->add(day, *index) && !part.done.exchange(true)) finish_early(it->first, part);
}

void SearchStage::finish_early(const std::string& name, Part& part) {
    Period period{name, part.tasks, 0, std::nullopt, false};
    period.key = period_key(period);
    if (check_period(period, false)) return; // its words stay, should the last list of periods not read back
    part.head = rebuild(period);
    part.words->clear();
}

std::uint64_t SearchStage::period_key(const Period& period) const {
    Hasher key;
    key.add(build_.data_key).add(std::string_view("search period")).add(period.name);
    key.add(static_cast<std::uint64_t>(search::format_version));
    for (const DayTask* task : period.days) key.add(date_number(task->file.date)).add(task->record.hash);
    return key.value();
}

// Periods newest first, each with the key of its days' bytes.
std::vector<SearchStage::Period> SearchStage::periods_of(const std::vector<DayTask*>& live) {
    std::vector<Period> periods;
    for (auto it = live.rbegin(); it != live.rend(); ++it) {
        const std::string name = search::period_of((*it)->file.date, newest_);
        if (periods.empty() || periods.back().name != name) periods.push_back({name, {}, 0, std::nullopt, false});
        periods.back().days.insert(periods.back().days.begin(), *it);
    }
    for (auto& period : periods) period.key = period_key(period);
    return periods;
}

// Whether the last build made the period's chunks from the same days, and
// they are all still there (which marks them as made by this build): the
// chunks of this key are exactly those the last list of periods names for
// it (a file of this key that the list does not name, a failed removal's
// or a renamed one's, is not taken). A period of days without papers has
// no chunks: it is up to date when the last list of periods, made from the
// same periods' days, is (`listed`).
bool SearchStage::check_period(Period& period, bool listed) {
    const auto& heads = last_heads();
    const auto head = heads.find(period.name);
    if (head == heads.end()) return false;
    std::set<std::string> named;
    for (const auto& word : head->second.first_words) named.insert(search::chunk_path(period.name, word));
    const std::string prefix = "search/" + period.name + "/";
    const auto& outputs = build_.store.state().outputs;
    std::set<std::string> made;
    for (auto it = outputs.lower_bound(prefix); it != outputs.end() && it->first.starts_with(prefix); ++it)
        if (it->second.key == period.key) made.insert(it->first);
    if (made != named || (made.empty() && !listed)) return false;
    bool missing = false;
    for (const auto& path : made)
        build_.store.produce(path, period.key, [&] {
            missing = true;
            return std::optional<std::string>();
        });
    if (!missing) period.listed = head->second;
    return !missing;
}

// The periods' entries in the last build's list, when it reads back as it
// was written; read once, from whichever thread asks first.
const std::map<std::string, search::PeriodHead>& SearchStage::last_heads() {
    std::call_once(heads_once_, [&] {
        if (last_list_bytes_ == 0) return;
        auto bytes = build_.store.read(search::manifest_path);
        if (!bytes || hash_bytes(*bytes) != last_list_bytes_) return;
        auto periods = search::read_manifest(*bytes);
        if (!periods) return;
        for (auto& head : *periods) heads_[head.name] = std::move(head);
    });
    return heads_;
}

// The days of the periods to rebuild that no worker parsed, parsed on the
// workers; the names of the periods of which a day could not be read.
std::set<std::string> SearchStage::add_missing(const std::vector<Period*>& stale) {
    std::vector<std::pair<const DayTask*, const std::string*>> missing;
    for (const Period* period : stale)
        for (const DayTask* task : period->days) {
            const Part& part = parts_.at(period->name);
            if (!part.words->has(index_of(part, task->file.date).value_or(part.tasks.size())))
                missing.emplace_back(task, &period->name);
        }
    std::mutex unread_mutex;
    std::set<std::string> unread;
    build_.workers->parallel_for(missing.size(), [&](std::size_t i) {
        auto day = load_day(missing[i].first->file.path);
        if (day) return add(*day);
        build_.error(day.error());
        std::lock_guard lock(unread_mutex);
        unread.insert(*missing[i].second);
    });
    return unread;
}

// The period's chunks from its days' words.
search::PeriodHead SearchStage::rebuild(const Period& period) {
    auto write = [&](std::string_view first_word, std::string_view text) {
        build_.store.write(search::chunk_path(period.name, first_word), period.key, text);
    };
    auto chunks = parts_.at(period.name).words->finish(search::chunk_text_bytes, write);
    return {period.name, std::move(chunks.days), std::move(chunks.first_words)};
}

void SearchStage::write(const std::vector<DayTask*>& live) {
    if (!enabled_ || live.empty()) return;
    std::vector<Period> periods = periods_of(live);
    Hasher manifest_key;
    manifest_key.add(build_.data_key).add(std::string_view("search index"));
    for (const auto& period : periods) manifest_key.add(period.name).add(period.key);
    last_heads(); // read before produce() marks the list as this build's
    bool stale_manifest = false;
    build_.store.produce(
        search::manifest_path, manifest_key.value(),
        [&] {
            stale_manifest = true;
            return std::optional<std::string>();
        },
        OutputStore::Kept::key_and_bytes);
    // A period's chunks are checked on the workers: a no-change build stats thousands.
    build_.workers->parallel_for(periods.size(), [&](std::size_t i) {
        periods[i].up_to_date =
            parts_.at(periods[i].name).head.has_value() || check_period(periods[i], !stale_manifest);
    });
    if (stale_manifest || !std::all_of(periods.begin(), periods.end(), [](const Period& p) { return p.up_to_date; }))
        write_periods(periods, manifest_key.value());
    write_day_metas(live);
}

void SearchStage::write_periods(std::vector<Period>& periods, std::uint64_t key) {
    std::vector<search::PeriodHead> list(periods.size());
    std::vector<Period*> stale;
    for (std::size_t i = 0; i < periods.size(); ++i) {
        if (auto& made = parts_.at(periods[i].name).head) list[i] = std::move(*made);
        else if (periods[i].up_to_date && periods[i].listed) list[i] = std::move(*periods[i].listed);
        else stale.push_back(&periods[i]);
    }
    // A period made without a day that could not be read is recorded under
    // a key no build makes, and so is the list: the next build makes the
    // period again. (Its chunks agree with the day files, which keeping
    // the period's last chunks would not: its other days may have changed.)
    const auto unread = add_missing(stale);
    for (Period* period : stale)
        if (unread.contains(period->name)) period->key = incomplete_key(period->key);
    if (!unread.empty()) key = incomplete_key(key);
    build_.workers->parallel_for(stale.size(), [&](std::size_t i) {
        auto& made = parts_.at(stale[i]->name).head; // by add(), once add_missing() brought its last day
        list[static_cast<std::size_t>(stale[i] - periods.data())] = made ? std::move(*made) : rebuild(*stale[i]);
    });
    build_.store.write(search::manifest_path, key, search::manifest_json(list), true, OutputStore::Kept::key_and_bytes);
}

void SearchStage::write_day_meta(const DayTask& task, const Day& day) {
    build_.store.produce(search::day_meta_path(day.date), day_meta_key(build_, task),
                         [&] { return std::optional(search::day_meta_file(day)); });
    std::lock_guard lock(metas_mutex_);
    metas_done_.insert(day.date);
}

// The result files add() did not write: up to date, or made from the day file.
void SearchStage::write_day_metas(const std::vector<DayTask*>& live) {
    build_.workers->parallel_for(live.size(), [&](std::size_t i) {
        const DayTask& task = *live[i];
        {
            std::lock_guard lock(metas_mutex_);
            if (metas_done_.contains(task.file.date)) return;
        }
        build_.store.produce(search::day_meta_path(task.file.date), day_meta_key(build_, task),
                             [&]() -> std::optional<std::string> {
                                 auto day = load_day(task.file.path);
                                 if (!day) {
                                     build_.error(day.error());
                                     return std::nullopt;
                                 }
                                 return search::day_meta_file(*day);
                             });
    });
}

} // namespace pp
