#include "site/assets.h"

#include "config/config.h"

#include <algorithm>
#include <cstdlib>

namespace pp {

namespace {

// A theme's or the site's static file, read only from inside its tree.
Result<std::string> read_asset(const BuildOptions& options, const fs::path& source) {
    const fs::path site_static = options.site_dir / "static";
    const auto inside = [&source](const fs::path& root) {
        auto relative = source.lexically_normal().lexically_relative(root.lexically_normal());
        return !relative.empty() && *relative.begin() != "..";
    };
    return read_file_inside(inside(options.themes_dir) ? options.themes_dir : site_static, source);
}

// Debian's package libjs-katex (with fonts-katex).
const fs::path system_katex = "/usr/share/javascript/katex";

// KaTeX's dist folder: the option or the environment when set; else the
// first of node_modules next to the config file or to the themes folder, the
// copy `cmake --install` puts beside the themes, Debian's package. Empty when
// none has it.
fs::path find_katex(const BuildOptions& options, std::vector<fs::path>& candidates) {
    const char* env = std::getenv("PAPERPRESS_KATEX_DIR");
    if (!options.katex_dir.empty()) {
        candidates.push_back(options.katex_dir);
    } else if (env && *env) { // named: that folder or an error, never another copy
        candidates.emplace_back(env);
    } else {
        candidates.push_back(options.site_dir / "node_modules/katex/dist");
        candidates.push_back(options.themes_dir.parent_path() / "node_modules/katex/dist");
        if (const fs::path installed = installed_data_dir(); !installed.empty())
            candidates.push_back(installed / "katex");
        candidates.push_back(system_katex);
    }
    std::error_code ec;
    for (const auto& candidate : candidates)
        if (fs::is_regular_file(candidate / "katex.min.js", ec) && fs::is_regular_file(candidate / "katex.min.css", ec))
            return candidate;
    return {};
}

// KaTeX's script, stylesheet, auto-render and fonts, as static/katex/<file>.
void add_katex(const Theme& theme, const BuildOptions& options, Assets& assets, std::vector<Error>& errors) {
    std::vector<fs::path> candidates;
    const fs::path dist = find_katex(options, candidates);
    if (dist.empty()) {
        errors.push_back({candidates.back().string(), 0,
                          "expected KaTeX's files here: theme '" + theme.name +
                              "' typesets math with KaTeX (run scripts/setup, install Debian's libjs-katex, set "
                              "$PAPERPRESS_KATEX_DIR, or turn math off with 'math: false' in paperpress.yaml)"});
        return;
    }
    // (site file, file in dist): Debian's package has auto-render unminified.
    std::vector<std::pair<std::string, std::string>> files = {{"katex.min.js", "katex.min.js"},
                                                              {"katex.min.css", "katex.min.css"}};
    std::error_code ec;
    for (const char* auto_render : {"contrib/auto-render.min.js", "contrib/auto-render.js"})
        if (fs::is_regular_file(dist / auto_render, ec)) {
            files.emplace_back("contrib/auto-render.min.js", auto_render);
            break;
        }
    walk_tree(dist / "fonts",
              [&](const TreeEntry& entry) {
                  if (entry.kind == TreeEntry::Kind::file || entry.links_to_file())
                      files.emplace_back("fonts/" + std::string(entry.name), "fonts/" + std::string(entry.name));
                  return false;
              },
              {.recursive = false, .sorted = true});
    for (const auto& [file, source] : files) {
        const std::string site_path = "static/katex/" + file;
        // A site's or theme's own static/katex/<file> wins, as for every static file.
        if (std::any_of(assets.begin(), assets.end(), [&](const auto& a) { return a.first == site_path; })) continue;
        auto bytes = read_file(dist / source);
        if (!bytes) {
            errors.push_back(bytes.error());
            continue;
        }
        assets.emplace_back(site_path, std::move(*bytes));
    }
    std::sort(assets.begin(), assets.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

} // namespace

Assets read_assets(const Theme& theme, const BuildOptions& options, std::vector<Error>& errors) {
    Assets assets;
    for (const auto& asset : theme.assets) {
        auto bytes = read_asset(options, asset.source);
        if (!bytes) {
            errors.push_back(bytes.error());
            continue;
        }
        assets.emplace_back(asset.site_path, std::move(*bytes));
    }
    if (theme.math && options.config.math) add_katex(theme, options, assets, errors);
    return assets;
}

} // namespace pp
