#include "config/prices.h"

#include "config/prices_yaml.h" // generated from config/prices.yaml
#include "config/sections.h"

#include <cstdio>
#include <cstdlib>

namespace pp {

namespace {

struct BuiltInPrices {
    PriceTable table;
    std::string date;
};

// The table is part of the program: one that does not read is a build
// defect, caught by the unit tests, not an error for a user to fix.
BuiltInPrices read_built_in() {
    BuiltInPrices prices;
    const std::string file = "config/prices.yaml (built in)";
    auto root = parse_yaml(prices_yaml, file);
    Result<void> ok = root ? Result<void>{} : std::unexpected(root.error());
    if (ok) {
        Section section(file, "");
        ok = section.read(*root, {
            {"as_of", section.text(prices.date)},
            {"models", section.sub("models", [&](const Section& s, const YAML::Node& v) {
                 return read_prices(s, v, prices.table);
             })},
        });
    }
    if (!ok) {
        std::fprintf(stderr, "paperpress: %s\n", ok.error().to_string().c_str());
        std::abort();
    }
    return prices;
}

const BuiltInPrices& built_in() {
    static const BuiltInPrices prices = read_built_in();
    return prices;
}

} // namespace

const PriceTable& default_prices() { return built_in().table; }
const std::string& default_prices_date() { return built_in().date; }

} // namespace pp
