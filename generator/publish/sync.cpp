// publish_and_push: commit the site, push it with the content branch, and
// when the push is refused because the remote moved on (the owner committed
// during the run, or another run published), fetch, replay this run's content
// commits on the remote's tip, rebuild the site when the content changed,
// commit it on the remote's site tip and push again. Day files touch only
// their own paths, so a replay conflicts only when both sides changed the
// same file; that is an error, never a silent overwrite.
#include "publish/git.h"
#include "publish/publish.h"

#include <optional>

namespace pp {

namespace {

using git::failure;

std::string tracking_ref(const PublishSettings& config, const std::string& branch) {
    return "refs/remotes/" + config.remote + "/" + branch;
}

// The local commits from `tip` down to `base` (exclusive), oldest first,
// following first parents; an error for a merge or when `base` is not met.
Result<std::vector<git_oid>> commits_since(git_repository* repo, const git_oid& tip, const git_oid& base) {
    constexpr int most = 10'000;
    std::vector<git_oid> chain;
    git_oid at = tip;
    while (!git_oid_equal(&at, &base)) {
        if (chain.size() >= most) return fail("expected fewer than 10000 local commits to replay");
        auto commit = git::read_commit(repo, at, git::hex(at));
        if (!commit) return std::unexpected(commit.error());
        if (git_commit_parentcount(commit->commit.get()) != 1)
            return fail("cannot replay the merge or root commit " + git::hex(at).substr(0, 12) +
                        " on the remote's branch; git pull --rebase by hand");
        chain.push_back(at);
        at = *git_commit_parent_id(commit->commit.get(), 0);
    }
    return std::vector<git_oid>(chain.rbegin(), chain.rend());
}

// The id and mode of `path` in `tree` ("" id when absent), to compare sides.
std::string entry_of(git_tree* tree, const char* path) {
    git_tree_entry* entry = nullptr;
    if (git_tree_entry_bypath(&entry, tree, path) != 0) return "";
    std::string text = git::hex(*git_tree_entry_id(entry)) + " " + std::to_string(git_tree_entry_filemode(entry));
    git_tree_entry_free(entry);
    return text;
}

// `commit`'s own changes (against its parent) applied to `onto`'s tree.
Result<git_oid> replayed_tree(git_repository* repo, const git_oid& commit, git_tree* onto, git_tree* base) {
    auto ours = git::read_commit(repo, commit, git::hex(commit));
    if (!ours) return std::unexpected(ours.error());
    auto parent = git::read_commit(repo, *git_commit_parent_id(ours->commit.get(), 0), "the parent");
    if (!parent) return std::unexpected(parent.error());
    git_diff* raw = nullptr;
    if (int rc = git_diff_tree_to_tree(&raw, repo, parent->tree.get(), ours->tree.get(), nullptr); rc < 0)
        return failure("cannot compare " + git::hex(commit), rc);
    git::Owned<git_diff, git_diff_free> diff(raw);
    std::vector<git_tree_update> updates;
    for (size_t i = 0; i < git_diff_num_deltas(diff.get()); ++i) {
        const git_diff_delta* d = git_diff_get_delta(diff.get(), i);
        const char* path = d->new_file.path;
        const std::string theirs = entry_of(onto, path);
        if (theirs == entry_of(ours->tree.get(), path)) continue; // the remote already has this very change
        // The remote changed this file too since the common base: a real conflict.
        if (theirs != entry_of(base, path))
            return fail("cannot replay " + git::hex(commit).substr(0, 12) + ": '" + std::string(path) +
                        "' was also changed on the remote; merge it by hand (git pull --rebase)");
        if (d->status == GIT_DELTA_DELETED)
            updates.push_back({GIT_TREE_UPDATE_REMOVE, git_oid{}, GIT_FILEMODE_BLOB, path});
        else
            updates.push_back(
                {GIT_TREE_UPDATE_UPSERT, d->new_file.id, static_cast<git_filemode_t>(d->new_file.mode), path});
    }
    git_oid tree;
    if (int rc = git_tree_create_updated(&tree, repo, onto, updates.size(), updates.data()); rc < 0)
        return failure("cannot write the replayed tree", rc);
    return tree;
}

// Brings the working tree and index from `old_tree` to `new_tree` for the
// files the user has not changed (git checkout's safe mode), as git rebase
// does; a file in the way is an error and changes nothing.
Result<void> check_out(git_repository* repo, git_tree* old_tree, git_tree* new_tree) {
    git_checkout_options options;
    git_checkout_options_init(&options, GIT_CHECKOUT_OPTIONS_VERSION);
    options.checkout_strategy = GIT_CHECKOUT_SAFE;
    options.baseline = old_tree;
    if (int rc = git_checkout_tree(repo, reinterpret_cast<git_object*>(new_tree), &options); rc < 0)
        return failure("cannot bring the remote's files into the working tree (a local file is in the way; the "
                       "branch was left as it was)",
                       rc);
    return {};
}

// Replays the local commits of `branch` that the remote lacks on the
// remote-tracking tip. True when the remote had commits this clone lacked.
Result<bool> replay_on_remote(git_repository* repo, const std::string& branch, const PublishSettings& config) {
    const std::string refname = "refs/heads/" + branch;
    auto local = git::resolve(repo, refname);
    auto remote = git::resolve(repo, tracking_ref(config, branch));
    if (!local) return std::unexpected(local.error());
    if (!remote) return std::unexpected(remote.error());
    if (!*local || !*remote) return false;
    git_oid base;
    if (int rc = git_merge_base(&base, repo, &**local, &**remote); rc < 0)
        return failure("the local " + branch + " and the remote's have no common history", rc);
    if (git_oid_equal(&base, &**remote)) return false; // the remote is behind: nothing of it to take
    auto chain = commits_since(repo, **local, base);
    if (!chain) return std::unexpected(chain.error());
    auto old_head = git::read_commit(repo, **local, branch);
    auto base_commit = git::read_commit(repo, base, "the common base");
    if (!old_head) return std::unexpected(old_head.error());
    if (!base_commit) return std::unexpected(base_commit.error());

    git_oid tip = **remote;
    for (const git_oid& id : *chain) {
        auto onto = git::read_commit(repo, tip, config.remote + "/" + branch);
        if (!onto) return std::unexpected(onto.error());
        auto tree = replayed_tree(repo, id, onto->tree.get(), base_commit->tree.get());
        if (!tree) return std::unexpected(tree.error());
        if (git_oid_equal(&*tree, git_tree_id(onto->tree.get()))) continue; // already on the remote
        auto original = git::read_commit(repo, id, git::hex(id));
        if (!original) return std::unexpected(original.error());
        // The branch moves once, at the end, after the working tree.
        auto replayed = git::commit_and_move_ref(
            repo, {"", *tree, tip, {}, git_commit_message(original->commit.get()), "paperpress replay"}, config);
        if (!replayed) return std::unexpected(replayed.error());
        tip = *replayed;
    }
    auto head = git::resolve(repo, "HEAD");
    if (head && *head && git_oid_equal(&**head, &**local)) {
        auto new_tip = git::read_commit(repo, tip, branch);
        if (!new_tip) return std::unexpected(new_tip.error());
        if (auto checked = check_out(repo, old_head->tree.get(), new_tip->tree.get()); !checked)
            return std::unexpected(checked.error());
    }
    if (auto moved = git::move_ref(repo, refname, tip, *local, "paperpress: replayed on " + config.remote); !moved)
        return std::unexpected(moved.error());
    return true;
}

// The site branch starts again from the remote's tip: its local commits are
// made from content/ and are made again.
Result<void> reset_to_remote(git_repository* repo, const std::string& branch, const PublishSettings& config) {
    auto local = git::resolve(repo, "refs/heads/" + branch);
    auto remote = git::resolve(repo, tracking_ref(config, branch));
    if (!local) return std::unexpected(local.error());
    if (!remote) return std::unexpected(remote.error());
    if (!*remote || (*local && git_oid_equal(&**local, &**remote))) return {};
    return git::move_ref(repo, "refs/heads/" + branch, **remote, *local, "paperpress publish: start from the remote");
}

} // namespace

Result<void> fetch_branches(const fs::path& repo_dir, const std::vector<std::string>& branches,
                            const PublishSettings& config) {
    auto opened = git::open_repository(repo_dir);
    if (!opened) return std::unexpected(opened.error());
    auto remote = git::lookup_remote(opened->get(), config.remote);
    if (!remote) return std::unexpected(remote.error());
    std::vector<std::string> specs;
    for (const auto& branch : branches) specs.push_back("+refs/heads/" + branch + ":" + tracking_ref(config, branch));
    std::vector<char*> pointers;
    for (auto& spec : specs) pointers.push_back(spec.data());
    git_strarray refspecs{pointers.data(), pointers.size()};
    git::Credentials credentials{config.token_env, config.token};
    git_fetch_options options;
    git_fetch_options_init(&options, GIT_FETCH_OPTIONS_VERSION);
    options.callbacks.credentials = git::token_credentials;
    options.callbacks.payload = &credentials;
    options.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
    if (int rc = git_remote_fetch(remote->get(), &refspecs, &options, "paperpress publish: fetch"); rc < 0)
        return failure("cannot fetch " + config.remote + " (the token is in $" + config.token_env + ")", rc);
    return {};
}

Result<PublishReport> publish_and_push(const fs::path& repo_dir, const PublishSettings& config,
                                       const PublishPlan& plan) {
    auto log = [&](const std::string& line) {
        if (plan.log) plan.log(line);
    };
    // Without a site branch (Pages deployed from Actions) only the content goes.
    std::vector<std::string> branches;
    if (plan.site_branch) branches.push_back(config.branch);
    branches.insert(branches.end(), plan.content_branches.begin(), plan.content_branches.end());
    PublishReport report;
    for (report.attempts = 1;; ++report.attempts) {
        if (plan.site_branch) {
            auto site = publish_site(repo_dir, config.site_dir, config, plan.message);
            if (!site) return std::unexpected(site.error());
            report.site = *site;
            if (plan.on_commit) plan.on_commit(report.site);
        }
        auto pushed = try_push(repo_dir, branches, config);
        if (!pushed) return std::unexpected(pushed.error());
        report.push = *pushed;
        if (!pushed->behind) return report;
        if (report.attempts >= plan.attempts)
            return fail("push to '" + config.remote + "' rejected " + std::to_string(report.attempts) +
                        " times: the remote keeps moving on; run paperpress publish --push again later (the commits "
                        "are kept locally)");
        log("push rejected: the remote has new commits; fetching them, replaying the day commits on them and "
            "publishing again");
        if (auto fetched = fetch_branches(repo_dir, branches, config); !fetched)
            return std::unexpected(fetched.error());
        auto opened = git::open_repository(repo_dir);
        if (!opened) return std::unexpected(opened.error());
        bool content_changed = false;
        for (const auto& branch : plan.content_branches) {
            auto replayed = replay_on_remote(opened->get(), branch, config);
            if (!replayed) return std::unexpected(replayed.error());
            content_changed = content_changed || *replayed;
        }
        if (plan.site_branch)
            if (auto reset = reset_to_remote(opened->get(), config.branch, config); !reset)
                return std::unexpected(reset.error());
        if (content_changed && plan.rebuild) {
            log("the remote's content changed: rebuilding the site");
            if (auto rebuilt = plan.rebuild(); !rebuilt) return std::unexpected(rebuilt.error());
        }
    }
}

} // namespace pp
