#include "pipeline/month_summary.h"

#include "content/content_tree.h"
#include "content/month_summary.h"
#include "core/tex.h"
#include "score/llm_scorer.h"
#include "score/pricing.h"
#include "util/text.h"

#include <algorithm>
#include <set>

namespace pp {

namespace {

constexpr std::size_t papers_in_prompt = 30;
constexpr std::size_t abstract_chars = 300;

std::pair<int, int> month_before(int year, int month) {
    return month == 1 ? std::pair(year - 1, 12) : std::pair(year, month - 1);
}

bool has_days(const fs::path& content_dir, int year, int month) {
    for (const auto& file : scan_content(content_dir).days)
        if (file.date.year == year && file.date.month == month) return true;
    return false;
}

struct MonthPapers {
    int days = 0;
    int papers = 0;
    std::vector<std::pair<Date, Paper>> best; // author matches, then the best scores
};

Result<MonthPapers> month_papers(const fs::path& content_dir, int year, int month) {
    MonthPapers month_papers;
    std::vector<std::pair<Date, Paper>> matches, scored;
    for (const auto& file : scan_content(content_dir).days) {
        if (file.date.year != year || file.date.month != month) continue;
        auto day = load_day(file.path);
        if (!day) return std::unexpected(day.error());
        ++month_papers.days;
        for (auto& paper : day->papers) {
            ++month_papers.papers;
            (paper.author_match ? matches : scored).emplace_back(day->date, std::move(paper));
        }
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& a, const auto& b) { return a.second.score() > b.second.score(); });
    month_papers.best = std::move(matches);
    for (auto& entry : scored) {
        if (month_papers.best.size() >= papers_in_prompt) break;
        month_papers.best.push_back(std::move(entry));
    }
    if (month_papers.best.size() > papers_in_prompt) month_papers.best.resize(papers_in_prompt);
    return month_papers;
}

std::vector<ChatMessage> overview_prompt(int year, int month, const MonthPapers& papers) {
    std::string user = "Month: " + month_name(month) + " " + std::to_string(year) + ". " + std::to_string(papers.days) +
                       " days, " + std::to_string(papers.papers) + " papers selected. The best of them:\n";
    for (const auto& [date, paper] : papers.best) {
        std::string abstract = tex_to_unicode(paper.abstract);
        if (abstract.size() > abstract_chars) {
            std::size_t cut = abstract_chars;
            while (cut > 0 && (static_cast<unsigned char>(abstract[cut]) & 0xC0) == 0x80) --cut; // a UTF-8 boundary
            abstract = abstract.substr(0, cut) + "…";
        }
        user += "\n- " + date.iso() +
                (paper.author_match ? " (followed author)" : " (score " + std::to_string(paper.score()) + ")") +
                (paper.topic.empty() ? "" : " [" + paper.topic + "]") + ": " + tex_to_unicode(paper.title) + ". " +
                abstract;
    }
    return {
        {"system", "You write the monthly overview of a personal arXiv digest. In at most 200 words of plain Markdown "
                   "(two short paragraphs, no headings, no tables), say what the month's selected papers were about: "
                   "the main themes and the few most notable papers, named by title. Do not invent results."},
        {"user", user},
    };
}

} // namespace

Date last_announcement(const ArxivCalendar& calendar, int year, int month) {
    return calendar.latest_announcement_day(Date{year, month, Date::days_in_month(year, month)});
}

std::vector<std::pair<int, int>> months_to_summarize(const fs::path& content_dir, const ArxivCalendar& calendar,
                                                     const std::vector<Date>& days) {
    std::set<std::pair<int, int>> months;
    for (const Date& day : days) {
        if (day == last_announcement(calendar, day.year, day.month)) months.emplace(day.year, day.month);
        months.insert(month_before(day.year, day.month));
    }
    std::vector<std::pair<int, int>> due;
    std::error_code ec;
    for (const auto& [year, month] : months)
        if (!fs::exists(fs::symlink_status(month_summary_path(content_dir, year, month), ec)) &&
            has_days(content_dir, year, month))
            due.emplace_back(year, month);
    return due;
}

Result<MonthOverviewResult> write_month_overview(const MonthOverviewRequest& request, const Config& config) {
    MonthOverviewResult result;
    result.path = month_summary_path(request.content_dir, request.year, request.month);
    std::error_code ec;
    if (!request.force && fs::exists(fs::symlink_status(result.path, ec))) {
        result.note = "kept: it exists (run --summary to write it again)";
        return result;
    }
    auto papers = month_papers(request.content_dir, request.year, request.month);
    if (!papers) return std::unexpected(papers.error());
    if (papers->papers == 0) {
        result.note = "no papers this month: no overview";
        return result;
    }
    HttpOptions http_options;
    http_options.peer = HttpPeer::llm();
    http_options.timeout = std::chrono::seconds(static_cast<long>(config.llm.timeout));
    http_options.max_attempts = 3;
    http_options.backoff = std::chrono::milliseconds(1000);
    HttpClient http(http_options);
    LlmEndpoint endpoint = llm_endpoint(config.llm, request.api_key); // the scoring's sampling
    endpoint.format = ReplyFormat::text;                              // an overview in Markdown
    auto reply = chat_completion(http, endpoint, overview_prompt(request.year, request.month, *papers));
    if (!reply) return std::unexpected(reply.error());
    MonthSummary summary;
    summary.generated = true;
    summary.model = config.llm.model;
    if (reply->usage_known) summary.cost = cost_of(config.llm.model, reply->usage, config.llm.prices).total;
    summary.markdown = std::string(trim(reply->content));
    if (summary.markdown.empty())
        return std::unexpected(
            Error{config.llm.base_url, 0, "expected an overview in the LLM's reply, got an empty one"});
    if (auto saved = save_month_summary(request.content_dir, request.year, request.month, summary); !saved)
        return std::unexpected(saved.error());
    result.written = true;
    result.note = "written by " + config.llm.model;
    return result;
}

} // namespace pp
