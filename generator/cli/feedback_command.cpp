// `feedback star|hide ID...` and `feedback import FILE`: the reader's
// judgements, appended to content/feedback/YYYY-MM.txt (content/feedback.h).
#include "cli/cli_common.h"

#include "content/feedback.h"
#include "core/arxiv_calendar.h"
#include "core/arxiv_id.h"
#include "util/bom.h"
#include "util/text.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <map>
#include <set>

namespace pp::cli {

namespace {

struct FeedbackArgs {
    std::vector<std::string> ids;
    std::string file;
    CLI::App *star = nullptr, *hide = nullptr, *import = nullptr;
};

FeedbackArgs args;

// The IDs in canonical form (an "arXiv:" prefix, a URL or a version are
// dropped), each once; an error names the first that is no arXiv ID.
Result<std::vector<std::string>> canonical_ids(const std::vector<std::string>& given) {
    std::vector<std::string> ids;
    std::set<std::string> seen;
    for (const auto& text : given) {
        auto id = parse_arxiv_id(trim(text));
        if (!id) return fail("expected an arXiv ID (2511.01234 or hep-th/9901001), got " + excerpt(text));
        if (seen.insert(id->id).second) ids.push_back(id->id);
    }
    return ids;
}

// The IDs of the reading list's export (themes/default/static/site.js
// writes starred.txt as one ID a line); a bad line is an error at file:line.
Result<std::vector<std::string>> exported_ids(const std::string& path) {
    auto text = read_file(path, max_feedback_file_bytes);
    if (!text) return std::unexpected(in_file(text.error(), path));
    std::vector<std::string> ids;
    int line = 0;
    for (auto row : split(without_bom(*text), '\n')) {
        ++line;
        row = trim(row);
        if (row.empty()) continue;
        auto id = parse_arxiv_id(row);
        if (!id) return fail("expected one arXiv ID a line, got " + excerpt(row), path, line);
        ids.push_back(id->id);
    }
    return ids;
}

// Appends a `verdict` for each of `ids` whose judgement in force is not
// already that one, dated arXiv's today.
int record(const GlobalOptions& global, Verdict verdict, const std::vector<std::string>& ids) {
    auto lock = lock_content_tree(global);
    if (!lock) return exit_problems;
    auto feedback = scan_feedback(global.content);
    for (const auto& error : feedback.errors) print_error(error);
    if (!feedback.errors.empty()) return exit_problems; // fix them first: `check` names them too
    std::map<std::string, Verdict> in_force;
    for (const auto& judgement : judgements_in_force(std::move(feedback.judgements)))
        in_force[judgement.id] = judgement.verdict;
    const Date today = arxiv_today();
    std::vector<Judgement> lines;
    std::set<std::string> added;
    for (const auto& id : ids) {
        auto known = in_force.find(id);
        if ((known != in_force.end() && known->second == verdict) || !added.insert(id).second) continue;
        lines.push_back({today, verdict, id});
    }
    const fs::path path = feedback_month_path(global.content, today);
    if (!lines.empty()) {
        auto written = append_feedback(global.content, today, lines);
        if (!written) {
            print_error(written.error());
            return exit_problems;
        }
    }
    std::cout << "feedback: " << lines.size() << " " << to_string(verdict) << " lines added to " << path.string()
              << " (" << ids.size() - lines.size() << " already " << (verdict == Verdict::star ? "starred" : "hidden")
              << ")\n";
    return exit_ok;
}

} // namespace

CLI::App* add_feedback_command(CLI::App& app) {
    auto* feedback = app.add_subcommand(
        "feedback", "Record the reader's judgements in content/feedback/ (docs/content-format.md): the scorer learns "
                    "from them, with the LLM and without it");
    feedback->require_subcommand(1);
    args.star = feedback->add_subcommand("star", "More like this: append 'star' lines dated arXiv's today");
    args.hide = feedback->add_subcommand("hide", "Not for me: append 'hide' lines dated arXiv's today");
    for (auto* verdict : {args.star, args.hide})
        verdict->add_option("ID", args.ids, "arXiv IDs (2511.01234, hep-th/9901001; a version is dropped)")->required();
    args.import = feedback->add_subcommand(
        "import", "Star the papers of the reading list's export (starred.txt: one arXiv ID a line), skipping papers "
                  "already starred");
    args.import->add_option("FILE", args.file, "The exported starred.txt")->required();
    for (auto* sub : {args.star, args.hide, args.import}) sub->fallthrough();
    return feedback;
}

int cmd_feedback(const GlobalOptions& global) {
    if (args.import->parsed()) {
        auto ids = exported_ids(args.file);
        if (!ids) {
            print_error(ids.error());
            return exit_problems;
        }
        return record(global, Verdict::star, *ids);
    }
    auto ids = canonical_ids(args.ids);
    if (!ids) {
        print_error(ids.error());
        return exit_usage;
    }
    return record(global, args.star->parsed() ? Verdict::star : Verdict::hide, *ids);
}

} // namespace pp::cli
