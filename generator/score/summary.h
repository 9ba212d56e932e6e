// Summaries of a day's picks by the LLM, in the reader's language
// (llm.language): a TL;DR, the motivation, the method, the result and the
// conclusion, asked as structured output through the scorer's session
// (ask_each_paper), one request a pick. Only the picks are summarized, so
// the cost stays bounded by the day's picks, not its feed. A reply that was
// cut, refused or is not the JSON asked for is recorded as such
// (PaperSummary::failed), never mended into a text the model did not write.
#pragma once

#include "score/llm_scorer.h"
#include "util/files.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace pp {

// A part longer than this is no summary (a runaway reply): recorded as failed.
inline constexpr std::size_t max_summary_part_bytes = 4000;

// The system and user messages asking for `paper`'s summary in `language`.
std::vector<ChatMessage> summary_messages(const Paper& paper, const std::string& language);

// The summary a reply holds: its JSON object {tldr, motivation, method,
// result, conclusion} (alone, fenced, or after prose or a <think> block),
// each part one line of tidy text. `failed` says why there is none: a reply
// cut at the length limit, one that is not that object, or one without a TL;DR.
PaperSummary read_summary_reply(const ChatReply& reply);

// Summaries already paid for: one record file (util/record_file.h) a model,
// language and prompt, under the score cache's folder, read beneath the
// project. Only summaries are kept, never failures: those are asked again.
class SummaryCache {
public:
    SummaryCache(const fs::path& dir, const std::string& model, const std::string& language);
    std::optional<PaperSummary> find(const std::string& id) const;
    void store(const std::string& id, const PaperSummary& summary);
    Result<void> save() const; // atomic; sorted by ID
    const fs::path& path() const { return path_; }
    // Why the file was ignored, if it was (another version, a bad checksum).
    const std::vector<std::string>& warnings() const { return warnings_; }

private:
    std::string load(); // why the file cannot be used; empty when it was read

    fs::path path_;
    mutable std::mutex mutex_;
    std::map<std::string, PaperSummary> summaries_;
    std::vector<std::string> warnings_;
};

struct Summaries {
    std::map<std::string, PaperSummary> by_id; // every paper asked about: its summary, or why it has none
    LlmScoring calls;                          // the requests: tokens, failures, a stop
    int cache_hits = 0;
};

// Summarizes `papers` in `language`: the cache first, then one request each.
Summaries summarize_papers(const std::vector<Paper>& papers, const std::string& language, LlmScorerOptions options,
                           SummaryCache* cache);

} // namespace pp
