// publish_site: the built site becomes the tree of the site branch.
//
// The new tree is the previous tip's tree with only the changed paths
// replaced (git_tree_create_updated), so a nightly publish of a large archive
// writes a handful of blobs and the trees above them. To find the changed
// files without reading every file, a stat cache (like git's index, but kept
// apart from the user's index) maps each path to its size, times, inode and
// blob id; it is trusted only when it describes the branch's current tree, and
// entries whose file changed in the same clock tick as the cache was written
// are read again (git's "racily clean" rule).
#include "publish/git.h"
#include "publish/publish.h"
#include "util/files.h"
#include "util/record_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <unordered_map>

namespace pp {

namespace {

using git::failure;

struct StatKey {
    uint64_t size = 0;
    int64_t mtime_ns = 0;
    int64_t ctime_ns = 0;
    uint64_t inode = 0;
    bool operator==(const StatKey&) const = default;
};

struct TreeFile {
    git_oid id{};
    uint32_t mode = GIT_FILEMODE_BLOB;
};

struct CachedFile {
    TreeFile file;
    StatKey stat;
};

struct StatCache {
    std::optional<git_oid> tree; // the tree the entries describe
    std::string site;            // the absolute site folder they were read from
    std::unordered_map<std::string, CachedFile> files;
    int64_t written_ns = 0; // the cache file's mtime
};

int64_t nanoseconds(const timespec& t) { return static_cast<int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec; }

StatKey stat_key(const struct stat& st) {
    return {static_cast<uint64_t>(st.st_size), nanoseconds(st.st_mtim), nanoseconds(st.st_ctim),
            static_cast<uint64_t>(st.st_ino)};
}

// The cache's format (util/record_file.h): the tree and site it describes, then a line a file.
enum TreeField { t_tree, t_site };
enum FileField { f_path, f_id, f_mode, f_size, f_mtime, f_ctime, f_inode };

const RecordFormat& cache_format() {
    static const RecordFormat format{
        .name = "paperpress publish cache",
        .version = 2,
        .kinds = {{'T', {"tree", "site"}}, {'F', {"path", "id", "mode", "size", "mtime_ns", "ctime_ns", "inode"}}},
        .max_line = 64 * 1024,
    };
    return format;
}

fs::path cache_path(git_repository* repo, const std::string& branch) {
    std::string name = branch;
    std::replace(name.begin(), name.end(), '/', '%');
    return fs::path(git_repository_path(repo)) / "paperpress" / ("publish-" + name + ".cache");
}

bool parse_oid(std::string_view hex, git_oid& id) {
    return hex.size() == GIT_OID_HEXSZ && git_oid_fromstrn(&id, hex.data(), GIT_OID_HEXSZ) == 0;
}

// One file's line; false when a value does not read.
bool read_cached_file(const Record& r, StatCache& loaded) {
    CachedFile entry;
    std::string path = r.text(f_path);
    if (!parse_oid(r.raw(f_id), entry.file.id) || !Record::parse(r.raw(f_mode), entry.file.mode, 8) ||
        !r.number(f_size, entry.stat.size) || !r.number(f_mtime, entry.stat.mtime_ns) ||
        !r.number(f_ctime, entry.stat.ctime_ns) || !r.number(f_inode, entry.stat.inode) || path.empty())
        return false;
    loaded.files.emplace(std::move(path), entry);
    return true;
}

// Reads the cache; a cache that does not read (another version, damaged,
// cut short) gives an empty one: it only saves time, and is written anew.
StatCache load_cache(const fs::path& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {};
    auto text = read_file_inside(path.parent_path(), path); // never through a link out of .git/paperpress
    if (!text) return {};
    auto reader = RecordReader::open(*text, cache_format(), path.string());
    if (!reader) return {};
    StatCache loaded;
    loaded.written_ns = nanoseconds(st.st_mtim);
    bool have_tree = false;
    for (;;) {
        auto record = reader->next();
        if (!record) return {};
        if (!*record) return have_tree ? loaded : StatCache{};
        const Record& r = **record;
        if (r.kind == 0) {
            git_oid tree;
            if (have_tree || !parse_oid(r.raw(t_tree), tree)) return {};
            loaded.tree = tree;
            loaded.site = r.text(t_site);
            have_tree = true;
        } else if (!have_tree || !read_cached_file(r, loaded)) {
            return {};
        }
    }
}

void save_cache(const fs::path& path, const git_oid& tree, const std::string& site,
                const std::map<std::string, CachedFile>& files) {
    std::string text;
    text.reserve(files.size() * 110);
    RecordWriter out(cache_format(), [&text](std::string_view bytes) { text += bytes; });
    out.begin('T');
    out.text(git::hex(tree));
    out.text(site);
    out.end();
    for (const auto& [name, entry] : files) {
        char mode[16];
        auto end = std::to_chars(mode, mode + sizeof mode, entry.file.mode, 8).ptr;
        out.begin('F');
        out.text(name);
        out.text(git::hex(entry.file.id));
        out.text(std::string_view(mode, end - mode));
        out.number(entry.stat.size);
        out.number(entry.stat.mtime_ns);
        out.number(entry.stat.ctime_ns);
        out.number(entry.stat.inode);
        out.end();
    }
    out.finish();
    // Only a speed-up: a cache that cannot be written is read again next time.
    (void)write_file_atomic(path, text);
}

int collect_blob(const char* root, const git_tree_entry* entry, void* payload) {
    git_object_t type = git_tree_entry_type(entry);
    if (type == GIT_OBJECT_BLOB) {
        auto& files = *static_cast<std::unordered_map<std::string, TreeFile>*>(payload);
        files.emplace(std::string(root) + git_tree_entry_name(entry),
                      TreeFile{*git_tree_entry_id(entry), static_cast<uint32_t>(git_tree_entry_filemode(entry))});
    }
    return 0;
}

struct SiteFile {
    std::string name; // '/'-separated, relative to the site folder
    struct stat st {};
};

// Every file and symbolic link under `root`, sorted by name; folders named
// '.git' and temporary files of an interrupted build are skipped, and so are
// sockets and FIFOs (not content).
Result<std::vector<SiteFile>> scan_site(const fs::path& root) {
    std::vector<SiteFile> files;
    std::optional<Error> failed;
    auto errors = walk_tree(root,
                            [&](const TreeEntry& entry) {
                                if (failed) return false;
                                if (entry.kind == TreeEntry::Kind::folder) return entry.name != ".git";
                                // A build's temporary file ("page.html.tmp.<pid>", util/files.h),
                                // left by a build that was killed: never part of the site.
                                if (is_temp_file_name(entry.name)) return false;
                                SiteFile file;
                                const std::string name(entry.name);
                                if (::fstatat(entry.folder_fd, name.c_str(), &file.st, AT_SYMLINK_NOFOLLOW) != 0)
                                    failed = Error{entry.path, 0, "cannot read this file"};
                                else if (!S_ISREG(file.st.st_mode) && !S_ISLNK(file.st.st_mode)) return false;
                                else if (entry.relative.find('\n') != std::string::npos)
                                    failed = Error{entry.path, 0, "expected file names without line breaks"};
                                else {
                                    file.name = entry.relative;
                                    files.push_back(std::move(file));
                                }
                                return false;
                            },
                            {.root_may_be_link = true});
    if (!errors.empty()) return std::unexpected(errors.front());
    if (failed) return std::unexpected(*failed);
    std::sort(files.begin(), files.end(), [](const SiteFile& a, const SiteFile& b) { return a.name < b.name; });
    return files;
}

uint32_t mode_of(const struct stat& st) {
    if (S_ISLNK(st.st_mode)) return GIT_FILEMODE_LINK;
    return (st.st_mode & S_IXUSR) ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
}

// Writes the file's bytes (a link's target) as a blob.
Result<git_oid> write_blob(git_repository* repo, const fs::path& site, const SiteFile& file) {
    const fs::path path = site / file.name;
    std::string bytes;
    if (S_ISLNK(file.st.st_mode)) {
        std::error_code ec;
        bytes = fs::read_symlink(path, ec).string();
        if (ec) return fail("cannot read this link: " + ec.message(), path.string());
    } else {
        auto text = read_file_inside(site, path); // a file swapped for a link since the listing is not followed out
        if (!text) return std::unexpected(text.error());
        bytes = std::move(*text);
    }
    git_oid id;
    if (int rc = git_blob_create_from_buffer(&id, repo, bytes.data(), bytes.size()); rc < 0)
        return failure("cannot store " + path.string(), rc);
    return id;
}

Result<git::Tree> empty_tree(git_repository* repo) {
    git_treebuilder* raw = nullptr;
    if (int rc = git_treebuilder_new(&raw, repo, nullptr); rc < 0) return failure("cannot make an empty tree", rc);
    git::TreeBuilder builder(raw);
    git_oid id;
    if (int rc = git_treebuilder_write(&id, builder.get()); rc < 0) return failure("cannot write an empty tree", rc);
    git_tree* tree = nullptr;
    if (int rc = git_tree_lookup(&tree, repo, &id); rc < 0) return failure("cannot read the empty tree", rc);
    return git::Tree(tree);
}

Result<void> check_not_checked_out(git_repository* repo, const std::string& refname, const std::string& branch) {
    git_reference* head = nullptr;
    bool checked_out = false;
    if (git_reference_lookup(&head, repo, "HEAD") == 0) {
        if (git_reference_type(head) == GIT_REFERENCE_SYMBOLIC && refname == git_reference_symbolic_target(head))
            checked_out = true;
        git_reference_free(head);
    }
    git_reference* ref = nullptr;
    if (!checked_out && git_reference_lookup(&ref, repo, refname.c_str()) == 0) {
        checked_out = git_branch_is_checked_out(ref) == 1;
        git_reference_free(ref);
    }
    if (checked_out)
        return fail("branch '" + branch + "' is checked out, and publishing would change it under your working tree; " +
                    "switch to another branch (git switch main) or publish to another one (--branch)");
    return {};
}

} // namespace

std::string default_publish_message(const TreeChanges& changes) {
    std::string message = "Publish site: " + std::to_string(changes.count()) + " files changed (" +
                          std::to_string(changes.added.size()) + " added, " + std::to_string(changes.modified.size()) +
                          " modified, " + std::to_string(changes.deleted.size()) + " deleted)\n";
    constexpr size_t listed = 50;
    size_t n = 0;
    auto list = [&](const std::vector<std::string>& paths, char mark) {
        for (const auto& path : paths)
            if (n++ < listed) message += (n == 1 ? "\n" : "") + std::string(1, mark) + " " + path + "\n";
    };
    list(changes.added, 'A');
    list(changes.modified, 'M');
    list(changes.deleted, 'D');
    if (n > listed) message += "… and " + std::to_string(n - listed) + " more\n";
    return message;
}

namespace {

// The site folder, absolute, once it is known to hold a built site.
Result<fs::path> built_site(const fs::path& site_dir) {
    std::error_code ec;
    const fs::path site = fs::absolute(site_dir, ec).lexically_normal();
    if (!fs::is_directory(site, ec))
        return fail("no built site here; run paperpress build first (or set publish.site_dir)", site_dir.string());
    if (!fs::exists(site / "index.html", ec))
        return fail("expected a built site with an index.html; run paperpress build first, so that nothing half-made "
                    "is published",
                    site_dir.string());
    return site;
}

Result<void> check_branch(git_repository* repo, const std::string& refname, const std::string& branch) {
    int valid = 0;
    if (git_reference_name_is_valid(&valid, refname.c_str()) < 0 || !valid)
        return fail("expected a valid branch name, got '" + branch + "'");
    return check_not_checked_out(repo, refname, branch);
}

// The local tip and the commit the new one builds on: the local branch, or
// the remote-tracking one when the local branch is missing or behind it.
struct SiteParent {
    std::optional<git_oid> local, base;
};

Result<SiteParent> choose_parent(git_repository* repo, const std::string& refname, const PublishSettings& config) {
    auto local = git::resolve(repo, refname);
    if (!local) return std::unexpected(local.error());
    auto tracking = git::resolve(repo, "refs/remotes/" + config.remote + "/" + config.branch);
    if (!tracking) tracking = std::optional<git_oid>{}; // an odd remote name: no tracking branch
    SiteParent parent{*local, *local};
    if (*tracking && (!*local || (!git_oid_equal(&**local, &**tracking) &&
                                  git_graph_descendant_of(repo, &**tracking, &**local) == 1)))
        parent.base = *tracking;
    return parent;
}

// The tree the branch holds now (the empty tree for a new branch).
Result<git::Tree> base_tree(git_repository* repo, const std::optional<git_oid>& base, const std::string& branch) {
    if (!base) return empty_tree(repo);
    auto commit = git::read_commit(repo, *base, branch);
    if (!commit) return std::unexpected(commit.error());
    return std::move(commit->tree);
}

// The branch's files: from the stat cache when it describes this very tree,
// else by reading the tree.
Result<std::unordered_map<std::string, TreeFile>> files_on_branch(git_tree* tree, const StatCache& cache,
                                                                  const std::string& branch) {
    std::unordered_map<std::string, TreeFile> files;
    if (cache.tree && git_oid_equal(&*cache.tree, git_tree_id(tree))) {
        files.reserve(cache.files.size());
        for (const auto& [name, entry] : cache.files) files.emplace(name, entry.file);
    } else if (int rc = git_tree_walk(tree, GIT_TREEWALK_PRE, collect_blob, &files); rc < 0) {
        return failure("cannot read the tree of " + branch, rc);
    }
    return files;
}

// What the site folder holds, and how it differs from the branch.
struct SiteSnapshot {
    std::map<std::string, CachedFile> files;
    TreeChanges changes;
};

// The blob id of `file`: the cached one when the file's stat is unchanged
// (and not racily clean), else its bytes are stored.
Result<git_oid> blob_id(git_repository* repo, git_odb* odb, const fs::path& site, const SiteFile& file,
                        const CachedFile& now, const StatCache& cache, const TreeFile* in_tree) {
    if (cache.site == site.string()) {
        auto cached = cache.files.find(file.name);
        if (cached != cache.files.end() && cached->second.stat == now.stat &&
            cached->second.file.mode == now.file.mode && now.stat.mtime_ns < cache.written_ns &&
            now.stat.ctime_ns < cache.written_ns) {
            const git_oid& id = cached->second.file.id;
            if ((in_tree && git_oid_equal(&in_tree->id, &id)) || git_odb_exists(odb, &id) == 1) return id;
        }
    }
    return write_blob(repo, site, file);
}

Result<SiteSnapshot> snapshot_site(git_repository* repo, const fs::path& site,
                                   const std::unordered_map<std::string, TreeFile>& before, const StatCache& cache) {
    auto scanned = scan_site(site);
    if (!scanned) return std::unexpected(scanned.error());
    git_odb* raw_odb = nullptr;
    if (int rc = git_repository_odb(&raw_odb, repo); rc < 0) return failure("cannot open the object database", rc);
    git::Odb odb(raw_odb);
    SiteSnapshot snapshot;
    TreeChanges& changes = snapshot.changes;
    for (const SiteFile& file : *scanned) {
        CachedFile now;
        now.stat = stat_key(file.st);
        now.file.mode = mode_of(file.st);
        auto was = before.find(file.name);
        const TreeFile* in_tree = was == before.end() ? nullptr : &was->second;
        auto id = blob_id(repo, odb.get(), site, file, now, cache, in_tree);
        if (!id) return std::unexpected(id.error());
        now.file.id = *id;
        if (!in_tree) changes.added.push_back(file.name);
        else if (!git_oid_equal(&in_tree->id, &now.file.id) || in_tree->mode != now.file.mode)
            changes.modified.push_back(file.name);
        snapshot.files.emplace(file.name, now);
    }
    for (const auto& [name, file] : before)
        if (!snapshot.files.contains(name)) changes.deleted.push_back(name);
    std::sort(changes.deleted.begin(), changes.deleted.end());
    return snapshot;
}

// The base tree with the changed paths replaced, or (when that is refused: a
// file that became a folder or the other way round) the whole tree anew.
Result<git_oid> site_tree(git_repository* repo, git_tree* base, const SiteSnapshot& snapshot) {
    const TreeChanges& changes = snapshot.changes;
    if (changes.empty()) return *git_tree_id(base);
    std::vector<git_tree_update> updates;
    updates.reserve(changes.count());
    for (const auto* list : {&changes.added, &changes.modified}) {
        for (const auto& name : *list) {
            const CachedFile& f = snapshot.files.at(name);
            updates.push_back(
                {GIT_TREE_UPDATE_UPSERT, f.file.id, static_cast<git_filemode_t>(f.file.mode), name.c_str()});
        }
    }
    for (const auto& name : changes.deleted)
        updates.push_back({GIT_TREE_UPDATE_REMOVE, git_oid{}, GIT_FILEMODE_BLOB, name.c_str()});
    git_oid tree_id;
    if (git_tree_create_updated(&tree_id, repo, base, updates.size(), updates.data()) == 0) return tree_id;
    std::vector<git::TreeEntry> entries;
    for (const auto& [name, entry] : snapshot.files) entries.push_back({name, entry.file.id, entry.file.mode});
    return git::write_tree(repo, entries);
}

} // namespace

Result<CommitOutcome> publish_site(const fs::path& repo_dir, const fs::path& site_dir, const PublishSettings& config,
                                   const MessageWriter& message) {
    auto opened = git::open_repository(repo_dir);
    if (!opened) return std::unexpected(opened.error());
    git_repository* repo = opened->get();
    const std::string refname = "refs/heads/" + config.branch;
    if (auto ok = check_branch(repo, refname, config.branch); !ok) return std::unexpected(ok.error());
    auto site = built_site(site_dir);
    if (!site) return std::unexpected(site.error());

    auto parent = choose_parent(repo, refname, config);
    if (!parent) return std::unexpected(parent.error());
    auto base = base_tree(repo, parent->base, config.branch);
    if (!base) return std::unexpected(base.error());
    const fs::path cache_file = cache_path(repo, config.branch);
    const StatCache cache = load_cache(cache_file);
    auto before = files_on_branch(base->get(), cache, config.branch);
    if (!before) return std::unexpected(before.error());
    auto snapshot = snapshot_site(repo, *site, *before, cache);
    if (!snapshot) return std::unexpected(snapshot.error());
    auto tree_id = site_tree(repo, base->get(), *snapshot);
    if (!tree_id) return std::unexpected(tree_id.error());

    CommitOutcome outcome;
    outcome.branch = config.branch;
    const std::optional<git_oid>& local = parent->local;
    if (git_oid_equal(&*tree_id, git_tree_id(base->get()))) {
        // Nothing to commit; the local branch catches up with the remote's if it was behind.
        if (parent->base) {
            outcome.commit = git::hex(*parent->base);
            if (!local || !git_oid_equal(&*local, &*parent->base)) {
                auto moved = git::move_ref(repo, refname, *parent->base, local,
                                           local ? "paperpress publish: fast-forward"
                                                 : "paperpress publish: branch from remote");
                if (!moved) return std::unexpected(moved.error());
            }
        }
        save_cache(cache_file, *tree_id, site->string(), snapshot->files);
        return outcome;
    }

    outcome.changes = snapshot->changes;
    outcome.message = message ? message(outcome.changes) : default_publish_message(outcome.changes);
    if (outcome.message.empty() || outcome.message.back() != '\n') outcome.message += '\n';
    auto commit = git::commit_and_move_ref(
        repo, {refname, *tree_id, parent->base, local, outcome.message, "paperpress publish"}, config);
    if (!commit) return std::unexpected(commit.error());
    outcome.committed = true;
    outcome.commit = git::hex(*commit);
    if (parent->base) outcome.parent = git::hex(*parent->base);
    save_cache(cache_file, *tree_id, site->string(), snapshot->files);
    return outcome;
}

} // namespace pp
