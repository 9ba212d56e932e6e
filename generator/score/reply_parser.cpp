#include "score/reply_parser.h"

#include "core/arxiv_id.h"
#include "util/text.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace pp {

namespace {

// Drops reasoning: everything up to the last "</think>" (some models emit
// only the closing tag).
std::string_view without_reasoning(std::string_view text) {
    auto end = text.rfind("</think>");
    if (end != std::string_view::npos) text.remove_prefix(end + 8);
    return text;
}

// Removes commas that directly precede '}' or ']' outside strings.
std::string without_trailing_commas(std::string_view json) {
    std::string out;
    bool in_string = false, escaped = false;
    for (size_t i = 0; i < json.size(); ++i) {
        char c = json[i];
        if (in_string) {
            out += c;
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') in_string = true;
        if (c == ',') {
            size_t next = i + 1;
            while (next < json.size() && std::isspace(static_cast<unsigned char>(json[next]))) ++next;
            if (next < json.size() && (json[next] == '}' || json[next] == ']')) continue;
        }
        out += c;
    }
    return out;
}

// Each balanced top-level {...} or [...] span in the text, in order.
std::vector<std::string_view> json_spans(std::string_view text) {
    std::vector<std::string_view> spans;
    size_t i = 0;
    while (i < text.size()) {
        if (text[i] != '{' && text[i] != '[') {
            ++i;
            continue;
        }
        int depth = 0;
        bool in_string = false, escaped = false;
        size_t j = i;
        for (; j < text.size(); ++j) {
            char c = text[j];
            if (in_string) {
                if (escaped) escaped = false;
                else if (c == '\\') escaped = true;
                else if (c == '"') in_string = false;
            } else if (c == '"') {
                in_string = true;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (--depth == 0) break;
            }
        }
        if (j >= text.size()) { // unbalanced: a stray bracket in prose
            ++i;
            continue;
        }
        spans.push_back(text.substr(i, j - i + 1));
        i = j + 1;
    }
    return spans;
}

const rapidjson::Value* member(const rapidjson::Value& object, std::initializer_list<const char*> names) {
    for (auto it = object.MemberBegin(); it != object.MemberEnd(); ++it) {
        std::string key(it->name.GetString(), it->name.GetStringLength());
        for (auto& c : key) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        std::erase(key, '_');
        for (const char* name : names)
            if (key == name) return &it->value;
    }
    return nullptr;
}

std::optional<int> score_value(const rapidjson::Value* value) {
    if (!value) return std::nullopt;
    std::optional<double> number;
    if (value->IsNumber()) number = value->GetDouble();
    else if (value->IsString()) number = parse_double(trim(value->GetString()));
    if (!number || !std::isfinite(*number)) return std::nullopt;
    return std::clamp(static_cast<int>(std::lround(*number)), 1, 10);
}

std::string string_value(const rapidjson::Value* value) {
    if (!value) return {};
    if (value->IsString()) return {value->GetString(), value->GetStringLength()};
    if (value->IsNumber()) return std::to_string(value->GetDouble());
    return {};
}

void collect(const rapidjson::Value& value, std::vector<ScoreReply>& out) {
    if (value.IsArray()) {
        for (const auto& item : value.GetArray()) collect(item, out);
        return;
    }
    if (!value.IsObject()) return;
    const rapidjson::Value* id_value = member(value, {"ARXIVID", "ID", "PAPERID"});
    std::string id_text = string_value(id_value);
    auto id = parse_arxiv_id(trim(id_text));
    if (!id) {
        // A wrapper object such as {"papers": [...]}.
        for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) collect(it->value, out);
        return;
    }
    ScoreReply reply;
    reply.id = id->id;
    reply.relevance = score_value(member(value, {"RELEVANCE"}));
    reply.novelty = score_value(member(value, {"NOVELTY"}));
    reply.comment = std::string(trim(string_value(member(value, {"COMMENT", "REASON"}))));
    out.push_back(std::move(reply));
}

// Calls `each` for every JSON value in the text. A span that does not parse
// (one broken object in an array) is searched for smaller spans inside it.
template <class Each>
void for_each_json(std::string_view text, const Each& each) {
    for (auto span : json_spans(text)) {
        rapidjson::Document doc;
        std::string cleaned = without_trailing_commas(span);
        doc.Parse(cleaned.c_str(), cleaned.size());
        if (!doc.HasParseError()) each(doc);
        else if (span.size() > 2) for_each_json(span.substr(1, span.size() - 2), each);
    }
}

} // namespace

std::vector<ScoreReply> parse_score_reply(std::string_view reply) {
    std::vector<ScoreReply> out;
    for_each_json(without_reasoning(reply), [&](const rapidjson::Value& doc) { collect(doc, out); });
    return out;
}

std::vector<std::string> parse_id_list_reply(std::string_view reply) {
    std::vector<std::string> ids;
    for_each_json(without_reasoning(reply), [&](const rapidjson::Value& doc) {
        if (!doc.IsArray()) return;
        for (const auto& item : doc.GetArray())
            if (item.IsString())
                if (auto id = parse_arxiv_id(trim(item.GetString()))) ids.push_back(id->id);
    });
    return ids;
}

} // namespace pp
