// commit_content_files: the day files `paperpress run` wrote become one
// commit on the current branch. The commit's tree is HEAD's tree with exactly
// those paths replaced, so whatever else the user has staged stays staged and
// out of the commit.
#include "publish/git.h"
#include "publish/publish.h"

#include <sys/stat.h>

#include <algorithm>
#include <map>

namespace pp {

namespace {

using git::failure;

struct Change {
    std::string name;  // relative to the working tree, '/'-separated
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

Result<CommitOutcome> commit_content_files(const fs::path& repo_dir, const std::vector<fs::path>& files,
                                           const std::string& message, const PublishSettings& config) {
    auto opened = git::open_repository(repo_dir);
    if (!opened) return std::unexpected(opened.error());
    git_repository* repo = opened->get();
    auto root = git::workdir(repo);
    if (!root) return std::unexpected(root.error());
    std::error_code ec;
    const fs::path root_dir = fs::weakly_canonical(*root, ec);

    auto head = head_reference(repo);
    if (!head) return std::unexpected(head.error());
    const std::string refname = git_reference_symbolic_target(head->get());
    CommitOutcome outcome;
    outcome.branch = refname.starts_with("refs/heads/") ? refname.substr(11) : refname;

    auto tip = git::resolve(repo, refname);
    if (!tip) return std::unexpected(tip.error());
    git::Commit parent;
    git::Tree base;
    if (*tip) {
        git_commit* c = nullptr;
        if (int rc = git_commit_lookup(&c, repo, &**tip); rc < 0) return failure("cannot read " + outcome.branch, rc);
        parent.reset(c);
        git_tree* t = nullptr;
        if (int rc = git_commit_tree(&t, c); rc < 0) return failure("cannot read the tree of " + outcome.branch, rc);
        base.reset(t);
        outcome.commit = git::hex(**tip);
    }

    // Each file once, in name order.
    std::map<std::string, Change> wanted;
    for (const auto& file : files) {
        auto name = name_in(root_dir, file);
        if (!name) return std::unexpected(name.error());
        Change change;
        change.name = *name;
        change.path = root_dir / *name;
        wanted[*name] = std::move(change);
    }

    std::vector<Change> changes;
    for (auto& [name, change] : wanted) {
        struct stat st {};
        change.exists = ::lstat(change.path.c_str(), &st) == 0;
        if (change.exists && S_ISDIR(st.st_mode)) return fail("expected a file, not a folder", change.path.string());
        git_tree_entry* entry = nullptr;
        const bool in_head = base && git_tree_entry_bypath(&entry, base.get(), name.c_str()) == 0;
        git_oid head_id{};
        uint32_t head_mode = 0;
        if (in_head) {
            head_id = *git_tree_entry_id(entry);
            head_mode = static_cast<uint32_t>(git_tree_entry_filemode(entry));
            git_tree_entry_free(entry);
        }
        if (!change.exists) {
            if (in_head) {
                outcome.changes.deleted.push_back(name);
                changes.push_back(change);
            }
            continue;
        }
        if (S_ISLNK(st.st_mode)) {
            change.mode = GIT_FILEMODE_LINK;
            std::string target = fs::read_symlink(change.path, ec).string();
            if (int rc = git_blob_create_from_buffer(&change.id, repo, target.data(), target.size()); rc < 0)
                return failure("cannot store " + change.path.string(), rc);
        } else {
            change.mode = (st.st_mode & S_IXUSR) ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
            auto bytes = read_file(change.path);
            if (!bytes) return std::unexpected(bytes.error());
            if (int rc = git_blob_create_from_buffer(&change.id, repo, bytes->data(), bytes->size()); rc < 0)
                return failure("cannot store " + change.path.string(), rc);
        }
        if (!in_head) outcome.changes.added.push_back(name);
        else if (!git_oid_equal(&head_id, &change.id) || head_mode != change.mode) outcome.changes.modified.push_back(name);
        else continue;
        changes.push_back(change);
    }
    if (changes.empty()) return outcome;

    std::vector<git_tree_update> updates;
    for (const auto& change : changes)
        updates.push_back({change.exists ? GIT_TREE_UPDATE_UPSERT : GIT_TREE_UPDATE_REMOVE, change.id,
                           static_cast<git_filemode_t>(change.mode), change.name.c_str()});
    git_oid tree_id;
    if (base) {
        if (int rc = git_tree_create_updated(&tree_id, repo, base.get(), updates.size(), updates.data()); rc < 0)
            return failure("cannot write the new tree", rc);
    } else {
        // The branch's first commit: the tree holds just these files.
        git_index* raw = nullptr;
        if (int rc = git_index_new(&raw); rc < 0) return failure("cannot make an index", rc);
        git::Index index(raw);
        for (const auto& change : changes) {
            git_index_entry e{};
            e.mode = change.mode;
            e.id = change.id;
            e.path = change.name.c_str();
            if (int rc = git_index_add(index.get(), &e); rc < 0) return failure("cannot add " + change.name, rc);
        }
        if (int rc = git_index_write_tree_to(&tree_id, index.get(), repo); rc < 0)
            return failure("cannot write the new tree", rc);
    }
    git_tree* raw_tree = nullptr;
    if (int rc = git_tree_lookup(&raw_tree, repo, &tree_id); rc < 0) return failure("cannot read the new tree", rc);
    git::Tree tree(raw_tree);

    Identity author_id = author_identity(config), committer_id = committer_identity(config);
    auto author = git::signature(author_id.name, author_id.email);
    if (!author) return std::unexpected(author.error());
    auto committer = git::signature(committer_id.name, committer_id.email);
    if (!committer) return std::unexpected(committer.error());
    outcome.message = message;
    if (outcome.message.empty()) outcome.message = "Update content";
    if (outcome.message.back() != '\n') outcome.message += '\n';
    const git_commit* parents[1] = {parent.get()};
    git_oid commit_id;
    if (int rc = git_commit_create(&commit_id, repo, nullptr, author->get(), committer->get(), nullptr,
                                   outcome.message.c_str(), tree.get(), parent ? 1 : 0, parents);
        rc < 0)
        return failure("cannot write the commit", rc);
    const std::string reflog = "commit: " + outcome.message.substr(0, outcome.message.find('\n'));
    git_reference* raw_ref = nullptr;
    int rc = *tip ? git_reference_create_matching(&raw_ref, repo, refname.c_str(), &commit_id, 1, &**tip,
                                                  reflog.c_str())
                  : git_reference_create(&raw_ref, repo, refname.c_str(), &commit_id, 0, reflog.c_str());
    if (rc < 0) return failure("cannot move " + outcome.branch + " to the new commit (did something else change it?)", rc);
    git_reference_free(raw_ref);
    outcome.committed = true;
    outcome.parent = outcome.commit;
    outcome.commit = git::hex(commit_id);

    // The index entries of these files now match the commit; other entries
    // (the user's staged work) are kept.
    git_index* raw_index = nullptr;
    auto index_failure = [&](const std::string& what, int code) {
        Error e = git::error(what, code);
        e.message = "committed " + outcome.commit.substr(0, 12) + " on " + outcome.branch + ", but " + e.message +
                    "; run git reset -- <the day files> to bring the index in line";
        return std::unexpected(e);
    };
    if (int code = git_repository_index(&raw_index, repo); code < 0) return index_failure("cannot open the index", code);
    git::Index index(raw_index);
    if (int code = git_index_read(index.get(), 0); code < 0) return index_failure("cannot read the index", code);
    for (const auto& change : changes) {
        int code = change.exists ? git_index_add_bypath(index.get(), change.name.c_str())
                                 : git_index_remove_bypath(index.get(), change.name.c_str());
        if (code < 0) return index_failure("cannot update the index for " + change.name, code);
    }
    if (int code = git_index_write(index.get()); code < 0) return index_failure("cannot write the index", code);
    return outcome;
}

} // namespace pp
