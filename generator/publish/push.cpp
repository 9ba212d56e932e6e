// push_branches: fast-forward pushes, through libgit2 or git's own client
// (push_clients.h). The token (read once by the command line) is handed to
// libgit2 inside the credential callback only, and to git through a
// credential helper that reads it from git's environment; it is never put in
// a URL, the config, a message or a log line.
#include "publish/push_clients.h"

#include "util/subprocess.h"

#include <map>

namespace pp {

namespace {

// The URL without a "user:password@" part, for messages.
std::string displayable(std::string url) {
    size_t scheme = url.find("://");
    size_t start = scheme == std::string::npos ? 0 : scheme + 3;
    size_t at = url.find('@', start);
    size_t slash = url.find('/', start);
    if (scheme != std::string::npos && at != std::string::npos && (slash == std::string::npos || at < slash))
        url.erase(start, at + 1 - start);
    return url;
}

// "refs/heads/B:refs/heads/B" for each branch, which must exist locally. No
// '+': only fast-forwards, so a push never throws away the remote's commits.
Result<std::vector<std::string>> push_specs(git_repository* repo, const std::vector<std::string>& branches) {
    std::vector<std::string> specs;
    for (const auto& branch : branches) {
        auto tip = git::resolve(repo, "refs/heads/" + branch);
        if (!tip) return std::unexpected(tip.error());
        if (!*tip) return fail("no local branch '" + branch + "' to push; publish first");
        specs.push_back("refs/heads/" + branch + ":refs/heads/" + branch);
    }
    return specs;
}

Error behind_error(const std::vector<std::string>& branches, const std::string& where, const PublishSettings& config) {
    std::string names;
    for (const auto& branch : branches) names += (names.empty() ? "" : ", ") + branch;
    return Error{{},
                 0,
                 "push to " + where + " rejected: the remote's " + names + " has commits this repository does not " +
                     "have (someone else published, or this clone is out of date). Fetch them (git fetch " +
                     config.remote + "), then for the site branch reset it to the remote's (git branch -f " +
                     config.branch + " " + config.remote + "/" + config.branch + ") and run paperpress publish " +
                     "again: the site is rebuilt from content/, so nothing is lost; for a content branch, git pull " +
                     "--rebase and push again"};
}

// "git version 2.39.5" -> 239; 0 when unreadable.
int git_version(const fs::path& git) {
    auto ran = run_process({git.string(), "version"});
    if (!ran || ran->exit_code != 0) return 0;
    int major = 0, minor = 0;
    if (std::sscanf(ran->out.c_str(), "git version %d.%d", &major, &minor) != 2) return 0;
    return major * 100 + minor;
}

} // namespace

namespace push {

Result<Client> choose_client(const PublishSettings& config) {
    if (config.push_with == "libgit2") return Client::libgit2;
    const bool required = config.push_with == "git";
    auto git = find_on_path("git");
    if (!git) {
        if (required)
            return fail("publish.push_with is git, but there is no git on PATH; install git or set it to auto");
        return Client::libgit2;
    }
    // 2.31 reads configuration from GIT_CONFIG_COUNT, which carries the credential helper.
    if (int version = git_version(*git); version < 231) {
        if (required)
            return fail("publish.push_with is git, but " + git->string() + " is older than 2.31 (or would not say " +
                        "its version); update git or set it to auto");
        return Client::libgit2;
    }
    return Client::git;
}

Error credential_error(git::CredentialProblem problem, const std::string& where, const PublishSettings& config) {
    switch (problem) {
        case git::CredentialProblem::no_token:
            return Error{{},
                         0,
                         where + " asked for credentials and $" + config.token_env +
                             " is empty; set it to a token that may push to the repository (in GitHub Actions: " +
                             "env " + config.token_env + ": ${{ secrets.GITHUB_TOKEN }} with 'permissions: contents: " +
                             "write'), or name another variable in publish.token_env"};
        case git::CredentialProblem::refused:
            return Error{{},
                         0,
                         where + " refused the credentials (the token in $" + config.token_env +
                             "); check that it is valid and may write to the repository (GitHub Actions: " +
                             "'permissions: contents: write'; a personal token: the 'contents' write permission)"};
        case git::CredentialProblem::unsupported:
        case git::CredentialProblem::none:
            break;
    }
    return Error{{},
                 0,
                 where +
                     " asked for a kind of credentials paperpress cannot give; use an https:// URL with a token in $" +
                     config.token_env + ", or an SSH agent for ssh:// URLs"};
}

Result<PushOutcome> refused(const Refusals& refusals, const Request& request, const PublishSettings& config,
                            PushOutcome outcome) {
    std::string reasons;
    bool all_behind = true;
    for (const auto& [ref, reason] : refusals) {
        const std::string name = ref.starts_with("refs/heads/") ? ref.substr(11) : ref;
        reasons += (reasons.empty() ? "" : "; ") + name + ": " + reason;
        // A refusal because the branch moved on (the client's own check, or a race lost after it).
        all_behind = all_behind && (reason.find("fast-forward") != std::string::npos ||
                                    reason.find("fetch first") != std::string::npos);
    }
    if (all_behind) {
        outcome.behind = true;
        return outcome;
    }
    return fail("push to " + request.where + " rejected by the remote (" + reasons +
                "). If the branch is protected, allow this push or publish to another branch; if it moved, " +
                "git fetch " + config.remote + " and publish again");
}

std::vector<PushedBranch> pushed_branches(git_repository* repo, const std::vector<std::string>& branches,
                                          const Updates& updates) {
    std::vector<PushedBranch> out;
    for (const auto& branch : branches) {
        PushedBranch pushed;
        pushed.branch = branch;
        auto u = updates.find("refs/heads/" + branch);
        if (u == updates.end()) {
            pushed.up_to_date = true;
            auto tip = git::resolve(repo, "refs/heads/" + branch);
            if (tip && *tip) pushed.old_id = pushed.new_id = git::hex(**tip);
        } else {
            pushed.old_id = u->second.first;
            pushed.new_id = u->second.second;
            pushed.up_to_date = pushed.old_id == pushed.new_id;
        }
        out.push_back(std::move(pushed));
    }
    return out;
}

} // namespace push

Result<PushOutcome> try_push(const fs::path& repo_dir, const std::vector<std::string>& branches,
                             const PublishSettings& config) {
    auto opened = git::open_repository(repo_dir);
    if (!opened) return std::unexpected(opened.error());
    git_repository* repo = opened->get();
    auto remote = git::lookup_remote(repo, config.remote);
    if (!remote) return std::unexpected(remote.error());
    PushOutcome outcome;
    outcome.remote = config.remote;
    const char* url = git_remote_pushurl(remote->get());
    if (!url) url = git_remote_url(remote->get());
    outcome.url = displayable(url ? url : "");

    // git's credential helper prints the token on a line: a line break would add fields to what it says.
    if (config.token.find_first_of("\r\n") != std::string::npos)
        return fail("the token in $" + config.token_env + " holds a line break; set the variable to the token alone");
    auto specs = push_specs(repo, branches);
    if (!specs) return std::unexpected(specs.error());
    if (specs->empty()) return outcome;
    auto client = push::choose_client(config);
    if (!client) return std::unexpected(client.error());
    push::Request request{
        repo, repo_dir, branches, std::move(*specs), url ? url : "", "'" + config.remote + "' (" + outcome.url + ")"};
    if (*client == push::Client::git) {
        outcome.client = "git";
        return push::with_git(request, config, std::move(outcome));
    }
    outcome.client = "libgit2";
    return push::with_libgit2(request, remote->get(), config, std::move(outcome));
}

Result<PushOutcome> push_branches(const fs::path& repo_dir, const std::vector<std::string>& branches,
                                  const PublishSettings& config) {
    auto outcome = try_push(repo_dir, branches, config);
    if (outcome && outcome->behind)
        return std::unexpected(behind_error(branches, "'" + config.remote + "' (" + outcome->url + ")", config));
    return outcome;
}

} // namespace pp
