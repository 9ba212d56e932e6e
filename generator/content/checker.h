// `paperpress check`: validates the whole content tree.
#pragma once

#include "util/error.h"
#include "util/files.h"

#include <string>
#include <vector>

namespace pp {

struct CheckReport {
    int days = 0;
    int papers = 0;
    std::vector<Error> errors;         // the build would be wrong or fail
    std::vector<std::string> warnings; // worth a look, not wrong
};

CheckReport check_content(const fs::path& root);

} // namespace pp
