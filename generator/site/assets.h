// The site's static files: the theme's (a site's own static/ overrides
// them, theme.h), and KaTeX's for a theme that typesets math.
#pragma once

#include "site/builder.h"
#include "site/theme.h"

#include <string>
#include <utility>
#include <vector>

namespace pp {

// (site path, bytes), sorted by site path. A file that cannot be read is an
// error in `errors`, and left out.
using Assets = std::vector<std::pair<std::string, std::string>>;
Assets read_assets(const Theme& theme, const BuildOptions& options, std::vector<Error>& errors);

} // namespace pp
