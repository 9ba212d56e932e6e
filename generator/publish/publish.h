// Publishing with libgit2: commits written straight into the repository's
// object database, so the user's working tree, index and HEAD stay as they
// are (except where a function says otherwise), and pushes that hand their
// token (config.token, which the command line read) to the credential callback only.
#pragma once

#include "config/config.h"
#include "util/error.h"
#include "util/files.h"

#include <functional>
#include <string>
#include <vector>

namespace pp {

// Paths (relative to the committed tree's root, '/'-separated) that a commit
// adds, changes or removes, each list sorted.
struct TreeChanges {
    std::vector<std::string> added, modified, deleted;
    size_t count() const { return added.size() + modified.size() + deleted.size(); }
    bool empty() const { return count() == 0; }
};

struct CommitOutcome {
    bool committed = false; // false: nothing changed, no commit was made
    std::string branch;     // short name: "gh-pages", "main"
    std::string commit;     // the new commit, or the unchanged tip ("" when the branch has no commit)
    std::string parent;     // the previous tip ("" for a branch's first commit)
    std::string message;    // the commit's message (when committed)
    TreeChanges changes;
};

// Author and committer: publish.author_name / author_email, else
// GIT_AUTHOR_NAME / GIT_AUTHOR_EMAIL (GIT_COMMITTER_* for the committer),
// else "paperpress" <paperpress@localhost>.
struct Identity {
    std::string name, email;
};
Identity author_identity(const PublishSettings& config);
Identity committer_identity(const PublishSettings& config);

// Writes the commit message for a site publish from what changed.
using MessageWriter = std::function<std::string(const TreeChanges&)>;

// "Publish: 12 files changed (2 added, 10 modified)" with the paths listed
// below; the CLI's writer names the day and its paper count instead.
std::string default_publish_message(const TreeChanges& changes);

// "Publish 2025-05-13: 36 papers": the newest day whose page changed, with its
// paper count from the day file under `content_dir`; the body lists the days
// added and the number of files changed. Falls back to
// default_publish_message when no day page changed (a theme change, say).
std::string site_publish_message(const TreeChanges& changes, const fs::path& content_dir);

// Commits the folder `site_dir`, file for file, as the whole tree of
// `config.branch`, whose previous tip is the parent. When the local branch is
// missing or behind `config.remote`'s remote-tracking branch, the
// remote-tracking tip is the parent and the local branch is created or
// fast-forwarded. Only objects and the branch's ref are written (plus a stat
// cache under .git/paperpress/, so unchanged files are not read again): the
// working tree, the index and HEAD are not touched. No commit when the tree is
// unchanged. `repo_dir` is any folder inside the repository. Fails when the
// branch is checked out in a worktree (its files would appear modified).
Result<CommitOutcome> publish_site(const fs::path& repo_dir, const fs::path& site_dir, const PublishSettings& config,
                                   const MessageWriter& message = default_publish_message);

// Commits exactly `files` (absolute, or relative to the working folder, all
// inside the repository's working tree) on the branch HEAD points to, with
// HEAD's tree as the base: a file that exists is added or updated, a missing
// one is removed. Afterwards the index entries of those files match the
// commit; the user's other staged and unstaged changes are left alone. No
// commit when none of the files differs from HEAD. Fails on a detached HEAD.
Result<CommitOutcome> commit_content_files(const fs::path& repo_dir, const std::vector<fs::path>& files,
                                           const std::string& message, const PublishSettings& config);

struct PushedBranch {
    std::string branch;
    std::string old_id, new_id; // on the remote before and after ("" when absent)
    bool up_to_date = false;
};

struct PushOutcome {
    std::string remote; // name
    std::string url;    // without any user or password part
    std::string client; // what pushed: "git" or "libgit2" (publish.push_with)
    std::vector<PushedBranch> branches;
    bool behind = false; // (try_push only) refused: the remote has commits this clone lacks; nothing was pushed
};

// Pushes the local `branches` to the same names on `config.remote`, fast-forward
// only, and updates the remote-tracking branches. Credentials, when the remote
// asks, are `config.token`, read by the command line from `config.token_env` (user
// "x-access-token", the token as password; for SSH, the SSH agent); the token
// is handed to libgit2 only through the credential callback and is never
// written or printed. A rejected push (diverged branch, refused or missing
// credentials, a server-side refusal) is an error that says what to do.
Result<PushOutcome> push_branches(const fs::path& repo_dir, const std::vector<std::string>& branches,
                                  const PublishSettings& config);

// As push_branches, but a push refused because a remote branch has commits
// this clone lacks (not a fast-forward) is an outcome with `behind` set, for a
// caller that fetches and tries again.
Result<PushOutcome> try_push(const fs::path& repo_dir, const std::vector<std::string>& branches,
                             const PublishSettings& config);

// Fetches `branches` from `config.remote` into its remote-tracking branches
// (refs/remotes/<remote>/<branch>), with the same credentials as a push. In a
// shallow clone only the commits after its tips come.
Result<void> fetch_branches(const fs::path& repo_dir, const std::vector<std::string>& branches,
                            const PublishSettings& config);

struct PublishPlan {
    std::vector<std::string> content_branches;           // pushed with the site (commit_content's current branch)
    MessageWriter message = default_publish_message;     // the site commit's message
    std::function<Result<void>()> rebuild;               // rebuilds config.site_dir from content/
    std::function<void(const CommitOutcome&)> on_commit; // told of each site publish (to print it)
    std::function<void(const std::string&)> log;
    int attempts = 3;        // pushes at most
    bool site_branch = true; // false: no site commit, the content branches only (Pages from Actions)
};

struct PublishReport {
    CommitOutcome site; // the last site publish
    PushOutcome push;
    int attempts = 0; // pushes made
};

// publish_site, then a push of the site branch and the content branches;
// with plan.site_branch false, no site commit and a push of the content
// branches only (the site is deployed some other way).
// When the push is refused because the remote has commits this clone lacks,
// fetches them, replays the content branches' local commits on the remote's
// tips (an error when both sides changed the same file), moves the working
// tree along for files the user has not changed, rebuilds the site when the
// remote's content was new to this clone, publishes the site on the remote's
// site tip (the local site commits are made again from content/) and pushes
// again, `plan.attempts` pushes at most.
Result<PublishReport> publish_and_push(const fs::path& repo_dir, const PublishSettings& config,
                                       const PublishPlan& plan);

// The short name of the branch HEAD points to ("main"); an error on a
// detached HEAD.
Result<std::string> current_branch(const fs::path& repo_dir);

} // namespace pp
