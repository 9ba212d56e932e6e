#include "config/publish_config.h"

#include "config/yaml_section.h"

#include <cstdlib>

namespace pp {

namespace {

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

bool non_empty(const std::string& s) { return !s.empty(); }

Result<void> read_section(const fs::path& path, PublishConfig& config) {
    auto root = load_yaml_file(path);
    if (!root) return std::unexpected(root.error());
    if (!root->IsMap() || !(*root)["publish"]) return {};
    Section r(path.string(), "publish");
    auto ok = r.read((*root)["publish"], {
        {"branch", r.text(config.branch, "a branch name such as gh-pages", ref_name)},
        {"remote", r.text(config.remote, "a remote name such as origin", ref_name)},
        {"commit_content", r.flag(config.commit_content)},
        {"token_env", r.env_name(config.token_env)},
        {"author_name", r.text(config.author_name, "a name on one line", one_line)},
        {"author_email", r.text(config.author_email, "an e-mail address without '<', '>' or line breaks", one_line)},
        {"site_dir", r.text(config.site_dir, "a folder", non_empty)},
    });
    return ok;
}

} // namespace

Result<PublishConfig> load_publish_config(const fs::path& path) {
    PublishConfig config;
    if (auto ok = read_section(path, config); !ok) return std::unexpected(ok.error());
    // The nightly workflow turns content commits on whatever the file says.
    if (const char* v = std::getenv("PAPERPRESS_COMMIT_CONTENT"); v && *v) {
        YAML::Node node(v);
        if (!YAML::convert<bool>::decode(node, config.commit_content))
            return fail("expected PAPERPRESS_COMMIT_CONTENT to be true or false, got '" + std::string(v) + "'");
    }
    return config;
}

} // namespace pp
