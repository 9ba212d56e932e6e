// The day's notification: the summary data (date, count, the top N papers
// with their arXiv links and scores, the link to the day's page) and its
// renderings from the theme's mustache templates (plain text, HTML, Slack
// mrkdwn) plus the JSON bodies the webhooks send. Pure functions apart from
// reading the templates.
//
// Templates: themes/<theme>/notify/{email.txt,email.html,slack.txt,failure.txt}.mustache,
// overridden by the site's layouts/notify/<name>.mustache. In each, {{var}}
// is escaped for the target format (HTML entities for HTML; &, <, > for
// Slack; control characters stripped for plain text), {{{var}}} is not.
#pragma once

#include "config/config.h"
#include "core/paper.h"
#include "site/theme.h"
#include "util/error.h"
#include "util/files.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pp {

struct PaperLine {
    int rank = 0; // 1-based, in page order
    std::string id;
    std::string title;
    std::string url;     // https://arxiv.org/abs/<id>
    std::string authors; // "A, B, C" (the first few, then "et al.")
    std::optional<int> relevance;
    std::optional<int> novelty;
    bool author_match = false;
    std::string comment; // one line
    std::string tldr;    // the LLM's one-sentence summary (llm.summaries), one line; empty when none
};

struct DayMessage {
    Date date;
    bool failed = false;              // a failure notice instead of the picks
    std::string error;                // why the run failed (failure notices)
    std::string status = "announced"; // the day's status: announced, partial, stale or failed
    std::string reason;               // why it is partial or stale (one line)
    std::string site_title;
    std::string day_url;        // the day's page under base_url
    int count = 0;              // papers on the day
    std::vector<PaperLine> top; // the first top_n papers, in page order
};

// Every text field is made one line without control characters.
DayMessage summarize_day(const Day& day, const Config& site, int top_n);
DayMessage summarize_failure(const Date& date, const std::string& error, const Config& site);

enum class TextFormat { plain, html, slack };

// Escapes outside text for a format (what {{var}} does in the templates).
std::string escape_for(TextFormat format, std::string_view text);

struct NotifyTemplates {
    std::map<std::string, ThemeFile> files; // "email.txt" -> notify/email.txt.mustache
};

// The templates every theme's notify/ folder must have.
const std::vector<std::string>& notify_template_names();

// Reads site_dir/layouts/notify/ first, then themes_dir/<theme>/notify/,
// then themes_dir/default/notify/ (for themes without notification templates);
// each template is parsed, so a syntax error names its file.
Result<NotifyTemplates> load_notify_templates(const fs::path& themes_dir, const std::string& theme,
                                              const fs::path& site_dir);

struct Message {
    std::string subject; // one line, plain text
    std::string text;    // plain text (email text part, webhooks' "text")
    std::string html;    // the email's HTML part
    std::string slack;   // Slack mrkdwn
    std::string json;    // the generic webhook's body: the day's data and `text`
};

// notify.email.subject's default.
inline constexpr const char* default_subject = "{{title}}: {{count}} {{paper_word}} for {{date}}";

// `subject_template` is mustache (notify.email.subject), rendered as plain text.
Result<Message> render_message(const DayMessage& summary, const NotifyTemplates& templates,
                               const std::string& subject_template);

// Slack's JSON body: {"text": mrkdwn, ...}, with "channel" for a bot token.
std::string slack_payload(const Message& message, const std::string& channel);

} // namespace pp
