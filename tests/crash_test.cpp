// Crash safety of the binary: `paperpress build` and `paperpress import`
// killed with SIGKILL at random file commits (seeded), and a build that fills the
// disk. After a kill, the next run must give exactly what a clean run gives,
// with no temporary file left anywhere; a full disk must cost no earlier page.
#include "site/build_state.h"
#include "test_support.h"
#include "util/files.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace pp::test;

namespace {

// The first difference between two trees, "" when they are the same.
std::string first_difference(const std::map<std::string, std::string>& got,
                             const std::map<std::string, std::string>& expected) {
    for (const auto& [name, bytes] : expected)
        if (!got.contains(name)) return "missing: " + name;
        else if (got.at(name) != bytes) return "different: " + name;
    for (const auto& [name, _] : got)
        if (!expected.contains(name)) return "stale: " + name;
    return "";
}

std::vector<std::string> temp_files(const fs::path& root) {
    std::vector<std::string> found;
    for (const auto& entry : fs::recursive_directory_iterator(root))
        if (pp::is_temp_file_name(entry.path().filename().string())) found.push_back(entry.path().string());
    return found;
}

// A few weeks of the reference archive (January 2025), with the themes.
struct Fixture {
    TempDir dir;
    fs::path archive() const { return dir / "archive"; }
    Fixture() {
        for (const char* kind : {"json", "md"}) {
            fs::create_directories(archive() / kind);
            fs::copy(fixture_archive() / kind / "2025-01", archive() / kind / "2025-01", fs::copy_options::recursive);
        }
        fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    }
};

// Runs the binary in `cwd`, its output thrown away, with the kill point at its
// `commit`th file commit (PAPERPRESS_CRASH_AT_COMMIT, util/files.cpp); whether
// it was killed there.
bool run_and_kill(const std::vector<std::string>& args, const fs::path& cwd, long commit) {
    // Everything the child needs is made before fork(): the test's other threads may hold the heap's lock.
    std::vector<char*> argv{const_cast<char*>(PAPERPRESS_BINARY)};
    for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    std::string kill_at = "PAPERPRESS_CRASH_AT_COMMIT=" + std::to_string(commit);
    std::vector<char*> env{kill_at.data()};
    for (char** e = environ; *e; ++e)
        if (!std::string_view(*e).starts_with("PAPERPRESS_CRASH_AT_COMMIT=")) env.push_back(*e);
    env.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (::chdir(cwd.c_str()) != 0) ::_exit(126);
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, 1);
        ::dup2(null, 2);
        ::execve(PAPERPRESS_BINARY, argv.data(), env.data());
        ::_exit(127);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

using Tree = std::map<std::string, std::string>;

// The files of `tree` whose name ends with `suffix`: a lower bound of the
// commits of a run that writes each of them.
long count_ending(const Tree& tree, std::string_view suffix) {
    return std::count_if(tree.begin(), tree.end(), [&](const auto& file) { return file.first.ends_with(suffix); });
}

// A command killed at random points, and what its clean run gave.
struct KillTrial {
    fs::path cwd;
    std::function<std::vector<std::string>(int)> command;  // of trial i
    std::function<void()> reset = [] {};                   // before each run
    std::function<void()> before_kills = [] {};            // once, before the first
    std::function<std::map<std::string, Tree>(int)> clean; // folder under cwd -> its clean tree, of trial i
    long commits;                                          // at least this many file commits in every run
    unsigned seed;
};

// Kills the command 20 times, each at a random one of its first `commits`
// file commits (seeded: the same points on every machine, however loaded);
// after each kill the command run to completion must give the clean trees,
// with no temporary file left anywhere.
void kill_at_random_points(const KillTrial& trial) {
    REQUIRE(trial.commits >= 10);
    trial.before_kills();
    std::mt19937 random(trial.seed);
    for (int i = 0; i < 20; ++i) {
        trial.reset();
        const auto args = trial.command(i);
        const long commit = std::uniform_int_distribution<long>(1, trial.commits)(random);
        CHECK_MESSAGE(run_and_kill(args, trial.cwd, commit), "kill " << i << " at commit " << commit);
        std::string again;
        for (const auto& arg : args) again += arg + " ";
        auto next = run_paperpress(again, trial.cwd);
        CHECK_MESSAGE(next.exit_code == 0, next.err);
        for (const auto& [folder, clean] : trial.clean(i)) {
            const std::string difference = first_difference(file_tree(trial.cwd / folder), clean);
            CHECK_MESSAGE(difference.empty(), "kill " << i << " at commit " << commit << ": " << difference);
        }
        const auto temps = temp_files(trial.cwd);
        CHECK_MESSAGE(temps.empty(), "kill " << i << ": " << (temps.empty() ? "" : temps.front()));
    }
}

} // namespace

TEST_CASE("crash: build killed at 20 random points; the next build gives the clean site, no temp files") {
    Fixture f;
    REQUIRE(run_paperpress("import archive", f.dir.path()).exit_code == 0);
    // Two base URLs: every build re-renders every page over the other one's site.
    const std::vector<std::string> urls = {"https://a.example/papers/", "https://b.example/"};
    std::vector<Tree> clean;
    for (std::size_t u = 0; u < urls.size(); ++u) {
        const std::string out = "clean" + std::to_string(u);
        REQUIRE(run_paperpress("build --out " + out + " --base-url " + urls[u], f.dir.path()).exit_code == 0);
        clean.push_back(file_tree(f.dir / out));
    }
    kill_at_random_points({.cwd = f.dir.path(),
                           .command =
                               [&](int i) {
                                   return std::vector<std::string>{"build", "--out", "site", "--base-url", urls[i % 2]};
                               },
                           .before_kills =
                               [&] { // the first kill lands in a build from nothing
                                   fs::remove_all(f.dir / "site");
                                   fs::remove(pp::state_path(f.dir / "site"));
                               },
                           .clean =
                               [&](int i) {
                                   return std::map<std::string, Tree>{{"site", clean[i % 2]}};
                               },
                           .commits = count_ending(clean[0], ".html"), // each page names the base URL
                           .seed = 14});
}

TEST_CASE("crash: import killed at 20 random points; the next import gives the clean content, no temp files") {
    Fixture f;
    TempDir clean_dir;
    REQUIRE(run_paperpress("import '" + f.archive().string() + "'", clean_dir.path()).exit_code == 0);
    const auto clean = file_tree(clean_dir / "content");
    REQUIRE(!clean.empty());
    kill_at_random_points({.cwd = f.dir.path(),
                           .command =
                               [](int) {
                                   return std::vector<std::string>{"import", "archive"};
                               },
                           // so that the killed import has everything to write
                           .reset = [&] { fs::remove_all(f.dir / "content"); },
                           .clean =
                               [&](int) {
                                   return std::map<std::string, Tree>{{"content", clean}};
                               },
                           .commits = count_ending(clean, ".md"), // into an empty folder
                           .seed = 14});
}

TEST_CASE("crash: run --offline killed at 20 random points; the next run gives the clean content and site") {
    Fixture f;
    const fs::path base = f.dir / "base";
    fs::create_directories(base);
    REQUIRE(run_paperpress("import '" + f.archive().string() + "'", base).exit_code == 0);
    for (const char* folder : {"themes", "prompts", "samples"})
        fs::copy(source_dir() / folder, base / folder, fs::copy_options::recursive);
    write_text(base / "paperpress.yaml", "title: Crash digest\n");
    const fs::path clean_dir = f.dir / "clean";
    fs::copy(base, clean_dir, fs::copy_options::recursive);
    REQUIRE(run_paperpress("run --offline", clean_dir).exit_code == 0);
    const std::map<std::string, Tree> clean{{"content", file_tree(clean_dir / "content")},
                                            {"site", file_tree(clean_dir / "site")}};
    REQUIRE(clean.at("content").size() > file_tree(base / "content").size()); // the run added the sample's day
    const fs::path work = f.dir / "work";
    kill_at_random_points({.cwd = work,
                           .command =
                               [](int) {
                                   return std::vector<std::string>{"run", "--offline"};
                               },
                           .reset =
                               [&] {
                                   fs::remove_all(work);
                                   fs::copy(base, work, fs::copy_options::recursive);
                               },
                           .clean = [&](int) { return clean; },
                           .commits = count_ending(clean.at("site"), ".html"), // the first build of the site
                           .seed = 15});
}

namespace {

std::uintmax_t blocks_of(const fs::path& root) {
    std::uintmax_t bytes = 0;
    for (const auto& entry : fs::recursive_directory_iterator(root))
        if (entry.is_regular_file()) bytes += (entry.file_size() + 4095) / 4096 * 4096;
    return bytes;
}

} // namespace

TEST_CASE("crash: a build that fills the disk keeps every earlier page whole and names the file") {
    Fixture f;
    REQUIRE(run_paperpress("import archive", f.dir.path()).exit_code == 0);
    // The first days build into the small disk; with the rest it fills up.
    std::vector<fs::path> later;
    for (const auto& entry : fs::directory_iterator(f.dir / "content/2025/01"))
        if (entry.path().filename().string() > "2025-01-23.md") later.push_back(entry.path());
    REQUIRE(later.size() >= 4);
    REQUIRE(run_paperpress("build --out all", f.dir.path()).exit_code == 0);
    const auto all = file_tree(f.dir / "all");
    for (const auto& file : later) fs::rename(file, f.dir / file.filename());
    REQUIRE(run_paperpress("build --out first", f.dir.path()).exit_code == 0);
    const auto first = file_tree(f.dir / "first");
    const auto size = (blocks_of(f.dir / "first") + blocks_of(f.dir / "all")) / 2 / 4096 * 4096;

    fs::create_directories(f.dir / "site");
    const std::string options = "size=" + std::to_string(size);
    if (::mount("tmpfs", (f.dir / "site").c_str(), "tmpfs", 0, options.c_str()) != 0) {
        MESSAGE("skipped: cannot mount a tmpfs (" << std::strerror(errno) << "); the test needs root");
        return;
    }
    struct Unmount {
        fs::path path;
        ~Unmount() { ::umount2(path.c_str(), MNT_DETACH); }
    } unmount{f.dir / "site"};

    REQUIRE(run_paperpress("build --out site", f.dir.path()).exit_code == 0);
    REQUIRE(first_difference(file_tree(f.dir / "site"), first).empty());
    for (const auto& file : later) fs::rename(f.dir / file.filename(), file);
    auto full = run_paperpress("build --out site", f.dir.path());
    CHECK(full.exit_code != 0);
    CHECK(full.err.find("No space left on device") != std::string::npos);
    CHECK(full.err.find("site/") != std::string::npos); // the file it could not write
    // Every page of the first build is still there, whole: its old bytes or the new ones.
    const auto now = file_tree(f.dir / "site");
    for (const auto& [name, bytes] : first) {
        CHECK_MESSAGE(now.contains(name), "removed: " << name);
        if (now.contains(name) && bytes != "<dir>")
            CHECK_MESSAGE((now.at(name) == bytes || (all.contains(name) && now.at(name) == all.at(name))),
                          "damaged: " << name);
    }
    CHECK(temp_files(f.dir / "site").empty());
}

TEST_CASE("crash: publish never commits a temporary file a killed build left") {
    Fixture f;
    REQUIRE(run_paperpress("import archive", f.dir.path()).exit_code == 0);
    REQUIRE(run_paperpress("build", f.dir.path()).exit_code == 0);
    // What a build killed between naming and renaming a page leaves.
    write_text(f.dir / "site/2025/01/17/index.html.tmp.4242", "<p>half a page");
    write_text(f.dir / "site/feed.xml.tmp.77", "<feed");
    const std::string git = "cd '" + f.dir.path().string() + "' && git -c user.name=t -c user.email=t@example.com ";
    REQUIRE(std::system((git + "init -q && " + git + "commit -q --allow-empty -m start").c_str()) == 0);
    auto published = run_paperpress("publish", f.dir.path());
    INFO(published.out << published.err);
    REQUIRE(published.exit_code == 0);
    REQUIRE(std::system((git + "ls-tree -r --name-only gh-pages > listing.txt").c_str()) == 0);
    const std::string listing = read_text(f.dir / "listing.txt");
    CHECK(listing.find("2025/01/17/index.html\n") != std::string::npos);
    CHECK(listing.find(".tmp.") == std::string::npos);
}
