// The front matter's reader (content/front_matter.h): whatever the bytes,
// the shortcut for the writer's form gives yaml-cpp's entries, kinds, values
// and lines, or the same error.
#include "content/front_matter.h"
#include "target.h"

#include <cstdlib>

namespace {

bool same(const pp::MetaValue& a, const pp::MetaValue& b) {
    if (a.kind != b.kind || a.line != b.line || a.scalar != b.scalar || a.entries.size() != b.entries.size())
        return false;
    for (std::size_t i = 0; i < a.entries.size(); ++i)
        if (a.entries[i].key != b.entries[i].key || a.entries[i].key_line != b.entries[i].key_line ||
            !same(a.entries[i].value, b.entries[i].value))
            return false;
    return true;
}

} // namespace

PAPERPRESS_FUZZ_TARGET(front_matter) {
    const std::string yaml(input);
    auto shortcut = pp::read_front_matter(yaml);
    auto through_yaml_cpp = pp::read_front_matter(yaml, false);
    if (shortcut.has_value() != through_yaml_cpp.has_value()) std::abort();
    if (shortcut ? !same(*shortcut, *through_yaml_cpp)
                 : shortcut.error().to_string() != through_yaml_cpp.error().to_string())
        std::abort();
}
