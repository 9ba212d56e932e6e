// A day file's front matter as its reader sees it: keys, each with a single
// value or a map of keys to values, in file order, with their file lines.
//
// yaml-cpp reads it. Front matter in the form write_day writes (one
// `key: value` a line, nested maps indented by two spaces, plain values of
// letters, digits and `._/+-`) is read directly, a tenth of the cost of a
// whole day: the reader steps aside for anything else, and the day-file fuzz
// target holds it to yaml-cpp's reading.
#pragma once

#include "util/error.h"

#include <string>
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
    std::string key; // "" for a key that is not a plain value, as yaml-cpp gives it
    int key_line = 0;
    MetaValue value;
};

// `yaml` is the text between the two `---` lines; its first line is the
// file's line 2. `shortcut` = false reads everything through yaml-cpp.
Result<MetaValue> read_front_matter(const std::string& yaml, bool shortcut = true);

} // namespace pp
