// The `publish:` section of paperpress.yaml: where `paperpress publish`
// commits the built site, where it pushes, and whether `paperpress run`
// commits the day files it writes. Every key has a default;
// docs/configuration.md documents them.
#pragma once

#include "util/error.h"
#include "util/files.h"

#include <string>

namespace pp {

struct PublishConfig {
    std::string branch = "gh-pages";      // the site's branch
    std::string remote = "origin";        // where --push goes
    bool commit_content = false;          // `paperpress run` commits the day files it writes
    std::string token_env = "GITHUB_TOKEN"; // environment variable holding the push token
    std::string author_name;              // empty: GIT_AUTHOR_NAME, else "paperpress"
    std::string author_email;             // empty: GIT_AUTHOR_EMAIL, else "paperpress@localhost"
    std::string site_dir = "site";        // the built site that is published
};

// Reads the `publish:` section of `path` (an absent file gives the defaults).
// Unknown keys and wrong types are errors naming the line. The environment
// variable PAPERPRESS_COMMIT_CONTENT (true/false) overrides commit_content.
Result<PublishConfig> load_publish_config(const fs::path& path);

} // namespace pp
