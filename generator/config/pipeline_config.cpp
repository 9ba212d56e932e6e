#include "config/pipeline_config.h"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <functional>
#include <map>

namespace pp {

namespace {

// Reads one section's keys through a table of setters; unknown keys and
// wrong types are errors naming the line.
class SectionReader {
public:
    SectionReader(std::string file, std::string section) : file_(std::move(file)), section_(std::move(section)) {}

    Result<void> read(const YAML::Node& node, const std::map<std::string, std::function<Result<void>(const YAML::Node&, int)>>& keys) {
        if (!node.IsMap()) return fail("expected '" + section_ + "' to be a map of settings", file_, node.Mark().line + 1);
        for (auto it = node.begin(); it != node.end(); ++it) {
            std::string key = it->first.Scalar();
            int line = it->first.Mark().line + 1;
            auto setter = keys.find(key);
            if (setter == keys.end())
                return fail("unknown key '" + section_ + "." + key + "' (see docs/configuration.md)", file_, line);
            if (auto ok = setter->second(it->second, line); !ok) return ok;
        }
        return {};
    }

    auto text(std::string& target) {
        return [this, &target](const YAML::Node& v, int line) -> Result<void> {
            if (!v.IsScalar()) return problem(line, "text");
            target = v.Scalar();
            return {};
        };
    }
    auto flag(bool& target) {
        return [this, &target](const YAML::Node& v, int line) -> Result<void> {
            if (!v.IsScalar() || !YAML::convert<bool>::decode(v, target)) return problem(line, "true or false");
            return {};
        };
    }
    auto number(int& target, int low, int high) {
        return [this, &target, low, high](const YAML::Node& v, int line) -> Result<void> {
            int n = 0;
            if (!v.IsScalar() || !YAML::convert<int>::decode(v, n) || n < low || n > high)
                return problem(line, "a whole number from " + std::to_string(low) + " to " + std::to_string(high));
            target = n;
            return {};
        };
    }
    auto real(double& target, double low) {
        return [this, &target, low](const YAML::Node& v, int line) -> Result<void> {
            double n = 0;
            if (!v.IsScalar() || !YAML::convert<double>::decode(v, n) || n < low)
                return problem(line, "a number of at least " + std::to_string(low));
            target = n;
            return {};
        };
    }
    auto list(std::vector<std::string>& target) {
        return [this, &target](const YAML::Node& v, int line) -> Result<void> {
            target.clear();
            if (v.IsScalar()) {
                target.push_back(v.Scalar());
                return {};
            }
            if (!v.IsSequence()) return problem(line, "a list");
            for (const auto& item : v) {
                if (!item.IsScalar()) return problem(item.Mark().line + 1, "a list of text items");
                target.push_back(item.Scalar());
            }
            return {};
        };
    }

private:
    Result<void> problem(int line, const std::string& expected) {
        return fail("expected " + expected + " in section '" + section_ + "'", file_, line);
    }
    std::string file_, section_;
};

Result<void> read_prices(const YAML::Node& node, int line, const std::string& file, PriceTable& prices) {
    if (!node.IsMap()) return fail("expected 'llm.prices' to map model names to {prompt, completion, cached}", file, line);
    for (auto it = node.begin(); it != node.end(); ++it) {
        Price price;
        const YAML::Node& entry = it->second;
        int entry_line = it->first.Mark().line + 1;
        try {
            if (!entry.IsMap() || !entry["prompt"] || !entry["completion"])
                return fail("expected prompt and completion prices (dollars per million tokens) for '" +
                                it->first.Scalar() + "'", file, entry_line);
            price.prompt = entry["prompt"].as<double>();
            price.completion = entry["completion"].as<double>();
            if (entry["cached"]) price.cached = entry["cached"].as<double>();
        } catch (const YAML::Exception&) {
            return fail("expected prices to be numbers for '" + it->first.Scalar() + "'", file, entry_line);
        }
        prices[it->first.Scalar()] = price;
    }
    return {};
}

void apply_environment(PipelineConfig& config) {
    auto env = [](const char* name) -> std::optional<std::string> {
        const char* value = std::getenv(name);
        if (!value || !*value) return std::nullopt;
        return std::string(value);
    };
    if (auto v = env("PAPERPRESS_ARXIV_RSS_URL")) config.arxiv.rss_url = *v;
    if (auto v = env("PAPERPRESS_ARXIV_API_URL")) config.arxiv.api_url = *v;
    if (auto v = env("OPENAI_BASE_URL")) config.llm.base_url = *v, config.llm.base_url_set = true;
    if (auto v = env("OPENAI_MODEL")) config.llm.model = *v;
}

} // namespace

Result<PipelineConfig> load_pipeline_config(const fs::path& path) {
    PipelineConfig config;
    std::error_code ec;
    if (fs::exists(path, ec)) {
        auto text = read_file(path);
        if (!text) return std::unexpected(text.error());
        YAML::Node root;
        try {
            root = YAML::Load(*text);
        } catch (const YAML::Exception& e) {
            return fail("not valid YAML: " + e.msg, path.string(), e.mark.line + 1);
        }
        const std::string file = path.string();
        if (root.IsMap()) {
            if (root["arxiv"]) {
                SectionReader r(file, "arxiv");
                auto& a = config.arxiv;
                auto ok = r.read(root["arxiv"], {
                    {"categories", r.list(a.categories)}, {"announce_types", r.list(a.announce_types)},
                    {"primary_only", r.flag(a.primary_only)}, {"rss_url", r.text(a.rss_url)},
                    {"api_url", r.text(a.api_url)}, {"contact", r.text(a.contact)},
                    {"request_interval", r.real(a.request_interval, 0)}, {"cache_dir", r.text(a.cache_dir)},
                    {"offline_feed", r.text(a.offline_feed)}, {"api_page_size", r.number(a.api_page_size, 1, 2000)},
                });
                if (!ok) return std::unexpected(ok.error());
            }
            if (root["scoring"]) {
                SectionReader r(file, "scoring");
                auto& s = config.scoring;
                auto ok = r.read(root["scoring"], {
                    {"system_prompt", r.text(s.system_prompt)}, {"topics", r.text(s.topics)},
                    {"criteria", r.text(s.criteria)}, {"postfix", r.text(s.postfix)},
                    {"title_postfix", r.text(s.title_postfix)}, {"authors", r.list(s.authors)},
                    {"authors_file", r.text(s.authors_file)},
                    {"relevance_cutoff", r.number(s.relevance_cutoff, 0, 10)},
                    {"novelty_cutoff", r.number(s.novelty_cutoff, 0, 10)},
                    {"embedded_prefilter", r.flag(s.embedded_prefilter)}, {"cache_dir", r.text(s.cache_dir)},
                });
                if (!ok) return std::unexpected(ok.error());
            }
            if (root["llm"]) {
                SectionReader r(file, "llm");
                auto& l = config.llm;
                double temperature = -1;
                auto ok = r.read(root["llm"], {
                    {"base_url", [&](const YAML::Node& v, int line) {
                         l.base_url_set = true;
                         return r.text(l.base_url)(v, line);
                     }},
                    {"api_key_env", r.text(l.api_key_env)}, {"model", r.text(l.model)},
                    {"temperature", r.real(temperature, 0)}, {"max_tokens", r.number(l.max_tokens, 0, 1000000)},
                    {"batch_size", r.number(l.batch_size, 1, 200)}, {"concurrency", r.number(l.concurrency, 1, 64)},
                    {"requests_per_minute", r.number(l.requests_per_minute, 0, 100000)},
                    {"retries", r.number(l.retries, 0, 10)}, {"title_prefilter", r.flag(l.title_prefilter)},
                    {"timeout", r.real(l.timeout, 1)},
                    {"prices", [&](const YAML::Node& v, int line) { return read_prices(v, line, file, l.prices); }},
                });
                if (!ok) return std::unexpected(ok.error());
                if (temperature >= 0) l.temperature = temperature;
            }
        }
    }
    apply_environment(config);
    if (config.arxiv.categories.empty()) return fail("expected at least one category in 'arxiv.categories'", path.string());
    return config;
}

} // namespace pp
