#include "content/legacy_json.h"

#include "core/arxiv_id.h"
#include "util/json.h"
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

Result<rapidjson::Document> parse_document(std::string_view text, const std::string& file) {
    rapidjson::Document doc;
    if (!parse_json(doc, text))
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

// A score a day file can hold: a number that rounds to 0-10.
Result<std::optional<int>> score_of(const Json& object, const char* key, const std::string& id) {
    auto value = number_of(object, key);
    if (!value) return std::nullopt;
    if (!std::isfinite(*value))
        return fail(std::string("expected ") + key + " of " + excerpt(id) + " to be a number, got " +
                    format_double(*value));
    // Out of 0-10 is the reference's mistake, not a reason to lose the day:
    // the importer clamps it with a warning (make_importable). Bounded here
    // so the conversion to int is defined.
    return static_cast<int>(std::lround(std::clamp(*value, -1000.0, 1000.0)));
}

// A count (tokens, papers), sometimes written as a float or a string: a
// finite number from 0 to 10^15, taken to the nearest whole number.
Result<std::optional<long long>> count_of(const Json& object, const char* key) {
    auto value = number_of(object, key);
    if (!value) return std::nullopt;
    if (!std::isfinite(*value) || *value < 0 || *value > 1e15)
        return fail(std::string("expected '") + key + "' to be a whole number, got " + format_double(*value));
    return std::llround(*value);
}

// An amount in dollars: finite and not negative.
Result<std::optional<double>> money_of(const Json& object, const char* key) {
    auto value = number_of(object, key);
    if (value && (!std::isfinite(*value) || *value < 0))
        return fail(std::string("expected '") + key + "' to be an amount in dollars, got " + format_double(*value));
    return value;
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

Result<Paper> paper_from(const std::string& key, const Json& entry) {
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
    auto relevance = score_of(entry, "RELEVANCE", paper.id), novelty = score_of(entry, "NOVELTY", paper.id);
    if (!relevance) return std::unexpected(relevance.error());
    if (!novelty) return std::unexpected(novelty.error());
    paper.relevance = *relevance;
    paper.novelty = *novelty;
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
    auto doc = parse_document(text, file);
    if (!doc) return std::unexpected(doc.error());
    if (!doc->IsObject() && !doc->IsArray()) return fail("expected a JSON object mapping arXiv IDs to papers", file, 1);
    std::vector<Paper> papers;
    auto add = [&](const std::string& key, const Json& entry) -> Result<void> {
        auto paper = paper_from(key, entry);
        if (!paper) return std::unexpected(in_file(paper.error(), file));
        if (!is_canonical_arxiv_id(paper->id))
            return fail("expected a well-formed arXiv ID, got " + excerpt(paper->id), file, 0);
        papers.push_back(std::move(*paper));
        return {};
    };
    if (doc->IsObject()) {
        for (const auto& member : doc->GetObject())
            if (auto added = add({member.name.GetString(), member.name.GetStringLength()}, member.value); !added)
                return std::unexpected(added.error());
    } else {
        for (const auto& entry : doc->GetArray())
            if (auto added = add({}, entry); !added) return std::unexpected(added.error());
    }
    return papers;
}

Result<LegacyUsage> parse_daily_papers_json(std::string_view text, const std::string& file) {
    auto doc = parse_document(text, file);
    if (!doc) return std::unexpected(doc.error());
    if (!doc->IsObject() || !doc->HasMember("meta") || !(*doc)["meta"].IsObject())
        return fail("expected a JSON object with a 'meta' object", file, 1);
    const Json& meta = (*doc)["meta"];
    LegacyUsage usage;
    if (!meta.HasMember("usage")) return usage;
    const Json& u = meta["usage"];
    usage.model = string_of(u, "model");
    auto prompt = count_of(u, "prompt_tokens"), completion = count_of(u, "completion_tokens");
    auto cached = count_of(u, "cached_tokens");
    auto prompt_cost = money_of(u, "prompt_cost"), completion_cost = money_of(u, "completion_cost");
    auto arxiv = count_of(u, "total_arxiv_papers"), scanned = count_of(u, "total_scanned_papers");
    auto relevant = count_of(u, "total_relevant_papers");
    for (const Error* error : {prompt ? nullptr : &prompt.error(), completion ? nullptr : &completion.error(),
                               cached ? nullptr : &cached.error(), prompt_cost ? nullptr : &prompt_cost.error(),
                               completion_cost ? nullptr : &completion_cost.error(), arxiv ? nullptr : &arxiv.error(),
                               scanned ? nullptr : &scanned.error(), relevant ? nullptr : &relevant.error()})
        if (error) return std::unexpected(in_file(*error, file));
    if (*prompt || *completion)
        usage.tokens = Tokens{prompt->value_or(0), completion->value_or(0), cached->value_or(0)};
    usage.cost.prompt = *prompt_cost;
    usage.cost.completion = *completion_cost;
    if (usage.cost.prompt && usage.cost.completion) usage.cost.total = *usage.cost.prompt + *usage.cost.completion;
    usage.counts = {*arxiv, *scanned, *relevant};
    return usage;
}

} // namespace pp
