// `paperpress build`: content tree + theme + config -> the static site.
// Scans the content, builds the site graph, renders every page with the
// theme, writes feeds and data, copies the theme's static files. Every
// output goes through write_file_if_changed, so a rebuild of unchanged
// input rewrites nothing.
#pragma once

#include "config/config.h"
#include "util/error.h"
#include "util/files.h"

#include <string>
#include <vector>

namespace pp {

struct BuildOptions {
    fs::path content_dir = "content";
    fs::path out_dir = "site";
    fs::path site_dir = ".";     // the config file's folder: layouts/ and static/ overrides
    fs::path themes_dir = "themes";
    Config config;
};

struct BuildReport {
    int days = 0;
    int papers = 0;
    int files = 0;     // outputs produced
    int written = 0;   // of which changed on disk
    std::vector<Error> errors;     // days that could not be read, failed writes, theme problems
    std::vector<std::string> warnings;
    bool ok() const { return errors.empty(); }
};

BuildReport build_site(const BuildOptions& options);

} // namespace pp
