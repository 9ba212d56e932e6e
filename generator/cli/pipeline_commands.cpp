// `run`, `notify` and `publish`: the nightly job, its messages and its commit.
#include "cli/cli_common.h"
#include "cli/progress.h"

#include "config/arxiv_dates.h"
#include "content/content_tree.h"
#include "core/arxiv_calendar.h"
#include "notify/notifier.h"
#include "pipeline/month_summary.h"
#include "pipeline/nightly.h"
#include "publish/publish.h"
#include "util/text.h"

#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>

namespace pp::cli {

namespace {

// Templates are looked up like the build's: the site's layouts/, then the theme.
NotifyPaths notify_paths(const GlobalOptions& global) {
    NotifyPaths paths;
    paths.site_dir = site_root(global.config);
    paths.themes_dir = themes_dir(global.config);
    return paths;
}

std::optional<Date> date_option(const std::string& text, const char* name, bool& bad) {
    if (text.empty()) return std::nullopt;
    auto date = parse_iso_date(text);
    if (!date) {
        std::cerr << "error: " << name << " expects a date YYYY-MM-DD, got '" << text << "'\n";
        bad = true;
    }
    return date;
}

std::chrono::sys_days to_days(const Date& d) {
    return std::chrono::year_month_day{std::chrono::year{d.year}, std::chrono::month{static_cast<unsigned>(d.month)},
                                       std::chrono::day{static_cast<unsigned>(d.day)}};
}

long days_between(const Date& from, const Date& to) { return (to_days(to) - to_days(from)).count(); }

Date add_days(const Date& d, long days) {
    std::chrono::year_month_day ymd{to_days(d) + std::chrono::days{days}};
    return Date{static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
                static_cast<int>(static_cast<unsigned>(ymd.day()))};
}

// A back-fill window longer than a year is almost always a typo (--from
// 1990-01-01 walks 9,000 weekdays at 3 s a page).
constexpr long max_backfill_days = 365; // --to minus --from: 366 days at most

// Why `run` refuses these dates, if it does.
std::optional<std::string> refuse_run_dates(const RunRequest& request, const Date& today) {
    if (request.date && today < *request.date)
        return "--date " + request.date->iso() + " is in the future (today is " + today.iso() +
               " on arXiv's clock, US Eastern): there is no announcement for it yet";
    if (request.from && request.to && *request.to < *request.from)
        return "--from " + request.from->iso() + " is after --to " + request.to->iso() + "; swap them";
    Date to = request.to.value_or(today);
    if (request.from && to < *request.from)
        return "--from " + request.from->iso() + " is in the future (today is " + today.iso() +
               " on arXiv's clock, US Eastern)";
    if (request.from && days_between(*request.from, to) > max_backfill_days)
        return "the back-fill window " + request.from->iso() + " to " + to.iso() + " is " +
               std::to_string(days_between(*request.from, to) + 1) + " days long; at most " +
               std::to_string(max_backfill_days + 1) + " at a time (about 3 s per API page): split it into runs of " +
               "a year or less, e.g. --from " + request.from->iso() + " --to " +
               add_days(*request.from, max_backfill_days - 1).iso();
    return std::nullopt;
}

void print_site_commit(const CommitOutcome& outcome, const std::string& site_dir) {
    if (outcome.committed) {
        const auto& c = outcome.changes;
        std::cout << "publish: committed " << outcome.commit.substr(0, 12) << " on " << outcome.branch << ": "
                  << outcome.message.substr(0, outcome.message.find('\n')) << "\n  " << c.count()
                  << " files changed: " << c.added.size() << " added, " << c.modified.size() << " modified, "
                  << c.deleted.size() << " deleted\n";
    } else {
        std::cout << "publish: nothing changed in " << site_dir << " since "
                  << (outcome.commit.empty() ? std::string("(no commit)") : outcome.commit.substr(0, 12)) << " on "
                  << outcome.branch << "; no commit\n";
    }
}

void print_push(const PushOutcome& pushed) {
    for (const auto& b : pushed.branches) {
        std::cout << "push: " << b.branch << " to " << pushed.remote << " (" << pushed.url << ") through "
                  << pushed.client << ": ";
        if (b.up_to_date) std::cout << "up to date\n";
        else if (b.old_id.empty()) std::cout << "new branch at " << b.new_id.substr(0, 12) << "\n";
        else std::cout << b.old_id.substr(0, 12) << ".." << b.new_id.substr(0, 12) << "\n";
    }
}

// Whether publish keeps the site branch: PAPERPRESS_SITE_BRANCH, which the
// nightly workflow sets false when Pages is deployed from Actions, where a
// site branch serves nothing and only makes the repository grow
// (docs/operations.md, "The site branch"); true when unset.
Result<bool> keep_site_branch() {
    const char* value = std::getenv("PAPERPRESS_SITE_BRANCH");
    const std::string text = value ? value : "";
    if (text.empty() || text == "true") return true;
    if (text == "false") return false;
    return fail("expected PAPERPRESS_SITE_BRANCH to be true or false, got " + excerpt(text));
}

// Commits the site and pushes it with the content branch (with
// commit_content); a push the remote refuses because it moved on is retried
// after replaying the day commits on its tip and rebuilding the site.
Result<PublishReport> publish_and_push_site(const GlobalOptions& global, const Config& site_config,
                                            const PublishSettings& config) {
    PublishPlan plan;
    auto site_branch = keep_site_branch();
    if (!site_branch) return std::unexpected(site_branch.error());
    plan.site_branch = *site_branch;
    if (config.commit_content) {
        auto current = current_branch(".");
        if (!current) return std::unexpected(current.error());
        if (*current != config.branch) plan.content_branches.push_back(*current);
    }
    const std::string content = global.content;
    plan.message = [content](const TreeChanges& changes) { return site_publish_message(changes, content); };
    plan.on_commit = [&config](const CommitOutcome& outcome) { print_site_commit(outcome, config.site_dir); };
    plan.log = [](const std::string& line) { std::cout << "publish: " << line << "\n"; };
    plan.rebuild = [&]() -> Result<void> {
        if (cmd_build(global, site_config, BuildArgs{config.site_dir, {}, {}}) != exit_ok)
            return fail("the site could not be rebuilt after taking the remote's content (see above)");
        return {};
    };
    return publish_and_push(".", config, plan);
}

// The LLM's key, when an LLM is configured (a key, or a base URL of a local server).
std::optional<std::string> llm_key(const Config& config, const Secrets& secrets) {
    if (!secrets.llm_api_key.empty()) return secrets.llm_api_key;
    if (config.llm.base_url_set) return std::string();
    return std::nullopt;
}

using AfterWrite = std::function<void(const std::vector<fs::path>&, const std::string&)>;

// After the days: the overviews of the months they complete, once each.
void write_due_overviews(const GlobalOptions& global, const Config& config, const Secrets& secrets,
                         const std::vector<Date>& days, const AfterWrite& after_write) {
    auto key = llm_key(config, secrets);
    if (!key) return; // the overview needs an LLM; the month page has its best-of without one
    for (const auto& [year, month] : months_to_summarize(global.content, arxiv_calendar(config.arxiv), days)) {
        MonthOverviewRequest request{year, month, global.content, false, *key};
        auto written = write_month_overview(request, config);
        if (!written) {
            print_warning("month overview: " + written.error().to_string());
            continue;
        }
        std::cout << "month overview " << written->path.string() << ": " << written->note << "\n";
        if (written->written && after_write)
            after_write({written->path}, "Overview of " + month_name(month) + " " + std::to_string(year));
    }
}

// `run --summary YYYY-MM`: that month's overview written again, then the site.
int run_month_overview(const GlobalOptions& global, const Config& config, const Secrets& secrets, const RunArgs& args) {
    auto first = parse_iso_date(args.summary + "-01");
    if (args.summary.size() != 7 || !first) {
        std::cerr << "error: --summary expects a month as YYYY-MM, got " << excerpt(args.summary) << "\n";
        return exit_usage;
    }
    auto key = llm_key(config, secrets);
    if (!key) {
        print_error(
            {global.config, 0, "expected an LLM for the overview: set " + config.llm.api_key_env + " or llm.base_url"});
        return exit_problems;
    }
    auto lock = lock_content_tree(global);
    if (!lock) return exit_problems;
    auto written = write_month_overview({first->year, first->month, global.content, true, *key}, config);
    if (!written) {
        print_error(written.error());
        return exit_problems;
    }
    std::cout << "month overview " << written->path.string() << ": " << written->note << "\n";
    if (written->written && config.publish.commit_content)
        if (auto committed = commit_content_files(".", {written->path}, "Overview of " + args.summary, config.publish);
            !committed)
            print_error(committed.error());
    return args.no_build ? exit_ok : cmd_build(global, config, BuildArgs{args.out, {}, {}});
}

// The run asked for on the command line; nothing (the error printed) for a usage error.
// Its log and progress are shown through `bar`.
std::optional<RunRequest> run_request(const GlobalOptions& global, const Secrets& secrets, const RunArgs& args,
                                      ProgressLine& bar) {
    bool bad = false;
    RunRequest request;
    request.date = date_option(args.date, "--date", bad);
    request.from = date_option(args.from, "--from", bad);
    request.to = date_option(args.to, "--to", bad);
    if (bad) return std::nullopt;
    std::optional<std::string> refused;
    if (request.date && (request.from || request.to)) refused = "use either --date or --from/--to";
    else refused = refuse_run_dates(request, arxiv_today()); // the day the run itself expects
    if (!refused && args.resume && !request.date)
        refused = "--resume completes one partial day: give it with --date YYYY-MM-DD";
    if (refused) {
        std::cerr << "error: " << *refused << "\n";
        return std::nullopt;
    }
    request.resume = args.resume;
    request.offline = args.offline;
    request.content_dir = global.content;
    request.llm_api_key = secrets.llm_api_key;
    request.log = [&bar](const std::string& line) {
        bar.end();
        std::cout << line << std::endl;
    };
    request.progress = [&bar](const std::string& task, size_t done, size_t total) { bar.update(task, done, total); };
    return request;
}

// With publish.commit_content: commits each day the run writes, and with
// publish.push_every_days pushes as it goes, so a long back-fill that times
// out keeps what was done (the next run skips the days the archive has).
struct ContentCommits {
    const GlobalOptions& global;
    const Config& config;
    int failures = 0;
    int days_unpushed = 0;

    void push_now() {
        days_unpushed = 0;
        if (cmd_build(global, config, BuildArgs{config.publish.site_dir, {}, {}}) != exit_ok) {
            print_warning("could not build the site to push it; the days stay committed and are pushed later");
            return;
        }
        auto report = publish_and_push_site(global, config, config.publish);
        if (!report) print_warning("the push along the way failed, the back-fill goes on: " + report.error().message);
        else print_push(report->push);
    }
    void commit(const std::vector<fs::path>& files, const std::string& message) {
        auto committed = commit_content_files(".", files, message, config.publish);
        if (!committed) {
            print_error(committed.error());
            ++failures;
        } else if (committed->committed) {
            std::cout << "committed " << committed->commit.substr(0, 12) << " on " << committed->branch << ": "
                      << message << "\n";
            const int every = config.publish.push_every_days;
            if (every > 0 && ++days_unpushed >= every) push_now();
        }
    }
};

// Notifying never fails the run: a channel that cannot be reached is a warning.
void print_notify(const NotifyReport& report) {
    for (const auto& channel : report.sent) std::cout << "notified: " << channel << "\n";
    for (const auto& warning : report.warnings) print_warning(warning); // each says "notify: ..."
}

void stdout_log(const std::string& line) { std::cout << line << "\n"; }

// After the run's days: the months' overviews, the site, the notifications; the exit code.
int after_run(const GlobalOptions& global, const Config& config, const Secrets& secrets, const RunArgs& args,
              const RunRequest& request, const RunResult& result, int commit_failures) {
    const NotifyPaths paths = notify_paths(global);
    if (result.outcome == RunOutcome::failed) {
        print_error({"", 0, result.error});
        print_notify(notify_failure(request.date.value_or(request.to.value_or(arxiv_today())), result.error,
                                    config.notify, config, paths, secrets.notify, false, stdout_log));
        return exit_problems;
    }
    if (result.outcome == RunOutcome::written && !request.offline)
        write_due_overviews(global, config, secrets, result.days, request.after_write);
    if (commit_failures) return exit_problems;
    const int outcome_code = run_exit_code(result);
    for (const auto& why : result.incomplete) std::cerr << "paperpress run: exit 3: " << why << "\n";
    // The site is built whatever the outcome: a run killed between writing
    // the day and building leaves a site that the next run brings up to date
    // (the build is incremental: nothing to do costs a few milliseconds).
    int status = args.no_build ? exit_ok : cmd_build(global, config, BuildArgs{args.out, {}, {}, false, args.jobs});
    if (result.outcome != RunOutcome::written) return status != exit_ok ? status : outcome_code;
    for (const Date& date : result.days) {
        auto day = load_day(day_path(global.content, date));
        if (day) print_notify(notify_day(*day, config.notify, config, paths, secrets.notify, false, stdout_log));
    }
    return status != exit_ok ? status : outcome_code;
}

} // namespace

int cmd_run(const GlobalOptions& global, Config config, const Secrets& secrets, const RunArgs& args) {
    if (!args.summary.empty()) return run_month_overview(global, config, secrets, args);
    if (args.push_every_days >= 0) config.publish.push_every_days = args.push_every_days;
    ProgressLine bar;
    auto request = run_request(global, secrets, args, bar);
    if (!request) return exit_usage;
    ContentCommits commits{global, config};
    if (config.publish.commit_content)
        request->after_write = [&](const std::vector<fs::path>& files, const std::string& message) {
            commits.commit(files, message);
        };
    auto lock = lock_content_tree(global);
    if (!lock) return exit_problems;
    RunResult result = run_nightly(*request, config);
    bar.end();
    for (const auto& warning : result.warnings) print_warning(warning);
    return after_run(global, config, secrets, args, *request, result, commits.failures);
}

int cmd_notify(const GlobalOptions& global, const Config& config, const Secrets& secrets, const NotifyArgs& args) {
    bool bad = false;
    auto date = date_option(args.date, "--date", bad);
    if (bad) return exit_usage;
    if (!any_channel(config.notify)) {
        print_error({global.config, 0,
                     "expected a notification channel in section 'notify' (slack, webhook or "
                     "email; see docs/notifications.md)"});
        return exit_problems;
    }
    auto scan = scan_content(global.content);
    const DayFile* file = nullptr;
    for (const auto& candidate : scan.days)
        if (!date || candidate.date == *date) file = &candidate;
    if (!file) {
        print_error({global.content, 0, date ? "expected a day file for " + date->iso() : "expected at least one day"});
        return exit_problems;
    }
    auto day = load_day(file->path);
    if (!day) {
        print_error(day.error());
        return exit_problems;
    }
    const NotifyPaths paths = notify_paths(global);
    auto report = notify_day(*day, config.notify, config, paths, secrets.notify, args.dry_run,
                             [](const std::string& line) { std::cout << line << std::endl; });
    for (const auto& warning : report.warnings) print_warning(warning);
    if (args.dry_run) {
        std::cout << "notify: dry run for " << day->date.iso() << "; nothing sent\n";
        return report.ok() ? exit_ok : exit_problems;
    }
    std::cout << "notify: " << day->date.iso() << ": sent to " << report.sent.size() << " channel"
              << (report.sent.size() == 1 ? "" : "s") << ", " << report.warnings.size() << " failed\n";
    return report.ok() ? exit_ok : exit_problems;
}

int cmd_publish(const GlobalOptions& global, const Config& site, const PublishArgs& args) {
    PublishSettings config = site.publish;
    if (!args.branch.empty()) config.branch = args.branch;
    if (!args.remote.empty()) config.remote = args.remote;
    if (!args.site.empty()) config.site_dir = args.site;

    if (args.push) {
        auto report = publish_and_push_site(global, site, config);
        if (!report) {
            print_error(report.error());
            return exit_problems;
        }
        print_push(report->push);
        if (report->push.branches.empty())
            std::cout << "publish: nothing to push (PAPERPRESS_SITE_BRANCH=false and publish.commit_content off)\n";
        return exit_ok;
    }
    auto site_branch = keep_site_branch();
    if (!site_branch) {
        print_error(site_branch.error());
        return exit_problems;
    }
    if (!*site_branch) {
        std::cout << "publish: PAPERPRESS_SITE_BRANCH=false: the site is not committed (deploy " << config.site_dir
                  << " as it is)\n";
        return exit_ok;
    }
    const std::string content = global.content;
    auto outcome = publish_site(".", config.site_dir, config, [&content](const TreeChanges& changes) {
        return site_publish_message(changes, content);
    });
    if (!outcome) {
        print_error(outcome.error());
        return exit_problems;
    }
    print_site_commit(*outcome, config.site_dir);
    return exit_ok;
}

} // namespace pp::cli
