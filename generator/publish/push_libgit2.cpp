// A push through libgit2: the token goes to it in the credential callback only.
#include "publish/push_clients.h"

#include <map>

namespace pp::push {

namespace {

struct PushState {
    git::Credentials credentials;
    Updates updates;
    Refusals refusals;
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
    if (status) static_cast<PushState*>(payload)->refusals[refname] = status;
    return 0;
}

// Why git_remote_push failed, and what to do.
Error push_failure(int rc, const PushState& state, const std::string& where, const PublishSettings& config) {
    if (state.credentials.problem != git::CredentialProblem::none)
        return credential_error(state.credentials.problem, where, config);
    if (rc == GIT_EAUTH)
        return git::error("push to " + where + " failed to authenticate; check the token in $" + config.token_env, rc);
    return git::error("push to " + where + " failed", rc);
}

} // namespace

Result<PushOutcome> with_libgit2(const Request& request, git_remote* remote, const PublishSettings& config,
                                 PushOutcome outcome) {
    std::vector<std::string> specs = request.specs;
    std::vector<char*> spec_pointers;
    for (auto& spec : specs) spec_pointers.push_back(spec.data());
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

    if (int rc = git_remote_push(remote, &refspecs, &options); rc < 0) {
        if (rc == GIT_ENONFASTFORWARD && state.credentials.problem == git::CredentialProblem::none) {
            outcome.behind = true;
            return outcome;
        }
        return std::unexpected(push_failure(rc, state, request.where, config));
    }
    if (!state.refusals.empty()) return refused(state.refusals, request, config, std::move(outcome));
    outcome.branches = pushed_branches(request.repo, request.branches, state.updates);
    return outcome;
}

} // namespace pp::push
