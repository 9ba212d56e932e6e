#include "config/pipeline_config.h"

#include "config/yaml_section.h"

#include <cstdlib>

namespace pp {

namespace {

Result<void> read_prices(const YAML::Node& node, int line, const std::string& file, PriceTable& prices) {
    if (!node.IsMap()) return fail("expected 'llm.prices' to map model names to {prompt, completion, cached}", file, line);
    for (auto it = node.begin(); it != node.end(); ++it) {
        Price price;
        const YAML::Node entry = it->second;
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
    auto loaded = load_yaml_file(path);
    if (!loaded) return std::unexpected(loaded.error());
    const YAML::Node& root = *loaded;
    const std::string file = path.string();
    if (root.IsMap()) {
        auto& a = config.arxiv;
        Section arxiv(file, "arxiv");
        auto ok = arxiv.read(root["arxiv"], {
            {"categories", arxiv.list(a.categories)}, {"announce_types", arxiv.list(a.announce_types)},
            {"primary_only", arxiv.flag(a.primary_only)}, {"rss_url", arxiv.text(a.rss_url)},
            {"api_url", arxiv.text(a.api_url)}, {"contact", arxiv.text(a.contact)},
            {"request_interval", arxiv.real(a.request_interval, 0)}, {"cache_dir", arxiv.text(a.cache_dir)},
            {"offline_feed", arxiv.text(a.offline_feed)}, {"api_page_size", arxiv.number(a.api_page_size, 1, 2000)},
        });
        if (!ok) return std::unexpected(ok.error());

        auto& s = config.scoring;
        Section scoring(file, "scoring");
        ok = scoring.read(root["scoring"], {
            {"system_prompt", scoring.text(s.system_prompt)}, {"topics", scoring.text(s.topics)},
            {"criteria", scoring.text(s.criteria)}, {"postfix", scoring.text(s.postfix)},
            {"title_postfix", scoring.text(s.title_postfix)}, {"authors", scoring.list(s.authors)},
            {"authors_file", scoring.text(s.authors_file)},
            {"relevance_cutoff", scoring.number(s.relevance_cutoff, 0, 10)},
            {"novelty_cutoff", scoring.number(s.novelty_cutoff, 0, 10)},
            {"embedded_prefilter", scoring.flag(s.embedded_prefilter)}, {"cache_dir", scoring.text(s.cache_dir)},
        });
        if (!ok) return std::unexpected(ok.error());

        auto& l = config.llm;
        Section llm(file, "llm");
        double temperature = -1;
        ok = llm.read(root["llm"], {
            {"base_url", [&](const YAML::Node& v, int line) {
                 l.base_url_set = true;
                 return llm.text(l.base_url)(v, line);
             }},
            {"api_key_env", llm.env_name(l.api_key_env)}, {"model", llm.text(l.model)},
            {"temperature", llm.real(temperature, 0)}, {"max_tokens", llm.number(l.max_tokens, 0, 1000000)},
            {"batch_size", llm.number(l.batch_size, 1, 200)}, {"concurrency", llm.number(l.concurrency, 1, 64)},
            {"requests_per_minute", llm.number(l.requests_per_minute, 0, 100000)},
            {"retries", llm.number(l.retries, 0, 10)}, {"title_prefilter", llm.flag(l.title_prefilter)},
            {"timeout", llm.real(l.timeout, 1)},
            {"prices", [&](const YAML::Node& v, int line) { return read_prices(v, line, file, l.prices); }},
        });
        if (!ok) return std::unexpected(ok.error());
        if (temperature >= 0) l.temperature = temperature;
    }
    apply_environment(config);
    if (config.arxiv.categories.empty()) return fail("expected at least one category in 'arxiv.categories'", path.string());
    return config;
}

} // namespace pp
