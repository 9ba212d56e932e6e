// `search`: the site's word index from the terminal, reading exactly the
// files the search page reads (search/query.h), and saying which.
#include "cli/cli_common.h"

#include "search/index.h"
#include "search/query.h"
#include "util/text.h"

#include <CLI/CLI.hpp>

#include <iostream>

namespace pp::cli {

namespace {

struct SearchArgs {
    std::string query;
    std::string site = "site";
    std::size_t limit = 20;
};

SearchArgs args;

void print_hit(const search::Hit& hit) {
    std::cout << hit.date << "  " << (hit.score ? std::to_string(*hit.score) : std::string("-")) << "  " << hit.title
              << "\n    arXiv:" << hit.id;
    if (!hit.topic.empty()) std::cout << " · " << hit.topic;
    if (!hit.authors.empty()) std::cout << " · " << hit.authors;
    if (!hit.found_in.empty()) std::cout << "\n    found in the " << join(hit.found_in, ", ");
    std::cout << "\n";
}

} // namespace

CLI::App* add_search_command(CLI::App& app) {
    auto* search = app.add_subcommand(
        "search", "Search the built site's word index (titles, authors, abstracts, topics, comments, IDs, dates) "
                  "as its search page does; prints the matches and the files and bytes it read");
    search
        ->add_option("QUERY", args.query,
                     "Words (a word of 3 letters or more matches as a prefix), a date "
                     "(2025-02-03) or a month (2025-02)")
        ->required();
    search->add_option("--site", args.site, "The built site's folder")->capture_default_str();
    search->add_option("--limit", args.limit, "Results to show")->capture_default_str()->check(CLI::Range(1, 100000));
    return search;
}

int cmd_search() {
    auto found = search::search_site(args.site, args.query, args.limit);
    if (!found) {
        Error error = found.error();
        if (!fs::exists(fs::path(args.site) / search::manifest_path))
            error.message += " (the site has no word index: the build writes it when the theme has a search layout "
                             "and 'search_index' is on, the default; its warnings say which was missing)";
        print_error(error);
        return exit_problems;
    }
    for (const auto& hit : found->hits) print_hit(hit);
    std::size_t bytes = 0;
    for (const auto& read : found->reads) bytes += read.bytes;
    std::cout << found->total << (found->total == 1 ? " paper" : " papers") << " found";
    if (found->hits.size() < found->total) std::cout << ", the best " << found->hits.size() << " shown";
    std::cout << "; read " << found->reads.size() << " files, " << bytes << " bytes:\n";
    for (const auto& read : found->reads) std::cout << "  " << read.path << " " << read.bytes << "\n";
    return exit_ok;
}

} // namespace pp::cli
