#include "publish/git.h"

#include <optional>

namespace pp::git {

namespace {

struct Library {
    Library() { git_libgit2_init(); }
    ~Library() { git_libgit2_shutdown(); }
};

} // namespace

void ensure_initialised() { static Library library; }

Error error(const std::string& what, int code) {
    const git_error* last = git_error_last();
    std::string message = what;
    if (last && last->message && *last->message) message += ": " + std::string(last->message);
    else message += " (libgit2 error " + std::to_string(code) + ")";
    return Error{{}, 0, message};
}

Result<Repository> open_repository(const fs::path& dir) {
    ensure_initialised();
    git_repository* raw = nullptr;
    int rc = git_repository_open_ext(&raw, dir.string().c_str(), 0, nullptr);
    Repository repo(raw);
    if (rc == GIT_ENOTFOUND) return fail("expected a git repository at or above '" + dir.string() + "' (run git init)");
    if (rc == GIT_EOWNER)
        return fail("the repository at '" + dir.string() + "' belongs to another user; if you trust it, run " +
                    "git config --global --add safe.directory '" + fs::absolute(dir).string() + "'");
    if (rc < 0) return failure("cannot open the repository at '" + dir.string() + "'", rc);
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

} // namespace pp::git
