#include "content/day_file.h"

#include "content/front_matter.h"
#include "content/markdown.h"
#include "content/unpicked_section.h"
#include "core/arxiv_id.h"
#include "util/bom.h"
#include "util/redact.h"
#include "util/text.h"

#include <yaml-cpp/yaml.h>

#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <functional>
#include <set>

namespace pp {

namespace {

// ---------------------------------------------------------------- fields --
// One table drives both writing and reading of a paper's field list, so the
// two can never disagree about labels or order.

struct Field {
    const char* label;
    std::function<std::string(const Paper&)> get;                              // "" = field absent
    std::function<std::optional<std::string>(Paper&, const std::string&)> set; // error text
};

std::optional<std::string> set_score(std::optional<int>& target, const std::string& value) {
    auto number = parse_int(value);
    if (!number || *number < 0 || *number > 10) return "expected a whole number from 0 to 10";
    target = static_cast<int>(*number);
    return std::nullopt;
}

std::string score_text(const std::optional<int>& score) { return score ? std::to_string(*score) : std::string(); }

// A part of the paper's summary, free text.
Field text_field(const char* label, std::string PaperSummary::*part) {
    return {label, [part](const Paper& p) { return p.summary.*part; },
            [part](Paper& p, const std::string& v) -> std::optional<std::string> {
                p.summary.*part = v;
                return std::nullopt;
            }};
}

// At most 32: read_field keeps one bit per field.
const std::vector<Field>& paper_fields() {
    static const std::vector<Field> fields = {
        {"ID", [](const Paper& p) { return p.id; },
         [](Paper& p, const std::string& v) -> std::optional<std::string> {
             if (!is_canonical_arxiv_id(v))
                 return "expected an arXiv ID without version, such as 2505.13447 or hep-th/9901001";
             p.id = v;
             return std::nullopt;
         }},
        {"Authors", [](const Paper& p) { return join(p.authors, ", "); },
         [](Paper& p, const std::string& v) -> std::optional<std::string> {
             p.authors = split_top_level_commas(v);
             return std::nullopt;
         }},
        {"Author match", [](const Paper& p) { return std::string(p.author_match ? "yes" : ""); },
         [](Paper& p, const std::string& v) -> std::optional<std::string> {
             if (v != "yes" && v != "no") return "expected yes or no";
             p.author_match = v == "yes";
             return std::nullopt;
         }},
        {"Relevance", [](const Paper& p) { return score_text(p.relevance); },
         [](Paper& p, const std::string& v) { return set_score(p.relevance, v); }},
        {"Novelty", [](const Paper& p) { return score_text(p.novelty); },
         [](Paper& p, const std::string& v) { return set_score(p.novelty, v); }},
        {"Topic", [](const Paper& p) { return p.topic; },
         [](Paper& p, const std::string& v) -> std::optional<std::string> {
             p.topic = v;
             return std::nullopt;
         }},
        {"Also matches", [](const Paper& p) { return join(p.also_topics, "; "); },
         [](Paper& p, const std::string& v) -> std::optional<std::string> {
             p.also_topics.clear();
             for (auto part : split(v, ';'))
                 if (!trim(part).empty()) p.also_topics.emplace_back(trim(part));
             return std::nullopt;
         }},
        {"Topic match", [](const Paper& p) { return p.topic_note; },
         [](Paper& p, const std::string& v) -> std::optional<std::string> {
             p.topic_note = v;
             return std::nullopt;
         }},
        {"Comment", [](const Paper& p) { return p.comment; },
         [](Paper& p, const std::string& v) -> std::optional<std::string> {
             p.comment = v;
             return std::nullopt;
         }},
        // Why a paper went unscored may quote an endpoint's error: written redacted.
        {"Unscored", [](const Paper& p) { return redact(p.unscored); },
         [](Paper& p, const std::string& v) -> std::optional<std::string> {
             p.unscored = v;
             return std::nullopt;
         }},
        // The LLM's summary of a pick (docs/content-format.md), or why it has none.
        text_field("TL;DR", &PaperSummary::tldr),
        text_field("Motivation", &PaperSummary::motivation),
        text_field("Method", &PaperSummary::method),
        text_field("Result", &PaperSummary::result),
        text_field("Conclusion", &PaperSummary::conclusion),
        {"Summary failed", [](const Paper& p) { return redact(p.summary.failed); },
         [](Paper& p, const std::string& v) -> std::optional<std::string> {
             p.summary.failed = v;
             return std::nullopt;
         }},
    };
    assert(fields.size() <= 32);
    return fields;
}

std::string known_labels() {
    std::string out;
    for (const auto& field : paper_fields()) {
        if (!out.empty()) out += ", ";
        out += field.label;
    }
    return out;
}

// ---------------------------------------------------------------- writing --

void emit_optional(YAML::Emitter& out, const char* key, const std::optional<long long>& value) {
    if (value) out << YAML::Key << key << YAML::Value << *value;
}

void emit_optional(YAML::Emitter& out, const char* key, const std::optional<double>& value) {
    if (value) out << YAML::Key << key << YAML::Value << format_double(*value);
}

std::string front_matter(const Day& day) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "date" << YAML::Value << day.date.iso();
    out << YAML::Key << "status" << YAML::Value << to_string(day.status);
    // The reason may quote an endpoint's error (a URL, an echoed key): written redacted.
    if (!day.reason.empty()) out << YAML::Key << "reason" << YAML::Value << redact(day.reason);
    if (!day.model.empty()) out << YAML::Key << "model" << YAML::Value << redact_secrets(day.model);
    if (day.temperature || day.seed || !day.reply_format.empty()) {
        out << YAML::Key << "sampling" << YAML::Value << YAML::BeginMap;
        emit_optional(out, "temperature", day.temperature);
        emit_optional(out, "seed", day.seed);
        if (!day.reply_format.empty()) out << YAML::Key << "format" << YAML::Value << day.reply_format;
        out << YAML::EndMap;
    }
    if (day.tokens) {
        out << YAML::Key << "tokens" << YAML::Value << YAML::BeginMap;
        out << YAML::Key << "prompt" << YAML::Value << day.tokens->prompt;
        out << YAML::Key << "completion" << YAML::Value << day.tokens->completion;
        out << YAML::Key << "cached" << YAML::Value << day.tokens->cached;
        out << YAML::EndMap;
    }
    if (day.cost != Cost{}) {
        out << YAML::Key << "cost" << YAML::Value << YAML::BeginMap;
        emit_optional(out, "prompt", day.cost.prompt);
        emit_optional(out, "completion", day.cost.completion);
        emit_optional(out, "total", day.cost.total);
        out << YAML::EndMap;
    }
    if (day.counts != Counts{}) {
        out << YAML::Key << "counts" << YAML::Value << YAML::BeginMap;
        emit_optional(out, "arxiv", day.counts.arxiv);
        emit_optional(out, "scanned", day.counts.scanned);
        emit_optional(out, "relevant", day.counts.relevant);
        out << YAML::EndMap;
    }
    if (day.remedial) {
        out << YAML::Key << "remedial" << YAML::Value << YAML::BeginMap;
        out << YAML::Key << "from" << YAML::Value << day.remedial->from.iso();
        out << YAML::Key << "to" << YAML::Value << day.remedial->to.iso();
        if (day.remedial->generated) out << YAML::Key << "generated" << YAML::Value << day.remedial->generated->iso();
        out << YAML::EndMap;
    }
    if (!day.prompt.empty()) out << YAML::Key << "prompt" << YAML::Value << redact_secrets(day.prompt);
    out << YAML::EndMap;
    return std::string("---\n") + out.c_str() + "\n---\n";
}

// A paper's texts are cleaned of known secrets before they are escaped (an
// escaped key would no longer read as the key; util/redact.h).
std::string paper_section(const Paper& paper) {
    std::string out =
        "## [" + escape_markdown_line(redact_secrets(paper.title), false) + "](" + arxiv_abs_url(paper.id) + ")\n\n";
    for (const auto& field : paper_fields()) {
        std::string value = redact_secrets(field.get(paper));
        if (value.empty()) continue;
        out += "- **" + std::string(field.label) + ":** " + escape_markdown_lines(value, "  ", false) + "\n";
    }
    if (!paper.abstract.empty()) out += "\n" + escape_markdown_lines(redact_secrets(paper.abstract), "", true) + "\n";
    return out;
}

} // namespace

std::string write_day(const Day& day) {
    std::string out = front_matter(day);
    out += "\n# arXiv papers for " + day.date.iso() + "\n";
    for (const auto& paper : day.papers) out += "\n" + paper_section(paper);
    return out + write_unpicked(day.unpicked);
}

// ---------------------------------------------------------------- reading --

namespace {

struct FrontMatter {
    std::string yaml;
    std::string_view body;
    int body_first_line = 1; // file line of the body's first line
};

Result<FrontMatter> split_front_matter(std::string_view text) {
    if (!text.starts_with("---\n") && !text.starts_with("---\r\n"))
        return fail("expected YAML front matter: the file must start with a line '---'", {}, 1);
    size_t pos = text.find('\n') + 1;
    int line = 2;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        std::string_view current = text.substr(pos, end == std::string_view::npos ? text.npos : end - pos);
        if (trim(current) == "---") {
            FrontMatter fm;
            fm.yaml = std::string(text.substr(4, pos - 4));
            fm.body = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
            fm.body_first_line = line + 1;
            return fm;
        }
        if (end == std::string_view::npos) break;
        pos = end + 1;
        ++line;
    }
    return fail("expected a line '---' closing the front matter", {}, 1);
}

// Readers of front matter values (content/front_matter.h).
Result<std::string> meta_scalar(const MetaValue& value, const std::string& key) {
    if (value.kind != MetaValue::Kind::scalar)
        return fail("expected '" + key + "' to be a single value", {}, value.line);
    return value.scalar;
}

Result<Date> meta_date(const MetaValue& value, const std::string& key) {
    auto text = meta_scalar(value, key);
    if (!text) return std::unexpected(text.error());
    auto date = parse_iso_date(*text);
    if (!date) return fail("expected '" + key + "' to be a date YYYY-MM-DD, got " + excerpt(*text), {}, value.line);
    return *date;
}

Result<long long> meta_whole_number(const MetaValue& value, const std::string& key) {
    auto text = meta_scalar(value, key);
    if (!text) return std::unexpected(text.error());
    auto number = parse_int(*text);
    if (!number || *number < 0)
        return fail("expected '" + key + "' to be a whole number, got " + excerpt(*text), {}, value.line);
    return *number;
}

Result<double> meta_money(const MetaValue& value, const std::string& key) {
    auto text = meta_scalar(value, key);
    if (!text) return std::unexpected(text.error());
    auto number = parse_double(*text);
    if (!number || !std::isfinite(*number) || *number < 0) // from_chars reads "nan" and "inf" too
        return fail("expected '" + key + "' to be an amount in dollars, got " + excerpt(*text), {}, value.line);
    return *number;
}

// Applies `each` to every key of a nested map, rejecting unknown keys.
Result<void> read_nested(const MetaValue& value, const std::string& key, const std::set<std::string>& allowed,
                         const std::function<Result<void>(const std::string&, const MetaValue&)>& each) {
    if (value.kind != MetaValue::Kind::map) return fail("expected '" + key + "' to be a map", {}, value.line);
    for (const MetaEntry& entry : value.entries) {
        if (!allowed.contains(entry.key))
            return fail("unknown key " + excerpt(key + "." + entry.key), {}, entry.key_line);
        if (auto r = each(entry.key, entry.value); !r) return r;
    }
    return {};
}

// A nested map of three whole numbers (tokens, counts) into their fields.
template <class Field>
Result<void> read_numbers(const MetaValue& value, const std::string& key, const std::array<const char*, 3>& names,
                          const std::array<Field*, 3>& fields) {
    return read_nested(value, key, {names[0], names[1], names[2]},
                       [&](const std::string& name, const MetaValue& v) -> Result<void> {
                           auto n = meta_whole_number(v, key + "." + name);
                           if (!n) return std::unexpected(n.error());
                           const std::size_t k = name == names[0] ? 0 : name == names[1] ? 1 : 2;
                           *fields[k] = *n;
                           return {};
                       });
}

Result<void> read_cost(const MetaValue& value, Cost& cost) {
    return read_nested(value, "cost", {"prompt", "completion", "total"},
                       [&](const std::string& name, const MetaValue& v) -> Result<void> {
                           auto n = meta_money(v, "cost." + name);
                           if (!n) return std::unexpected(n.error());
                           (name == "prompt" ? cost.prompt : name == "completion" ? cost.completion : cost.total) = *n;
                           return {};
                       });
}

Result<void> read_remedial(const MetaValue& value, Day& day) {
    Remedial remedial;
    bool from = false, to = false;
    auto ok = read_nested(value, "remedial", {"from", "to", "generated"},
                          [&](const std::string& name, const MetaValue& v) -> Result<void> {
                              auto d = meta_date(v, "remedial." + name);
                              if (!d) return std::unexpected(d.error());
                              if (name == "from") remedial.from = *d, from = true;
                              else if (name == "to") remedial.to = *d, to = true;
                              else remedial.generated = *d;
                              return {};
                          });
    if (!ok) return ok;
    if (!from || !to) return fail("expected 'remedial' to have both 'from' and 'to'", {}, value.line);
    day.remedial = remedial;
    return {};
}

// The LLM's sampling parameters as sent: temperature (0 to 2), seed, and
// the reply format asked for.
Result<void> read_sampling(const MetaValue& value, Day& day) {
    return read_nested(
        value, "sampling", {"temperature", "seed", "format"},
        [&](const std::string& name, const MetaValue& v) -> Result<void> {
            if (name == "format") {
                auto text = meta_scalar(v, "sampling.format");
                if (!text) return std::unexpected(text.error());
                if (*text != "json_schema" && *text != "json_object" && *text != "text")
                    return fail("expected 'sampling.format' to be json_schema, json_object or text, got " +
                                    excerpt(*text),
                                {}, v.line);
                day.reply_format = *text;
                return {};
            }
            if (name == "seed") {
                auto n = meta_whole_number(v, "sampling.seed");
                if (!n) return std::unexpected(n.error());
                day.seed = *n;
                return {};
            }
            auto text = meta_scalar(v, "sampling.temperature");
            if (!text) return std::unexpected(text.error());
            auto number = parse_double(*text);
            if (!number || !std::isfinite(*number) || *number < 0 || *number > 2)
                return fail("expected 'sampling.temperature' to be a number from 0 to 2, got " + excerpt(*text), {},
                            v.line);
            day.temperature = *number;
            return {};
        });
}

Result<void> read_status(const MetaValue& value, Day& day) {
    auto text = meta_scalar(value, "status");
    if (!text) return std::unexpected(text.error());
    auto status = parse_day_status(*text);
    if (!status)
        return fail("expected 'status' to be announced, partial, stale or failed, got " + excerpt(*text), {},
                    value.line);
    day.status = *status;
    return {};
}

Result<void> read_text(const MetaValue& value, const std::string& key, std::string& into) {
    auto text = meta_scalar(value, key);
    if (!text) return std::unexpected(text.error());
    into = std::move(*text);
    return {};
}

// One front matter entry into `day`.
Result<void> read_metadata_entry(const MetaEntry& entry, Day& day) {
    const std::string& key = entry.key;
    const MetaValue& value = entry.value;
    if (key == "date") {
        auto date = meta_date(value, key);
        if (!date) return std::unexpected(date.error());
        day.date = *date;
        return {};
    }
    if (key == "status") return read_status(value, day);
    if (key == "reason") return read_text(value, key, day.reason);
    if (key == "model") return read_text(value, key, day.model);
    if (key == "prompt") return read_text(value, key, day.prompt);
    if (key == "tokens") {
        day.tokens = Tokens{};
        return read_numbers<long long>(value, key, {"prompt", "completion", "cached"},
                                       {&day.tokens->prompt, &day.tokens->completion, &day.tokens->cached});
    }
    if (key == "cost") return read_cost(value, day.cost);
    if (key == "sampling") return read_sampling(value, day);
    if (key == "counts") {
        return read_numbers<std::optional<long long>>(value, key, {"arxiv", "scanned", "relevant"},
                                                      {&day.counts.arxiv, &day.counts.scanned, &day.counts.relevant});
    }
    if (key == "remedial") return read_remedial(value, day);
    return fail("unknown key " + excerpt(key) +
                    "; expected date, status, reason, model, sampling, tokens, cost, counts, remedial or prompt",
                {}, entry.key_line);
}

// Reads the front matter map into `day`; `shortcut` as read_front_matter's.
Result<void> read_metadata(const std::string& yaml, Day& day, bool shortcut) {
    auto root = read_front_matter(yaml, shortcut);
    if (!root) return std::unexpected(root.error());
    if (root->kind != MetaValue::Kind::map) return fail("expected the front matter to be a map of keys", {}, 2);
    bool have_date = false;
    for (const MetaEntry& entry : root->entries) {
        if (auto ok = read_metadata_entry(entry, day); !ok) return ok;
        have_date = have_date || entry.key == "date";
    }
    if (!have_date) return fail("expected a 'date: YYYY-MM-DD' key in the front matter", {}, 2);
    return {};
}

int line_of(cmark_node* node, int offset) { return cmark_node_get_start_line(node) + offset - 1; }

// Reads "## [Title](https://arxiv.org/abs/ID)": title and link target.
Result<std::pair<std::string, std::string>> read_heading(cmark_node* heading, int offset) {
    cmark_node* link = nullptr;
    for (cmark_node* child = cmark_node_first_child(heading); child; child = cmark_node_next(child)) {
        if (cmark_node_get_type(child) == CMARK_NODE_LINK && !link) {
            link = child;
        } else if (cmark_node_get_type(child) != CMARK_NODE_TEXT || !trim(cmark_node_get_literal(child)).empty()) {
            link = nullptr;
            break;
        }
    }
    if (!link)
        return fail("expected a paper heading of the form '## [Title](https://arxiv.org/abs/ID)'", {},
                    line_of(heading, offset));
    const char* url = cmark_node_get_url(link);
    return std::pair{inline_text(link), std::string(url ? url : "")};
}

// Sets the field `label` of `paper` from `value` (blanks at its ends are
// dropped: tidy_text never leaves any); what is wrong, if anything.
// `seen`: one bit per field of paper_fields() already read.
std::optional<std::string> set_field(std::string_view label, std::string_view value, Paper& paper,
                                     std::uint32_t& seen) {
    const auto& fields = paper_fields();
    const auto field = std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return label == f.label; });
    if (field == fields.end()) return "unknown field " + excerpt(label) + "; expected one of: " + known_labels();
    const std::uint32_t bit = std::uint32_t{1} << (field - fields.begin());
    if (seen & bit) return "the field " + excerpt(label) + " appears twice";
    seen |= bit;
    const std::string trimmed(trim(value));
    if (auto problem = field->set(paper, trimmed))
        return "field " + excerpt(label) + ": " + *problem + ", got " + excerpt(trimmed);
    return std::nullopt;
}

// Reads one "- **Label:** value" item into `paper`.
Result<void> read_field(cmark_node* item, int offset, Paper& paper, std::uint32_t& seen) {
    int line = line_of(item, offset);
    cmark_node* first = cmark_node_first_child(item);
    cmark_node* strong = first ? cmark_node_first_child(first) : nullptr;
    if (!first || cmark_node_get_type(first) != CMARK_NODE_PARAGRAPH || !strong ||
        cmark_node_get_type(strong) != CMARK_NODE_STRONG)
        return fail("expected a field of the form '- **Label:** value'", {}, line);
    std::string label = inline_text(strong);
    if (!label.ends_with(":")) return fail("expected a colon inside the bold label, as in '**Authors:**'", {}, line);
    label.pop_back();

    // The value: the rest of the first paragraph, then any further paragraphs.
    std::string value = inline_text_from(cmark_node_next(strong));
    for (cmark_node* more = cmark_node_next(first); more; more = cmark_node_next(more)) {
        if (cmark_node_get_type(more) != CMARK_NODE_PARAGRAPH)
            return fail("expected only text in the field " + excerpt(label), {}, line_of(more, offset));
        value += "\n\n" + inline_text(more);
    }

    if (auto problem = set_field(label, value, paper, seen)) return fail(*problem, {}, line);
    return {};
}

// A paper's section as write_day() writes it, read without cmark: the
// heading "## [Title](https://arxiv.org/abs/ID)", a blank line, a field a
// line ("- **Label:** value"), a blank line and the abstract's paragraphs,
// all of them plain text (content/markdown.h), which cmark reads as the same
// paper. nullopt for any other section, or one with a problem: the cmark
// reading then reads it, or says what is wrong and where.
std::optional<Paper> read_written_section(std::string_view section) {
    std::size_t end = section.find('\n');
    if (end == std::string_view::npos || !section.starts_with("## ")) return std::nullopt;
    auto link = read_written_link(section.substr(3, end - 3));
    if (!link) return std::nullopt;
    Paper paper;
    paper.title = std::move(link->first);
    const std::string_view link_id = link->second;

    std::uint32_t seen = 0;
    std::size_t at = end + 1;
    if (!section.substr(at).starts_with("\n- **")) return std::nullopt; // a blank line, then the fields
    for (at += 1; section.substr(at).starts_with("- **"); at = std::min(end + 1, section.size())) {
        end = section.find('\n', at);
        if (end == std::string_view::npos) end = section.size();
        const std::string_view line = section.substr(at + 4, end - at - 4);
        const std::size_t label_end = line.find(":** ");
        if (label_end == std::string_view::npos) return std::nullopt;
        std::string value;
        if (!append_plain_text(line.substr(label_end + 4), value) ||
            set_field(line.substr(0, label_end), value, paper, seen))
            return std::nullopt;
    }
    if (paper.id.empty() || link_id != paper.id || (at < section.size() && section[at] != '\n') ||
        summary_problem(paper))
        return std::nullopt;
    auto abstract = plain_paragraphs(section.substr(at));
    if (!abstract) return std::nullopt;
    paper.abstract = join(*abstract, "\n\n");
    return paper;
}

// The body of a day file, a block at a time: each `## [Title](link)` starts
// a paper, then its field list, then its abstract's paragraphs.
class BodyReader {
public:
    // `offset`: the file's line number of the body's first line.
    BodyReader(Day& day, const std::string& file_name, int offset)
        : day_(day), file_name_(file_name), offset_(offset) {}

    // A section is complete once its ID is known and agrees with the link.
    Result<void> finish() const {
        if (!paper_) return {};
        if (paper_->id.empty())
            return fail("expected a '- **ID:** ...' field in this paper's section", file_name_, heading_line_);
        if (link_url_ != arxiv_abs_url(paper_->id))
            return fail("expected the title to link to " + arxiv_abs_url(paper_->id) + ", the paper's ID", file_name_,
                        heading_line_);
        if (auto problem = summary_problem(*paper_)) return fail(*problem, file_name_, heading_line_);
        return {};
    }

    // One block of the body, whose lines count from the body's first.
    Result<void> read_block(const MarkdownBlock& block) {
        const int line = block.line + offset_ - 1;
        if (in_unpicked_) return read_unpicked_block(block, line);
        if (!block.node) return add_paragraph(block.text, line); // a plain paragraph
        cmark_node* node = block.node;
        auto type = cmark_node_get_type(node);
        if (type == CMARK_NODE_HEADING && cmark_node_get_heading_level(node) == 1 && !paper_) return {};
        if (type == CMARK_NODE_THEMATIC_BREAK) return {};
        if (type == CMARK_NODE_HEADING && cmark_node_get_heading_level(node) == 2 && is_unpicked_heading(node))
            return start_unpicked(line);
        if (type == CMARK_NODE_HEADING && cmark_node_get_heading_level(node) == 2)
            return start_paper(node, offset_ + block.lines_before, line);
        if (!paper_)
            return fail("expected a paper section '## [Title](https://arxiv.org/abs/ID)' before this " +
                            node_kind(node),
                        file_name_, line);
        if (type == CMARK_NODE_LIST && !had_fields_ && paper_->abstract.empty())
            return read_fields(node, offset_ + block.lines_before);
        if (type == CMARK_NODE_PARAGRAPH) return add_paragraph(inline_text(node), line);
        return fail("unexpected " + node_kind(node) +
                        " in a paper section; expected the field list, then the abstract as paragraphs",
                    file_name_, line);
    }

    // A section as write_day() writes it, read without cmark; false: cmark
    // reads it again, and says what is wrong.
    bool read_section(std::string_view section) {
        if (in_unpicked_) return false; // cmark reads what follows the section, and says it must not be there
        if (section.starts_with(unpicked_heading)) {
            auto unpicked = read_written_unpicked(section);
            if (!unpicked || !finish()) return false;
            day_.unpicked = std::move(*unpicked);
            in_unpicked_ = true;
            return true;
        }
        auto written = read_written_section(section);
        if (!written || !finish() || day_.papers.size() == max_papers_per_day) return false;
        paper_ = &day_.papers.emplace_back(std::move(*written));
        link_url_ = arxiv_abs_url(paper_->id);
        return true;
    }

private:
    // "## Not picked": the papers' section ends; the list follows, and nothing after it.
    Result<void> start_unpicked(int line) {
        if (auto done = finish(); !done) return std::unexpected(done.error());
        in_unpicked_ = true;
        paper_ = nullptr;
        unpicked_line_ = line;
        return {};
    }

    Result<void> read_unpicked_block(const MarkdownBlock& block, int line) {
        cmark_node* node = block.node;
        if (node && cmark_node_get_type(node) == CMARK_NODE_THEMATIC_BREAK) return {};
        if (!node || cmark_node_get_type(node) != CMARK_NODE_LIST || !day_.unpicked.empty())
            return fail("unexpected " + (node ? node_kind(node) : std::string("paragraph")) +
                            " after the papers not picked (section '" + std::string(unpicked_heading) + "' at line " +
                            std::to_string(unpicked_line_) +
                            "); expected one list of them, and the section last in the file",
                        file_name_, line);
        if (auto r = read_unpicked_list(node, offset_ + block.lines_before, day_.unpicked); !r)
            return std::unexpected(in_file(r.error(), file_name_));
        return {};
    }

    Result<void> start_paper(cmark_node* heading_node, int first_line, int line) {
        if (auto done = finish(); !done) return std::unexpected(done.error());
        if (day_.papers.size() == max_papers_per_day)
            return fail("expected at most " + std::to_string(max_papers_per_day) +
                            " papers in a day file (paperpress's limit for a day page), got more",
                        file_name_, line);
        auto heading = read_heading(heading_node, first_line);
        if (!heading) return std::unexpected(in_file(heading.error(), file_name_));
        paper_ = &day_.papers.emplace_back();
        paper_->title = heading->first;
        link_url_ = heading->second;
        heading_line_ = line;
        had_fields_ = false;
        seen_ = 0;
        return {};
    }

    Result<void> read_fields(cmark_node* list, int first_line) {
        had_fields_ = true;
        for (cmark_node* item = cmark_node_first_child(list); item; item = cmark_node_next(item))
            if (auto r = read_field(item, first_line, *paper_, seen_); !r)
                return std::unexpected(in_file(r.error(), file_name_));
        return {};
    }

    Result<void> add_paragraph(std::string_view text, int line) {
        if (!paper_)
            return fail("expected a paper section '## [Title](https://arxiv.org/abs/ID)' before this paragraph",
                        file_name_, line);
        if (!paper_->abstract.empty()) paper_->abstract += "\n\n";
        paper_->abstract += text;
        return {};
    }

    Day& day_;
    const std::string& file_name_;
    const int offset_;
    Paper* paper_ = nullptr;
    int heading_line_ = 0;
    bool had_fields_ = false;
    std::uint32_t seen_ = 0;
    std::string link_url_;
    bool in_unpicked_ = false; // past "## Not picked"
    int unpicked_line_ = 0;
};

Result<Day> read_day(std::string_view text, const std::string& file_name, bool shortcut) {
    // A hand edit may hold a control character or invalid UTF-8: read as a
    // space or U+FFFD, so pages and feed.xml stay well-formed (check names the line).
    std::string mended;
    if (first_invalid_xml_char(text) != std::string_view::npos) text = mended = valid_xml_text(text);
    text = without_bom(text); // some editors write one; it is not part of the front matter's '---'
    auto parts = split_front_matter(text);
    if (!parts) return std::unexpected(in_file(parts.error(), file_name));
    Day day;
    if (auto meta = read_metadata(parts->yaml, day, shortcut); !meta)
        return std::unexpected(in_file(meta.error(), file_name));
    BodyReader reader(day, file_name, parts->body_first_line);
    Result<void> outcome;
    auto read_section = [&](std::string_view section) { return reader.read_section(section); };
    for_each_block(
        parts->body,
        [&](const MarkdownBlock& block) {
            outcome = reader.read_block(block);
            return outcome.has_value();
        },
        shortcut ? BlockReading{.read_section = read_section} : BlockReading{.plain_paragraphs = false});
    if (!outcome) return std::unexpected(outcome.error());
    if (auto done = reader.finish(); !done) return std::unexpected(done.error());
    return day;
}

} // namespace

Result<Day> read_day(std::string_view text, const std::string& file_name) { return read_day(text, file_name, true); }

Result<Day> read_day_through_cmark(std::string_view text, const std::string& file_name) {
    return read_day(text, file_name, false);
}

} // namespace pp
