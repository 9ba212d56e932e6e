// The network module's entry: the table the binary looks up (cli/net_commands.h).
#include "cli/net_commands.h"

extern "C" __attribute__((visibility("default"))) const pp::cli::NetCommands paperpress_net_commands = {
    pp::cli::net_abi,
    &pp::cli::cmd_run,
    &pp::cli::cmd_notify,
    &pp::cli::cmd_publish,
    &pp::cli::cmd_serve,
};
