#include "score/reply_parser.h"

#include "core/arxiv_id.h"
#include "util/json.h"
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

// The balanced {...} and [...] spans of a text, as a forest: spans are
// stored flat (a tree of nested objects would recurse when destroyed, and a
// reply can nest 200,000 deep), each linking to its first span inside and
// its next sibling. Quotes count only inside brackets, so prose around
// the JSON cannot start a string.
struct Spans {
    struct Span {
        std::size_t begin, end; // end: the closing bracket
        int first_inside = -1, next = -1;
    };
    std::vector<Span> all;
    int first = -1; // the first top-level span
};

// One pass with a stack of open brackets: a stray bracket in prose stays
// open and costs nothing more (rescanning from each one was quadratic).
Spans json_spans(std::string_view text) {
    Spans spans;
    std::vector<std::size_t> open; // unclosed brackets
    std::vector<int> closed;       // closed spans not yet inside a closed one, by position
    bool in_string = false, escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = !open.empty();
        } else if (c == '{' || c == '[') {
            open.push_back(i);
        } else if ((c == '}' || c == ']') && !open.empty()) {
            Spans::Span span{open.back(), i};
            open.pop_back();
            // The closed spans after this one's start are inside it: link them, last first.
            while (!closed.empty() && spans.all[static_cast<std::size_t>(closed.back())].begin > span.begin) {
                spans.all[static_cast<std::size_t>(closed.back())].next = span.first_inside;
                span.first_inside = closed.back();
                closed.pop_back();
            }
            spans.all.push_back(span);
            closed.push_back(static_cast<int>(spans.all.size() - 1));
        }
    }
    for (auto it = closed.rbegin(); it != closed.rend(); ++it) {
        spans.all[static_cast<std::size_t>(*it)].next = spans.first;
        spans.first = *it;
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
    // Clamped before rounding: lround of 1e300 is undefined.
    return static_cast<int>(std::lround(std::clamp(*number, 1.0, 10.0)));
}

std::string string_value(const rapidjson::Value* value) {
    if (!value) return {};
    if (value->IsString()) return {value->GetString(), value->GetStringLength()};
    if (value->IsNumber()) return std::to_string(value->GetDouble());
    return {};
}

// Papers sit a level or two deep ({"papers": [...]}); deeper nesting is not
// searched, so a valid but hostile reply cannot exhaust the stack.
constexpr int max_collect_depth = 16;

void collect(const rapidjson::Value& value, std::vector<ScoreReply>& out, int depth = 0) {
    if (depth > max_collect_depth) return;
    if (value.IsArray()) {
        for (const auto& item : value.GetArray()) collect(item, out, depth + 1);
        return;
    }
    if (!value.IsObject()) return;
    const rapidjson::Value* id_value = member(value, {"ARXIVID", "ID", "PAPERID"});
    std::string id_text = string_value(id_value);
    auto id = parse_arxiv_id(trim(id_text));
    if (!id) {
        // A wrapper object such as {"papers": [...]}.
        for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) collect(it->value, out, depth + 1);
        return;
    }
    ScoreReply reply;
    reply.id = id->id;
    reply.relevance = score_value(member(value, {"RELEVANCE"}));
    reply.novelty = score_value(member(value, {"NOVELTY"}));
    reply.comment = std::string(trim(string_value(member(value, {"COMMENT", "REASON"}))));
    reply.topic = std::string(trim(string_value(member(value, {"TOPIC"}))));
    out.push_back(std::move(reply));
}

// A span that does not parse is searched for spans inside it, this many
// levels down (a broken object in an array in a wrapper): each level parses
// each byte at most once, so the work stays linear.
constexpr int max_retry_depth = 4;

template <class Each>
void for_each_json(std::string_view text, const Spans& spans, int first, int depth, const Each& each) {
    for (int i = first; i >= 0; i = spans.all[static_cast<std::size_t>(i)].next) {
        const auto& span = spans.all[static_cast<std::size_t>(i)];
        rapidjson::Document doc;
        if (parse_json(doc, without_trailing_commas(text.substr(span.begin, span.end - span.begin + 1)))) each(doc);
        else if (depth < max_retry_depth) for_each_json(text, spans, span.first_inside, depth + 1, each);
    }
}

// Calls `each` for every JSON value in the reply.
template <class Each>
void for_each_json(std::string_view reply, const Each& each) {
    std::string_view text = without_reasoning(reply).substr(0, max_reply_bytes);
    Spans spans = json_spans(text);
    for_each_json(text, spans, spans.first, 0, each);
}

} // namespace

std::vector<ScoreReply> parse_score_reply(std::string_view reply) {
    std::vector<ScoreReply> out;
    for_each_json(reply, [&](const rapidjson::Value& doc) { collect(doc, out); });
    return out;
}

std::vector<std::string> parse_id_list_reply(std::string_view reply) {
    std::vector<std::string> ids;
    for_each_json(reply, [&](const rapidjson::Value& doc) {
        if (!doc.IsArray()) return;
        for (const auto& item : doc.GetArray())
            if (item.IsString())
                if (auto id = parse_arxiv_id(trim(item.GetString()))) ids.push_back(id->id);
    });
    return ids;
}

} // namespace pp
