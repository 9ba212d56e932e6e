#include "config/prices.h"

#include "config/prices_yaml.h" // generated from config/prices.yaml
#include "config/sections.h"

namespace pp {

namespace {

struct BuiltInPrices {
    PriceTable table;
    std::string date;
};

BuiltInPrices read_built_in_prices() {
    BuiltInPrices prices;
    read_built_in(prices_yaml, "config/prices.yaml (built in)", [&](const Section& section) {
        return std::map<std::string, Setter>{
            {"as_of", section.text(prices.date)},
            {"models", section.sub("models", [&](const Section& s,
                                                 const YAML::Node& v) { return read_prices(s, v, prices.table); })},
        };
    });
    return prices;
}

const BuiltInPrices& built_in() {
    static const BuiltInPrices prices = read_built_in_prices();
    return prices;
}

} // namespace

const PriceTable& default_prices() { return built_in().table; }
const std::string& default_prices_date() { return built_in().date; }

} // namespace pp
