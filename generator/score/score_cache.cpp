#include "score/score_cache.h"

#include "util/text.h"

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

namespace pp {

ScoreCache::ScoreCache(const fs::path& dir, const std::string& model, const std::string& prompt_text)
    : path_(dir / (fnv1a_hex(model + "\n" + prompt_text) + ".json")), model_(model) {
    auto text = read_file(path_);
    if (!text) return; // no cache yet
    rapidjson::Document doc;
    doc.Parse(text->c_str(), text->size());
    if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("scores") || !doc["scores"].IsObject()) return;
    for (const auto& entry : doc["scores"].GetObject()) {
        ScoreReply reply;
        reply.id = entry.name.GetString();
        const auto& v = entry.value;
        if (!v.IsObject()) continue;
        if (v.HasMember("relevance") && v["relevance"].IsInt()) reply.relevance = v["relevance"].GetInt();
        if (v.HasMember("novelty") && v["novelty"].IsInt()) reply.novelty = v["novelty"].GetInt();
        if (v.HasMember("comment") && v["comment"].IsString()) reply.comment = v["comment"].GetString();
        scores_[reply.id] = reply;
    }
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
            json.EndObject();
        }
        json.EndObject();
        json.EndObject();
    }
    return write_file_atomic(path_, std::string(buffer.GetString()) + "\n");
}

} // namespace pp
