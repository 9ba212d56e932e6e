// publish/: `paperpress publish` and commit_content_files on real
// repositories in temporary folders, checked with the git command line; pushes
// to local bare repositories and to a loopback HTTP server that asks for
// credentials.
#include "config/config.h"
#include "content/content_tree.h"
#include "publish/publish.h"
#include "test_support.h"
#include "util/subprocess.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>

using namespace pp;
using namespace pp::test;

namespace {

struct Shell {
    int code = 0;
    std::string out; // stdout and stderr
};

Shell shell(const std::string& command, const fs::path& cwd) {
    TempDir capture;
    std::string line = "cd '" + cwd.string() + "' && " + command + " > '" + (capture / "out").string() + "' 2>&1";
    int status = std::system(line.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(capture / "out")};
}

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}

// Runs git with a fixed identity; the command must succeed.
std::string git(const std::string& args, const fs::path& cwd) {
    auto r = shell("git -c user.name=Tester -c user.email=tester@example.com -c init.defaultBranch=main " + args, cwd);
    INFO("git " << args << "\n" << r.out);
    REQUIRE(r.code == 0);
    return trim(r.out);
}

std::set<std::string> lines(const std::string& text) {
    std::set<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) out.insert(line);
    return out;
}

// A small site: nested folders, an executable file, bytes that are not text.
void write_site(const fs::path& site, const std::string& tag) {
    write_text(site / "index.html", "<h1>Home " + tag + "</h1>\n");
    write_text(site / "feed.xml", "<feed>" + tag + "</feed>\n");
    write_text(site / "2025/05/12/index.html", "<p>May 12</p>\n");
    write_text(site / "2025/05/13/index.html", "<p>May 13 " + tag + "</p>\n");
    write_text(site / "2025/05/index.html", "<p>May</p>\n");
    write_text(site / "data/days/2025-05-13.json", std::string("{\"a\":1}\n\0\x01\xff", 12));
    write_text(site / "tools/run.sh", "#!/bin/sh\necho hi\n");
    fs::permissions(site / "tools/run.sh", fs::perms::owner_exec, fs::perm_options::add);
    write_text(site / ".nojekyll", "");
}

// A repository with a commit on main, a staged change, an unstaged change and
// an untracked file: the user's work that publishing must not touch.
struct Repo {
    TempDir dir;
    fs::path root() const { return dir.path(); }

    Repo() {
        git("init -q", root());
        write_text(dir / "README.md", "readme\n");
        write_text(dir / "notes.txt", "notes\n");
        write_text(dir / ".gitignore", "/site/\n");
        write_text(dir / "content/2025/05/2025-05-12.md", "old day\n");
        write_text(dir / "content/2025/05/2025-05-09.md", "a day to delete\n");
        git("add -A", root());
        git("commit -q -m start", root());
        write_text(dir / "README.md", "readme, staged edit\n");
        git("add README.md", root());
        write_text(dir / "notes.txt", "notes, unstaged edit\n");
        write_text(dir / "scratch.txt", "untracked\n");
        write_site(dir / "site", "one");
    }

    // Everything git shows about the working tree, the index and HEAD.
    std::string state() const {
        return git("status --porcelain=v2 --branch --untracked-files=all", root()) + "\n" +
               git("rev-parse HEAD", root()) + "\n" + git("symbolic-ref HEAD", root()) + "\n" +
               git("diff --cached", root()) + "\n" + git("diff", root()) + "\n" + git("ls-files -s", root());
    }
};

// Every file under `folder` as "mode path" lines, the way ls-tree lists them.
std::set<std::string> files_of(const fs::path& folder) {
    std::set<std::string> out;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        if (!entry.is_regular_file()) continue;
        bool exec = (fs::status(entry.path()).permissions() & fs::perms::owner_exec) != fs::perms::none;
        out.insert((exec ? "100755 " : "100644 ") + entry.path().lexically_relative(folder).generic_string());
    }
    return out;
}

// The branch's tree equals the folder file for file: names, modes and bytes.
void check_tree_equals(const fs::path& repo, const std::string& branch, const fs::path& folder) {
    std::set<std::string> tree;
    for (const auto& line : lines(git("ls-tree -r " + branch, repo))) {
        // "100644 blob <id>\t<path>"
        tree.insert(line.substr(0, 6) + " " + line.substr(line.find('\t') + 1));
    }
    CHECK(tree == files_of(folder));
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        if (!entry.is_regular_file()) continue;
        std::string name = entry.path().lexically_relative(folder).generic_string();
        auto r = shell("git cat-file blob '" + branch + ":" + name + "'", repo);
        REQUIRE(r.code == 0);
        INFO(name);
        CHECK(r.out == read_text(entry.path()));
    }
}

int commit_count(const fs::path& repo, const std::string& branch) {
    return std::stoi(git("rev-list --count " + branch, repo));
}

// Every byte of every file under `folder` (for looking for a secret).
bool any_file_contains(const fs::path& folder, const std::string& needle) {
    for (const auto& entry : fs::recursive_directory_iterator(folder))
        if (entry.is_regular_file() && read_text(entry.path()).find(needle) != std::string::npos) return true;
    return false;
}

std::string base64(const std::string& in) {
    static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (size_t i = 0; i < in.size(); i += 3) {
        unsigned n = static_cast<unsigned char>(in[i]) << 16;
        if (i + 1 < in.size()) n |= static_cast<unsigned char>(in[i + 1]) << 8;
        if (i + 2 < in.size()) n |= static_cast<unsigned char>(in[i + 2]);
        out += digits[(n >> 18) & 63];
        out += digits[(n >> 12) & 63];
        out += i + 1 < in.size() ? digits[(n >> 6) & 63] : '=';
        out += i + 2 < in.size() ? digits[n & 63] : '=';
    }
    return out;
}

// A real git smart-HTTP server on loopback: git's own http-backend (a CGI
// program) behind cpp-httplib, serving the bare repository repo.git to a
// client that sends Basic credentials x-access-token:TOKEN, and 401 to any
// other. It keeps the size of each push's request body: the pack sent.
class GitHttpServer {
public:
    explicit GitHttpServer(std::string token) : token_(std::move(token)) {
        git("init -q --bare repo.git", root_.path());
        auto handle = [this](const httplib::Request& req, httplib::Response& res) { serve(req, res); };
        http_.server.Get(R"(/repo\.git/.*)", handle);
        http_.server.Post(R"(/repo\.git/.*)", handle);
        http_.start();
    }
    ~GitHttpServer() { http_.stop(); }
    std::string url() const { return http_.url("/repo.git"); }
    fs::path repository() const { return root_ / "repo.git"; }
    std::vector<size_t> pushes() {
        std::lock_guard lock(mutex_);
        return pushes_;
    }

private:
    void serve(const httplib::Request& req, httplib::Response& res) {
        if (req.get_header_value("Authorization") != "Basic " + base64("x-access-token:" + token_)) {
            res.status = 401;
            res.set_header("WWW-Authenticate", "Basic realm=\"test\"");
            return;
        }
        ProcessOptions cgi;
        cgi.env = {"GIT_PROJECT_ROOT=" + root_.path().string(),
                   "GIT_HTTP_EXPORT_ALL=1",
                   "PATH_INFO=" + req.path,
                   "REQUEST_METHOD=" + req.method,
                   "REMOTE_USER=x-access-token",
                   "REMOTE_ADDR=127.0.0.1",
                   "QUERY_STRING=" + (req.has_param("service") ? "service=" + req.get_param_value("service") : ""),
                   "CONTENT_TYPE=" + req.get_header_value("Content-Type"),
                   "CONTENT_LENGTH=" + std::to_string(req.body.size()),
                   "HTTP_GIT_PROTOCOL=" + req.get_header_value("Git-Protocol")};
        cgi.input = req.body;
        cgi.max_output = 64 << 20;
        auto ran = run_process({"git", "http-backend"}, cgi);
        if (!ran || ran->exit_code != 0) {
            res.status = 500;
            return;
        }
        if (req.method == "POST" && req.path.ends_with("/git-receive-pack")) {
            std::lock_guard lock(mutex_);
            pushes_.push_back(req.body.size());
        }
        // CGI: header lines, a blank line, the body.
        size_t end = ran->out.find("\r\n\r\n");
        std::istringstream headers(ran->out.substr(0, end));
        std::string type = "application/octet-stream";
        for (std::string line; std::getline(headers, line);) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            size_t colon = line.find(": ");
            if (colon == std::string::npos) continue;
            std::string name = line.substr(0, colon), value = line.substr(colon + 2);
            if (name == "Status") res.status = std::stoi(value);
            else if (name == "Content-Type") type = value;
        }
        res.set_content(end == std::string::npos ? "" : ran->out.substr(end + 4), type);
    }

    std::string token_;
    TempDir root_;
    LoopbackServer http_;
    std::mutex mutex_;
    std::vector<size_t> pushes_;
};

// Text that compresses the way a page does, but not away: numbered lines of
// pseudo-random words.
std::string page_text(int lines) {
    std::string text;
    uint32_t state = 12345;
    for (int i = 0; i < lines; ++i) {
        text += std::to_string(i) + ":";
        for (int w = 0; w < 8; ++w) {
            state = state * 1664525 + 1013904223;
            text += " w" + std::to_string(state >> 20);
        }
        text += "\n";
    }
    return text;
}

// The bytes `git push` would send for `tip` when the remote has `base`.
size_t thin_pack_bytes(const fs::path& repo, const std::string& base, const std::string& tip) {
    ProcessOptions options;
    options.input = tip + "\n^" + base + "\n";
    options.max_output = 64 << 20;
    auto ran = run_process({"git", "-C", repo.string(), "pack-objects", "--revs", "--thin", "--stdout", "-q"}, options);
    REQUIRE(ran);
    REQUIRE(ran->exit_code == 0);
    return ran->out.size();
}

PublishSettings quiet_config() {
    PublishSettings config;
    config.author_name = "Publisher";
    config.author_email = "publisher@example.com";
    return config;
}

} // namespace

TEST_CASE("publish: the branch's tree equals site/ file for file and the user's work is untouched") {
    Repo repo;
    const std::string before = repo.state();
    auto index_bytes = read_text(repo.dir / ".git/index");

    auto r = run_paperpress_env("env -u GIT_AUTHOR_NAME -u GIT_COMMITTER_NAME", "publish", repo.root());
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("committed") != std::string::npos);
    check_tree_equals(repo.root(), "gh-pages", repo.dir / "site");
    CHECK(commit_count(repo.root(), "gh-pages") == 1);
    CHECK(repo.state() == before);
    CHECK(read_text(repo.dir / ".git/index") == index_bytes);
    // No default identity in the environment of the test: "paperpress".
    CHECK(git("log -1 --format=%an%n%cn gh-pages", repo.root()).find("paperpress") != std::string::npos);

    SUBCASE("a second publish with no change makes no commit, and says so") {
        const std::string tip = git("rev-parse gh-pages", repo.root());
        auto again = run_paperpress("publish", repo.root());
        INFO(again.out << again.err);
        CHECK(again.exit_code == 0);
        CHECK(again.out.find("no commit") != std::string::npos);
        CHECK(git("rev-parse gh-pages", repo.root()) == tip);
    }

    SUBCASE("a change becomes one commit on top of the previous tip") {
        const std::string tip = git("rev-parse gh-pages", repo.root());
        write_site(repo.dir / "site", "two");
        fs::remove_all(repo.dir / "site/2025/05/12");
        write_text(repo.dir / "site/2025/05/14/index.html", "<p>May 14</p>\n");
        auto again = run_paperpress("publish", repo.root());
        INFO(again.out << again.err);
        REQUIRE(again.exit_code == 0);
        check_tree_equals(repo.root(), "gh-pages", repo.dir / "site");
        CHECK(git("rev-parse gh-pages^", repo.root()) == tip);
        CHECK(lines(git("diff --name-status gh-pages^ gh-pages", repo.root())) ==
              std::set<std::string>{"D\t2025/05/12/index.html", "M\t2025/05/13/index.html", "A\t2025/05/14/index.html",
                                    "M\tfeed.xml", "M\tindex.html"});
        // No empty folder is left behind for the removed day.
        CHECK(git("ls-tree gh-pages 2025/05/", repo.root()).find("2025/05/12") == std::string::npos);
        CHECK(repo.state() == before);
    }
}

TEST_CASE("publish: the stat cache never hides a change") {
    Repo repo;
    REQUIRE(run_paperpress("publish", repo.root()).exit_code == 0);
    const fs::path page = repo.dir / "site/2025/05/13/index.html";

    SUBCASE("same size, same modification time") {
        auto mtime = fs::last_write_time(page);
        std::string text = read_text(page);
        text[4] = text[4] == 'X' ? 'Y' : 'X';
        write_text(page, text);
        fs::last_write_time(page, mtime);
    }
    SUBCASE("a cache of the old positional version") {
        write_text(page, "<p>changed</p>\n");
        for (const auto& entry : fs::directory_iterator(repo.dir / ".git/paperpress"))
            write_text(entry.path(), "paperpress publish cache 1\ntree nonsense\n");
    }
    SUBCASE("a cache cut short, or with a byte changed") {
        write_text(page, "<p>changed</p>\n");
        for (const auto& entry : fs::directory_iterator(repo.dir / ".git/paperpress")) {
            std::string cache = read_text(entry.path());
            REQUIRE(cache.starts_with("paperpress publish cache 2\n#T\ttree\tsite\n"));
            const auto at = cache.find("index.html");
            REQUIRE(at != std::string::npos);
            SUBCASE("cut") { cache.resize(at + 4); }
            SUBCASE("changed") { cache[at] = 'X'; }
            write_text(entry.path(), cache);
        }
    }
    SUBCASE("the branch moved elsewhere since the cache was written") {
        auto other = git("commit-tree -m other -p gh-pages $(git hash-object -t tree -w /dev/null)", repo.root());
        git("update-ref refs/heads/gh-pages " + other, repo.root());
    }
    auto r = run_paperpress("publish", repo.root());
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("committed") != std::string::npos);
    check_tree_equals(repo.root(), "gh-pages", repo.dir / "site");
}

TEST_CASE("publish: parent is the remote's branch when the local one is missing or behind") {
    Repo repo;
    TempDir remote;
    git("init -q --bare '" + remote.path().string() + "'", remote.path());
    git("remote add origin '" + remote.path().string() + "'", repo.root());
    REQUIRE(run_paperpress("publish --push", repo.root()).exit_code == 0);
    const std::string first = git("rev-parse gh-pages", repo.root());

    // A fresh clone (as in GitHub Actions) has only origin/gh-pages.
    TempDir clone_dir;
    const fs::path clone = clone_dir / "clone";
    git("clone -q '" + remote.path().string() + "' '" + clone.string() + "'", clone_dir.path());
    CHECK(shell("git rev-parse --verify -q refs/heads/gh-pages", clone).code != 0);
    write_site(clone / "site", "from the clone");
    auto r = run_paperpress("publish --push", clone);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(git("rev-parse gh-pages^", clone) == first);
    CHECK(git("rev-parse gh-pages", remote.path()) == git("rev-parse gh-pages", clone));

    // The first repository is now behind: after a fetch it builds on the remote's tip.
    git("fetch -q origin", repo.root());
    write_site(repo.dir / "site", "three");
    auto again = run_paperpress("publish --push", repo.root());
    INFO(again.out << again.err);
    REQUIRE(again.exit_code == 0);
    CHECK(git("rev-parse gh-pages^", repo.root()) == git("rev-parse gh-pages", clone));
}

TEST_CASE("publish: refuses what would hurt") {
    Repo repo;
    SUBCASE("no built site") {
        fs::remove_all(repo.dir / "site");
        auto r = run_paperpress("publish", repo.root());
        CHECK(r.exit_code == 1);
        CHECK(r.err.find("paperpress build") != std::string::npos);
    }
    SUBCASE("a folder without index.html") {
        auto r = run_paperpress("publish --site content", repo.root());
        CHECK(r.exit_code == 1);
        CHECK(r.err.find("index.html") != std::string::npos);
    }
    SUBCASE("the branch is checked out") {
        auto r = run_paperpress("publish --branch main", repo.root());
        CHECK(r.exit_code == 1);
        CHECK(r.err.find("checked out") != std::string::npos);
    }
    SUBCASE("not a repository") {
        TempDir plain;
        write_site(plain / "site", "x");
        auto r = run_paperpress("publish", plain.path());
        CHECK(r.exit_code == 1);
        CHECK(r.err.find("git repository") != std::string::npos);
    }
    SUBCASE("a bad branch name") {
        auto r = run_paperpress("publish --branch 'a..b'", repo.root());
        CHECK(r.exit_code == 1);
        CHECK(r.err.find("branch name") != std::string::npos);
    }
    CHECK(shell("git rev-parse --verify -q refs/heads/gh-pages", repo.root()).code != 0);
}

TEST_CASE("publish: author and committer from config, then GIT_* variables") {
    Repo repo;
    write_text(repo.dir / "paperpress.yaml",
               "publish:\n  branch: pages\n  author_name: Site Bot\n  author_email: bot@example.org\n");
    auto r = run_paperpress_env("GIT_AUTHOR_NAME=Ignored GIT_COMMITTER_NAME=Ignored", "publish", repo.root());
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(git("log -1 '--format=%an|%ae|%cn|%ce' pages", repo.root()) ==
          "Site Bot|bot@example.org|Site Bot|bot@example.org");

    write_text(repo.dir / "paperpress.yaml", "publish:\n  branch: pages\n");
    write_site(repo.dir / "site", "again");
    r = run_paperpress_env("GIT_AUTHOR_NAME='Ann Author' GIT_AUTHOR_EMAIL=ann@example.org "
                           "GIT_COMMITTER_NAME='Carl Committer' GIT_COMMITTER_EMAIL=carl@example.org",
                           "publish", repo.root());
    REQUIRE(r.exit_code == 0);
    CHECK(git("log -1 '--format=%an|%ae|%cn|%ce' pages", repo.root()) ==
          "Ann Author|ann@example.org|Carl Committer|carl@example.org");
}

TEST_CASE("publish: the message names the newest day and its paper count") {
    TempDir dir;
    Day day;
    day.date = *parse_iso_date("2025-05-13");
    day.model = "gpt-4o";
    for (int i = 0; i < 3; ++i) {
        Paper p;
        p.id = "2505.0000" + std::to_string(i + 1);
        p.title = "Paper " + std::to_string(i);
        p.authors = {"Ada Lovelace"};
        p.abstract = "Abstract.";
        p.relevance = 8;
        p.novelty = 7;
        day.papers.push_back(p);
    }
    REQUIRE(save_day(dir / "content", day));
    TreeChanges changes;
    changes.added = {"2025/05/13/index.html", "data/days/2025-05-13.json"};
    changes.modified = {"2025/05/12/index.html", "2025/05/index.html", "feed.xml", "index.html"};
    std::string message = site_publish_message(changes, dir / "content");
    CHECK(message.starts_with("Publish 2025-05-13: 3 papers\n\n"));
    CHECK(message.find("New days: 2025-05-13") != std::string::npos);
    CHECK(message.find("6 files changed (2 added, 4 modified, 0 deleted)") != std::string::npos);

    TreeChanges theme_only;
    theme_only.modified = {"style.css"};
    CHECK(site_publish_message(theme_only, dir / "content").starts_with("Publish site: 1 files changed"));
}

TEST_CASE("publish --push: to a local bare repository, and the token is written nowhere") {
    std::string client;
    SUBCASE("git's client") { client = "git"; }
    SUBCASE("libgit2") { client = "libgit2"; }
    CAPTURE(client);
    Repo repo;
    write_text(repo.dir / "paperpress.yaml", "publish:\n  push_with: " + client + "\n");
    TempDir remote;
    git("init -q --bare '" + remote.path().string() + "'", remote.path());
    git("remote add origin '" + remote.path().string() + "'", repo.root());
    const std::string token = "ppTOKENmarker7f3e9c1d";
    const std::string config_before = read_text(repo.dir / ".git/config");

    auto r = run_paperpress_env("GITHUB_TOKEN=" + token, "publish --push", repo.root());
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("push: gh-pages to origin") != std::string::npos);
    CHECK(git("rev-parse gh-pages", remote.path()) == git("rev-parse gh-pages", repo.root()));
    CHECK(git("rev-parse origin/gh-pages", repo.root()) == git("rev-parse gh-pages", repo.root()));

    // Nothing new: the push is up to date.
    auto again = run_paperpress_env("GITHUB_TOKEN=" + token, "publish --push", repo.root());
    CHECK(again.exit_code == 0);
    CHECK(again.out.find("up to date") != std::string::npos);

    CHECK(read_text(repo.dir / ".git/config") == config_before);
    CHECK_FALSE(any_file_contains(repo.dir / ".git", token));
    CHECK_FALSE(any_file_contains(remote.path(), token));
    CHECK(r.out.find(token) == std::string::npos);
    CHECK(r.err.find(token) == std::string::npos);
    // The user's branch was not pushed (publish.commit_content is off).
    CHECK(shell("git rev-parse --verify -q refs/heads/main", remote.path()).code != 0);
}

TEST_CASE("publish --push: with publish.commit_content the current branch goes too") {
    Repo repo;
    TempDir remote;
    git("init -q --bare '" + remote.path().string() + "'", remote.path());
    git("remote add origin '" + remote.path().string() + "'", repo.root());
    auto r = run_paperpress_env("PAPERPRESS_COMMIT_CONTENT=true", "publish --push", repo.root());
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(git("rev-parse main", remote.path()) == git("rev-parse main", repo.root()));
    CHECK(git("rev-parse gh-pages", remote.path()) == git("rev-parse gh-pages", repo.root()));
}

namespace {

// The cases of the test below, for one client (publish.push_with).
void remote_moved_on(const std::string& client) {
    CAPTURE(client);
    Repo repo;
    write_text(repo.dir / "paperpress.yaml", "publish:\n  push_with: " + client + "\n");
    TempDir remote;
    git("init -q --bare '" + remote.path().string() + "'", remote.path());
    git("remote add origin '" + remote.path().string() + "'", repo.root());
    REQUIRE(run_paperpress("publish --push", repo.root()).exit_code == 0);

    // Someone else publishes from another clone: the remote's branch moves on.
    TempDir clone_dir;
    const fs::path clone = clone_dir / "clone";
    git("clone -q '" + remote.path().string() + "' '" + clone.string() + "'", clone_dir.path());
    write_site(clone / "site", "theirs");
    REQUIRE(run_paperpress("publish --push", clone).exit_code == 0);
    const std::string theirs = git("rev-parse gh-pages", remote.path());

    write_site(repo.dir / "site", "ours");
    SUBCASE("without fetching") {}
    SUBCASE("after fetching, the branches have diverged") {
        REQUIRE(run_paperpress("publish", repo.root()).exit_code == 0);
        git("fetch -q origin", repo.root());
    }
    SUBCASE("push_branches alone says what happened and what to do") {
        REQUIRE(run_paperpress("publish", repo.root()).exit_code == 0);
        PublishSettings config = quiet_config();
        config.push_with = client;
        auto pushed = push_branches(repo.root(), {"gh-pages"}, config);
        REQUIRE_FALSE(pushed);
        CHECK(pushed.error().message.find("rejected") != std::string::npos);
        CHECK(pushed.error().message.find("git fetch origin") != std::string::npos);
        CHECK(pushed.error().message.find("git branch -f gh-pages origin/gh-pages") != std::string::npos);
        return;
    }
    auto r = run_paperpress("publish --push", repo.root());
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("push rejected") != std::string::npos);
    CHECK(git("rev-parse gh-pages^", remote.path()) == theirs);
    check_tree_equals(remote.path(), "gh-pages", repo.dir / "site");
}

} // namespace

TEST_CASE("publish --push: a remote that moved on is fetched, and the site is committed on top of it") {
    SUBCASE("git's client") { remote_moved_on("git"); }
    SUBCASE("libgit2") { remote_moved_on("libgit2"); }
}

namespace {

// The cases of the test below, for one client (publish.push_with).
void ask_for_credentials(const std::string& client) {
    const std::string token = "ppTOKENhttp51b2";
    CAPTURE(client);
    LoopbackServer http;
    std::vector<std::string> authorizations;
    std::mutex seen;
    http.server.Get(R"(/repo\.git/info/refs)", [&](const httplib::Request& req, httplib::Response& res) {
        std::lock_guard lock(seen);
        authorizations.push_back(req.get_header_value("Authorization"));
        res.status = 401;
        res.set_header("WWW-Authenticate", "Basic realm=\"test\"");
    });
    http.start();
    Repo repo;
    git("remote add origin " + http.url("/repo.git"), repo.root());
    const std::string push_with = "publish:\n  push_with: " + client + "\n";
    write_text(repo.dir / "paperpress.yaml", push_with);

    SUBCASE("no token") {
        auto r = run_paperpress_env("GITHUB_TOKEN=", "publish --push", repo.root());
        INFO(r.out << r.err);
        CHECK(r.exit_code == 1);
        CHECK(r.err.find("asked for credentials") != std::string::npos);
        CHECK(r.err.find("GITHUB_TOKEN") != std::string::npos);
    }
    SUBCASE("a token the server refuses, named by publish.token_env") {
        write_text(repo.dir / "paperpress.yaml", push_with + "  token_env: SITE_TOKEN\n");
        auto r = run_paperpress_env("SITE_TOKEN=" + token, "publish --push", repo.root());
        INFO(r.out << r.err);
        CHECK(r.exit_code == 1);
        CHECK(r.err.find("refused the credentials") != std::string::npos);
        CHECK(r.err.find(token) == std::string::npos);
        // Sent once as Basic x-access-token:<token>, then no endless retries.
        std::lock_guard lock(seen);
        CHECK(std::count(authorizations.begin(), authorizations.end(), "Basic " + base64("x-access-token:" + token)) ==
              1);
        CHECK(authorizations.size() <= 3);
        CHECK_FALSE(any_file_contains(repo.dir / ".git", token));
    }
    SUBCASE("a token with a line break is refused before the remote is asked") {
        auto r = run_paperpress_env("GITHUB_TOKEN=\"$(printf 'ppTOKEN\\nurl=http://elsewhere/')\"", "publish --push",
                                    repo.root());
        INFO(r.out << r.err);
        CHECK(r.exit_code == 1);
        CHECK(r.err.find("holds a line break") != std::string::npos);
        std::lock_guard lock(seen);
        CHECK(authorizations.empty());
    }
    SUBCASE("the URL's user goes with the token") {
        git("remote set-url origin " + http.url("/repo.git").insert(7, "site-bot@"), repo.root());
        auto r = run_paperpress_env("GITHUB_TOKEN=" + token, "publish --push", repo.root());
        CHECK(r.exit_code == 1);
        std::lock_guard lock(seen);
        CHECK(std::count(authorizations.begin(), authorizations.end(), "Basic " + base64("site-bot:" + token)) == 1);
    }
    SUBCASE("the token is the one handed down in the settings; the environment is not read below the CLI") {
        REQUIRE(run_paperpress("publish", repo.root()).exit_code == 0);
        setenv("GITHUB_TOKEN", "ppENVtokenNOTread", 1);
        PublishSettings config = quiet_config();
        config.token = token;
        config.push_with = client;
        auto pushed = push_branches(repo.root(), {"gh-pages"}, config);
        unsetenv("GITHUB_TOKEN");
        REQUIRE_FALSE(pushed);
        CHECK(pushed.error().message.find("refused the credentials") != std::string::npos);
        std::lock_guard lock(seen);
        CHECK(std::count(authorizations.begin(), authorizations.end(), "Basic " + base64("x-access-token:" + token)) ==
              1);
        CHECK(std::count(authorizations.begin(), authorizations.end(),
                         "Basic " + base64("x-access-token:ppENVtokenNOTread")) == 0);
    }
}

} // namespace

TEST_CASE(
    "publish --push: a remote that asks for credentials gets the token only when it asks, through either client") {
    SUBCASE("git's client") { ask_for_credentials("git"); }
    SUBCASE("libgit2") { ask_for_credentials("libgit2"); }
}

TEST_CASE("publish --push over HTTP: git's client sends what git push would, libgit2 every changed file whole") {
    const std::string token = "ppTOKEN\\thin9a7c41"; // a backslash, which a shell's echo would eat
    std::string client;
    SUBCASE("git's client") { client = "git"; }
    SUBCASE("libgit2") { client = "libgit2"; }
    CAPTURE(client);
    GitHttpServer server(token);
    Repo repo;
    write_text(repo.dir / "paperpress.yaml", "publish:\n  push_with: " + client + "\n");
    git("remote add origin " + server.url(), repo.root());
    // A helper of the user's that would store what it is given: it is given nothing.
    TempDir helper_dir;
    const fs::path stored = helper_dir / "stored-credentials";
    git("config credential.helper 'store --file " + stored.string() + "'", repo.root());
    // A large file that changes a little every night, as the feed and the month's data do.
    std::string big = page_text(6000);
    write_text(repo.dir / "site/data/big.json", big);
    const std::string with_token = "GITHUB_TOKEN='" + token + "'";
    auto first = run_paperpress_env(with_token, "publish --push", repo.root());
    INFO(first.out << first.err);
    REQUIRE(first.exit_code == 0);
    const std::string before = git("rev-parse gh-pages", repo.root());

    big.replace(big.find("\n3000:") + 1, 5, "night");
    write_text(repo.dir / "site/data/big.json", big);
    // What the caller's environment and the repository's config may hold: a helper that stores (added as
    // `git -c` does), another repository, and an extra header (actions/checkout's) that would hide the token.
    const fs::path stored_too = helper_dir / "stored-by-parameters";
    git("config http." + server.url() + ".extraheader 'Authorization: Basic bm90OnRoaXM='", repo.root());
    const std::string hostile = with_token +
                                " GIT_DIR=/nonexistent GIT_CONFIG_PARAMETERS=\"'credential.helper'='store --file " +
                                stored_too.string() + "'\"";
    auto second = run_paperpress_env(hostile, "publish --push", repo.root());
    INFO(second.out << second.err);
    REQUIRE(second.exit_code == 0);
    const std::string after = git("rev-parse gh-pages", repo.root());
    CHECK(git("rev-parse gh-pages", server.repository()) == after);
    check_tree_equals(server.repository(), "gh-pages", repo.dir / "site");
    CHECK(shell("git fsck --no-dangling", server.repository()).code == 0);

    CHECK(second.out.find("push: gh-pages to origin (" + server.url() + ") through " + client + ": ") !=
          std::string::npos);
    const auto pushes = server.pushes();
    REQUIRE(pushes.size() == 2);
    const size_t thin = thin_pack_bytes(repo.root(), before, after);
    const size_t whole = big.size() / 3; // well under what the changed file takes compressed
    INFO("second push " << pushes[1] << " bytes; git push's thin pack " << thin);
    if (client == "git") {
        CHECK(pushes[1] <= thin * 3 / 2 + 512); // + the commands and flush lines around the pack
        CHECK(pushes[1] < whole);
    } else {
        CHECK(pushes[1] > whole); // libgit2 cannot send a delta against what the remote has
    }
    for (const auto& r : {first, second}) {
        CHECK(r.out.find(token) == std::string::npos);
        CHECK(r.err.find(token) == std::string::npos);
    }
    CHECK_FALSE(any_file_contains(repo.dir / ".git", token));
    CHECK_FALSE(any_file_contains(server.repository(), token));
    CHECK_FALSE(fs::exists(stored));
    CHECK_FALSE(fs::exists(stored_too));
}

TEST_CASE("publish.push_with: auto goes through libgit2 where there is no git; git there is an error") {
    Repo repo;
    TempDir remote;
    git("init -q --bare '" + remote.path().string() + "'", remote.path());
    git("remote add origin '" + remote.path().string() + "'", repo.root());
    TempDir no_git; // PATH: a folder without git
    const std::string env = "PATH='" + no_git.path().string() + "'";

    write_text(repo.dir / "paperpress.yaml", "publish:\n  push_with: git\n");
    auto refused = run_paperpress_env(env, "publish --push", repo.root());
    INFO(refused.out << refused.err);
    CHECK(refused.exit_code == 1);
    CHECK(refused.err.find("no git on PATH") != std::string::npos);

    write_text(repo.dir / "paperpress.yaml", "publish:\n  push_with: auto\n");
    auto pushed = run_paperpress_env(env, "publish --push", repo.root());
    INFO(pushed.out << pushed.err);
    CHECK(pushed.exit_code == 0);
    CHECK(git("rev-parse gh-pages", remote.path()) == git("rev-parse gh-pages", repo.root()));
}

TEST_CASE("publish --push: a missing remote is a clear error") {
    Repo repo;
    auto r = run_paperpress("publish --push --remote upstream", repo.root());
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("no remote named 'upstream'") != std::string::npos);
}

TEST_CASE("publish: commit_content_files commits exactly the day files on the current branch") {
    Repo repo;
    const fs::path content = repo.dir / "content";
    write_text(content / "2025/05/2025-05-13.md", "new day\n");            // added
    write_text(content / "2025/05/2025-05-12.md", "old day, rewritten\n"); // modified
    fs::remove(content / "2025/05/2025-05-09.md");                         // removed
    write_text(content / "2025/05/2025-05-14.md", "written but not listed\n");
    const std::string head = git("rev-parse HEAD", repo.root());

    std::vector<fs::path> files = {content / "2025/05/2025-05-13.md", "content/2025/05/2025-05-12.md",
                                   content / "2025/05/2025-05-09.md", content / "2025/05/2025-05-13.md"};
    // Relative paths are relative to the working folder.
    auto commit = [&](const std::string& message) {
        auto cwd = fs::current_path();
        fs::current_path(repo.root());
        auto result = commit_content_files(repo.root(), files, message, quiet_config());
        fs::current_path(cwd);
        return result;
    };
    auto outcome = commit("Content 2025-05-13: 1 paper");
    REQUIRE(outcome);
    CHECK(outcome->committed);
    CHECK(outcome->branch == "main");
    CHECK(outcome->parent == head);
    CHECK(outcome->changes.added == std::vector<std::string>{"content/2025/05/2025-05-13.md"});
    CHECK(outcome->changes.modified == std::vector<std::string>{"content/2025/05/2025-05-12.md"});
    CHECK(outcome->changes.deleted == std::vector<std::string>{"content/2025/05/2025-05-09.md"});
    CHECK(git("rev-parse HEAD", repo.root()) == outcome->commit);
    CHECK(git("symbolic-ref HEAD", repo.root()) == "refs/heads/main");
    CHECK(git("log -1 --format=%s%n%an", repo.root()) == "Content 2025-05-13: 1 paper\nPublisher");
    CHECK(lines(git("diff --name-status HEAD^ HEAD", repo.root())) ==
          std::set<std::string>{"A\tcontent/2025/05/2025-05-13.md", "M\tcontent/2025/05/2025-05-12.md",
                                "D\tcontent/2025/05/2025-05-09.md"});
    // The user's staged README stays staged (and out of the commit), notes.txt
    // stays unstaged, the unlisted day stays untracked, the listed ones are clean.
    CHECK(git("diff --cached --name-only", repo.root()) == "README.md");
    CHECK(git("diff --name-only", repo.root()) == "notes.txt");
    CHECK(lines(git("status --porcelain --untracked-files=all", repo.root())) ==
          std::set<std::string>{"M  README.md", " M notes.txt", "?? content/2025/05/2025-05-14.md", "?? scratch.txt"});
    CHECK(git("show HEAD:README.md", repo.root()) == "readme");

    SUBCASE("unchanged files make no commit") {
        auto again = commit("again");
        REQUIRE(again);
        CHECK_FALSE(again->committed);
        CHECK(again->commit == outcome->commit);
        CHECK(git("rev-parse HEAD", repo.root()) == outcome->commit);
    }
    SUBCASE("a file outside the repository is refused") {
        TempDir elsewhere;
        write_text(elsewhere / "x.md", "x\n");
        auto bad = commit_content_files(repo.root(), {elsewhere / "x.md"}, "x", quiet_config());
        REQUIRE_FALSE(bad);
        CHECK(bad.error().message.find("inside the repository") != std::string::npos);
    }
    SUBCASE("a detached HEAD is refused") {
        git("checkout -q --detach", repo.root());
        auto bad = commit_content_files(repo.root(), {content / "2025/05/2025-05-14.md"}, "x", quiet_config());
        REQUIRE_FALSE(bad);
        CHECK(bad.error().message.find("detached") != std::string::npos);
    }
}

TEST_CASE("publish: commit_content_files makes the first commit of a new repository") {
    TempDir dir;
    git("init -q", dir.path());
    write_text(dir / "content/2025/05/2025-05-13.md", "day\n");
    auto outcome =
        commit_content_files(dir.path(), {dir / "content/2025/05/2025-05-13.md"}, "First day", quiet_config());
    REQUIRE(outcome);
    CHECK(outcome->committed);
    CHECK(outcome->parent.empty());
    CHECK(git("ls-tree -r --name-only HEAD", dir.path()) == "content/2025/05/2025-05-13.md");
    CHECK(git("status --porcelain", dir.path()).empty());
}

namespace {

// A paperpress site in a repository, pushed to a bare remote: themes,
// prompts, a config, one day, and main and gh-pages on the remote with a few
// commits of history each (so a shallow clone lacks some).
struct SiteRemote {
    TempDir remote_dir, seed_dir;
    fs::path remote() const { return remote_dir.path(); }
    fs::path seed() const { return seed_dir / "seed"; }
    std::string url() const { return "file://" + remote().string(); }

    explicit SiteRemote(const std::string& extra_config = "") {
        git("init -q --bare '" + remote().string() + "'", remote());
        git("clone -q '" + remote().string() + "' '" + seed().string() + "'", seed_dir.path());
        for (const char* folder : {"themes", "prompts"})
            fs::copy(source_dir() / folder, seed() / folder, fs::copy_options::recursive);
        write_text(seed() / ".gitignore", "/site/\n/.site.paperpress-*\n/.cache/\n");
        write_text(seed() / "paperpress.yaml", "title: Race\nscoring:\n  embedded: keywords\n" + extra_config);
        for (int i = 0; i < 3; ++i) {
            write_day(seed(), "2025-05-0" + std::to_string(5 + i));
            git("add -A", seed());
            git("commit -q -m 'day " + std::to_string(i) + "'", seed());
            REQUIRE(run_paperpress("build", seed()).exit_code == 0);
            auto published = run_paperpress("publish --push", seed());
            INFO(published.out << published.err);
            REQUIRE(published.exit_code == 0);
        }
        git("push -q origin HEAD:main", seed());
    }

    static void write_day(const fs::path& repo, const std::string& date, const std::string& title = "A paper of ") {
        Day day;
        day.date = *parse_iso_date(date);
        Paper p;
        p.id = "2505.0" + date.substr(8, 2) + "01";
        p.title = title + date;
        p.authors = {"Ada Lovelace"};
        p.abstract = "Abstract.";
        p.relevance = 8;
        p.novelty = 7;
        day.papers.push_back(p);
        REQUIRE(save_day(repo / "content", day));
    }

    // A clone with only the tip of main and of gh-pages, as the nightly workflow makes.
    fs::path shallow_clone(const TempDir& dir) const {
        const fs::path clone = dir / "clone";
        git("clone -q --depth 1 '" + url() + "' '" + clone.string() + "'", dir.path());
        git("fetch -q --depth=1 origin +refs/heads/gh-pages:refs/remotes/origin/gh-pages", clone);
        for (const char* folder : {"themes", "prompts"}) REQUIRE(fs::exists(clone / folder));
        return clone;
    }
};

bool has_path(const fs::path& repo, const std::string& rev, const std::string& path) {
    return shell("git cat-file -e '" + rev + ":" + path + "'", repo).code == 0;
}

} // namespace

TEST_CASE("publish --push: from a shallow clone with only the tips of main and gh-pages") {
    SiteRemote site;
    TempDir dir;
    const fs::path clone = site.shallow_clone(dir);
    REQUIRE(fs::exists(clone / ".git/shallow"));
    CHECK(git("rev-list --count origin/gh-pages", clone) == "1"); // no history
    const std::string pages_tip = git("rev-parse gh-pages", site.remote());
    const std::string main_tip = git("rev-parse main", site.remote());

    SiteRemote::write_day(clone, "2025-05-12");
    auto committed =
        commit_content_files(clone, {clone / "content/2025/05/2025-05-12.md"}, "Add 2025-05-12", quiet_config());
    REQUIRE(committed);
    REQUIRE(run_paperpress("build", clone).exit_code == 0);
    auto r = run_paperpress_env("PAPERPRESS_COMMIT_CONTENT=true", "publish --push", clone);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(git("rev-parse gh-pages^", site.remote()) == pages_tip);
    CHECK(git("rev-parse main^", site.remote()) == main_tip);
    CHECK(has_path(site.remote(), "gh-pages", "2025/05/12/index.html"));
    CHECK(has_path(site.remote(), "main", "content/2025/05/2025-05-12.md"));
    CHECK(shell("git fsck --no-dangling", site.remote()).code == 0);
}

TEST_CASE("publish --push: a commit that lands on the remote during the run loses neither it nor the night") {
    SiteRemote site;
    TempDir dir;
    const fs::path clone = site.shallow_clone(dir);

    // The run writes and commits its day, and builds the site...
    SiteRemote::write_day(clone, "2025-05-12");
    REQUIRE(commit_content_files(clone, {clone / "content/2025/05/2025-05-12.md"}, "Add 2025-05-12", quiet_config()));
    const std::string night = git("rev-parse HEAD", clone);
    REQUIRE(run_paperpress("build", clone).exit_code == 0);

    // ...while the owner pushes a day of their own and publishes it.
    SiteRemote::write_day(site.seed(), "2025-05-09");
    git("add -A", site.seed());
    git("commit -q -m 'owner adds 2025-05-09'", site.seed());
    git("push -q origin HEAD:main", site.seed());
    REQUIRE(run_paperpress("build", site.seed()).exit_code == 0);
    REQUIRE(run_paperpress("publish --push", site.seed()).exit_code == 0);
    const std::string owners_main = git("rev-parse main", site.remote());
    const std::string owners_pages = git("rev-parse gh-pages", site.remote());

    auto r = run_paperpress_env("PAPERPRESS_COMMIT_CONTENT=true", "publish --push", clone);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("push rejected") != std::string::npos);
    // main: the owner's commit, then the night's, replayed on top with its message.
    CHECK(git("rev-parse main^", site.remote()) == owners_main);
    CHECK(git("log -1 --format=%s main", site.remote()) == "Add 2025-05-12");
    CHECK(git("rev-parse main", site.remote()) != night);
    for (const char* day : {"2025/05/2025-05-09.md", "2025/05/2025-05-12.md", "2025/05/2025-05-07.md"})
        CHECK(has_path(site.remote(), "main", std::string("content/") + day));
    // gh-pages: on top of the owner's publish, with both days' pages (the site was rebuilt).
    CHECK(git("rev-parse gh-pages^", site.remote()) == owners_pages);
    for (const char* page : {"2025/05/09/index.html", "2025/05/12/index.html", "2025/05/05/index.html"})
        CHECK(has_path(site.remote(), "gh-pages", page));
    // The clone's working tree has the owner's day, and nothing is left modified.
    CHECK(fs::exists(clone / "content/2025/05/2025-05-09.md"));
    CHECK(git("status --porcelain", clone).empty());
    CHECK(git("rev-parse HEAD", clone) == git("rev-parse main", site.remote()));
}

// Pages deployed from Actions: the night pushes its day commits and nothing
// else; no site branch is fetched, committed or pushed.
TEST_CASE("publish --push: without a site branch only the content goes, and a remote that moved on is replayed") {
    SiteRemote site;
    TempDir dir;
    const fs::path clone = dir / "clone";
    git("clone -q --depth 1 '" + site.url() + "' '" + clone.string() + "'", dir.path()); // main's tip only
    const std::string pages_tip = git("rev-parse gh-pages", site.remote());
    const std::string env = "PAPERPRESS_COMMIT_CONTENT=true PAPERPRESS_SITE_BRANCH=false";
    bool owner_pushed = false;
    SUBCASE("the remote as the clone left it") {}
    SUBCASE("the owner pushed a day meanwhile") { owner_pushed = true; }
    SiteRemote::write_day(clone, "2025-05-12");
    REQUIRE(commit_content_files(clone, {clone / "content/2025/05/2025-05-12.md"}, "Add 2025-05-12", quiet_config()));
    REQUIRE(run_paperpress("build", clone).exit_code == 0);
    if (owner_pushed) {
        SiteRemote::write_day(site.seed(), "2025-05-09");
        git("add -A", site.seed());
        git("commit -q -m 'owner adds 2025-05-09'", site.seed());
        git("push -q origin HEAD:main", site.seed());
    }

    auto r = run_paperpress_env(env, "publish --push", clone);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("push: main to origin") != std::string::npos);
    CHECK(r.out.find("gh-pages") == std::string::npos);
    CHECK(git("log -1 --format=%s main", site.remote()) == "Add 2025-05-12");
    CHECK(git("rev-parse gh-pages", site.remote()) == pages_tip); // neither moved nor deleted
    CHECK(shell("git rev-parse --verify -q refs/heads/gh-pages", clone).code != 0);
    CHECK(git("rev-parse HEAD", clone) == git("rev-parse main", site.remote()));
    if (owner_pushed) { // the site to deploy has the owner's day too
        CHECK(has_path(site.remote(), "main", "content/2025/05/2025-05-09.md"));
        CHECK(fs::exists(clone / "site/2025/05/09/index.html"));
    }
    CHECK(fs::exists(clone / "site/2025/05/12/index.html"));

    // publish alone commits nothing, and says why.
    auto alone = run_paperpress_env(env, "publish", clone);
    CHECK(alone.exit_code == 0);
    CHECK(alone.out.find("the site is not committed") != std::string::npos);
    CHECK(shell("git rev-parse --verify -q refs/heads/gh-pages", clone).code != 0);
}

TEST_CASE("publish: PAPERPRESS_SITE_BRANCH must be true or false") {
    Repo repo;
    auto r = run_paperpress_env("PAPERPRESS_SITE_BRANCH=sometimes", "publish", repo.root());
    CHECK(r.exit_code != 0);
    CHECK(r.err.find("expected PAPERPRESS_SITE_BRANCH to be true or false, got") != std::string::npos);
}

TEST_CASE("publish --push: the same day file changed on both sides is an error, not an overwrite") {
    SiteRemote site;
    TempDir dir;
    const fs::path clone = site.shallow_clone(dir);
    SiteRemote::write_day(clone, "2025-05-07", "Another paper of ");
    REQUIRE(commit_content_files(clone, {clone / "content/2025/05/2025-05-07.md"}, "Redo 2025-05-07", quiet_config()));
    REQUIRE(run_paperpress("build", clone).exit_code == 0);
    write_text(site.seed() / "content/2025/05/2025-05-07.md", "owner's edit\n");
    git("commit -q -am 'owner edits 2025-05-07'", site.seed());
    git("push -q origin HEAD:main", site.seed());
    const std::string owners_main = git("rev-parse main", site.remote());

    auto r = run_paperpress_env("PAPERPRESS_COMMIT_CONTENT=true", "publish --push", clone);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("content/2025/05/2025-05-07.md' was also changed on the remote") != std::string::npos);
    CHECK(git("rev-parse main", site.remote()) == owners_main);
}

TEST_CASE(
    "run --push-every-days: a long back-fill pushes as it goes, and the next run resumes from the first missing day") {
    LoopbackServer arxiv;
    std::mutex seen;
    std::vector<std::string> windows;        // the first submission day of each window asked for
    std::string failing_window = "20250513"; // 2025-05-15's: submitted from Tuesday 14:00 US-Eastern
    arxiv.server.Get("/api/query", [&](const httplib::Request& req, httplib::Response& res) {
        const std::string query = req.get_param_value("search_query");
        const size_t at = query.find("submittedDate:[");
        const std::string window = at == std::string::npos ? "" : query.substr(at + 15, 8);
        bool fails = false;
        {
            std::lock_guard lock(seen);
            windows.push_back(window);
            fails = window == failing_window;
        }
        // The job's time runs out here: the server stops answering.
        if (fails) {
            res.status = 404;
            return;
        }
        std::string entries;
        if (req.get_param_value("start") == "0")
            entries = "<entry><id>http://arxiv.org/abs/2505.9" + window.substr(6, 2) + "01v1</id><title>Pruning, " +
                      window + "</title><summary>About pruning.</summary><author><name>A B</name></author></entry>";
        res.set_content("<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:opensearch=\"x\"><opensearch:totalResults>1"
                        "</opensearch:totalResults>" +
                            entries + "</feed>",
                        "application/atom+xml");
    });
    arxiv.start();
    SiteRemote site("arxiv:\n  api_url: " + arxiv.url("/api/query") + "\n  request_interval: 0\n" +
                    "  cache_dir: .cache/arxiv\n");
    const std::string env = "env -u OPENAI_API_KEY PAPERPRESS_COMMIT_CONTENT=true";
    const std::string backfill = "run --no-build --from 2025-05-12 --to 2025-05-15 --push-every-days 2";
    auto has_day = [&](const std::string& date) {
        return has_path(site.remote(), "main", "content/2025/05/" + date + ".md");
    };
    auto has_page = [&](const std::string& date) {
        return has_path(site.remote(), "gh-pages",
                        date.substr(0, 4) + "/" + date.substr(5, 2) + "/" + date.substr(8, 2) + "/index.html");
    };

    TempDir first_dir;
    const fs::path first = site.shallow_clone(first_dir);
    auto cut = run_paperpress_env(env, backfill, first);
    INFO(cut.out << cut.err);
    CHECK(cut.exit_code == 1); // day 4 of 4 never came
    // Days 1 and 2 were pushed after the second day; day 3 was written after that push.
    CHECK(has_day("2025-05-12"));
    CHECK(has_day("2025-05-13"));
    CHECK(has_page("2025-05-12"));
    CHECK(has_page("2025-05-13"));
    CHECK_FALSE(has_day("2025-05-14"));
    CHECK(fs::exists(first / "content/2025/05/2025-05-14.md"));
    CHECK(cut.out.find("push: main to origin") < cut.out.find("2025-05-14: back-filling"));

    // The next run, on a new runner, starts from the first day the remote lacks.
    {
        std::lock_guard lock(seen);
        windows.clear();
        failing_window.clear();
    }
    TempDir second_dir;
    const fs::path second = site.shallow_clone(second_dir);
    auto resumed = run_paperpress_env(env, backfill, second);
    INFO(resumed.out << resumed.err);
    CHECK((resumed.exit_code == 0 || resumed.exit_code == 3));
    CHECK(resumed.out.find("2025-05-12: already in the archive") != std::string::npos);
    CHECK(resumed.out.find("2025-05-13: already in the archive") != std::string::npos);
    {
        std::lock_guard lock(seen);
        CHECK(windows == std::vector<std::string>{"20250512", "20250513"}); // the windows of 05-14 and 05-15 only
    }
    REQUIRE(run_paperpress("build", second).exit_code == 0);
    auto published = run_paperpress_env(env, "publish --push", second);
    INFO(published.out << published.err);
    CHECK(published.exit_code == 0);
    for (const char* date : {"2025-05-12", "2025-05-13", "2025-05-14", "2025-05-15"}) {
        CHECK(has_day(date));
        CHECK(has_page(date));
    }
    arxiv.stop();
}
