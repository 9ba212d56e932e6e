// Cost of a run from a price table: US dollars per million tokens, with a
// separate price for cached prompt tokens. A model missing from the table
// has an unknown cost, which is not the same as free.
#pragma once

#include "core/paper.h"

#include <map>
#include <optional>
#include <string>

namespace pp {

struct Price {
    double prompt = 0;                // per million prompt tokens
    double completion = 0;            // per million completion tokens
    std::optional<double> cached;     // per million cached prompt tokens; prompt price if absent
};

using PriceTable = std::map<std::string, Price>;

// Published list prices of common models, overridable in paperpress.yaml.
PriceTable default_prices();

// An empty Cost when the model is not in the table.
Cost cost_of(const std::string& model, const Tokens& tokens, const PriceTable& prices);

} // namespace pp
