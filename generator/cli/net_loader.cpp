#include "cli/net_commands.h"

#include "util/files.h"

#include <dlfcn.h>

namespace pp::cli {

const NetCommands* load_net_commands() {
    std::error_code ec;
    const fs::path module = fs::canonical("/proc/self/exe", ec).parent_path() / "paperpress-net.so";
    void* handle = ::dlopen(module.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = ::dlerror();
        print_error(Error{module.string(), 0,
                          std::string("cannot load the network module, which this command needs (it is built with "
                                      "the binary, into the same folder): ") +
                              (why ? why : "unknown error")});
        return nullptr;
    }
    auto* table = static_cast<const NetCommands*>(::dlsym(handle, net_commands_symbol));
    if (!table) print_error(Error{module.string(), 0, "the network module has no command table"});
    return table; // the module stays loaded until exit
}

} // namespace pp::cli
