// The reader's feedback loop, offline, driven by bench/feedback_loop.py (see
// bench/README.md). An offline user: the archive up to --start is the
// reference archive's; from then on each day's file holds the learned
// scorer's own picks (rated >= the default cutoff). With --loop 1 a simulated
// reader, whose truth is the reference system's picks, reads each day's page
// and its "rest of the announcement": hides every wrong pick and stars every
// other miss (by ID: half of them), as content/feedback/ lines dated that
// day, which the next days' scoring reads as `run` does. Prints one JSON line
// per day: the truth's size, the papers kept and the hits.
//
//   bench_feedback_loop --archive OUT --topics FILE --days days.jsonl --work DIR --feeds DIR
//                       --start YYYY-MM-DD --loop 0|1
#include "content/content_tree.h"
#include "content/feedback.h"
#include "content/importer.h"
#include "score/learned_scorer.h"
#include "score/reader_feedback.h"
#include "util/files.h"
#include "util/text.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>

using namespace pp;

namespace {

constexpr int cutoff = 7; // scoring.relevance_cutoff's default: what a day keeps

struct LabelledDay {
    Date date;
    std::vector<Paper> feed;
    std::set<std::string> truth;
};

std::optional<LabelledDay> labelled_day(std::string_view line) {
    rapidjson::Document doc;
    doc.Parse(line.data(), line.size());
    auto date = doc.HasParseError() ? std::nullopt : parse_iso_date(doc["date"].GetString());
    if (!date) return std::nullopt;
    LabelledDay day{*date, {}, {}};
    for (const auto& item : doc["papers"].GetArray()) {
        Paper p;
        p.id = item["id"].GetString();
        p.title = item["title"].GetString();
        p.abstract = item["abstract"].GetString();
        for (const auto& author : item["authors"].GetArray())
            if (author.IsString()) p.authors.emplace_back(author.GetString());
        day.feed.push_back(std::move(p));
    }
    for (const auto& id : doc["picks"].GetArray()) day.truth.insert(id.GetString());
    return day;
}

// The reader's judgements on a day's page: every wrong pick hidden, every other miss (by ID) starred.
std::vector<Judgement> read_page(const LabelledDay& day, const std::set<std::string>& kept) {
    std::vector<Judgement> out;
    for (const auto& id : kept)
        if (!day.truth.count(id)) out.push_back({day.date, Verdict::hide, id});
    bool star = true;
    for (const auto& id : day.truth) // sorted by ID
        if (!kept.count(id)) {
            if (star) out.push_back({day.date, Verdict::star, id});
            star = !star;
        }
    return out;
}

// Removes the reference archive's days from `start` on: from then, the archive is the scorer's.
void drop_days_from(const fs::path& content, const Date& start) {
    for (const auto& file : scan_content(content).days)
        if (!(file.date < start)) fs::remove(file.path);
}

} // namespace

int main(int argc, char** argv) {
    std::map<std::string, std::string> args;
    for (int i = 1; i + 1 < argc; i += 2) args[argv[i]] = argv[i + 1];
    auto arg = [&](const std::string& name) { return args.count("--" + name) ? args["--" + name] : ""; };
    auto start = parse_iso_date(arg("start"));
    if (arg("archive").empty() || arg("days").empty() || arg("work").empty() || arg("topics").empty() || !start) {
        std::fprintf(stderr,
                     "usage: %s --archive OUT --topics FILE --days days.jsonl --work DIR --feeds DIR "
                     "--start YYYY-MM-DD --loop 0|1\n",
                     argv[0]);
        return 2;
    }
    const bool loop = arg("loop") == "1";
    const fs::path work = arg("work"), content = work / "content";
    auto report = import_archive(arg("archive"), content, [](const std::string&) {});
    auto topics = read_file(arg("topics"));
    auto days = read_file(arg("days"), 1u << 30);
    if (!report.errors.empty() || !topics || !days) {
        std::fprintf(stderr, "cannot import the archive or read the topics or the days\n");
        return 1;
    }
    drop_days_from(content, *start);
    const TopicKeywords keywords = parse_topic_keywords(*topics);
    TasteSources sources;
    sources.content_dir = content;
    sources.feed_cache_dir = arg("feeds");
    sources.index_cache = work / "taste-index.bin";

    for (auto line : split(*days, '\n')) {
        if (trim(line).empty()) continue;
        auto day = labelled_day(line);
        if (!day) {
            std::fprintf(stderr, "bad days line: %s\n", excerpt(line).c_str());
            return 1;
        }
        if (day->date < *start) continue; // a day of the reference archive's: not the offline user's
        std::vector<std::string> warnings;
        TasteIndex index = load_taste_index(sources, day->date, warnings);
        const auto feedback = scan_feedback(content).judgements;
        apply_feedback(index, feedback, day->date); // no file without the loop: nothing
        auto scores = learned_scores(day->feed, index, keywords, day->date);

        Day page;
        page.date = day->date;
        page.model = "embedded"; // as an offline run writes it (pipeline/llm_pass.cpp)
        std::set<std::string> kept;
        for (size_t i = 0; i < day->feed.size(); ++i)
            if (scores[i].relevance >= cutoff) {
                Paper p = day->feed[i];
                p.relevance = scores[i].relevance;
                p.comment = scores[i].comment;
                page.papers.push_back(std::move(p));
                kept.insert(day->feed[i].id);
            }
        if (auto saved = save_day(content, page); !saved) {
            std::fprintf(stderr, "%s\n", saved.error().to_string().c_str());
            return 1;
        }
        size_t hits = 0, ranked_hits = 0; // the latter: the ranking alone, its top 1.5 x the truth's size
        for (const auto& id : kept) hits += day->truth.count(id);
        std::vector<size_t> order(day->feed.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return scores[a].score > scores[b].score; });
        for (size_t r = 0; r < std::min(order.size(), (3 * day->truth.size() + 1) / 2); ++r)
            ranked_hits += day->truth.count(day->feed[order[r]].id);
        auto judgements = loop ? read_page(*day, kept) : std::vector<Judgement>{};
        if (!judgements.empty()) append_feedback(content, day->date, judgements);
        std::printf(
            "{\"date\":\"%s\",\"truth\":%zu,\"kept\":%zu,\"hits\":%zu,\"top\":%zu,\"judged\":%zu,\"feedback\":%zu}\n",
            day->date.iso().c_str(), day->truth.size(), kept.size(), hits, ranked_hits, judgements.size(),
            feedback.size());
        std::fflush(stdout);
    }
    return 0;
}
