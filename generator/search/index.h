// The archive's word index, written in the spirit of Pagefind: split so
// that a query reads only the files its words need (docs/data.md, "The
// search index").
//
//   search/index.json.gz       the periods, newest first: each one's days
//                              (MMDD:papers) and the first word of each of
//                              its chunks
//   search/P/N.txt.gz          period P's chunk N: `word<TAB>postings` lines
//                              in byte order of the words
//   search/days/DATE.json.gz   what a result shows of each of the day's papers
//
// A period is a year, except for the archive's newest month: its newest
// week (from the Monday, or from the 1st) is a period of its own, and its
// days before that week another. So a nightly append rewrites only its
// week's chunks (a query reads a chunk or two from each year and one from
// the month and the week); the first append of a week folds the week before
// into its month, and the first append of a month folds the month before
// (both its periods) into its year, once. A paper's
// number in its period counts its days' papers before it, then its rank in
// its day: the highest score gets the day's highest number, so "newer, then
// higher-scored" is "higher number first". A posting is base 36 of
// (gap from the previous number) * 4 + class, comma-separated; the class
// says where the word is: 3 the title, 2 authors, topics or the arXiv ID,
// 1 the abstract, the scorer's comment or its topic note.
#pragma once

#include "core/paper.h"
#include "core/tex.h"
#include "util/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pp::search {

// 2: period names are not prefixes of their days' dates (the newest week's), so
// a reader finds a date's periods by their days.
inline constexpr int format_version = 2;

// Text per chunk: a rare word's query reads one chunk a period (about 4 KB
// gzip'd at this size; docs/performance.md).
inline constexpr std::size_t chunk_text_bytes = 8 << 10;

// "2024"; in the archive's newest month "2024-12", or "2024-12-23" for its newest week.
std::string period_of(const Date& date, const Date& newest);

// Calls `add(text, class)` with each field of the paper that the index
// holds, as a reader sees it (TeX accents as letters, as the month data's
// `unicode`); the class says where a word is (above): 3 the title, 2 the
// authors, topics and ID, 1 the abstract, comment and topic note.
template <class Add>
void for_each_indexed_field(const Paper& paper, Add&& add) {
    add(tex_to_unicode(paper.title), 3);
    for (const auto& author : paper.authors) add(tex_to_unicode(author), 2);
    add(paper.topic, 2);
    for (const auto& topic : paper.also_topics) add(topic, 2);
    add(paper.id, 2);
    add(paper.abstract, 1);
    add(paper.comment, 1);
    add(paper.topic_note, 1);
}

// The day's papers in number order (lowest score first): indices into day.papers.
std::vector<std::size_t> rank_order(const Day& day);

// search/days/DATE.json.gz's JSON: {"date":…,"papers":[[id,title,authors,score,topic],…]} in number order.
std::string day_meta_json(const Day& day);

// The same, gzip'd: the file at day_meta_path().
std::string day_meta_file(const Day& day);
std::string day_meta_path(const Date& date);
std::string chunk_path(const std::string& period, std::size_t chunk);
inline constexpr const char* manifest_path = "search/index.json.gz";

struct PeriodHead {
    std::string name;
    std::string days;
    std::vector<std::string> first_words;
};

// search/index.json.gz's JSON, periods newest first.
std::string manifest_json(const std::vector<PeriodHead>& periods);
// A period's part of it, read back; an error for anything else.
Result<std::vector<PeriodHead>> read_manifest(std::string_view json);

} // namespace pp::search
