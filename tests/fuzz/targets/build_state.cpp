// The build-state reader (site/build_state.h, a util/record_file.h file):
// the state file is the build's own, but anything may have changed it. The
// input's lines get the header, the kinds' lines and a valid checksum, so
// the fuzzer explores the records rather than the checksum. What is
// accepted has only output paths inside the output folder, and is written
// back into the same bytes.
#include "site/build_state.h"
#include "target.h"

#include <cstdlib>
#include <filesystem>

PAPERPRESS_FUZZ_TARGET(build_state) {
    std::string empty = pp::serialize_state(pp::BuildState{});
    std::string text = empty.substr(0, empty.find("\nP\t") + 1); // the header and the kinds' lines
    text += input;
    if (!text.ends_with('\n')) text += '\n';
    const std::string summed = text + "C\t" + pp::hex64(pp::hash_bytes(text)) + "\n";
    for (const std::string& candidate : {std::string(input), summed}) {
        pp::BuildState state = pp::parse_state(candidate, 0);
        if (!state.rejected.empty()) continue;
        for (const auto& [path, record] : state.outputs) {
            if (!path.empty() && path.front() == '/') std::abort();
            for (const auto& segment : std::filesystem::path(path))
                if (segment == ".." || segment == ".") std::abort();
        }
        pp::BuildState again = pp::parse_state(pp::serialize_state(state), 0);
        if (!again.rejected.empty() || pp::serialize_state(again) != pp::serialize_state(state)) std::abort();
    }
}
