#include "config/publish_config.h"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <functional>
#include <map>

namespace pp {

namespace {

using Setter = std::function<Result<void>(const YAML::Node&, int)>;

// Reads the section's keys through a table of setters, in the style of
// config/pipeline_config.cpp.
class SectionReader {
public:
    explicit SectionReader(std::string file) : file_(std::move(file)) {}

    Result<void> read(const YAML::Node& node, const std::map<std::string, Setter>& keys) const {
        if (!node.IsMap()) return fail("expected 'publish' to be a map of settings", file_, node.Mark().line + 1);
        for (auto it = node.begin(); it != node.end(); ++it) {
            const std::string key = it->first.Scalar();
            const int line = it->first.Mark().line + 1;
            auto setter = keys.find(key);
            if (setter == keys.end())
                return fail("unknown key 'publish." + key + "' (see docs/configuration.md)", file_, line);
            if (auto ok = setter->second(it->second, line); !ok) return ok;
        }
        return {};
    }

    // Text that passes `valid`; `expected` says what it should look like.
    Setter text(std::string& target, std::string expected, std::function<bool(const std::string&)> valid) const {
        return [this, &target, expected = std::move(expected), valid = std::move(valid)](const YAML::Node& v,
                                                                                         int line) -> Result<void> {
            if (!v.IsScalar() || !valid(v.Scalar())) return problem(line, expected);
            target = v.Scalar();
            return {};
        };
    }
    Setter flag(bool& target) const {
        return [this, &target](const YAML::Node& v, int line) -> Result<void> {
            if (!v.IsScalar() || !YAML::convert<bool>::decode(v, target)) return problem(line, "true or false");
            return {};
        };
    }

private:
    Result<void> problem(int line, const std::string& expected) const {
        return fail("expected " + expected + " in section 'publish'", file_, line);
    }
    std::string file_;
};

bool one_line(const std::string& s) { return s.find_first_of("\n\r<>") == std::string::npos; }

// A name git accepts for a branch or remote; libgit2 checks the details
// again when it is used.
bool ref_name(const std::string& s) {
    if (s.empty() || s.front() == '-' || s.front() == '/' || s.back() == '/' || s.back() == '.') return false;
    if (s.find("..") != std::string::npos || s.find("@{") != std::string::npos || s.find("//") != std::string::npos)
        return false;
    for (unsigned char c : s)
        if (c <= ' ' || c == 0x7f || c == '~' || c == '^' || c == ':' || c == '?' || c == '*' || c == '[' ||
            c == '\\')
            return false;
    return true;
}

bool env_name(const std::string& s) {
    if (s.empty() || (s.front() >= '0' && s.front() <= '9')) return false;
    for (unsigned char c : s)
        if (!(c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
    return true;
}

bool non_empty(const std::string& s) { return !s.empty(); }

Result<void> read_section(const fs::path& path, PublishConfig& config) {
    auto text = read_file(path);
    if (!text) return std::unexpected(text.error());
    YAML::Node root;
    try {
        root = YAML::Load(*text);
    } catch (const YAML::Exception& e) {
        return fail("not valid YAML: " + e.msg, path.string(), e.mark.line + 1);
    }
    if (!root.IsMap() || !root["publish"]) return {};
    SectionReader r(path.string());
    auto ok = r.read(root["publish"], {
        {"branch", r.text(config.branch, "a branch name such as gh-pages", ref_name)},
        {"remote", r.text(config.remote, "a remote name such as origin", ref_name)},
        {"commit_content", r.flag(config.commit_content)},
        {"token_env", r.text(config.token_env, "an environment variable name such as GITHUB_TOKEN", env_name)},
        {"author_name", r.text(config.author_name, "a name on one line", one_line)},
        {"author_email", r.text(config.author_email, "an e-mail address without '<', '>' or line breaks", one_line)},
        {"site_dir", r.text(config.site_dir, "a folder", non_empty)},
    });
    return ok;
}

} // namespace

Result<PublishConfig> load_publish_config(const fs::path& path) {
    PublishConfig config;
    std::error_code ec;
    if (fs::exists(path, ec)) {
        auto ok = read_section(path, config);
        if (!ok) return std::unexpected(ok.error());
    }
    // The nightly workflow turns content commits on whatever the file says.
    if (const char* v = std::getenv("PAPERPRESS_COMMIT_CONTENT"); v && *v) {
        YAML::Node node(v);
        if (!YAML::convert<bool>::decode(node, config.commit_content))
            return fail("expected PAPERPRESS_COMMIT_CONTENT to be true or false, got '" + std::string(v) + "'");
    }
    return config;
}

} // namespace pp
