// The two clients a push can go through (publish.push_with), and what they
// share: how a failure is told. Internal to generator/publish/.
//
// libgit2 sends every changed file whole: it cannot write a thin pack (one
// whose deltas are against objects the remote already has; libgit2 issue
// #5367). A site branch rewrites a few large files every night (the home
// page, the month's data, the feed, the word index's open periods), so its
// push is four times what `git push` sends. git's own client sends thin packs;
// `auto` uses it when it is installed.
#pragma once

#include "publish/git.h"
#include "publish/publish.h"

#include <map>
#include <string>
#include <vector>

namespace pp::push {

struct Request {
    git_repository* repo = nullptr;
    fs::path repo_dir;
    std::vector<std::string> branches;
    std::vector<std::string> specs; // "refs/heads/B:refs/heads/B", one a branch
    std::string url;                // the remote's push URL, as configured
    std::string where;              // "'origin' (https://host/repo.git)", for messages
};

enum class Client { libgit2, git };

// The client publish.push_with names; `auto`: git when a git of 2.31 or later
// (which reads configuration from the environment) is on PATH, else libgit2.
Result<Client> choose_client(const PublishSettings& config);

Result<PushOutcome> with_libgit2(const Request& request, git_remote* remote, const PublishSettings& config,
                                 PushOutcome outcome);
Result<PushOutcome> with_git(const Request& request, const PublishSettings& config, PushOutcome outcome);

using Updates = std::map<std::string, std::pair<std::string, std::string>>; // ref -> (old id, new id), "" when absent
using Refusals = std::map<std::string, std::string>;                        // ref -> the remote's reason

// What both clients say in the same words: credentials the remote did not
// take; a push with refusals, which is `behind` when each says the branch
// moved on (the caller fetches and tries again), else an error naming them.
Error credential_error(git::CredentialProblem problem, const std::string& where, const PublishSettings& config);
Result<PushOutcome> refused(const Refusals& refusals, const Request& request, const PublishSettings& config,
                            PushOutcome outcome);

// What each branch is on the remote after a push that `updates` describe;
// a branch not among them was up to date.
std::vector<PushedBranch> pushed_branches(git_repository* repo, const std::vector<std::string>& branches,
                                          const Updates& updates);

} // namespace pp::push
