// Model prices: US dollars per million tokens, with a separate price for
// cached prompt tokens. The built-in table is config/prices.yaml, compiled
// in; paperpress.yaml's `llm.prices` adds to it. score/pricing.h turns
// tokens into a cost.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace pp {

struct Price {
    double prompt = 0;            // per million prompt tokens
    double completion = 0;        // per million completion tokens
    std::optional<double> cached; // per million cached prompt tokens; prompt price if absent
};

using PriceTable = std::map<std::string, Price>;

// The table of config/prices.yaml.
const PriceTable& default_prices();

// The date the built-in prices were checked ("2026-11-01").
const std::string& default_prices_date();

} // namespace pp
