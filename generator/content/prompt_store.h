// Selection prompts, stored once per distinct text as
// content/prompts/<16 hex digits of its hash>.md and referred to by days.
#pragma once

#include "util/error.h"
#include "util/files.h"

#include <string>

namespace pp {

// Returns the path to put in a day's `prompt:` key, relative to `root`.
Result<std::string> store_prompt(const fs::path& root, std::string_view text);

Result<std::string> load_prompt(const fs::path& root, const std::string& reference);

} // namespace pp
