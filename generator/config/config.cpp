#include "config/config.h"

#include "config/sections.h"
#include "util/text.h"

#include <cstdlib>

namespace pp {

namespace {

// paperpress.yaml is a page of settings; anything larger is not one.
constexpr std::size_t config_size_limit = 1 << 20;

// A base URL the site's links can start with: an http(s) URL with a host, or
// a path; never another scheme (`javascript:`), a protocol-relative "//host/"
// (another site's), blanks, quotes or angle brackets (it is written into
// every page's links).
bool site_base_url(const std::string& url) {
    if (url.find_first_of(" \t\r\n\"'<>\\`") != std::string::npos) return false;
    for (char c : url)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return false;
    const std::string lower = to_lower(url);
    for (std::string_view scheme : {"http://", "https://"})
        if (lower.starts_with(scheme)) return url.size() > scheme.size() && url[scheme.size()] != '/';
    return !url.starts_with("//") && url.substr(0, url.find('/')).find(':') == std::string::npos;
}

// "owner/name" as GitHub allows them: an owner of ASCII letters, digits and hyphens, a name of
// those, '.' and '_' (observed and reported in github.com/github/docs/issues/44518).
bool github_repository(const std::string& text) {
    const auto slash = text.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
        if (i != slash && !plain && !(i > slash && (c == '.' || c == '_'))) return false;
    }
    return true;
}

// A branch name git accepts, in the part that matters in a link: no blanks, controls,
// "..", or the characters git-check-ref-format refuses (~ ^ : ? * [ \).
bool branch_name(const std::string& text) {
    if (text.empty() || text.starts_with('/') || text.ends_with('/') || text.find("..") != std::string::npos)
        return false;
    for (unsigned char c : text)
        if (c <= 0x20 || c == 0x7F ||
            std::string_view("~^:?*[\\\"'<>`").find(static_cast<char>(c)) != std::string_view::npos)
            return false;
    return true;
}

Result<void> read_root(const Section& s, const YAML::Node& root, Config& c) {
    auto section = [&](const char* name, auto reader, auto& target) {
        return s.sub(name,
                     [reader, &target](const Section& inner, const YAML::Node& v) { return reader(inner, v, target); });
    };
    return s.read(
        root, {
                  {"title", s.text(c.title)},
                  {"description", s.text(c.description)},
                  {"base_url", s.text(c.base_url, "an http(s) URL or a path, such as https://user.github.io/repo/ or /",
                                      site_base_url)},
                  {"theme", s.text(c.theme)},
                  {"author", s.text(c.author)},
                  {"feed_days", s.number(c.feed_days, 1, 1000)},
                  {"home_days", s.number(c.home_days, 0, 1000)},
                  {"math", s.flag(c.math)},
                  {"month_best", s.number(c.month_best, 0, 1000)},
                  {"group_by_topic", s.flag(c.group_by_topic)},
                  {"search_index", s.flag(c.search_index)},
                  {"repository", s.text(c.repository, "a GitHub repository, owner/name", github_repository)},
                  {"branch", s.text(c.branch, "a git branch name, such as main", branch_name)},
                  {"data", s.text(c.data, "none, month, full or day", one_of({"none", "month", "full", "day"}))},
                  {"arxiv", section("arxiv", read_arxiv, c.arxiv)},
                  {"scoring", section("scoring", read_scoring, c.scoring)},
                  {"llm", section("llm", read_llm, c.llm)},
                  {"publish", section("publish", read_publish, c.publish)},
                  {"notify", section("notify", read_notify, c.notify)},
              });
}

std::optional<std::string> env(const char* name) {
    const char* value = std::getenv(name);
    if (!value || !*value) return std::nullopt;
    return std::string(value);
}

Result<void> apply_environment(Config& c) {
    if (auto v = env("PAPERPRESS_ARXIV_RSS_URL")) c.arxiv.rss_url = *v;
    if (auto v = env("PAPERPRESS_ARXIV_API_URL")) c.arxiv.api_url = *v;
    if (auto v = env("OPENAI_BASE_URL")) c.llm.base_url = *v, c.llm.base_url_set = true;
    if (auto v = env("OPENAI_MODEL")) c.llm.model = *v;
    // An Actions run names its repository and branch (docs.github.com/en/actions/reference/variables-reference:
    // GITHUB_REPOSITORY "owner/name", GITHUB_REF_NAME the branch); the file's keys win.
    if (auto v = env("GITHUB_REPOSITORY"); v && c.repository.empty()) {
        if (!github_repository(*v)) return fail("expected GITHUB_REPOSITORY to be owner/name, got " + excerpt(*v));
        c.repository = *v;
        if (auto b = env("GITHUB_REF_NAME"); b && c.branch.empty() && branch_name(*b)) c.branch = *b;
    }
    // The nightly workflow turns content commits on whatever the file says.
    if (auto v = env("PAPERPRESS_COMMIT_CONTENT")) {
        if (!YAML::convert<bool>::decode(YAML::Node(*v), c.publish.commit_content))
            return fail("expected PAPERPRESS_COMMIT_CONTENT to be true or false, got " + excerpt(*v));
    }
    return {};
}

// Default files that are not in the working folder come from the installed data.
void use_installed_files(Config& c) {
    const fs::path data = installed_data_dir();
    if (data.empty()) return;
    const ArxivSettings arxiv_defaults;
    const ScoringSettings scoring_defaults;
    auto installed = [&](std::string& path, const std::string& default_path) {
        std::error_code ec;
        if (path == default_path && !fs::exists(path, ec) && fs::exists(data / path, ec)) path = (data / path).string();
    };
    installed(c.arxiv.offline_feed, arxiv_defaults.offline_feed);
    installed(c.scoring.system_prompt, scoring_defaults.system_prompt);
    installed(c.scoring.topics, scoring_defaults.topics);
    installed(c.scoring.criteria, scoring_defaults.criteria);
    installed(c.scoring.postfix, scoring_defaults.postfix);
    installed(c.scoring.title_postfix, scoring_defaults.title_postfix);
}

} // namespace

fs::path installed_data_dir() {
    static const fs::path dir = [] {
        std::error_code ec;
        const fs::path self = fs::read_symlink("/proc/self/exe", ec);
        for (const fs::path& candidate :
             {ec ? fs::path() : self.parent_path().parent_path() / "share/paperpress", fs::path(PAPERPRESS_DATA_DIR)})
            if (!candidate.empty() && fs::is_directory(candidate / "themes", ec)) return candidate;
        return fs::path();
    }();
    return dir;
}

fs::path themes_dir(const fs::path& config_path) {
    const fs::path beside = site_root(config_path) / "themes";
    std::error_code ec;
    if (fs::is_directory(beside, ec) || installed_data_dir().empty()) return beside;
    return installed_data_dir() / "themes";
}

fs::path site_root(const fs::path& config_path) {
    std::error_code ec;
    return fs::absolute(config_path, ec).parent_path();
}

Result<Config> parse_config(std::string_view text, const std::string& file) {
    auto root = parse_yaml(text, file);
    if (!root) return std::unexpected(root.error());
    Config config;
    if (root->IsNull()) return config;
    if (auto ok = read_root(Section(file, ""), *root, config); !ok) return std::unexpected(ok.error());
    if (config.base_url.empty() || config.base_url.back() != '/') config.base_url += '/';
    return config;
}

Result<Config> load_config(const fs::path& path, bool required) {
    std::error_code ec;
    Result<Config> config = Config{};
    if (fs::exists(path, ec)) {
        auto text = read_file(path, config_size_limit);
        if (!text) return std::unexpected(text.error());
        config = parse_config(*text, path.string());
    } else if (required) {
        return fail("expected a config file here; there is none", path.string());
    }
    if (!config) return config;
    if (auto ok = apply_environment(*config); !ok) return std::unexpected(ok.error());
    use_installed_files(*config);
    return config;
}

} // namespace pp
