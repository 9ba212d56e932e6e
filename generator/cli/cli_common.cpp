#include "cli/cli_common.h"

#include <iostream>

namespace pp::cli {

void print_error(const Error& error) { std::cerr << "error: " << error.to_string() << "\n"; }
void print_warning(const std::string& warning) { std::cerr << "warning: " << warning << "\n"; }

} // namespace pp::cli
