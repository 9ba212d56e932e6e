#include "score/score_cache.h"

#include "core/arxiv_id.h"
#include "util/hash.h"
#include "util/json.h"
#include "util/text.h"

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

namespace pp {

namespace {

// A score as the reply parser makes it: a whole number from 1 to 10.
bool read_score(const rapidjson::Value& entry, const char* key, std::optional<int>& out) {
    auto it = entry.FindMember(key);
    if (it == entry.MemberEnd()) return true;
    if (!it->value.IsInt() || it->value.GetInt() < 1 || it->value.GetInt() > 10) return false;
    out = it->value.GetInt();
    return true;
}

// One cached score; nullopt when it is not what save() writes.
std::optional<ScoreReply> read_entry(std::string_view id, const rapidjson::Value& entry) {
    if (!is_canonical_arxiv_id(id) || !entry.IsObject()) return std::nullopt;
    ScoreReply reply;
    reply.id = std::string(id);
    if (!read_score(entry, "relevance", reply.relevance) || !read_score(entry, "novelty", reply.novelty))
        return std::nullopt;
    auto comment = entry.FindMember("comment");
    if (comment != entry.MemberEnd()) {
        if (!comment->value.IsString()) return std::nullopt;
        reply.comment.assign(comment->value.GetString(), comment->value.GetStringLength());
    }
    auto topic = entry.FindMember("topic");
    if (topic != entry.MemberEnd()) {
        if (!topic->value.IsString()) return std::nullopt;
        reply.topic.assign(topic->value.GetString(), topic->value.GetStringLength());
    }
    return reply;
}

} // namespace

ScoreCache::ScoreCache(const fs::path& dir, const std::string& model, const std::string& prompt_text)
    : path_(dir / (hash_hex(model + "\n" + prompt_text) + ".json")), model_(model) {
    std::error_code missing;
    if (!fs::exists(path_, missing)) return;                                    // no cache yet
    auto text = read_file_inside(config_path_root(path_.parent_path()), path_); // no link out of the project
    rapidjson::Document doc;
    if (!text || !parse_json(doc, *text) || !doc.IsObject() || !doc.HasMember("scores") || !doc["scores"].IsObject()) {
        warnings_.push_back(path_.string() + ": not a score cache (expected an object with 'scores'); ignored");
        return;
    }
    int ignored = 0;
    std::string first_ignored;
    for (const auto& entry : doc["scores"].GetObject()) {
        std::string_view id(entry.name.GetString(), entry.name.GetStringLength());
        if (auto reply = read_entry(id, entry.value)) {
            scores_[reply->id] = std::move(*reply);
        } else if (ignored++ == 0) {
            first_ignored = excerpt(id);
        }
    }
    if (ignored > 0)
        warnings_.push_back(path_.string() + ": ignored " + std::to_string(ignored) +
                            " entries that are not an arXiv ID with scores from 1 to 10 (the first: " + first_ignored +
                            "); they will be scored again");
}

std::optional<ScoreReply> ScoreCache::find(const std::string& id) const {
    std::lock_guard lock(mutex_);
    auto it = scores_.find(id);
    if (it == scores_.end()) return std::nullopt;
    return it->second;
}

void ScoreCache::store(const ScoreReply& reply) {
    std::lock_guard lock(mutex_);
    scores_[reply.id] = reply;
}

Result<void> ScoreCache::save() const {
    rapidjson::StringBuffer buffer;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> json(buffer);
    {
        std::lock_guard lock(mutex_);
        json.StartObject();
        json.Key("model");
        json.String(model_.c_str());
        json.Key("scores");
        json.StartObject();
        for (const auto& [id, reply] : scores_) {
            json.Key(id.c_str());
            json.StartObject();
            if (reply.relevance) json.Key("relevance"), json.Int(*reply.relevance);
            if (reply.novelty) json.Key("novelty"), json.Int(*reply.novelty);
            json.Key("comment");
            json.String(reply.comment.c_str());
            if (!reply.topic.empty()) json.Key("topic"), json.String(reply.topic.c_str());
            json.EndObject();
        }
        json.EndObject();
        json.EndObject();
    }
    remove_dead_temp_files_of(path_); // left by a run that was killed
    auto written = write_file_inside(config_path_root(path_.parent_path()), path_,
                                     escape_control_bytes({buffer.GetString(), buffer.GetSize()}) + "\n");
    if (!written) return std::unexpected(written.error());
    return {};
}

} // namespace pp
