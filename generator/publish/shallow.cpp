// Shallow clones (git clone --depth 1, actions/checkout's default) with
// Debian 12's libgit2 1.5, which predates shallow support: it walks parents
// without reading .git/shallow, so a push (which walks from the remote's tips
// to find what to send) and a fetch (which walks local history to tell the
// server what it has) fail on the first commit whose parents were never
// fetched. Git's remedy is a graft; here each missing parent of a shallow
// commit is served as a stand-in: a root commit with the empty tree. The
// stand-ins lie at or below the remote's tips, so a push never sends one, and
// nothing writes one to disk.
#include "publish/git.h"

#include <cstring>
#include <set>

namespace pp::git {

namespace {

constexpr std::string_view stand_in =
    "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n" // the empty tree, which libgit2 always has
    "author paperpress <paperpress@localhost> 0 +0000\n"
    "committer paperpress <paperpress@localhost> 0 +0000\n"
    "\n"
    "A parent a shallow clone does not have\n";

struct OidLess {
    bool operator()(const git_oid& a, const git_oid& b) const { return git_oid_cmp(&a, &b) < 0; }
};

struct StandInBackend {
    git_odb_backend base; // first, so libgit2's pointer is this struct's
    std::set<git_oid, OidLess> ids;
};

const StandInBackend& self(git_odb_backend* backend) { return *reinterpret_cast<StandInBackend*>(backend); }

int read(void** data, size_t* size, git_object_t* type, git_odb_backend* backend, const git_oid* id) {
    if (!self(backend).ids.contains(*id)) return GIT_ENOTFOUND;
    *data = git_odb_backend_data_alloc(backend, stand_in.size());
    if (!*data) return -1;
    std::memcpy(*data, stand_in.data(), stand_in.size());
    *size = stand_in.size();
    *type = GIT_OBJECT_COMMIT;
    return 0;
}

int read_header(size_t* size, git_object_t* type, git_odb_backend* backend, const git_oid* id) {
    if (!self(backend).ids.contains(*id)) return GIT_ENOTFOUND;
    *size = stand_in.size();
    *type = GIT_OBJECT_COMMIT;
    return 0;
}

int exists(git_odb_backend* backend, const git_oid* id) { return self(backend).ids.contains(*id) ? 1 : 0; }

void free_backend(git_odb_backend* backend) { delete reinterpret_cast<StandInBackend*>(backend); }

// The commits named in .git/shallow (git's format: one id per line).
std::vector<git_oid> shallow_commits(git_repository* repo) {
    std::vector<git_oid> ids;
    auto text = read_file(fs::path(git_repository_path(repo)) / "shallow");
    if (!text) return ids;
    for (size_t at = 0; at + GIT_OID_HEXSZ <= text->size();) {
        git_oid id;
        if (git_oid_fromstrn(&id, text->data() + at, GIT_OID_HEXSZ) == 0) ids.push_back(id);
        size_t end = text->find('\n', at);
        if (end == std::string::npos) break;
        at = end + 1;
    }
    return ids;
}

} // namespace

Result<void> bridge_shallow_history(git_repository* repo) {
    if (git_repository_is_shallow(repo) != 1) return {};
    git_odb* raw_odb = nullptr;
    if (int rc = git_repository_odb(&raw_odb, repo); rc < 0) return failure("cannot open the object database", rc);
    Odb odb(raw_odb);
    auto backend = std::make_unique<StandInBackend>();
    for (const git_oid& id : shallow_commits(repo)) {
        git_commit* commit = nullptr;
        if (git_commit_lookup(&commit, repo, &id) < 0) continue;
        for (unsigned i = 0; i < git_commit_parentcount(commit); ++i) {
            const git_oid* parent = git_commit_parent_id(commit, i);
            if (git_odb_exists(odb.get(), parent) != 1) backend->ids.insert(*parent);
        }
        git_commit_free(commit);
    }
    if (backend->ids.empty()) return {};
    if (int rc = git_odb_init_backend(&backend->base, GIT_ODB_BACKEND_VERSION); rc < 0)
        return failure("cannot make the shallow clone's stand-in parents", rc);
    backend->base.read = read;
    backend->base.read_header = read_header;
    backend->base.exists = exists;
    backend->base.free = free_backend;
    // Lowest priority: a real object, if one is ever fetched, wins.
    if (int rc = git_odb_add_backend(odb.get(), &backend->base, 0); rc < 0)
        return failure("cannot add the shallow clone's stand-in parents", rc);
    backend.release(); // the object database owns it now
    // A stand-in's bytes do not hash to its id, so libgit2 must not check
    // (process-wide: publish opens one repository at a time).
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
    return {};
}

} // namespace pp::git
