// Small helpers over libgit2 for the publish module: owning pointers, errors
// as Result values, opening a repository. Internal to generator/publish/.
#pragma once

#include "config/config.h"
#include "util/error.h"
#include "util/files.h"

#include "publish/libgit2.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pp::git {

template <class T, auto Free>
struct Deleter {
    void operator()(T* p) const { Free(p); }
};
template <class T, auto Free>
using Owned = std::unique_ptr<T, Deleter<T, Free>>;

using Repository = Owned<git_repository, git_repository_free>;
using Reference = Owned<git_reference, git_reference_free>;
using Commit = Owned<git_commit, git_commit_free>;
using Tree = Owned<git_tree, git_tree_free>;
using Index = Owned<git_index, git_index_free>;
using Signature = Owned<git_signature, git_signature_free>;
using Remote = Owned<git_remote, git_remote_free>;
using Odb = Owned<git_odb, git_odb_free>;
using TreeBuilder = Owned<git_treebuilder, git_treebuilder_free>;

// "what: libgit2's message".
Error error(const std::string& what, int code);
inline std::unexpected<Error> failure(const std::string& what, int code) { return std::unexpected(error(what, code)); }

// Opens the repository that contains `dir` (searching upwards, like git); in
// a shallow clone, with stand-ins for the parents it lacks (shallow.cpp).
// Loads libgit2 first: every use of git starts here.
Result<Repository> open_repository(const fs::path& dir);

// Makes a shallow clone walkable for libgit2 1.5 (see shallow.cpp).
Result<void> bridge_shallow_history(git_repository* repo);

std::string hex(const git_oid& id);

// The id `name` points to (peeled to a commit), or nothing when the ref is absent.
Result<std::optional<git_oid>> resolve(git_repository* repo, const std::string& name);

// The working tree's root with no trailing slash; an error for a bare repository.
Result<fs::path> workdir(git_repository* repo);

// A signature with the current time and time zone.
Result<Signature> signature(const std::string& name, const std::string& email);

// Credentials for pushes and fetches: `token`, which the command line read
// from the variable `token_env` (user "x-access-token"), or the SSH agent.
// The token goes to libgit2 only here, never into a URL, a file or a message.
enum class CredentialProblem { none, no_token, refused, unsupported };
struct Credentials {
    std::string token_env;
    std::string token; // empty: none
    int attempts = 0;
    CredentialProblem problem = CredentialProblem::none;
};
// A git_credential_acquire_cb whose payload is a Credentials.
int token_credentials(git_credential** out, const char* url, const char* username_from_url, unsigned int allowed,
                      void* payload);

// The remote `name`, or an error that says how to add it.
Result<Remote> lookup_remote(git_repository* repo, const std::string& name);

// The commit `id` and its tree; `what` names it in errors ("gh-pages").
struct CommitWithTree {
    Commit commit;
    Tree tree;
};
Result<CommitWithTree> read_commit(git_repository* repo, const git_oid& id, const std::string& what);

// A file of a tree being written: '/'-separated path, blob id, file mode.
struct TreeEntry {
    std::string path;
    git_oid id{};
    uint32_t mode = GIT_FILEMODE_BLOB;
};

// A tree holding exactly `entries`, built from nothing (no base tree).
Result<git_oid> write_tree(git_repository* repo, const std::vector<TreeEntry>& entries);

// Points `refname` at `target` if it still points at `expected` (nothing:
// the ref must not exist yet), so a ref moved by someone else meanwhile is an
// error rather than lost work.
Result<void> move_ref(git_repository* repo, const std::string& refname, const git_oid& target,
                      const std::optional<git_oid>& expected, const std::string& reflog);

// What commit_and_move_ref writes.
struct NewCommit {
    std::string refname; // "refs/heads/gh-pages"; empty: no ref moves
    git_oid tree{};
    std::optional<git_oid> parent;   // nothing: a root commit
    std::optional<git_oid> expected; // the ref's value now (see move_ref)
    std::string message;             // a final line break is added when missing
    std::string reflog_prefix;       // "commit", "paperpress publish": the reflog says prefix + ": " + subject
};

// The one place commits are made: writes the commit with the author and
// committer from `config` (see author_identity) and moves the ref to it.
Result<git_oid> commit_and_move_ref(git_repository* repo, const NewCommit& commit, const PublishSettings& config);

} // namespace pp::git
