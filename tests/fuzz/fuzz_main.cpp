// libFuzzer's entry for one target (PAPERPRESS_FUZZ_NAME, set by CMake).
#include "target.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const pp::fuzz::Target target = pp::fuzz::targets().at(PAPERPRESS_FUZZ_NAME);
    target(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
