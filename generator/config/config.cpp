#include "config/config.h"

#include "config/yaml_section.h"

namespace pp {

fs::path site_root(const fs::path& config_path) {
    std::error_code ec;
    return fs::absolute(config_path, ec).parent_path();
}

Result<Config> load_config(const fs::path& path, bool required) {
    Config config;
    auto loaded = load_yaml_file(path, required);
    if (!loaded) return std::unexpected(loaded.error());
    const YAML::Node& root = *loaded;
    if (root.IsNull()) return config;
    if (!root.IsMap()) return fail("expected a map of settings", path.string(), 1);

    for (auto it = root.begin(); it != root.end(); ++it) {
        const std::string key = it->first.Scalar();
        const YAML::Node value = it->second;
        const int line = it->first.Mark().line + 1;
        auto text_value = [&](std::string& target) -> Result<void> {
            if (!value.IsScalar()) return fail("expected '" + key + "' to be text", path.string(), line);
            target = value.Scalar();
            return {};
        };
        auto number_value = [&](int& target, int low, int high) -> Result<void> {
            int n = 0;
            if (!value.IsScalar() || !YAML::convert<int>::decode(value, n) || n < low || n > high)
                return fail("expected '" + key + "' to be a whole number from " + std::to_string(low) + " to " +
                                std::to_string(high),
                            path.string(), line);
            target = n;
            return {};
        };
        Result<void> ok;
        if (key == "title") ok = text_value(config.title);
        else if (key == "description") ok = text_value(config.description);
        else if (key == "base_url") ok = text_value(config.base_url);
        else if (key == "theme") ok = text_value(config.theme);
        else if (key == "author") ok = text_value(config.author);
        else if (key == "feed_days") ok = number_value(config.feed_days, 1, 1000);
        else if (key == "home_days") ok = number_value(config.home_days, 0, 1000);
        else if (value.IsMap()) continue; // sections of later stages (arxiv:, llm:, publish:)
        else return fail("unknown key '" + key + "' (see docs/configuration.md)", path.string(), line);
        if (!ok) return std::unexpected(ok.error());
    }
    if (config.base_url.empty() || config.base_url.back() != '/') config.base_url += '/';
    return config;
}

} // namespace pp
