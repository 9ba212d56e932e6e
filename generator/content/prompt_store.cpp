#include "content/prompt_store.h"

#include "util/hash.h"
#include "util/text.h"

namespace pp {

Result<std::string> store_prompt(const fs::path& root, std::string_view text) {
    std::string body(text);
    if (!body.ends_with('\n')) body += '\n';
    std::string reference = "prompts/" + hash_hex(body) + ".md";
    remove_dead_temp_files_of(root / reference); // left by a run or import that was killed
    auto written = write_file_inside(root, root / reference, body);
    if (!written) return std::unexpected(written.error());
    return reference;
}

Result<std::string> load_prompt(const fs::path& root, const std::string& reference) {
    if (reference.find("..") != std::string::npos || reference.starts_with("/"))
        return fail("expected a prompt path inside the content folder, got " + excerpt(reference));
    return read_file_inside(root, root / reference); // a link out of the tree is refused
}

} // namespace pp
