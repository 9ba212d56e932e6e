// paperpress.yaml: the site's settings. The file may be absent; every key
// has a default. docs/configuration.md documents each key.
#pragma once

#include "util/error.h"
#include "util/files.h"

#include <string>

namespace pp {

struct Config {
    std::string title = "Personalized Daily arXiv Papers";
    std::string description = "A daily digest of new arXiv papers, scored for my topics.";
    std::string base_url = "/";
    std::string theme = "default";
    int feed_days = 20;  // days in feed.xml
    int home_days = 10;  // recent days linked from the home page
    std::string author;  // feed author, optional
};

// The folder of the config file: where themes/, layouts/ and static/ are.
fs::path site_root(const fs::path& config_path);

// Reads `path`; a missing file gives the defaults unless `required`.
Result<Config> load_config(const fs::path& path, bool required);

} // namespace pp
