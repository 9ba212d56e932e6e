#include "config/yaml_section.h"

namespace pp {

Result<YAML::Node> load_yaml_file(const fs::path& path, bool required) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        if (required) return fail("no such config file", path.string());
        return YAML::Node();
    }
    auto text = read_file(path);
    if (!text) return std::unexpected(text.error());
    try {
        return YAML::Load(*text);
    } catch (const YAML::Exception& e) {
        return fail("not valid YAML: " + e.msg, path.string(), e.mark.line + 1);
    }
}

bool is_env_name(const std::string& name) {
    if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
    for (char c : name)
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

Result<void> Section::read(const YAML::Node& node, const std::map<std::string, Setter>& keys) const {
    if (!node.IsDefined() || node.IsNull()) return {}; // an absent section: its defaults
    if (!node.IsMap()) return fail("expected '" + name_ + "' to be a map of settings", file_, node.Mark().line + 1);
    for (auto it = node.begin(); it != node.end(); ++it) {
        std::string key = it->first.Scalar();
        int line = it->first.Mark().line + 1;
        auto setter = keys.find(key);
        if (setter == keys.end())
            return fail("unknown key '" + name_ + "." + key + "' (see docs/configuration.md)", file_, line);
        if (auto ok = setter->second(it->second, line); !ok) return ok;
    }
    return {};
}

Result<void> Section::problem(int line, const std::string& expected) const {
    return fail("expected " + expected + " in section '" + name_ + "'", file_, line);
}

Setter Section::text(std::string& target) const {
    return text(target, "a single line of text",
                [](const std::string& s) { return s.find_first_of("\r\n") == std::string::npos; });
}

Setter Section::text(std::string& target, std::string expected, std::function<bool(const std::string&)> valid) const {
    return [this, &target, expected = std::move(expected), valid = std::move(valid)](const YAML::Node& v,
                                                                                     int line) -> Result<void> {
        if (!v.IsScalar() || !valid(v.Scalar())) return problem(line, expected);
        target = v.Scalar();
        return {};
    };
}

Setter Section::env_name(std::string& target) const {
    return [this, &target](const YAML::Node& v, int line) -> Result<void> {
        if (!v.IsScalar() || !is_env_name(v.Scalar()))
            return problem(line, "the name of an environment variable (such as SLACK_WEBHOOK_URL) that holds the "
                                 "secret, never the secret itself");
        target = v.Scalar();
        return {};
    };
}

Setter Section::flag(bool& target) const {
    return [this, &target](const YAML::Node& v, int line) -> Result<void> {
        if (!v.IsScalar() || !YAML::convert<bool>::decode(v, target)) return problem(line, "true or false");
        return {};
    };
}

Setter Section::number(int& target, int low, int high) const {
    return [this, &target, low, high](const YAML::Node& v, int line) -> Result<void> {
        int n = 0;
        if (!v.IsScalar() || !YAML::convert<int>::decode(v, n) || n < low || n > high)
            return problem(line, "a whole number from " + std::to_string(low) + " to " + std::to_string(high));
        target = n;
        return {};
    };
}

Setter Section::real(double& target, double low) const {
    return [this, &target, low](const YAML::Node& v, int line) -> Result<void> {
        double n = 0;
        if (!v.IsScalar() || !YAML::convert<double>::decode(v, n) || n < low)
            return problem(line, "a number of at least " + std::to_string(low));
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
                if (!item.IsScalar()) return problem(item.Mark().line + 1, "a list of text items");
                target.push_back(item.Scalar());
            }
        } else {
            return problem(line, "a list");
        }
        for (const auto& item : target)
            if (item.find_first_of("\r\n") != std::string::npos) return problem(line, "single-line items");
        return {};
    };
}

Setter Section::sub(const std::string& name, std::function<Result<void>(const Section&, const YAML::Node&)> body) const {
    return [this, name, body](const YAML::Node& v, int) -> Result<void> {
        Section inner(file_, name_ + "." + name);
        return body(inner, v);
    };
}

} // namespace pp
