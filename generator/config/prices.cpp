#include "config/prices.h"

#include "config/prices_yaml.h" // generated from config/prices.yaml
#include "config/sections.h"

namespace pp {

namespace {

struct BuiltInPrices {
    PriceTable table;
    std::string date;
    std::map<std::string, Retirement> retired;
};

Result<void> read_retired(const Section& section, const YAML::Node& node, std::map<std::string, Retirement>& out) {
    if (!node.IsMap()) return section.problem(node.Mark().line + 1, "a map of model names to retirements");
    for (const auto& entry : node) {
        Retirement retirement;
        Section model(section.file(), section.qualified(entry.first.Scalar()));
        auto ok = model.read(entry.second, {
                                               {"provider", model.text(retirement.provider)},
                                               {"date", model.text(retirement.date)},
                                               {"note", model.text(retirement.note)},
                                               {"source", model.text(retirement.source)},
                                           });
        if (!ok) return ok;
        if (retirement.provider.empty() || retirement.source.empty())
            return model.problem(entry.first.Mark().line + 1, "the provider and the source of each retirement");
        out[entry.first.Scalar()] = std::move(retirement);
    }
    return {};
}

BuiltInPrices read_built_in_prices() {
    BuiltInPrices prices;
    read_built_in(prices_yaml, "config/prices.yaml (built in)", [&](const Section& section) {
        return std::map<std::string, Setter>{
            {"as_of", section.text(prices.date)},
            {"models", section.sub("models", [&](const Section& s,
                                                 const YAML::Node& v) { return read_prices(s, v, prices.table); })},
            {"retired",
             section.sub("retired",
                         [&](const Section& s, const YAML::Node& v) { return read_retired(s, v, prices.retired); })},
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
const std::map<std::string, Retirement>& retired_models() { return built_in().retired; }

std::string retirement_warning(const std::string& model) {
    auto it = built_in().retired.find(model);
    if (it == built_in().retired.end()) return {};
    const Retirement& r = it->second;
    return "llm.model " + model + " was retired by " + r.provider + (r.date.empty() ? "" : " on " + r.date) +
           (r.note.empty() ? "" : ": " + r.note) + " (source: " + r.source + ")";
}

} // namespace pp
