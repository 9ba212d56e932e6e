#include "util/error.h"

namespace pp {

std::string Error::to_string() const {
    std::string out;
    if (!file.empty()) {
        out += file;
        if (line > 0) out += ":" + std::to_string(line);
        out += ": ";
    }
    return out + message;
}

} // namespace pp
