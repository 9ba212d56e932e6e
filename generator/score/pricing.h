// Cost of a run from a price table (config/prices.h). A model missing from
// the table has an unknown cost, which is not the same as free.
#pragma once

#include "config/prices.h"
#include "core/paper.h"

#include <string>

namespace pp {

// An empty Cost when the model is not in the table.
Cost cost_of(const std::string& model, const Tokens& tokens, const PriceTable& prices);

} // namespace pp
