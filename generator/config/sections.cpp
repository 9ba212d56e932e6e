#include "config/sections.h"

#include "util/text.h"

#include <algorithm>
#include <functional>

namespace pp {

std::function<bool(const std::string&)> one_of(std::vector<std::string> choices) {
    return [choices = std::move(choices)](const std::string& s) {
        return std::find(choices.begin(), choices.end(), s) != choices.end();
    };
}

namespace {

bool one_line(const std::string& s) { return s.find_first_of("\n\r<>") == std::string::npos; }
bool non_empty(const std::string& s) { return !s.empty(); }

// A name git accepts for a branch or remote; libgit2 checks the details
// again when it is used.
bool ref_name(const std::string& s) {
    if (s.empty() || s.front() == '-' || s.front() == '/' || s.back() == '/' || s.back() == '.') return false;
    if (s.find("..") != std::string::npos || s.find("@{") != std::string::npos || s.find("//") != std::string::npos)
        return false;
    for (unsigned char c : s)
        if (c <= ' ' || c == 0x7f || c == '~' || c == '^' || c == ':' || c == '?' || c == '*' || c == '[' || c == '\\')
            return false;
    return true;
}

} // namespace

Result<void> read_arxiv(const Section& s, const YAML::Node& node, ArxivSettings& a) {
    auto ok = s.read(node, {
                               {"categories", s.list(a.categories)},
                               {"announce_types", s.list(a.announce_types)},
                               {"primary_only", s.flag(a.primary_only)},
                               {"rss_url", s.text(a.rss_url)},
                               {"api_url", s.text(a.api_url)},
                               {"contact", s.text(a.contact)},
                               {"request_interval", s.real(a.request_interval, 0)},
                               {"cache_dir", s.project_path(a.cache_dir)},
                               {"offline_feed", s.project_path(a.offline_feed)},
                               {"api_page_size", s.number(a.api_page_size, 1, 2000)},
                               {"catch_up_days", s.number(a.catch_up_days, 0, 30)},
                               {"wait_for_feed_minutes", s.number(a.wait_for_feed_minutes, 0, 600)},
                               {"no_mailing", s.dates(a.no_mailing)},
                           });
    if (!ok) return ok;
    if (a.categories.empty()) return s.problem(node.Mark().line + 1, "at least one category in 'categories'");
    for (const auto& type : a.announce_types)
        if (type != "new" && type != "cross" && type != "replace" && type != "replace-cross")
            return s.problem(node.Mark().line + 1,
                             "announce_types from new, cross, replace, replace-cross; got " + excerpt(type));
    return {};
}

Result<void> read_scoring(const Section& s, const YAML::Node& node, ScoringSettings& c) {
    std::string embedded = c.embedded == EmbeddedScorerKind::keywords ? "keywords" : "learned";
    std::string prefilter = c.prefilter == PrefilterKind::learned    ? "learned"
                            : c.prefilter == PrefilterKind::keywords ? "keywords"
                                                                     : "none";
    bool embedded_prefilter = false;
    auto read = s.read(node, {
                                 {"system_prompt", s.prompt_path(c.system_prompt)},
                                 {"topics", s.prompt_path(c.topics)},
                                 {"criteria", s.prompt_path(c.criteria)},
                                 {"postfix", s.prompt_path(c.postfix)},
                                 {"title_postfix", s.prompt_path(c.title_postfix)},
                                 {"authors", s.list(c.authors)},
                                 {"authors_file", s.project_path(c.authors_file)},
                                 {"relevance_cutoff", s.number(c.relevance_cutoff, 0, 10)},
                                 {"novelty_cutoff", s.number(c.novelty_cutoff, 0, 10)},
                                 {"embedded", s.text(embedded, "learned or keywords", one_of({"learned", "keywords"}))},
                                 {"prefilter", s.text(prefilter, "none, keywords or learned",
                                                      one_of({"none", "keywords", "learned"}))},
                                 {"embedded_prefilter", s.flag(embedded_prefilter)},
                                 {"cache_dir", s.project_path(c.cache_dir)},
                             });
    if (!read) return read;
    c.embedded = embedded == "keywords" ? EmbeddedScorerKind::keywords : EmbeddedScorerKind::learned;
    // The old spelling (embedded_prefilter: true) is the keywords pre-filter, unless the cascade is asked for.
    c.prefilter = prefilter == "learned"                          ? PrefilterKind::learned
                  : prefilter == "keywords" || embedded_prefilter ? PrefilterKind::keywords
                                                                  : PrefilterKind::none;
    return {};
}

Result<void> read_llm(const Section& s, const YAML::Node& node, LlmSettings& l) {
    double temperature = -1;
    auto ok = s.read(
        node, {
                  {"base_url",
                   [&](const YAML::Node& v, int line) {
                       l.base_url_set = true;
                       return s.text(l.base_url)(v, line);
                   }},
                  {"api_key_env", s.env_name(l.api_key_env)},
                  {"model", s.text(l.model)},
                  {"temperature", s.real(temperature, 0)},
                  {"max_tokens", s.number(l.max_tokens, 0, 1000000)},
                  {"batch_size", s.number(l.batch_size, 1, 200)},
                  {"concurrency", s.number(l.concurrency, 1, 64)},
                  {"requests_per_minute", s.number(l.requests_per_minute, 0, 100000)},
                  {"tokens_per_minute", s.number(l.tokens_per_minute, 0, 1000000000)},
                  {"seed", s.number(l.seed, 0, 2147483647)},
                  {"retries", s.number(l.retries, 0, 10)},
                  {"title_prefilter", s.flag(l.title_prefilter)},
                  {"required", s.flag(l.required)},
                  {"timeout", s.real(l.timeout, 1)},
                  {"max_wait_minutes", s.number(l.max_wait_minutes, 0, 1440)},
                  {"reply_format", s.text(l.reply_format, "json_schema, json_object or text",
                                          one_of({"json_schema", "json_object", "text"}))},
                  {"summaries", s.flag(l.summaries)},
                  {"language", s.text(l.language, "a language's name on one line, such as English or Deutsch",
                                      [](const std::string& v) { return one_line(v) && !trim(v).empty(); })},
                  {"prices",
                   s.sub("prices", [&](const Section& p, const YAML::Node& v) { return read_prices(p, v, l.prices); })},
              });
    if (!ok) return ok;
    if (temperature >= 0) l.temperature = temperature;
    return {};
}

Result<void> read_publish(const Section& s, const YAML::Node& node, PublishSettings& p) {
    return s.read(
        node,
        {
            {"branch", s.text(p.branch, "a branch name such as gh-pages", ref_name)},
            {"remote", s.text(p.remote, "a remote name such as origin", ref_name)},
            {"commit_content", s.flag(p.commit_content)},
            {"token_env", s.env_name(p.token_env)},
            {"author_name", s.text(p.author_name, "a name on one line", one_line)},
            {"author_email", s.text(p.author_email, "an e-mail address without '<', '>' or line breaks", one_line)},
            {"site_dir", s.text(p.site_dir, "a folder", non_empty)},
            {"push_every_days", s.number(p.push_every_days, 0, 366)},
            {"push_with", s.text(p.push_with, "auto, git or libgit2", one_of({"auto", "git", "libgit2"}))},
        });
}

Result<void> read_notify(const Section& s, const YAML::Node& node, NotifySettings& c) {
    c.channels.clear();
    return s.read(node,
                  {
                      {"top_n", s.number(c.top_n, 1, 1000)},
                      {"on_failure", s.flag(c.on_failure)},
                      {"attempts", s.number(c.attempts, 1, 20)},
                      {"backoff", s.real(c.backoff, 0)},
                      {"timeout", s.real(c.timeout, 1)},
                  },
                  [&](const std::string& key, const YAML::Node& value, int line) -> Result<void> {
                      c.channels.push_back(
                          {key, std::make_shared<const YAML::Node>(value), s.file(), line, node.Mark().line + 1});
                      return {};
                  });
}

Result<void> read_prices(const Section& s, const YAML::Node& node, PriceTable& prices) {
    if (!node.IsMap()) return s.problem(node.Mark().line + 1, "a map of model names to {prompt, completion, cached}");
    for (auto it = node.begin(); it != node.end(); ++it) {
        const std::string model = it->first.Scalar();
        Price price;
        double cached = -1;
        std::string source;
        Section entry(s.file(), s.qualified(model));
        auto ok = entry.read(it->second, {
                                             {"prompt", entry.real(price.prompt, 0)},
                                             {"completion", entry.real(price.completion, 0)},
                                             {"cached", entry.real(cached, 0)},
                                             {"source", entry.text(source)},
                                         });
        if (!ok) return ok;
        if (!it->second.IsMap() || !it->second["prompt"] || !it->second["completion"])
            return entry.problem(it->first.Mark().line + 1,
                                 "prompt and completion prices (dollars per million tokens)");
        if (cached >= 0) price.cached = cached;
        prices[model] = price;
    }
    return {};
}

} // namespace pp
