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

// Errors both clients give, in the same words.
Error credential_error(git::CredentialProblem problem, const std::string& where, const PublishSettings& config);
Error rejected_error(const std::string& where, const std::string& reasons, const PublishSettings& config);
// A server-side refusal because the branch moved on (a race lost after the
// client's own fast-forward check).
bool refused_as_behind(const std::string& reason);

// What a branch is on the remote after a push that `updates` describe
// (ref -> (old id, new id), "" when absent); a branch not among them was up
// to date.
std::vector<PushedBranch> pushed_branches(git_repository* repo, const std::vector<std::string>& branches,
                                          const std::map<std::string, std::pair<std::string, std::string>>& updates);

} // namespace pp::push
