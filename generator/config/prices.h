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

// A model its provider no longer serves under that name (prices.yaml's `retired`).
struct Retirement {
    std::string provider; // "DeepSeek"
    std::string date;     // when it was retired, YYYY-MM-DD; empty when the provider gives none
    std::string note;     // what happens to requests now, and what to use instead
    std::string source;   // the provider's page that says so
};

// The built-in retirements, by model name.
const std::map<std::string, Retirement>& retired_models();

// The warning a run that uses `model` gives when its provider retired it:
// "llm.model deepseek-chat was retired by DeepSeek on 2026-07-24: ... (source: ...)";
// empty for a model still served.
std::string retirement_warning(const std::string& model);

} // namespace pp
