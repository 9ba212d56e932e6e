// The network module: the commands that need libcurl, libgit2 or
// cpp-httplib, built as paperpress-net.so next to the binary and loaded
// only when one of them runs. Mapping those libraries and their own
// dependencies (some forty) cost every `paperpress build` about 20 ms
// before main; the nightly append's whole budget is 100 ms.
#pragma once

#include "cli/cli_common.h"

#include <cstdint>

namespace pp::cli {

// Differs between builds whose shared types differ in size, so that a
// module left over from another build is refused rather than misread.
// Raise the first number when the table or these types change otherwise.
inline constexpr std::uint64_t net_abi = 1'000'000'000'000 * 1 + 1'000'000 * sizeof(Config) +
                                         1'000 * sizeof(GlobalOptions) + sizeof(RunArgs) + sizeof(NotifyArgs) +
                                         sizeof(PublishArgs) + sizeof(ServeArgs);

struct NetCommands {
    std::uint64_t abi; // net_abi of the module's build
    int (*run)(const GlobalOptions&, const Config&, const RunArgs&);
    int (*notify)(const GlobalOptions&, const Config&, const NotifyArgs&);
    int (*publish)(const GlobalOptions&, const PublishArgs&);
    int (*serve)(const GlobalOptions&, bool config_given, const ServeArgs&);
};

// The name of the table the module exports (its one symbol).
inline constexpr const char* net_commands_symbol = "paperpress_net_commands";

// Loads the module from the binary's folder; on failure prints why and
// returns nullptr.
const NetCommands* load_net_commands();

} // namespace pp::cli
