// commit_content_files: the day files `paperpress run` wrote become one
// commit on the current branch. The commit's tree is HEAD's tree with exactly
// those paths replaced, so whatever else the user has staged stays staged and
// out of the commit.
#include "publish/git.h"
#include "publish/publish.h"

#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <optional>

namespace pp {

namespace {

using git::failure;

struct Change {
    std::string name; // relative to the working tree, '/'-separated
    fs::path path;
    bool exists = false;
    git_oid id{};
    uint32_t mode = GIT_FILEMODE_BLOB;
};

Result<git::Reference> head_reference(git_repository* repo) {
    git_reference* head = nullptr;
    if (int rc = git_reference_lookup(&head, repo, "HEAD"); rc < 0) return failure("cannot read HEAD", rc);
    git::Reference ref(head);
    if (git_reference_type(head) != GIT_REFERENCE_SYMBOLIC)
        return fail("HEAD is detached, so there is no branch to commit the day files on; check out a branch "
                    "(git switch main) and run again");
    return ref;
}

// `file` as a path inside the working tree, or an error saying where it is.
Result<std::string> name_in(const fs::path& root, const fs::path& file) {
    std::error_code ec;
    fs::path absolute = fs::weakly_canonical(fs::absolute(file, ec), ec);
    if (ec) return fail("cannot resolve this path: " + ec.message(), file.string());
    fs::path relative = absolute.lexically_relative(root);
    std::string name = relative.generic_string();
    if (relative.empty() || name == "." || name.starts_with("../") || name == ".." || relative.is_absolute())
        return fail("expected a file inside the repository at " + root.string(), file.string());
    if (name == ".git" || name.starts_with(".git/")) return fail("expected a file outside .git", file.string());
    return name;
}

} // namespace

Result<std::string> current_branch(const fs::path& repo_dir) {
    auto repo = git::open_repository(repo_dir);
    if (!repo) return std::unexpected(repo.error());
    auto head = head_reference(repo->get());
    if (!head) return std::unexpected(head.error());
    std::string target = git_reference_symbolic_target(head->get());
    constexpr std::string_view heads = "refs/heads/";
    if (target.starts_with(heads)) target.erase(0, heads.size());
    return target;
}

namespace {

// The branch HEAD points to, its tip and that tip's tree (all empty on an unborn branch).
struct HeadBranch {
    std::string refname, name;
    std::optional<git_oid> tip;
    git::Tree tree;
};

Result<HeadBranch> read_head_branch(git_repository* repo) {
    auto head = head_reference(repo);
    if (!head) return std::unexpected(head.error());
    HeadBranch branch;
    branch.refname = git_reference_symbolic_target(head->get());
    branch.name = branch.refname.starts_with("refs/heads/") ? branch.refname.substr(11) : branch.refname;
    auto tip = git::resolve(repo, branch.refname);
    if (!tip) return std::unexpected(tip.error());
    branch.tip = *tip;
    if (branch.tip) {
        auto commit = git::read_commit(repo, *branch.tip, branch.name);
        if (!commit) return std::unexpected(commit.error());
        branch.tree = std::move(commit->tree);
    }
    return branch;
}

// Each file once, in name order, as a path inside the working tree `root`.
Result<std::map<std::string, Change>> name_files(const fs::path& root, const std::vector<fs::path>& files) {
    std::map<std::string, Change> wanted;
    for (const auto& file : files) {
        auto name = name_in(root, file);
        if (!name) return std::unexpected(name.error());
        Change change;
        change.name = *name;
        change.path = root / *name;
        wanted[*name] = std::move(change);
    }
    return wanted;
}

// The file's bytes (a link's target) stored as a blob; fills id and mode.
Result<void> store_file(git_repository* repo, const struct stat& st, Change& change) {
    std::string bytes;
    if (S_ISLNK(st.st_mode)) {
        change.mode = GIT_FILEMODE_LINK;
        std::error_code ec;
        bytes = fs::read_symlink(change.path, ec).string();
    } else {
        change.mode = (st.st_mode & S_IXUSR) ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
        auto read = read_file(change.path);
        if (!read) return std::unexpected(read.error());
        bytes = std::move(*read);
    }
    if (int rc = git_blob_create_from_buffer(&change.id, repo, bytes.data(), bytes.size()); rc < 0)
        return failure("cannot store " + change.path.string(), rc);
    return {};
}

// The files that differ from `base` (the branch's tree, null when unborn),
// stored as blobs and sorted into `changes`.
Result<std::vector<Change>> store_changed_files(git_repository* repo, const git_tree* base,
                                                std::map<std::string, Change>& wanted, TreeChanges& changes) {
    std::vector<Change> changed;
    for (auto& [name, change] : wanted) {
        struct stat st {};
        change.exists = ::lstat(change.path.c_str(), &st) == 0;
        if (change.exists && S_ISDIR(st.st_mode)) return fail("expected a file, not a folder", change.path.string());
        git_tree_entry* entry = nullptr;
        const bool in_head = base && git_tree_entry_bypath(&entry, base, name.c_str()) == 0;
        git_oid head_id{};
        uint32_t head_mode = 0;
        if (in_head) {
            head_id = *git_tree_entry_id(entry);
            head_mode = static_cast<uint32_t>(git_tree_entry_filemode(entry));
            git_tree_entry_free(entry);
        }
        if (!change.exists) {
            if (in_head) {
                changes.deleted.push_back(name);
                changed.push_back(change);
            }
            continue;
        }
        if (auto stored = store_file(repo, st, change); !stored) return std::unexpected(stored.error());
        if (!in_head) changes.added.push_back(name);
        else if (!git_oid_equal(&head_id, &change.id) || head_mode != change.mode) changes.modified.push_back(name);
        else continue;
        changed.push_back(change);
    }
    return changed;
}

// `base` with exactly the changed paths replaced; just those files on an unborn branch.
Result<git_oid> tree_with_changes(git_repository* repo, git_tree* base, const std::vector<Change>& changes) {
    if (!base) {
        std::vector<git::TreeEntry> entries;
        for (const auto& change : changes) entries.push_back({change.name, change.id, change.mode});
        return git::write_tree(repo, entries);
    }
    std::vector<git_tree_update> updates;
    for (const auto& change : changes)
        updates.push_back({change.exists ? GIT_TREE_UPDATE_UPSERT : GIT_TREE_UPDATE_REMOVE, change.id,
                           static_cast<git_filemode_t>(change.mode), change.name.c_str()});
    git_oid tree_id;
    if (int rc = git_tree_create_updated(&tree_id, repo, base, updates.size(), updates.data()); rc < 0)
        return failure("cannot write the new tree", rc);
    return tree_id;
}

// The index entries of the committed files now match the commit; other
// entries (the user's staged work) are kept.
Result<void> stage_committed_files(git_repository* repo, const std::vector<Change>& changes,
                                   const CommitOutcome& outcome) {
    auto index_failure = [&](const std::string& what, int code) {
        Error e = git::error(what, code);
        e.message = "committed " + outcome.commit.substr(0, 12) + " on " + outcome.branch + ", but " + e.message +
                    "; run git reset -- <the day files> to bring the index in line";
        return std::unexpected(e);
    };
    git_index* raw_index = nullptr;
    if (int code = git_repository_index(&raw_index, repo); code < 0)
        return index_failure("cannot open the index", code);
    git::Index index(raw_index);
    if (int code = git_index_read(index.get(), 0); code < 0) return index_failure("cannot read the index", code);
    for (const auto& change : changes) {
        int code = change.exists ? git_index_add_bypath(index.get(), change.name.c_str())
                                 : git_index_remove_bypath(index.get(), change.name.c_str());
        if (code < 0) return index_failure("cannot update the index for " + change.name, code);
    }
    if (int code = git_index_write(index.get()); code < 0) return index_failure("cannot write the index", code);
    return {};
}

} // namespace

Result<CommitOutcome> commit_content_files(const fs::path& repo_dir, const std::vector<fs::path>& files,
                                           const std::string& message, const PublishSettings& config) {
    auto opened = git::open_repository(repo_dir);
    if (!opened) return std::unexpected(opened.error());
    git_repository* repo = opened->get();
    auto root = git::workdir(repo);
    if (!root) return std::unexpected(root.error());
    std::error_code ec;
    const fs::path root_dir = fs::weakly_canonical(*root, ec);

    auto branch = read_head_branch(repo);
    if (!branch) return std::unexpected(branch.error());
    CommitOutcome outcome;
    outcome.branch = branch->name;
    if (branch->tip) outcome.commit = git::hex(*branch->tip);

    auto wanted = name_files(root_dir, files);
    if (!wanted) return std::unexpected(wanted.error());
    auto changes = store_changed_files(repo, branch->tree.get(), *wanted, outcome.changes);
    if (!changes) return std::unexpected(changes.error());
    if (changes->empty()) return outcome;

    auto tree = tree_with_changes(repo, branch->tree.get(), *changes);
    if (!tree) return std::unexpected(tree.error());
    outcome.message = message.empty() ? "Update content" : message;
    if (outcome.message.back() != '\n') outcome.message += '\n';
    auto commit = git::commit_and_move_ref(
        repo, {branch->refname, *tree, branch->tip, branch->tip, outcome.message, "commit"}, config);
    if (!commit) return std::unexpected(commit.error());
    outcome.committed = true;
    outcome.parent = outcome.commit;
    outcome.commit = git::hex(*commit);
    if (auto staged = stage_committed_files(repo, *changes, outcome); !staged) return std::unexpected(staged.error());
    return outcome;
}

} // namespace pp
