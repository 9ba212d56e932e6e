// The readers of paperpress.yaml's sections, each a table of keys over a
// Section (config/yaml_section.h). config/config.cpp applies them to the
// file; config/prices.cpp reads its built-in table with read_prices.
#pragma once

#include "config/config.h"
#include "config/yaml_section.h"

#include <functional>
#include <string>
#include <vector>

namespace pp {

// A check for Section::text: the value is one of `choices`.
std::function<bool(const std::string&)> one_of(std::vector<std::string> choices);

Result<void> read_arxiv(const Section& section, const YAML::Node& node, ArxivSettings& arxiv);
Result<void> read_scoring(const Section& section, const YAML::Node& node, ScoringSettings& scoring);
Result<void> read_llm(const Section& section, const YAML::Node& node, LlmSettings& llm);
Result<void> read_publish(const Section& section, const YAML::Node& node, PublishSettings& publish);
Result<void> read_notify(const Section& section, const YAML::Node& node, NotifySettings& notify);

// A map of model names to {prompt, completion, cached} dollars per million
// tokens (other keys of an entry, such as `source`, are notes); entries are
// added to `prices`, replacing those of the same model.
Result<void> read_prices(const Section& section, const YAML::Node& node, PriceTable& prices);

} // namespace pp
