// The config reader (config/config.h): any text gives a Config or an error
// naming the file, never a crash; yaml-cpp bounds its own nesting.
#include "config/config.h"
#include "target.h"

#include <cstdlib>

PAPERPRESS_FUZZ_TARGET(config) {
    auto config = pp::parse_config(input, "paperpress.yaml");
    if (!config && config.error().file != "paperpress.yaml") std::abort();
    if (config && (config->base_url.empty() || config->base_url.back() != '/')) std::abort();
}
