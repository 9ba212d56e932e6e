#include "score/pricing.h"

#include <cmath>

namespace pp {

namespace {

// Cents are what a reader cares about; six decimals keep sums stable.
double round_micro(double dollars) { return std::round(dollars * 1e6) / 1e6; }

} // namespace

Cost cost_of(const std::string& model, const Tokens& tokens, const PriceTable& prices) {
    auto it = prices.find(model);
    if (it == prices.end()) return {};
    const Price& price = it->second;
    long long cached = std::min(tokens.cached, tokens.prompt);
    double prompt = (static_cast<double>(tokens.prompt - cached) * price.prompt +
                     static_cast<double>(cached) * price.cached.value_or(price.prompt)) /
                    1e6;
    double completion = static_cast<double>(tokens.completion) * price.completion / 1e6;
    return Cost{round_micro(prompt), round_micro(completion), round_micro(prompt + completion)};
}

} // namespace pp
