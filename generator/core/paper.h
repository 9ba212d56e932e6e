// The domain model: a paper as selected for a day, and the day itself.
// Plain values, no I/O: every other module reads and writes these.
#pragma once

#include "core/date.h"

#include <optional>
#include <string>
#include <vector>

namespace pp {

// An LLM's summary of a pick, in llm.language (score/summary.h). All empty
// when none was asked; `failed` says why none could be had (a reply cut at
// the length limit, a refusal, one that is not the JSON asked), never a
// made-up text in its place.
struct PaperSummary {
    std::string tldr = {}, motivation = {}, method = {}, result = {}, conclusion = {};
    std::string failed = {};
    bool operator==(const PaperSummary&) const = default;
};

struct Paper;
// A summary is its parts, the TL;DR first, or why there is none: what is
// wrong with `paper`'s, if anything (the day file's reader and checker).
std::optional<std::string> summary_problem(const Paper& paper);

struct Paper {
    std::string id; // arXiv ID without version
    std::string title;
    // As arXiv's feed writes them: "Name" or "Name (Affiliation, Affiliation)" (split_author).
    std::vector<std::string> authors;
    std::string abstract;         // paragraphs separated by a blank line
    std::string comment;          // the scorer's reason, or empty
    std::optional<int> relevance; // 1-10; absent for author matches
    std::optional<int> novelty;   // 1-10; absent for author matches
    bool author_match = false;    // kept because a followed author wrote it
    std::string topic;            // primary topic label, if the scorer gave one
    std::vector<std::string> also_topics;
    std::string topic_note; // why the topic fits
    std::string unscored;   // why no score could be had, or empty
    PaperSummary summary;

    // relevance + novelty; 0 when either is missing.
    int score() const;

    bool operator==(const Paper&) const = default;
};

// The most papers a day file may hold: a day page of more would exceed what
// a theme may cost to render (site/theme.cpp's budget), so `check` and the
// build refuse such a file alike, naming this limit. arXiv's feed holds at
// most 2,000 entries.
inline constexpr std::size_t max_papers_per_day = 5000;

// A candidate of the day that was not picked: its title and ID only, so the day page can list
// the rest of the announcement (docs/content-format.md, "Not picked").
struct Unpicked {
    std::string id; // arXiv ID without version
    std::string title;
    bool operator==(const Unpicked&) const = default;
};

enum class DayStatus {
    announced, // the run fetched and scored the announcement
    failed,    // the run broke (e.g. the LLM quota ran out): not a quiet day
    partial,   // some candidates unscored or some API pages missing: `reason` says which
    stale,     // the feed repeated an earlier announcement or was dated unexpectedly
};

const char* to_string(DayStatus status);
std::optional<DayStatus> parse_day_status(std::string_view text);

struct Tokens {
    long long prompt = 0;
    long long completion = 0;
    long long cached = 0;
    bool operator==(const Tokens&) const = default;
};

// US dollars. Absent means unknown (a model missing from the price table),
// which is different from free.
struct Cost {
    std::optional<double> prompt;
    std::optional<double> completion;
    std::optional<double> total;
    bool operator==(const Cost&) const = default;
};

struct Counts {
    std::optional<long long> arxiv;   // entries in the feeds
    std::optional<long long> scanned; // after announce-type filtering
    std::optional<long long> relevant;
    bool operator==(const Counts&) const = default;
};

// A back-fill run: papers submitted in [from, to], generated later.
struct Remedial {
    Date from;
    Date to;
    std::optional<Date> generated;
    bool operator==(const Remedial&) const = default;
};

struct Day {
    Date date;
    DayStatus status = DayStatus::announced;
    std::string reason; // why the day is partial, stale or failed; empty when announced
    std::string model;
    std::optional<double> temperature; // as sent to the LLM; absent when not sent
    std::optional<long long> seed;     // likewise
    std::string reply_format; // the reply format honoured: json_schema, json_object or text; empty when unknown
    std::optional<Tokens> tokens;
    Cost cost;
    Counts counts;
    std::optional<Remedial> remedial;
    std::string prompt; // path of the selection prompt, relative to content/
    std::vector<Paper> papers;
    std::vector<Unpicked> unpicked; // the day's other candidates, in the feed's order (at most max_papers_per_day)

    bool operator==(const Day&) const = default;
};

// An author as arXiv's feed writes one in dc:creator: the name, then the
// affiliations joined by ", " in parentheses, "Kaiming He (MIT, CSAIL)"
// (github.com/arXiv/arxiv-feed, feed/serializers/extensions.py,
// ArxivEntryExtension.__add_authors). Only a balanced group that ends the text
// and follows a name is taken: "Wei (David) Zhang" is a name, and nested
// parentheses stay in the affiliation ("A. Smith (Inst. (IIT) Delhi)").
struct AuthorParts {
    std::string name;
    std::string affiliations; // as written inside the parentheses; empty when none
};
AuthorParts split_author(std::string_view author);
// The feed's form from a name and its affiliations (the export API's <name>
// and <arxiv:affiliation> elements), so both sources give the same author.
std::string feed_author(std::string_view name, const std::vector<std::string>& affiliations);

// Puts text from outside into the form the model keeps: no trailing spaces on
// lines, no "\r", at most one blank line in a row, no blanks before the
// first word or after the last, and valid XML text (valid_xml_text: a
// control becomes a space, invalid UTF-8 U+FFFD). Single-line fields (titles,
// authors) also collapse all whitespace.
std::string tidy_text(std::string_view text);
std::string tidy_line(std::string_view text);
void tidy_paper(Paper& paper);

} // namespace pp
