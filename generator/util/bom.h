// The UTF-8 byte order mark (EF BB BF) that some editors put at the start of
// a file. Every text file paperpress reads by hand-edited syntax (day files,
// legacy pages, templates, YAML) is read as if it were not there.
#pragma once

#include <string>
#include <string_view>

namespace pp {

inline constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";

inline std::string_view without_bom(std::string_view text) {
    if (text.starts_with(utf8_bom)) text.remove_prefix(utf8_bom.size());
    return text;
}

inline void remove_bom(std::string& text) {
    if (text.starts_with(utf8_bom)) text.erase(0, utf8_bom.size());
}

} // namespace pp
