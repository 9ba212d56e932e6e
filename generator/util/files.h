// File helpers. Every write is atomic (temp file in the same folder, then
// rename), so a crash mid-run never leaves a half-written page or day.
#pragma once

#include "util/error.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace pp {

namespace fs = std::filesystem;

Result<std::string> read_file(const fs::path& path);

// Writes `bytes` to `path` atomically, creating parent folders.
Result<void> write_file_atomic(const fs::path& path, std::string_view bytes);

enum class WriteOutcome { unchanged, written };

// Like write_file_atomic, but leaves the file untouched (same mtime) when it
// already holds exactly these bytes, so reruns and rebuilds change nothing.
Result<WriteOutcome> write_file_if_changed(const fs::path& path, std::string_view bytes);

} // namespace pp
