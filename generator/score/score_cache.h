// Scores already paid for: one JSON file per (model, prompt) pair under the
// cache folder, mapping paper IDs to their scores. Re-running a day pays
// only for papers not yet scored with this model and this prompt.
#pragma once

#include "score/reply_parser.h"
#include "util/files.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace pp {

class ScoreCache {
public:
    // Loads the file for this model and prompt text, if there is one.
    ScoreCache(const fs::path& dir, const std::string& model, const std::string& prompt_text);

    std::optional<ScoreReply> find(const std::string& id) const;
    void store(const ScoreReply& reply);
    Result<void> save() const; // atomic; sorted by ID, so the file is deterministic
    const fs::path& path() const { return path_; }
    // What was ignored when loading: the file is paperpress's own, but a
    // hand edit or a crash of another tool could have changed it.
    const std::vector<std::string>& warnings() const { return warnings_; }

private:
    fs::path path_;
    std::string model_;
    mutable std::mutex mutex_;
    std::map<std::string, ScoreReply> scores_;
    std::vector<std::string> warnings_;
};

} // namespace pp
