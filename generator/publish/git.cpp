#include "publish/git.h"
#include "publish/publish.h"
#include "util/redact.h"

#include <cstdlib>
#include <optional>

namespace pp::git {

Error error(const std::string& what, int code) {
    const git_error* last = git_error_last();
    std::string message = what;
    if (last && last->message && *last->message) message += ": " + std::string(last->message);
    else message += " (libgit2 error " + std::to_string(code) + ")";
    return Error{{}, 0, message};
}

Result<Repository> open_repository(const fs::path& dir) {
    if (auto loaded = libgit2::load(); !loaded) return std::unexpected(loaded.error());
    git_repository* raw = nullptr;
    int rc = git_repository_open_ext(&raw, dir.string().c_str(), 0, nullptr);
    Repository repo(raw);
    if (rc == GIT_ENOTFOUND) return fail("expected a git repository at or above '" + dir.string() + "' (run git init)");
    if (rc == GIT_EOWNER)
        return fail("the repository at '" + dir.string() + "' belongs to another user; if you trust it, run " +
                    "git config --global --add safe.directory '" + fs::absolute(dir).string() + "'");
    if (rc < 0) return failure("cannot open the repository at '" + dir.string() + "'", rc);
    if (auto bridged = bridge_shallow_history(repo.get()); !bridged) return std::unexpected(bridged.error());
    return repo;
}

std::string hex(const git_oid& id) {
    char buffer[GIT_OID_HEXSZ + 1] = {};
    git_oid_tostr(buffer, sizeof buffer, &id);
    return buffer;
}

Result<std::optional<git_oid>> resolve(git_repository* repo, const std::string& name) {
    git_object* object = nullptr;
    int rc = git_revparse_single(&object, repo, (name + "^{commit}").c_str());
    if (rc == GIT_ENOTFOUND) return std::optional<git_oid>{};
    if (rc < 0) return failure("cannot read '" + name + "'", rc);
    git_oid id = *git_object_id(object);
    git_object_free(object);
    return std::optional<git_oid>{id};
}

Result<fs::path> workdir(git_repository* repo) {
    const char* dir = git_repository_workdir(repo);
    if (!dir) return fail("expected a repository with a working tree, not a bare one");
    fs::path path(dir);
    std::string text = path.string();
    while (text.size() > 1 && text.back() == '/') text.pop_back();
    return fs::path(text);
}

Result<Signature> signature(const std::string& name, const std::string& email) {
    git_signature* raw = nullptr;
    if (int rc = git_signature_now(&raw, name.c_str(), email.c_str()); rc < 0)
        return failure("cannot use '" + name + " <" + email + ">' as a commit's author or committer", rc);
    return Signature(raw);
}

int token_credentials(git_credential** out, const char* /*url*/, const char* username_from_url, unsigned int allowed,
                      void* payload) {
    auto& state = *static_cast<Credentials*>(payload);
    if (state.attempts++ > 0) {
        // Asked again: what we gave was not accepted. Stop rather than loop.
        state.problem = CredentialProblem::refused;
        return GIT_EUSER;
    }
    if (allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT) {
        const char* token = state.token.c_str();
        if (!*token) {
            state.problem = CredentialProblem::no_token;
            return GIT_EUSER;
        }
        const char* user = username_from_url && *username_from_url ? username_from_url : "x-access-token";
        return git_credential_userpass_plaintext_new(out, user, token);
    }
    const char* user = username_from_url && *username_from_url ? username_from_url : "git";
    if ((allowed & GIT_CREDENTIAL_SSH_KEY) && std::getenv("SSH_AUTH_SOCK"))
        return git_credential_ssh_key_from_agent(out, user);
    if (allowed & GIT_CREDENTIAL_USERNAME) return git_credential_username_new(out, user);
    state.problem = CredentialProblem::unsupported;
    return GIT_EUSER;
}

Result<Remote> lookup_remote(git_repository* repo, const std::string& name) {
    git_remote* raw = nullptr;
    if (int rc = git_remote_lookup(&raw, repo, name.c_str()); rc < 0) {
        if (rc == GIT_ENOTFOUND || rc == GIT_EINVALIDSPEC)
            return fail("no remote named '" + name + "'; add it (git remote add " + name +
                        " URL) or name another with --remote");
        return failure("cannot read the remote '" + name + "'", rc);
    }
    return Remote(raw);
}

Result<CommitWithTree> read_commit(git_repository* repo, const git_oid& id, const std::string& what) {
    git_commit* commit = nullptr;
    if (int rc = git_commit_lookup(&commit, repo, &id); rc < 0) return failure("cannot read " + what, rc);
    CommitWithTree out{Commit(commit), {}};
    git_tree* tree = nullptr;
    if (int rc = git_commit_tree(&tree, commit); rc < 0) return failure("cannot read the tree of " + what, rc);
    out.tree.reset(tree);
    return out;
}

Result<git_oid> write_tree(git_repository* repo, const std::vector<TreeEntry>& entries) {
    git_index* raw = nullptr;
    if (int rc = git_index_new(&raw); rc < 0) return failure("cannot make an index", rc);
    Index index(raw);
    for (const auto& entry : entries) {
        git_index_entry e{};
        e.mode = entry.mode;
        e.id = entry.id;
        e.path = entry.path.c_str();
        if (int rc = git_index_add(index.get(), &e); rc < 0) return failure("cannot add " + entry.path, rc);
    }
    git_oid id;
    if (int rc = git_index_write_tree_to(&id, index.get(), repo); rc < 0) return failure("cannot write the tree", rc);
    return id;
}

Result<void> move_ref(git_repository* repo, const std::string& refname, const git_oid& target,
                      const std::optional<git_oid>& expected, const std::string& reflog) {
    git_reference* raw = nullptr;
    int rc = expected
                 ? git_reference_create_matching(&raw, repo, refname.c_str(), &target, 1, &*expected, reflog.c_str())
                 : git_reference_create(&raw, repo, refname.c_str(), &target, 0, reflog.c_str());
    if (rc < 0)
        return failure("cannot move " + refname + " to " + hex(target) + " (did something else change it?)", rc);
    git_reference_free(raw);
    return {};
}

Result<git_oid> commit_and_move_ref(git_repository* repo, const NewCommit& commit, const PublishSettings& config) {
    git_tree* raw_tree = nullptr;
    if (int rc = git_tree_lookup(&raw_tree, repo, &commit.tree); rc < 0) return failure("cannot read the new tree", rc);
    Tree tree(raw_tree);
    Commit parent;
    if (commit.parent) {
        git_commit* raw = nullptr;
        if (int rc = git_commit_lookup(&raw, repo, &*commit.parent); rc < 0)
            return failure("cannot read the parent commit " + hex(*commit.parent), rc);
        parent.reset(raw);
    }
    const Identity author_id = author_identity(config), committer_id = committer_identity(config);
    auto author = signature(author_id.name, author_id.email);
    if (!author) return std::unexpected(author.error());
    auto committer = signature(committer_id.name, committer_id.email);
    if (!committer) return std::unexpected(committer.error());
    std::string message = redact(commit.message); // every commit's message passes here (util/redact.h)
    if (message.empty() || message.back() != '\n') message += '\n';
    const git_commit* parents[1] = {parent.get()};
    git_oid id;
    if (int rc = git_commit_create(&id, repo, nullptr, author->get(), committer->get(), nullptr, message.c_str(),
                                   tree.get(), parent ? 1 : 0, parents);
        rc < 0)
        return failure("cannot write the commit", rc);
    if (commit.refname.empty()) return id;
    const std::string subject = message.substr(0, message.find('\n'));
    if (auto moved = move_ref(repo, commit.refname, id, commit.expected, commit.reflog_prefix + ": " + subject); !moved)
        return std::unexpected(moved.error());
    return id;
}

} // namespace pp::git

namespace pp {

namespace {

std::string configured_or_env(const std::string& configured, const char* variable, const char* fallback) {
    if (!configured.empty()) return configured;
    const char* value = std::getenv(variable);
    return value && *value ? value : fallback;
}

} // namespace

Identity author_identity(const PublishSettings& config) {
    return {configured_or_env(config.author_name, "GIT_AUTHOR_NAME", "paperpress"),
            configured_or_env(config.author_email, "GIT_AUTHOR_EMAIL", "paperpress@localhost")};
}

Identity committer_identity(const PublishSettings& config) {
    return {configured_or_env(config.author_name, "GIT_COMMITTER_NAME", "paperpress"),
            configured_or_env(config.author_email, "GIT_COMMITTER_EMAIL", "paperpress@localhost")};
}

} // namespace pp
