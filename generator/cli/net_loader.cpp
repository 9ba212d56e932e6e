#include "cli/net_commands.h"

#include "util/files.h"

#include <dlfcn.h>

namespace pp::cli {

const NetCommands* load_net_commands() {
    std::error_code ec;
    const fs::path self = fs::canonical("/proc/self/exe", ec);
    if (ec) {
        print_error(Error{"/proc/self/exe", 0, "cannot find this program's folder, where its network module is: " +
                                                   ec.message()});
        return nullptr;
    }
    const fs::path module = self.parent_path() / "paperpress-net.so";
    auto failed = [&](const std::string& why) {
        print_error(Error{module.string(), 0,
                          "cannot load the network module, which this command needs (it is built with the binary, "
                          "into the same folder): " + why});
        return nullptr;
    };
    void* handle = ::dlopen(module.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = ::dlerror();
        return failed(why ? why : "unknown error");
    }
    auto* table = static_cast<const NetCommands*>(::dlsym(handle, net_commands_symbol));
    if (!table) return failed("it has no command table");
    if (table->abi != net_abi) return failed("it comes from another build of paperpress; rebuild both");
    return table; // the module stays loaded until exit
}

} // namespace pp::cli
