// The archive's word index, written in the spirit of Pagefind: split so
// that a query reads only the files its words need (docs/data.md, "The
// search index").
//
//   search/index.json          the periods, newest first: each one's days
//                              (MMDD:papers) and the first word of each of
//                              its chunks
//   search/P/NAME.txt          period P's chunk whose first word is named
//                              NAME (chunk_name()): `word<TAB>postings`
//                              lines, part by part (part_of()), each part's
//                              in byte order of the words
//   search/days/DATE.json.gz   what a result shows of each of the day's papers
//
// The list and the chunks are plain text, the chunks cut where the words
// say (a word starts one by its hash and its share of the period's text)
// and named by their first word, their lines grouped by part_of() (a word
// has a line in each part it is in). So where a site branch is kept, a period that gains
// days keeps its chunks' names, and what it gains comes at their ends: git
// stores the new version as a small delta of the old (docs/data.md). A
// day's file, written once, is gzip'd.
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
// higher-scored" is "higher number first". A posting is (gap from the
// previous number of its line, the first counted from -1) * 4 + class,
// written as append_posting() does with no separator; the class says where the word is: 3 the title, 2 authors,
// topics or the arXiv ID, 1 the abstract, the scorer's comment or its topic note.
#pragma once

#include "core/paper.h"
#include "core/tex.h"
#include "util/error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pp::search {

// 2: period names are not prefixes of their days' dates (the newest week's), so
// a reader finds a date's periods by their days. 3: plain list and chunks,
// chunks cut by their words, named by their first, their lines by parts,
// postings with no commas.
inline constexpr int format_version = 3;

// Text per chunk, on average once its period is whole: a rare word's query
// reads one chunk a period (a few KB on the wire, compressed;
// docs/performance.md). A chunk holds at most about four times this, by the
// writer's estimate of its bytes, and one word's lines more.
inline constexpr std::size_t chunk_text_bytes = 8 << 10;

// Appends a posting's value: base 36 (0-9a-z) of value / 26, none when it is
// 0, then the last digit, value % 26, as a capital (A-Z). So "4,1b,2c"'s
// values, 4, 47 and 84, are "E", "1V" and "3G", and a line needs no commas.
void append_posting(std::string& text, std::uint64_t value);

// The name of a chunk: its first word's 32-bit FNV-1a hash in 8 hex digits
// (search-index.js computes it alike). A period's chunks have distinct names.
std::string chunk_name(std::string_view first_word);

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
std::string chunk_path(const std::string& period, std::string_view first_word);
inline constexpr const char* manifest_path = "search/index.json";

// The first and last day a period can hold, as period_of() names periods: a
// year "2024", a month "2024-12", or a week "2024-12-23" (from its Monday or
// the 1st, to its Sunday or the month's end); none for any other name.
std::optional<std::pair<Date, Date>> period_span(const std::string& name);

// The part of period `name` that `date` is in, as a later build appends
// parts to the period whole: a year's month, a month's week (from its
// Monday), a week's day. A chunk's lines come part by part (index.h), so that
// what a period gains comes at its files' ends.
int part_of(const std::string& name, const Date& date);

// How much of its calendar a period's days cover, from its first day to
// `last`, in days: {covered, whole} (a week's 7 days, a month's, a year's).
// The chunks are cut for the size the period will have once whole.
struct PeriodShare {
    int covered = 1, whole = 1;
};
PeriodShare period_share(const std::string& name, const Date& last);

// A posting's digits before its capital, at most: a period's postings need
// four (366 days of 5,000 papers), and a reader refuses more.
inline constexpr int max_posting_digits = 6;

struct PeriodHead {
    std::string name;
    std::string days;
    std::vector<std::string> first_words;
};

// search/index.json, periods newest first.
std::string manifest_json(const std::vector<PeriodHead>& periods);
// A period's part of it, read back; an error for anything else.
Result<std::vector<PeriodHead>> read_manifest(std::string_view json);

} // namespace pp::search
