// A day file's front matter as its reader sees it: keys, each with a single
// value or a map of keys to values, in file order, with their file lines.
//
// yaml-cpp reads it, which took a third of the time of reading a whole day
// file. Front matter in the form write_day writes (one `key: value` a line,
// nested maps indented by two spaces, plain values of letters, digits and
// `._/+-`) is read directly; anything else is left to yaml-cpp. The unit
// tests and the front_matter fuzz target hold the two readings equal.
#pragma once

#include "util/error.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pp {

struct MetaEntry;

struct MetaValue {
    enum class Kind { scalar, map, other }; // other: null, a sequence, ...
    Kind kind = Kind::other;
    int line = 0;                   // file line, as yaml-cpp marks it (a map: its first key's)
    std::string scalar;             // kind == scalar
    std::vector<MetaEntry> entries; // kind == map
};

struct MetaEntry {
    std::string key; // "" for a key that is not a scalar (null, a map, a sequence), as yaml-cpp gives it
    int key_line = 0;
    MetaValue value;
};

// `yaml` is the text between the two `---` lines; its first line is the
// file's line 2. `shortcut` = false reads everything through yaml-cpp.
Result<MetaValue> read_front_matter(const std::string& yaml, bool shortcut = true);

// The shortcut alone: the front matter in the writer's form, as yaml-cpp
// would give it; nothing for any other text (a comment, quotes, `null`, a
// duplicate key, other indents, more than 32 keys a map, ...).
std::optional<MetaValue> read_front_matter_as_written(std::string_view yaml);

} // namespace pp
