#include "config/yaml_section.h"

#include "util/bom.h"
#include "util/text.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace pp {

Result<YAML::Node> parse_yaml(std::string_view text, const std::string& file) {
    try {
        return YAML::Load(std::string(without_bom(text)));
    } catch (const YAML::Exception& e) {
        return fail("expected valid YAML: " + e.msg, file, e.mark.line + 1);
    }
}

namespace {

std::string suggestion(const std::string& key, const std::vector<std::string>& known) {
    std::string best = closest_name(key, known);
    return best.empty() ? "" : "; did you mean '" + best + "'?";
}

} // namespace

bool is_env_name(const std::string& name) {
    if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
    for (char c : name)
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

Result<void> Section::read(const YAML::Node& node, const std::map<std::string, Setter>& keys,
                           const OtherKey& other) const {
    if (!node.IsDefined() || node.IsNull()) return {}; // an absent section: its defaults
    if (!node.IsMap())
        return fail(name_.empty() ? "expected a map of settings" : "expected '" + name_ + "' to be a map of settings",
                    file_, node.Mark().line + 1);
    for (auto it = node.begin(); it != node.end(); ++it) {
        std::string key = it->first.Scalar();
        int line = it->first.Mark().line + 1;
        auto setter = keys.find(key);
        key_ = key;
        if (setter != keys.end()) {
            if (auto ok = setter->second(it->second, line); !ok) return ok;
            continue;
        }
        std::vector<std::string> known;
        for (const auto& entry : keys) known.push_back(entry.first);
        if (!other || !suggestion(key, known).empty()) return unknown_key(key, line, known);
        if (auto ok = other(key, it->second, line); !ok) return ok;
    }
    return {};
}

Result<void> Section::unknown_key(const std::string& key, int line, const std::vector<std::string>& known,
                                  const std::string& note) const {
    return fail("unknown key " + excerpt(qualified(key)) + suggestion(key, known) + " (" + note +
                    "see docs/configuration.md)",
                file_, line);
}

Result<void> Section::wrong_value(int line, const std::string& expected) const {
    return fail("expected '" + qualified(key_) + "' to be " + expected, file_, line);
}

std::string Section::qualified(const std::string& key) const { return name_.empty() ? key : name_ + "." + key; }

Result<void> Section::problem(int line, const std::string& expected) const {
    if (name_.empty()) return fail("expected " + expected, file_, line);
    return fail("expected " + expected + " in section '" + name_ + "'", file_, line);
}

Setter Section::text(std::string& target) const {
    return text(target, "a single line of text",
                [](const std::string& s) { return s.find_first_of("\r\n") == std::string::npos; });
}

Setter Section::text(std::string& target, std::string expected, std::function<bool(const std::string&)> valid) const {
    return [this, &target, expected = std::move(expected), valid = std::move(valid)](const YAML::Node& v,
                                                                                     int line) -> Result<void> {
        if (!v.IsScalar() || !valid(v.Scalar())) return wrong_value(line, expected);
        target = v.Scalar();
        return {};
    };
}

Setter Section::project_path(std::string& target) const {
    return text(target, "a relative path inside the project, without '..'", is_plain_relative_path);
}

Setter Section::prompt_path(std::string& target) const {
    return text(target,
                "a relative path inside the project, without '..', to a Markdown file (.md) beneath prompts/ "
                "or content/",
                [](const std::string& path) {
                    return is_plain_relative_path(path) && path.ends_with(".md") &&
                           (path.starts_with("prompts/") || path.starts_with("content/"));
                });
}

Setter Section::env_name(std::string& target) const {
    return [this, &target](const YAML::Node& v, int line) -> Result<void> {
        if (!v.IsScalar() || !is_env_name(v.Scalar()))
            return wrong_value(line, "the name of an environment variable (such as SLACK_WEBHOOK_URL) that holds the "
                                     "secret, never the secret itself");
        target = v.Scalar();
        return {};
    };
}

Setter Section::flag(bool& target) const {
    return [this, &target](const YAML::Node& v, int line) -> Result<void> {
        if (!v.IsScalar() || !YAML::convert<bool>::decode(v, target)) return wrong_value(line, "true or false");
        return {};
    };
}

Setter Section::number(int& target, int low, int high) const {
    return [this, &target, low, high](const YAML::Node& v, int line) -> Result<void> {
        int n = 0;
        if (!v.IsScalar() || !YAML::convert<int>::decode(v, n) || n < low || n > high)
            return wrong_value(line, "a whole number from " + std::to_string(low) + " to " + std::to_string(high));
        target = n;
        return {};
    };
}

Setter Section::real(double& target, double low) const {
    return [this, &target, low](const YAML::Node& v, int line) -> Result<void> {
        double n = 0;
        if (!v.IsScalar() || !YAML::convert<double>::decode(v, n) || n < low)
            return wrong_value(line, "a number of at least " + format_double(low));
        target = n;
        return {};
    };
}

Setter Section::list(std::vector<std::string>& target) const {
    return [this, &target](const YAML::Node& v, int line) -> Result<void> {
        target.clear();
        if (v.IsScalar()) {
            target.push_back(v.Scalar());
        } else if (v.IsSequence()) {
            for (const auto& item : v) {
                if (!item.IsScalar()) return wrong_value(item.Mark().line + 1, "a list of text items");
                target.push_back(item.Scalar());
            }
        } else {
            return wrong_value(line, "a list");
        }
        for (const auto& item : target)
            if (item.find_first_of("\r\n") != std::string::npos) return wrong_value(line, "single-line items");
        return {};
    };
}

Setter Section::dates(std::vector<Date>& target) const {
    return [this, &target](const YAML::Node& v, int line) -> Result<void> {
        std::vector<std::string> items;
        if (auto ok = list(items)(v, line); !ok) return ok;
        target.clear();
        for (const auto& item : items) {
            auto date = parse_iso_date(item);
            if (!date) return wrong_value(line, "a list of dates (YYYY-MM-DD), got " + excerpt(item));
            target.push_back(*date);
        }
        return {};
    };
}

Setter Section::sub(const std::string& name,
                    std::function<Result<void>(const Section&, const YAML::Node&)> body) const {
    return [this, name, body](const YAML::Node& v, int) -> Result<void> {
        Section inner(file_, qualified(name));
        return body(inner, v);
    };
}

void read_built_in(std::string_view text, const std::string& file,
                   const std::function<std::map<std::string, Setter>(const Section&)>& keys) {
    auto root = parse_yaml(text, file);
    Result<void> ok = root ? Result<void>{} : std::unexpected(root.error());
    if (ok) {
        Section section(file, "");
        ok = section.read(*root, keys(section));
    }
    if (!ok) {
        std::fprintf(stderr, "paperpress: %s\n", ok.error().to_string().c_str());
        std::abort();
    }
}

} // namespace pp
