#include "score/summary.h"

#include "core/arxiv_id.h"
#include "util/hash.h"
#include "util/json.h"
#include "util/record_file.h"
#include "util/text.h"

#include <rapidjson/document.h>

#include <array>

namespace pp {

namespace {

// The parts in the order of the JSON object, the day file and the page.
constexpr std::array<std::pair<const char*, std::string PaperSummary::*>, 5> parts = {{
    {"tldr", &PaperSummary::tldr},
    {"motivation", &PaperSummary::motivation},
    {"method", &PaperSummary::method},
    {"result", &PaperSummary::result},
    {"conclusion", &PaperSummary::conclusion},
}};

// The prompt's text, part of the cache's key: a changed prompt asks again.
// "JSON" is in it, as JSON mode requires of a message (platform.openai.com/docs/guides/structured-outputs).
std::string system_prompt(const std::string& language) {
    return "You write short summaries of research papers for a reader's daily digest of new arXiv papers.\n"
           "Write every part in " +
           language +
           ", whatever the language of the paper. Say only what the title and the abstract say; a part they do "
           "not speak to is an empty string. Plain text: no Markdown.\n"
           "Answer in JSON: one object {\"tldr\": \"...\", \"motivation\": \"...\", \"method\": \"...\", "
           "\"result\": \"...\", \"conclusion\": \"...\"} and nothing else. tldr: the paper in one sentence. "
           "motivation: the problem and why it matters. method: what the authors do. result: what they find, "
           "with the abstract's numbers. conclusion: what it means. One to three sentences each.";
}

// The JSON object in a reply: after a reasoning block, inside a code fence or prose.
std::string_view json_object_in(std::string_view content) {
    if (auto think = content.rfind("</think>"); think != std::string_view::npos) content.remove_prefix(think + 8);
    const auto open = content.find('{');
    const auto close = content.rfind('}');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return {};
    return content.substr(open, close - open + 1);
}

const RecordFormat& cache_format() {
    static const RecordFormat format{
        .name = "paperpress summary cache",
        .version = 1,
        .kinds = {{'S', {"id", "tldr", "motivation", "method", "result", "conclusion"}}},
        .max_line = std::size_t{1} << 16,
        .max_values = 8,
    };
    return format;
}

} // namespace

std::vector<ChatMessage> summary_messages(const Paper& paper, const std::string& language) {
    return {{"system", system_prompt(language)},
            {"user", "Title: " + paper.title + "\nAuthors: " + join(paper.authors, ", ") + "\nArXiv ID: " + paper.id +
                         "\nAbstract: " + paper.abstract + "\n"}};
}

PaperSummary read_summary_reply(const ChatReply& reply) {
    PaperSummary summary;
    if (reply.finish_reason == "length") {
        summary.failed = "the reply was cut at the length limit (finish_reason: length)";
        return summary;
    }
    if (reply.finish_reason == "content_filter") {
        summary.failed = "the provider withheld the reply (finish_reason: content_filter)";
        return summary;
    }
    rapidjson::Document doc;
    const std::string_view content = std::string_view(reply.content).substr(0, max_reply_bytes);
    const std::string_view json = json_object_in(content); // a view into reply.content, never a temporary
    if (json.empty() || !parse_json(doc, json) || !doc.IsObject()) {
        summary.failed = "the reply is not the JSON object asked for: " + excerpt(reply.content, 120);
        return summary;
    }
    for (const auto& [key, part] : parts) {
        auto it = doc.FindMember(key);
        if (it == doc.MemberEnd() || it->value.IsNull()) continue;
        if (!it->value.IsString() || it->value.GetStringLength() > max_summary_part_bytes)
            return PaperSummary{.failed = std::string("the reply's '") + key + "' is not a string of at most " +
                                          std::to_string(max_summary_part_bytes) + " bytes"};
        summary.*part = tidy_line({it->value.GetString(), it->value.GetStringLength()});
    }
    if (summary.tldr.empty()) return PaperSummary{.failed = "the reply has no tldr: " + excerpt(reply.content, 120)};
    return summary;
}

SummaryCache::SummaryCache(const fs::path& dir, const std::string& model, const std::string& language)
    : path_(dir / ("summaries-" + hash_hex(model + "\n" + language + "\n" + system_prompt(language)) + ".txt")) {
    std::error_code missing;
    if (!fs::exists(path_, missing)) return;
    if (auto why = load(); !why.empty()) {
        summaries_.clear();
        warnings_.push_back(why + "; the summary cache is ignored (its summaries are asked again)");
    }
}

std::string SummaryCache::load() {
    auto bytes = read_file_inside(config_path_root(path_.parent_path()), path_); // no link out of the project
    if (!bytes) return bytes.error().to_string();
    auto reader = RecordReader::open(*bytes, cache_format(), path_.string());
    if (!reader) return reader.error().to_string();
    for (;;) {
        auto record = reader->next();
        if (!record) return record.error().to_string();
        if (!*record) return {};
        const std::string id = (*record)->text(0);
        PaperSummary summary;
        for (std::size_t i = 0; i < parts.size(); ++i) summary.*parts[i].second = (*record)->text(i + 1);
        if (!is_canonical_arxiv_id(id) || summary.tldr.empty())
            return reader->problem("an arXiv ID and a TL;DR").to_string();
        summaries_[id] = std::move(summary);
    }
}

std::optional<PaperSummary> SummaryCache::find(const std::string& id) const {
    std::lock_guard lock(mutex_);
    auto it = summaries_.find(id);
    if (it == summaries_.end()) return std::nullopt;
    return it->second;
}

void SummaryCache::store(const std::string& id, const PaperSummary& summary) {
    if (summary.tldr.empty()) return; // a failure is asked again, not kept
    std::lock_guard lock(mutex_);
    summaries_[id] = summary;
}

Result<void> SummaryCache::save() const {
    std::string out;
    RecordWriter w(cache_format(), [&out](std::string_view bytes) { out += bytes; });
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, summary] : summaries_) {
            w.begin('S');
            w.text(id);
            for (const auto& [key, part] : parts) w.text(summary.*part);
            w.end();
        }
    }
    w.finish();
    auto written = write_file_inside(config_path_root(path_.parent_path()), path_, out);
    if (!written) return std::unexpected(written.error());
    return {};
}

Summaries summarize_papers(const std::vector<Paper>& papers, const std::string& language, LlmScorerOptions options,
                           SummaryCache* cache) {
    Summaries out;
    std::vector<Paper> pending;
    for (const auto& paper : papers) {
        if (cache)
            if (auto hit = cache->find(paper.id)) {
                out.by_id[paper.id] = std::move(*hit);
                ++out.cache_hits;
                continue;
            }
        pending.push_back(paper);
    }
    if (pending.empty()) return out;
    options.reply = ReplyKind::summary;
    out.calls = ask_each_paper(
        pending, options, [&](const Paper& paper) { return summary_messages(paper, language); },
        [&](const Paper& paper, const Result<ChatReply>& reply) {
            PaperSummary summary =
                reply ? read_summary_reply(*reply) : PaperSummary{.failed = excerpt(reply.error().message, 300)};
            if (cache) cache->store(paper.id, summary);
            out.by_id[paper.id] = std::move(summary);
        });
    for (const auto& paper : pending) // unasked: the LLM stopped first
        if (!out.by_id.contains(paper.id)) out.by_id[paper.id].failed = "the LLM stopped serving: " + out.calls.stopped;
    return out;
}

} // namespace pp
