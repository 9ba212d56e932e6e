// push_branches: fast-forward pushes with libgit2. The token (read once by the
// command line) is handed to libgit2 inside the credential callback only;
// it is never put in a URL, the config, a message or a log line.
#include "publish/git.h"
#include "publish/publish.h"

#include <map>

namespace pp {

namespace {

using git::failure;

struct PushState {
    git::Credentials credentials;
    std::map<std::string, std::pair<std::string, std::string>> updates; // ref -> (remote's old id, new id)
    std::map<std::string, std::string> refused;                         // ref -> the server's reason
};

int credentials(git_credential** out, const char* url, const char* username_from_url, unsigned int allowed,
                void* payload) {
    return git::token_credentials(out, url, username_from_url, allowed, &static_cast<PushState*>(payload)->credentials);
}

int negotiation(const git_push_update** updates, size_t count, void* payload) {
    auto& state = *static_cast<PushState*>(payload);
    for (size_t i = 0; i < count; ++i) {
        const git_push_update* u = updates[i];
        state.updates[u->dst_refname] = {git_oid_is_zero(&u->src) ? "" : git::hex(u->src),
                                         git_oid_is_zero(&u->dst) ? "" : git::hex(u->dst)};
    }
    return 0;
}

int update_reference(const char* refname, const char* status, void* payload) {
    if (status) static_cast<PushState*>(payload)->refused[refname] = status;
    return 0;
}

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

std::string short_name(const std::string& ref) { return ref.starts_with("refs/heads/") ? ref.substr(11) : ref; }

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

// Why git_remote_push failed, and what to do.
Error push_failure(int rc, const PushState& state, const std::string& where, const PublishSettings& config) {
    switch (state.credentials.problem) {
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
            return Error{{},
                         0,
                         where +
                             " asked for a kind of credentials paperpress cannot give; use an https:// URL "
                             "with a token in $" +
                             config.token_env + ", or an SSH agent for ssh:// URLs"};
        case git::CredentialProblem::none:
            break;
    }
    if (rc == GIT_EAUTH)
        return git::error("push to " + where + " failed to authenticate; check the token in $" + config.token_env, rc);
    return git::error("push to " + where + " failed", rc);
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

// A server-side refusal because the branch moved on (a race lost after the
// client's own fast-forward check).
bool refused_as_behind(const std::string& reason) {
    return reason.find("fast-forward") != std::string::npos || reason.find("fetch first") != std::string::npos;
}

std::vector<PushedBranch> pushed_branches(git_repository* repo, const std::vector<std::string>& branches,
                                          const PushState& state) {
    std::vector<PushedBranch> out;
    for (const auto& branch : branches) {
        PushedBranch pushed;
        pushed.branch = branch;
        auto u = state.updates.find("refs/heads/" + branch);
        if (u == state.updates.end()) {
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

} // namespace

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

    auto specs = push_specs(repo, branches);
    if (!specs) return std::unexpected(specs.error());
    if (specs->empty()) return outcome;
    std::vector<char*> spec_pointers;
    for (auto& spec : *specs) spec_pointers.push_back(spec.data());
    git_strarray refspecs{spec_pointers.data(), spec_pointers.size()};

    PushState state;
    state.credentials.token_env = config.token_env;
    state.credentials.token = config.token;
    git_push_options options;
    git_push_options_init(&options, GIT_PUSH_OPTIONS_VERSION);
    options.callbacks.credentials = credentials;
    options.callbacks.push_negotiation = negotiation;
    options.callbacks.push_update_reference = update_reference;
    options.callbacks.payload = &state;

    const std::string where = "'" + config.remote + "' (" + outcome.url + ")";
    if (int rc = git_remote_push(remote->get(), &refspecs, &options); rc < 0) {
        if (rc == GIT_ENONFASTFORWARD && state.credentials.problem == git::CredentialProblem::none) {
            outcome.behind = true;
            return outcome;
        }
        return std::unexpected(push_failure(rc, state, where, config));
    }
    if (!state.refused.empty()) {
        std::string reasons;
        bool all_behind = true;
        for (const auto& [ref, reason] : state.refused) {
            reasons += (reasons.empty() ? "" : "; ") + short_name(ref) + ": " + reason;
            all_behind = all_behind && refused_as_behind(reason);
        }
        if (all_behind) {
            outcome.behind = true;
            return outcome;
        }
        return fail("push to " + where + " rejected by the remote (" + reasons +
                    "). If the branch is protected, allow this push or publish to another branch; if it moved, " +
                    "git fetch " + config.remote + " and publish again");
    }
    outcome.branches = pushed_branches(repo, branches, state);
    return outcome;
}

Result<PushOutcome> push_branches(const fs::path& repo_dir, const std::vector<std::string>& branches,
                                  const PublishSettings& config) {
    auto outcome = try_push(repo_dir, branches, config);
    if (outcome && outcome->behind)
        return std::unexpected(behind_error(branches, "'" + config.remote + "' (" + outcome->url + ")", config));
    return outcome;
}

} // namespace pp
