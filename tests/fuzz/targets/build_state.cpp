// The build-state reader (site/build_state.h): the state file is the
// build's own, but anything may have changed it. The input's lines get a
// valid header and checksum, so the fuzzer explores the records rather than
// the checksum. What is accepted has only output paths inside the output
// folder, and is written back into the same bytes.
#include "site/build_state.h"
#include "target.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

PAPERPRESS_FUZZ_TARGET(build_state) {
    std::string text = "paperpress build state 3\n";
    text += input;
    if (!text.ends_with('\n')) text += '\n';
    pp::Hasher checksum;
    for (std::size_t at = 0; at < text.size();) {
        std::size_t end = text.find('\n', at) + 1;
        checksum.add(std::string_view(text).substr(at, end - at));
        at = end;
    }
    char line[32];
    std::snprintf(line, sizeof line, "C\t%016llx\n", static_cast<unsigned long long>(checksum.value()));
    for (const std::string& candidate : {std::string(input), text + line}) {
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
