// The nightly pipeline's settings: the `arxiv:`, `scoring:` and `llm:`
// sections of paperpress.yaml, plus the environment variables that override
// them. Every key has a default; docs/configuration.md documents them.
#pragma once

#include "score/pricing.h"
#include "util/error.h"
#include "util/files.h"

#include <optional>
#include <string>
#include <vector>

namespace pp {

struct ArxivSettings {
    std::vector<std::string> categories = {"cs.LG", "cs.AI"};
    std::vector<std::string> announce_types = {"new", "cross"};
    bool primary_only = false;
    std::string rss_url = "https://rss.arxiv.org/rss/";      // + "cs.LG+cs.AI"
    std::string api_url = "https://export.arxiv.org/api/query";
    std::string contact;                                     // goes into the User-Agent
    double request_interval = 3.0;                           // seconds between arXiv requests
    std::string cache_dir = ".cache/arxiv";                  // raw responses
    std::string offline_feed = "samples/arxiv-feed.xml";     // used by --offline
    int api_page_size = 200;
};

struct ScoringSettings {
    std::string system_prompt = "prompts/system.md";
    std::string topics = "prompts/topics.md";
    std::string criteria = "prompts/score_criteria.md";
    std::string postfix = "prompts/postfix.md";
    std::string title_postfix = "prompts/title_postfix.md";
    std::vector<std::string> authors;   // followed authors' names
    std::string authors_file;           // "Name, SemanticScholarID" lines, as the reference system's
    int relevance_cutoff = 7;
    int novelty_cutoff = 6;
    bool embedded_prefilter = false;    // drop papers the embedded scorer rates below the cutoff before the LLM
    std::string cache_dir = ".cache/scores";
};

struct LlmSettings {
    std::string base_url = "https://api.openai.com/v1"; // OPENAI_BASE_URL overrides
    bool base_url_set = false;          // from config or environment
    std::string api_key_env = "OPENAI_API_KEY";
    std::string model = "gpt-4o-mini";
    std::optional<double> temperature;
    int max_tokens = 0;
    int batch_size = 8;
    int concurrency = 4;
    int requests_per_minute = 60;       // 0: no limit
    int retries = 2;                    // re-asks for papers missing from replies, in smaller batches
    bool title_prefilter = false;
    double timeout = 120;               // seconds per request
    PriceTable prices = default_prices();
};

struct PipelineConfig {
    ArxivSettings arxiv;
    ScoringSettings scoring;
    LlmSettings llm;
};

// Reads the sections from `path` (absent file: defaults), then applies
// PAPERPRESS_ARXIV_RSS_URL, PAPERPRESS_ARXIV_API_URL, OPENAI_BASE_URL and
// OPENAI_MODEL. Relative paths stay relative to the working directory.
Result<PipelineConfig> load_pipeline_config(const fs::path& path);

} // namespace pp
