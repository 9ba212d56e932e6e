#include "cli/cli_common.h"

#include "content/content_tree.h"

#include <iostream>

namespace pp::cli {

void print_error(const Error& error) { std::cerr << "error: " << error.to_string() << "\n"; }
void print_warning(const std::string& warning) { std::cerr << "warning: " << warning << "\n"; }

std::optional<TreeLock> lock_content_tree(const GlobalOptions& global) {
    auto lock = lock_content(global.content, [&](long pid) {
        std::cerr << "another paperpress is writing " << global.content << "/"
                  << (pid > 0 ? " (pid " + std::to_string(pid) + ")" : std::string()) << "; waiting\n";
    });
    if (!lock) {
        print_error(lock.error());
        return std::nullopt;
    }
    return std::move(*lock);
}

} // namespace pp::cli
