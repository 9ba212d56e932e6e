// The scorers on labelled days, driven by bench/scorer_quality.py (see
// bench/README.md): imports the reference archive into a content tree, then
// for each test day (oldest first) scores its feed with the keyword scorer
// and the learned scorer, whose history is the archive's days before it.
// Prints one JSON line per day: each paper's keyword rating, learned score
// and learned rating, the cascade's size and the time the learned scorer took.
//
//   bench_scorer_quality --archive OUT --topics prompts/topics.md --days days.jsonl --work DIR
//   bench_scorer_quality --content CONTENT ...   (an existing content tree: the speed test)
//                        [--feeds DIR] [--content DIR] and the options of LearnedScorerOptions:
//                        [--cascade-fraction F] [--neighbours N] [--half-life DAYS] [--window DAYS]
//                        [--centroid W] [--background W] [--prior W] [--classifier W] [--epochs N]
//                        [--neighbour-weight W] [--rate R] [--feed-only-rate R] [--feed-negatives 0|1]
//                        [--max-df F] [--keep-multiple M] [--share-days N]
//                        [--recent-share-days N] [--standout-share F] [--usual-days N]
//                        [--prior-fade PICKS] [--background-days N]
//                        [--own-prompts 1]  (each day's own topics prompt from the archive, not --topics)
#include "content/content_tree.h"
#include "content/importer.h"
#include "content/prompt_store.h"
#include "score/embedded_scorer.h"
#include "score/learned_scorer.h"
#include "util/files.h"
#include "util/text.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <string>

using namespace pp;

namespace {

// CPU seconds of this thread: the measure of "on one core", whatever else the machine runs.
double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

std::vector<Paper> papers_of(const rapidjson::Value& list) {
    std::vector<Paper> papers;
    for (const auto& item : list.GetArray()) {
        Paper p;
        p.id = item["id"].GetString();
        p.title = item["title"].GetString();
        p.abstract = item["abstract"].GetString();
        if (item.HasMember("authors") && item["authors"].IsArray())
            for (const auto& author : item["authors"].GetArray())
                if (author.IsString()) p.authors.emplace_back(author.GetString());
        papers.push_back(std::move(p));
    }
    return papers;
}

void print_day(const Date& date, const std::vector<Paper>& feed, const std::vector<int>& keyword,
               const std::vector<LearnedScore>& learned, double usual, double expected, std::size_t cascade,
               double seconds) {
    rapidjson::StringBuffer out;
    rapidjson::Writer<rapidjson::StringBuffer> w(out);
    w.StartObject();
    w.Key("date");
    w.String(date.iso().c_str());
    w.Key("usual");
    w.Double(usual);
    w.Key("expected");
    w.Double(expected);
    w.Key("cascade");
    w.Uint64(cascade);
    w.Key("seconds");
    w.Double(seconds);
    w.Key("papers");
    w.StartArray();
    for (size_t i = 0; i < feed.size(); ++i) {
        w.StartArray();
        w.String(feed[i].id.c_str());
        w.Int(keyword[i]);
        w.Double(learned[i].score);
        w.Int(learned[i].relevance);
        w.Double(learned[i].margin);
        w.EndArray();
    }
    w.EndArray();
    w.Key("example_comment");
    w.String(learned.empty() ? "" : learned.front().comment.c_str());
    w.EndObject();
    std::printf("%s\n", out.GetString());
    std::fflush(stdout);
}

// The keywords of the prompt the archive's day was scored with; `fallback` when it has none.
TopicKeywords own_keywords(const fs::path& content, const Date& date, const TopicKeywords& fallback) {
    auto day = load_day(day_path(content, date));
    if (!day || day->prompt.empty()) return fallback;
    auto prompt = load_prompt(content, day->prompt);
    if (!prompt) return fallback;
    TopicKeywords own = parse_topic_keywords(*prompt);
    std::fprintf(stderr, "%s: the day's own prompt %s: %zu keywords\n", date.iso().c_str(), day->prompt.c_str(),
                 own.relevant.size());
    return own;
}

} // namespace

int main(int argc, char** argv) {
    std::map<std::string, std::string> args;
    for (int i = 1; i + 1 < argc; i += 2) args[argv[i]] = argv[i + 1];
    auto arg = [&](const std::string& name, const std::string& fallback = "") {
        auto found = args.find("--" + name);
        return found == args.end() ? fallback : found->second;
    };
    auto number = [&](const std::string& name, double fallback) {
        auto text = arg(name);
        return text.empty() ? fallback : std::atof(text.c_str());
    };
    if ((arg("archive").empty() && arg("content").empty()) || arg("days").empty() || arg("work").empty() ||
        arg("topics").empty()) {
        std::fprintf(stderr, "usage: %s --archive OUT --topics FILE --days days.jsonl --work DIR [options]\n", argv[0]);
        return 2;
    }
    const fs::path work = arg("work");
    // --content: an existing content tree (the speed test); else the archive imported into WORK.
    const fs::path content = arg("content").empty() ? work / "content" : fs::path(arg("content"));
    auto report =
        arg("content").empty() ? import_archive(arg("archive"), content, [](const std::string&) {}) : ImportReport{};
    if (!report.errors.empty()) {
        std::fprintf(stderr, "import: %s\n", report.errors.front().to_string().c_str());
        return 1;
    }
    auto topics = read_file(arg("topics"));
    auto days = read_file(arg("days"), 1u << 30);
    if (!topics || !days) {
        std::fprintf(stderr, "cannot read the topics or the days\n");
        return 1;
    }
    TopicKeywords keywords = parse_topic_keywords(*topics);

    LearnedScorerOptions options;
    options.neighbours = static_cast<int>(number("neighbours", options.neighbours));
    options.neighbour_weight = number("neighbour-weight", options.neighbour_weight);
    options.classifier_rate = number("rate", options.classifier_rate);
    options.feed_only_rate = number("feed-only-rate", options.feed_only_rate);
    options.feed_negatives = number("feed-negatives", options.feed_negatives) != 0;
    options.half_life_days = number("half-life", options.half_life_days);
    options.centroid_weight = number("centroid", options.centroid_weight);
    options.background_weight = number("background", options.background_weight);
    options.prior_weight = number("prior", options.prior_weight);
    options.classifier_weight = number("classifier", options.classifier_weight);
    options.classifier_epochs = static_cast<int>(number("epochs", options.classifier_epochs));
    options.max_df_fraction = number("max-df", options.max_df_fraction);
    options.usual_days = static_cast<int>(number("usual-days", options.usual_days));
    options.neighbour_window_days = static_cast<int>(number("window", options.neighbour_window_days));
    options.keep_multiple = number("keep-multiple", options.keep_multiple);
    options.share_days = static_cast<int>(number("share-days", options.share_days));
    options.recent_share_days = static_cast<int>(number("recent-share-days", options.recent_share_days));
    options.standout_share = number("standout-share", options.standout_share);
    options.prior_fade_picks = number("prior-fade", options.prior_fade_picks);
    options.cascade_fraction = number("cascade-fraction", options.cascade_fraction);

    TasteSources sources;
    sources.content_dir = content;
    sources.feed_cache_dir = arg("feeds");
    sources.index_cache = work / "taste-index.bin";
    sources.background_days = static_cast<int>(number("background-days", sources.background_days));

    for (auto line : split(*days, '\n')) {
        if (trim(line).empty()) continue;
        rapidjson::Document doc;
        doc.Parse(line.data(), line.size());
        if (doc.HasParseError()) {
            std::fprintf(stderr, "bad days line: %s\n", excerpt(line).c_str());
            return 1;
        }
        auto date = parse_iso_date(doc["date"].GetString());
        if (!date) return 1;
        std::vector<Paper> feed = papers_of(doc["papers"]);
        // --own-prompts 1: the topics of the prompt the reference scored this day with (the archive keeps
        // each day's, content/prompts/), as the nightly run reads its own topics prompt.
        const TopicKeywords day_keywords =
            number("own-prompts", 0) != 0 ? own_keywords(content, *date, keywords) : keywords;
        std::vector<int> keyword;
        for (const auto& paper : feed) keyword.push_back(embedded_score(paper, day_keywords).relevance);

        const double start = cpu_seconds();
        std::vector<std::string> warnings;
        TasteIndex index = load_taste_index(sources, *date, warnings);
        const double loaded = cpu_seconds();
        auto learned = learned_scores(feed, index, day_keywords, *date, options);
        const double seconds = cpu_seconds() - start;
        std::fprintf(stderr, "%s: %zu papers; index %.3f s CPU (%zu picks, %zu background), scoring %.3f s CPU\n",
                     date->iso().c_str(), feed.size(), loaded - start, index.picks.size(), index.background.size(),
                     seconds - (loaded - start));
        for (const auto& w : warnings) std::fprintf(stderr, "%s: %s\n", date->iso().c_str(), w.c_str());
        print_day(*date, feed, keyword, learned, usual_daily_picks(index, options.usual_days),
                  expected_picks(index, feed.size(), options),
                  cascade_size(feed.size(), index, options.cascade_fraction), seconds);
    }
    return 0;
}
