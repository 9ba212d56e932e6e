#include "content/front_matter.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

namespace pp {

namespace {

constexpr int yaml_first_line = 2; // the line after the opening '---'

bool is_ascii_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// yaml-cpp reads these plain values as null, not as text.
bool is_null_word(std::string_view text) { return text == "null" || text == "Null" || text == "NULL"; }

// The writer's keys are short (yaml-cpp takes one of over 1024 bytes for no key).
bool is_plain_key(std::string_view text) {
    return !text.empty() && text.size() <= 64 && !is_null_word(text) &&
           std::all_of(text.begin(), text.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; });
}

// A value YAML reads as exactly its text: no indicator first, no ': ' or
// ' #' inside, no blanks to trim, no escapes.
bool is_plain_value(std::string_view text) {
    static constexpr std::string_view also = "._/+-";
    return !text.empty() && is_ascii_alnum(text.front()) && !is_null_word(text) &&
           std::all_of(text.begin(), text.end(),
                       [](char c) { return is_ascii_alnum(c) || also.find(c) != std::string_view::npos; });
}

// "key: value" into its parts; "key:" gives an empty value.
std::optional<std::pair<std::string_view, std::string_view>> split_entry(std::string_view line) {
    const auto colon = line.find(':');
    if (colon == std::string_view::npos || !is_plain_key(line.substr(0, colon))) return std::nullopt;
    const std::string_view rest = line.substr(colon + 1);
    if (rest.empty()) return std::pair{line.substr(0, colon), rest};
    if (!rest.starts_with(' ') || !is_plain_value(rest.substr(1))) return std::nullopt;
    return std::pair{line.substr(0, colon), rest.substr(1)};
}

// The writer writes a dozen keys: a map of more is left to yaml-cpp, which
// also keeps has_key's search short.
constexpr std::size_t most_entries = 32;

bool has_key(const std::vector<MetaEntry>& entries, std::string_view key) {
    return std::any_of(entries.begin(), entries.end(), [&](const MetaEntry& e) { return e.key == key; });
}

MetaValue scalar_at(std::string_view text, int line) {
    MetaValue value;
    value.kind = MetaValue::Kind::scalar;
    value.line = line;
    value.scalar = std::string(text);
    return value;
}

// yaml-cpp's node as a MetaValue. The readers look two levels deep: maps
// below that keep their kind and line, not their entries.
MetaValue from_node(const YAML::Node& node, int depth = 0) {
    MetaValue value;
    value.line = node.Mark().line + yaml_first_line;
    if (node.IsScalar()) {
        value.kind = MetaValue::Kind::scalar;
        value.scalar = node.Scalar();
    } else if (node.IsMap()) {
        value.kind = MetaValue::Kind::map;
        if (depth < 2)
            for (auto it = node.begin(); it != node.end(); ++it)
                value.entries.push_back(
                    {it->first.Scalar(), it->first.Mark().line + yaml_first_line, from_node(it->second, depth + 1)});
    }
    return value;
}

} // namespace

std::optional<MetaValue> read_front_matter_as_written(std::string_view yaml) {
    MetaValue root;
    root.kind = MetaValue::Kind::map;
    root.line = yaml_first_line;
    MetaValue* open = nullptr; // the map of the "key:" line whose entries follow (in root's last entry)
    auto open_is_empty = [&] { return open && open->entries.empty(); };
    for (int line = yaml_first_line; !yaml.empty(); ++line) {
        const auto end = yaml.find('\n');
        if (end == std::string_view::npos) return std::nullopt;
        const std::string_view text = yaml.substr(0, end);
        yaml.remove_prefix(end + 1);
        if (text.starts_with("  ")) {
            auto entry = split_entry(text.substr(2));
            if (!open || !entry || entry->second.empty() || open->entries.size() == most_entries ||
                has_key(open->entries, entry->first))
                return std::nullopt;
            if (open->entries.empty()) open->line = line; // yaml-cpp marks a map at its first key
            open->entries.push_back({std::string(entry->first), line, scalar_at(entry->second, line)});
            continue;
        }
        auto entry = split_entry(text);
        if (open_is_empty() || !entry || root.entries.size() == most_entries || has_key(root.entries, entry->first))
            return std::nullopt;
        root.entries.push_back({std::string(entry->first), line, scalar_at(entry->second, line)});
        open = nullptr;
        if (entry->second.empty()) {
            open = &root.entries.back().value;
            open->kind = MetaValue::Kind::map;
        }
    }
    if (root.entries.empty() || open_is_empty()) return std::nullopt; // yaml-cpp: null
    return root;
}

Result<MetaValue> read_front_matter(const std::string& yaml, bool shortcut) {
    if (shortcut)
        if (auto written = read_front_matter_as_written(yaml)) return std::move(*written);
    try {
        return from_node(YAML::Load(yaml));
    } catch (const YAML::Exception& e) {
        return fail("front matter is not valid YAML: " + e.msg, {}, e.mark.line + yaml_first_line);
    }
}

} // namespace pp
