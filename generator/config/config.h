// paperpress.yaml, read once into one Config: the site's keys at the top
// level, and one section each for the nightly pipeline (arxiv:, scoring:,
// llm:), publishing (publish:) and notifications (notify:). The file may be
// absent; every key has a default. Every command loads and validates the
// whole file, so a mistake in any section shows on `check` or `build`, not
// at night. docs/configuration.md documents each key.
#pragma once

#include "config/prices.h"
#include "core/date.h"
#include "util/error.h"
#include "util/files.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace YAML {
class Node;
}

namespace pp {

struct ArxivSettings {
    std::vector<std::string> categories = {"cs.LG", "cs.AI"};
    std::vector<std::string> announce_types = {"new", "cross"};
    bool primary_only = false;
    std::string rss_url = "https://rss.arxiv.org/rss/";         // + "cs.LG+cs.AI"; PAPERPRESS_ARXIV_RSS_URL overrides
    std::string api_url = "https://export.arxiv.org/api/query"; // PAPERPRESS_ARXIV_API_URL overrides
    std::string contact;                                        // goes into the User-Agent
    double request_interval = 3.0;                              // seconds between arXiv requests
    std::string cache_dir = ".cache/arxiv";                     // raw responses
    std::string offline_feed = "samples/arxiv-feed.xml";        // used by --offline
    int api_page_size = 200;
    int catch_up_days =
        5; // `run` with no date back-fills missing, stale and incomplete days among the last N weekdays (0: never)
    int wait_for_feed_minutes = 0; // `run` polls a late feed this long for the expected announcement (0: no wait)
    std::vector<Date>
        no_mailing; // evenings without a mailing, added to arXiv's published ones (config/arxiv_no_mailing.yaml)
};

// Which scorer serves without an LLM, and what filters papers before one.
enum class EmbeddedScorerKind { learned, keywords };
enum class PrefilterKind { none, keywords, learned };

struct ScoringSettings {
    std::string system_prompt = "prompts/system.md";
    std::string topics = "prompts/topics.md";
    std::string criteria = "prompts/score_criteria.md";
    std::string postfix = "prompts/postfix.md";
    std::string title_postfix = "prompts/title_postfix.md";
    std::vector<std::string> authors; // followed authors' names
    std::string authors_file;         // "Name, SemanticScholarID" lines, as the reference system's
    int relevance_cutoff = 7;
    int novelty_cutoff = 6;
    EmbeddedScorerKind embedded = EmbeddedScorerKind::learned; // without an LLM: learned (from the archive) or keywords
    PrefilterKind prefilter = PrefilterKind::none; // before the LLM: none, keywords or learned (the cascade);
                                                   // embedded_prefilter: true, the old spelling, means keywords
    std::string cache_dir = ".cache/scores";
};

struct LlmSettings {
    std::string base_url = "https://api.openai.com/v1"; // OPENAI_BASE_URL overrides
    bool base_url_set = false;                          // from config or environment
    std::string api_key_env = "OPENAI_API_KEY";
    std::string model = "gpt-4o-mini"; // OPENAI_MODEL overrides
    std::optional<double> temperature; // absent: 0 for models that take it (not o1/o3/o4, gpt-5)
    int seed = 42;                     // sent with every request, for repeatable scores
    int max_tokens = 0;
    int batch_size = 16; // papers a request (docs/scoring.md, "Tokens": 16 sends 11% fewer tokens than 8)
    int concurrency = 4;
    int requests_per_minute = 60; // 0: no limit
    int tokens_per_minute = 0;    // the account's token budget; 0: no limit
    int retries = 2;              // re-asks for papers missing from replies, in smaller batches
    bool title_prefilter = false;
    bool required = false;     // true: no usable key fails the run instead of falling back to the embedded scorer
    double timeout = 120;      // seconds per request
    int max_wait_minutes = 60; // waits for rate limits and outages in one run, summed; then the embedded scorer serves
    std::string reply_format =
        "json_schema"; // asked first: json_schema, json_object or text (each falls back to the next)
    // One request a pick for its summary (score/summary.h), in `language`, as the model is told it.
    // On: the picks only, so the bill stays bounded (docs/scoring.md, "Summaries": under a cent a day on
    // the default model); without an LLM there are none.
    bool summaries = true;
    std::string language = "English";
    PriceTable prices = default_prices();
};

struct PublishSettings {
    std::string branch = "gh-pages"; // the site's branch
    std::string remote = "origin";   // where --push goes
    bool commit_content = false;     // `run` commits the day files it writes; PAPERPRESS_COMMIT_CONTENT overrides
    std::string token_env = "GITHUB_TOKEN"; // environment variable holding the push token
    std::string token;                      // not a key: its value, read once by the command line (cli/read_secrets)
    std::string author_name;                // empty: GIT_AUTHOR_NAME, else "paperpress"
    std::string author_email;               // empty: GIT_AUTHOR_EMAIL, else "paperpress@localhost"
    std::string site_dir = "site";          // the built site that is published
    int push_every_days = 0;                // `run` with commit_content: publish and push after every N days (0: never)
    std::string push_with = "auto";         // the push's client: auto, git or libgit2 (publish/push_clients.h)
};

// A notification channel's section of notify: (slack:, webhook:, email:),
// kept as written: config/ knows no channel, and each reads and checks its
// own section (notify/channel.h). The command line has every section read
// right after loading the file, so a mistake in one still names the file
// and the line the day it is made.
struct ChannelSection {
    std::string name;                       // its key under notify: ("slack")
    std::shared_ptr<const YAML::Node> node; // its value
    std::string file;                       // the config file, for errors
    int line = 0;                           // the key's line
    int notify_line = 0;                    // notify:'s line, where a mistake across keys is reported
};

struct NotifySettings {
    int top_n = 10;          // papers listed in the message
    bool on_failure = false; // send a short notice when a run fails
    int attempts = 4;        // per channel: first try + retries
    double backoff = 2.0;    // seconds before the first retry; doubles
    double timeout = 30;     // seconds per attempt
    // Every other key of notify: is a channel's section, in the file's order.
    // Secrets (webhook URLs, tokens, the SMTP password) are never in the
    // file: a channel's section names the environment variables that hold them.
    std::vector<ChannelSection> channels;
};

struct Config {
    // The site (top-level keys).
    std::string title = "Personalized Daily arXiv Papers";
    std::string description = "A daily digest of new arXiv papers, scored for my topics.";
    std::string base_url = "/";
    std::string theme = "default";
    int feed_days = 20;         // days in feed.xml
    int home_days = 10;         // recent days linked from the home page
    std::string author;         // feed author, optional
    bool math = true;           // typeset $...$ with KaTeX (a build without KaTeX's files is then an error)
    int month_best = 20;        // papers in a month page's best-of
    bool group_by_topic = true; // day pages grouped by topic (false: one ranked list)
    // JSON data (docs/data.md), each value holding what the one before holds and more: "none" (data/index.json
    // only, no search), "month" (also data/YYYY-MM.json.gz, which the search reads, without the papers'
    // free text: abstracts and comments), "full" (the month files with it) or "day" (also
    // data/days/DATE.json for every day).
    std::string data = "month";
    // The word index of the whole archive (search/, docs/data.md): the search page finds any word of a
    // title, author, abstract, topic or comment as you type, reading only its words' chunks. Off: the
    // search page reads the month data (titles, authors, IDs, topics). On by default (issue 43); built
    // when the theme has a search layout, else the build warns.
    bool search_index = true;
    bool data_has_full_text() const { return data == "full" || data == "day"; }
    // Where the reading list's feedback goes (docs/configuration.md): the GitHub repository, "owner/name",
    // and its branch. Empty: GITHUB_REPOSITORY and GITHUB_REF_NAME in an Actions run; else a download.
    std::string repository;
    std::string branch;

    ArxivSettings arxiv;
    ScoringSettings scoring;
    LlmSettings llm;
    PublishSettings publish;
    NotifySettings notify;
};

// The folder of the config file: where themes/, layouts/ and static/ are.
fs::path site_root(const fs::path& config_path);

// Where the themes are: themes/ next to the config file when there is one,
// else those installed with paperpress (installed_data_dir()).
fs::path themes_dir(const fs::path& config_path);

// share/paperpress of an installed paperpress (`cmake --install`): next to
// the binary's bin/ folder, else under the configured install prefix.
// Empty when neither exists (a binary run from its build folder).
fs::path installed_data_dir();

// Reads `path`; a missing file gives the defaults unless `required`. The
// notification channels' sections are kept unread (ChannelSection): the
// commands load with notify/channel.h's load_checked_config, which reads
// them too. Then applies the environment's overrides (PAPERPRESS_ARXIV_RSS_URL,
// PAPERPRESS_ARXIV_API_URL, OPENAI_BASE_URL, OPENAI_MODEL,
// PAPERPRESS_COMMIT_CONTENT). Relative paths stay relative to the working
// directory; a prompt or the offline sample left at its default and missing
// there is taken from the installed data, so an installed paperpress runs in
// a folder that holds only content/.
Result<Config> load_config(const fs::path& path, bool required);

// The file's text, without the environment: unknown keys and sections,
// wrong types and values out of range are errors naming `file` and the line.
Result<Config> parse_config(std::string_view text, const std::string& file);

} // namespace pp
