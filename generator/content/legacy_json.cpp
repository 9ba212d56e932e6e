#include "content/legacy_json.h"

#include "core/arxiv_id.h"
#include "util/text.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <cmath>

namespace pp {

namespace {

using Json = rapidjson::Value;

int line_at(std::string_view text, size_t offset) {
    offset = std::min(offset, text.size());
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

Result<rapidjson::Document> parse_json(std::string_view text, const std::string& file) {
    rapidjson::Document doc;
    doc.Parse(text.data(), text.size());
    if (doc.HasParseError())
        return fail(std::string("invalid JSON: ") + rapidjson::GetParseError_En(doc.GetParseError()), file,
                    line_at(text, doc.GetErrorOffset()));
    return doc;
}

std::string string_of(const Json& object, const char* key) {
    if (!object.IsObject()) return {};
    auto it = object.FindMember(key);
    if (it == object.MemberEnd()) return {};
    if (it->value.IsString()) return {it->value.GetString(), it->value.GetStringLength()};
    if (it->value.IsNumber()) return format_double(it->value.GetDouble());
    return {};
}

// Scores were written as numbers by some versions and as strings by others.
std::optional<double> number_of(const Json& object, const char* key) {
    if (!object.IsObject()) return std::nullopt;
    auto it = object.FindMember(key);
    if (it == object.MemberEnd()) return std::nullopt;
    if (it->value.IsNumber()) return it->value.GetDouble();
    if (it->value.IsString()) return parse_double(trim(it->value.GetString()));
    return std::nullopt;
}

std::optional<int> score_of(const Json& object, const char* key) {
    auto value = number_of(object, key);
    if (!value) return std::nullopt;
    return static_cast<int>(std::lround(*value));
}

std::vector<std::string> strings_of(const Json& object, const char* key) {
    std::vector<std::string> out;
    if (!object.IsObject()) return out;
    auto it = object.FindMember(key);
    if (it == object.MemberEnd()) return out;
    if (it->value.IsString()) {
        out = split_top_level_commas(it->value.GetString());
    } else if (it->value.IsArray()) {
        for (const auto& item : it->value.GetArray())
            if (item.IsString()) out.emplace_back(item.GetString(), item.GetStringLength());
    }
    return out;
}

Paper paper_from(const std::string& key, const Json& entry) {
    Paper paper;
    std::string id = string_of(entry, "arxiv_id");
    if (id.empty()) id = string_of(entry, "ARXIVID");
    if (id.empty()) id = key;
    auto parsed = parse_arxiv_id(trim(id));
    paper.id = parsed ? parsed->id : id;
    paper.title = string_of(entry, "title");
    paper.authors = strings_of(entry, "authors");
    paper.abstract = std::string(strip_announce_prefix(string_of(entry, "abstract")));
    paper.comment = string_of(entry, "COMMENT");
    paper.relevance = score_of(entry, "RELEVANCE");
    paper.novelty = score_of(entry, "NOVELTY");
    if (paper.comment == "Author match") {
        paper.author_match = true;
        paper.comment.clear();
    }
    paper.topic = string_of(entry, "PRIMARY_TOPIC_LABEL");
    for (auto& label : strings_of(entry, "MATCHED_TOPIC_LABELS"))
        if (label != paper.topic) paper.also_topics.push_back(label);
    paper.topic_note = string_of(entry, "TOPIC_MATCH_COMMENT");
    tidy_paper(paper);
    return paper;
}

} // namespace

Result<std::vector<Paper>> parse_output_json(std::string_view text, const std::string& file) {
    auto doc = parse_json(text, file);
    if (!doc) return std::unexpected(doc.error());
    std::vector<Paper> papers;
    if (doc->IsObject()) {
        for (const auto& member : doc->GetObject())
            papers.push_back(paper_from(member.name.GetString(), member.value));
    } else if (doc->IsArray()) {
        for (const auto& entry : doc->GetArray()) papers.push_back(paper_from({}, entry));
    } else {
        return fail("expected a JSON object mapping arXiv IDs to papers", file, 1);
    }
    for (const auto& paper : papers)
        if (!is_canonical_arxiv_id(paper.id))
            return fail("expected a well-formed arXiv ID, got '" + paper.id + "'", file, 0);
    return papers;
}

Result<LegacyUsage> parse_daily_papers_json(std::string_view text, const std::string& file) {
    auto doc = parse_json(text, file);
    if (!doc) return std::unexpected(doc.error());
    if (!doc->IsObject() || !doc->HasMember("meta") || !(*doc)["meta"].IsObject())
        return fail("expected a JSON object with a 'meta' object", file, 1);
    const Json& meta = (*doc)["meta"];
    LegacyUsage usage;
    if (!meta.HasMember("usage")) return usage;
    const Json& u = meta["usage"];
    usage.model = string_of(u, "model");
    auto prompt = number_of(u, "prompt_tokens"), completion = number_of(u, "completion_tokens");
    if (prompt || completion)
        usage.tokens = Tokens{static_cast<long long>(prompt.value_or(0)),
                              static_cast<long long>(completion.value_or(0)),
                              static_cast<long long>(number_of(u, "cached_tokens").value_or(0))};
    usage.cost.prompt = number_of(u, "prompt_cost");
    usage.cost.completion = number_of(u, "completion_cost");
    if (usage.cost.prompt && usage.cost.completion) usage.cost.total = *usage.cost.prompt + *usage.cost.completion;
    auto count = [&](const char* key) -> std::optional<long long> {
        auto n = number_of(u, key);
        return n ? std::optional<long long>(static_cast<long long>(*n)) : std::nullopt;
    };
    usage.counts = {count("total_arxiv_papers"), count("total_scanned_papers"), count("total_relevant_papers")};
    return usage;
}

} // namespace pp
