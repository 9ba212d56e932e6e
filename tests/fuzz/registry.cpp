#include "target.h"

namespace pp::fuzz {

std::map<std::string, Target>& targets() {
    static std::map<std::string, Target> all;
    return all;
}

} // namespace pp::fuzz
