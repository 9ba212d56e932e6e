#include "score/pricing.h"

#include <cmath>

namespace pp {

PriceTable default_prices() {
    return {
        {"gpt-4o", {2.5, 10.0, 1.25}},
        {"gpt-4o-mini", {0.15, 0.6, 0.075}},
        {"gpt-4.1", {2.0, 8.0, 0.5}},
        {"gpt-4.1-mini", {0.4, 1.6, 0.1}},
        {"gpt-4.1-nano", {0.1, 0.4, 0.025}},
        {"o3", {10.0, 40.0, 2.5}},
        {"o4-mini", {1.1, 4.4, 0.275}},
        {"deepseek-chat", {0.27, 1.1, 0.07}},
    };
}

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
                     static_cast<double>(cached) * price.cached.value_or(price.prompt)) / 1e6;
    double completion = static_cast<double>(tokens.completion) * price.completion / 1e6;
    return Cost{round_micro(prompt), round_micro(completion), round_micro(prompt + completion)};
}

} // namespace pp
