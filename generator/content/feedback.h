// The reader's feedback: content/feedback/*.txt, one judgement a line,
//     2026-11-28 star 2511.01234  # optional comment, e.g. the title
//     2026-11-28 hide 2511.04321
// (docs/content-format.md, "Feedback"). `star` is "more like this", `hide`
// "not for me"; the judgement in force for a paper is its latest by date,
// on equal dates the later file (by name) and then the later line.
#pragma once

#include "core/date.h"
#include "util/error.h"
#include "util/files.h"

#include <string>
#include <vector>

namespace pp {

enum class Verdict { star, hide };
struct Judgement {
    Date date;
    Verdict verdict;
    std::string id;
};

const char* to_string(Verdict verdict); // "star", "hide"

// Every file's judgements, then the one in force per paper (sorted by id):
Result<std::vector<Judgement>> read_feedback(const std::filesystem::path& content_root);
std::vector<Judgement> judgements_in_force(std::vector<Judgement> all);

// A feedback file is a reader's list, not an archive: past this size it is refused.
constexpr std::size_t max_feedback_file_bytes = 4u << 20;

// One file's text (named `file` in errors): its judgements in line order,
// and an error naming file:line for every line that is not one.
struct FeedbackFile {
    std::vector<Judgement> judgements;
    std::vector<Error> errors;
};
FeedbackFile parse_feedback(std::string_view text, const std::string& file);

// Every file's judgements (files by name, lines in order) and every error:
// for `check`, and for a run that scores with the good files and warns of
// the bad ones. No folder content/feedback/ is no feedback.
FeedbackFile scan_feedback(const fs::path& content_root);

// "2026-11-28 star 2511.01234\n"
std::string feedback_line(const Judgement& judgement);

// content/feedback/YYYY-MM.txt, the month of `today`: where the CLI writes.
fs::path feedback_month_path(const fs::path& content_root, const Date& today);

// Appends `lines` (feedback_line each) to that month's file, rewritten atomically beneath `content_root`.
Result<WriteOutcome> append_feedback(const fs::path& content_root, const Date& today,
                                     const std::vector<Judgement>& lines);

} // namespace pp
