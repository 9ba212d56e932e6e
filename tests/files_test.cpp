// util/files: atomic writes, unchanged files left alone, mapped reads, reads
// confined to a tree, removals that never leave it, the directory walker;
// util/lock; util/hash; util/thread_pool (how many threads a job gets);
// util/shared_library.
#include "test_support.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/lock.h"
#include "util/memory.h"
#include "util/shared_library.h"
#include "util/thread_pool.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <set>
#include <thread>

#include <sched.h>

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

using namespace pp;
using namespace pp::test;

namespace {

std::int64_t mtime_ns(const fs::path& path) {
    struct stat info {};
    REQUIRE(::stat(path.c_str(), &info) == 0);
    return static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec;
}

// Backdates a file so that a rewrite would show in its mtime.
void backdate(const fs::path& path) { fs::last_write_time(path, fs::last_write_time(path) - std::chrono::hours(1)); }

// Writes `text` through a FileUpdate in pieces of `piece` bytes.
Result<WriteOutcome> update(const fs::path& path, const std::string& text, std::size_t piece) {
    FileUpdate file(path);
    for (std::size_t at = 0; at < text.size(); at += piece) file.append(std::string_view(text).substr(at, piece));
    return file.commit();
}

std::string big_text(char mark) {
    std::string text;
    for (int i = 0; text.size() < 200'000; ++i) text += "line " + std::to_string(i) + "\n";
    text[text.size() / 2] = mark;
    return text;
}

std::size_t files_in(const fs::path& dir) {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++n;
    return n;
}

} // namespace

TEST_CASE("files: a FileUpdate with the same bytes leaves the file alone; different bytes replace it") {
    TempDir dir;
    const fs::path path = dir / "state";
    const std::string original = big_text('a');
    write_text(path, original);
    backdate(path);
    const auto before = mtime_ns(path);

    auto same = update(path, original, 100);
    REQUIRE(same.has_value());
    CHECK(*same == WriteOutcome::unchanged);
    CHECK(mtime_ns(path) == before);

    // A difference in the middle, past the first buffer's worth of bytes.
    const std::string changed = big_text('b');
    auto written = update(path, changed, 333);
    REQUIRE(written.has_value());
    CHECK(*written == WriteOutcome::written);
    CHECK(read_text(path) == changed);

    // Shorter (a prefix of the old bytes), longer, empty.
    for (const std::string& text : {changed.substr(0, 1000), changed + "tail\n", std::string()}) {
        auto result = update(path, text, 64);
        REQUIRE(result.has_value());
        CHECK(*result == WriteOutcome::written);
        CHECK(read_text(path) == text);
    }
    CHECK(files_in(dir.path()) == 1); // no temporary file left behind
}

TEST_CASE("files: a FileUpdate creates missing folders, and without commit() changes nothing") {
    TempDir dir;
    auto created = update(dir / "a/b/new.txt", "fresh\n", 2);
    REQUIRE(created.has_value());
    CHECK(*created == WriteOutcome::written);
    CHECK(read_text(dir / "a/b/new.txt") == "fresh\n");

    write_text(dir / "kept.txt", "old bytes\n");
    {
        FileUpdate abandoned(dir / "kept.txt");
        abandoned.append("new bytes, never committed\n");
    }
    CHECK(read_text(dir / "kept.txt") == "old bytes\n");
    CHECK(files_in(dir.path()) == 2); // a/ and kept.txt: no temporary file
}

TEST_CASE("files: a FileUpdate that cannot write names the file and keeps the old one") {
    TempDir dir;
    write_text(dir / "blocker", "a file where a folder should be\n");
    auto failed = update(dir / "blocker/state", "bytes\n", 3);
    REQUIRE_FALSE(failed.has_value());
    CHECK(failed.error().file == (dir / "blocker/state").string());
    CHECK(failed.error().message.starts_with("cannot write its temporary file state.tmp."));
    CHECK(read_text(dir / "blocker") == "a file where a folder should be\n");
}

TEST_CASE("files: write_file_if_changed compares large files in chunks") {
    TempDir dir;
    const fs::path path = dir / "page.html";
    const std::string text = big_text('x');
    REQUIRE(write_file_if_changed(path, text).has_value());
    backdate(path);
    const auto before = mtime_ns(path);
    CHECK(*write_file_if_changed(path, text) == WriteOutcome::unchanged);
    CHECK(mtime_ns(path) == before);
    std::string last_byte_differs = text;
    last_byte_differs.back() = '!';
    CHECK(*write_file_if_changed(path, last_byte_differs) == WriteOutcome::written);
    CHECK(read_text(path) == last_byte_differs);
}

TEST_CASE("files: a mapped file holds the file's bytes; a missing one is an error naming it") {
    TempDir dir;
    const std::string text = big_text('m');
    write_text(dir / "data", text);
    auto mapped = MappedFile::open(dir / "data");
    REQUIRE(mapped.has_value());
    CHECK(mapped->bytes() == text);
    MappedFile moved = std::move(*mapped);
    CHECK(moved.bytes() == text);

    write_text(dir / "empty", "");
    auto empty = MappedFile::open(dir / "empty");
    REQUIRE(empty.has_value());
    CHECK(empty->bytes().empty());

    auto missing = MappedFile::open(dir / "absent");
    REQUIRE_FALSE(missing.has_value());
    CHECK(missing.error().file == (dir / "absent").string());
}

TEST_CASE("files: read_file refuses devices, pipes and files over its limit, naming the file") {
    auto device = read_file("/dev/zero");
    REQUIRE_FALSE(device);
    CHECK(device.error().file == "/dev/zero");
    CHECK(device.error().message.find("regular file") != std::string::npos);

    TempDir dir;
    REQUIRE(::mkfifo((dir / "fifo").c_str(), 0600) == 0);
    auto fifo = read_file(dir / "fifo"); // returns at once: nobody writes to it
    REQUIRE_FALSE(fifo);
    CHECK(fifo.error().message.find("regular file") != std::string::npos);

    write_text(dir / "big.txt", std::string(5000, 'x'));
    auto big = read_file(dir / "big.txt", 4096);
    REQUIRE_FALSE(big);
    CHECK(big.error().file == (dir / "big.txt").string());
    CHECK(big.error().message.find("at most") != std::string::npos);
    auto fits = read_file(dir / "big.txt", 5000);
    REQUIRE(fits);
    CHECK(fits->size() == 5000);
}

TEST_CASE("read_file_inside follows links inside the tree and refuses links out of it, naming the file") {
    TempDir dir;
    write_text(dir / "tree/real.md", "inside\n");
    write_text(dir / "outside.txt", "secret\n");
    fs::create_symlink("real.md", dir / "tree/inner.md");
    fs::create_symlink(dir / "outside.txt", dir / "tree/absolute.md");
    fs::create_symlink("../outside.txt", dir / "tree/up.md");
    fs::create_symlink("/proc/self/environ", dir / "tree/environ.md");
    fs::create_directories(dir / "tree/sub");
    fs::create_directory_symlink(dir.path(), dir / "tree/sub/parent");
    CHECK(read_file_inside(dir / "tree", dir / "tree/real.md").value() == "inside\n");
    CHECK(read_file_inside(dir / "tree", dir / "tree/inner.md").value() == "inside\n");
    for (const char* name : {"absolute.md", "up.md", "environ.md", "sub/parent/outside.txt", "../outside.txt"}) {
        auto read = read_file_inside(dir / "tree", dir / "tree" / name);
        REQUIRE_MESSAGE(!read, name);
        CHECK_MESSAGE(read.error().file == (dir / "tree" / name).string(), name);
        CHECK_MESSAGE(read.error().message.find("expected a file inside") != std::string::npos, name);
    }
}

TEST_CASE("write_file_inside writes beneath its root, never through a link that leads out, and makes folders") {
    // Issue 41: with content/2025/05 a link to another folder, run wrote the day there.
    TempDir dir;
    fs::create_directories(dir / "tree/2025");
    fs::create_directories(dir / "elsewhere");
    fs::create_directory_symlink(dir / "elsewhere", dir / "tree/2025/05");
    auto through_link = write_file_inside(dir / "tree", dir / "tree/2025/05/2025-05-28.md", "day\n");
    REQUIRE_FALSE(through_link.has_value());
    CHECK(through_link.error().to_string().find("expected a file inside") != std::string::npos);
    CHECK(file_tree(dir / "elsewhere").empty());

    auto escaping = write_file_inside(dir / "tree", dir / "tree/../elsewhere/x", "x");
    CHECK_FALSE(escaping.has_value());
    CHECK(file_tree(dir / "elsewhere").empty());

    // A link to a file outside is replaced by the new file, never written through.
    write_text(dir / "elsewhere-file", "keep\n");
    fs::create_symlink(dir / "elsewhere-file", dir / "tree/note.md");
    REQUIRE(write_file_inside(dir / "tree", dir / "tree/note.md", "new\n").has_value());
    CHECK(read_text(dir / "elsewhere-file") == "keep\n");
    CHECK_FALSE(fs::is_symlink(dir / "tree/note.md"));

    CHECK(*write_file_inside(dir / "tree", dir / "tree/2026/01/a.md", "a\n") == WriteOutcome::written);
    CHECK(*write_file_inside(dir / "tree", dir / "tree/2026/01/a.md", "a\n") == WriteOutcome::unchanged);
    CHECK(read_text(dir / "tree/2026/01/a.md") == "a\n");
    fs::create_directory_symlink("2026", dir / "tree/inner"); // a (relative) link inside the tree is followed
    CHECK(write_file_inside(dir / "tree", dir / "tree/inner/01/b.md", "b\n").has_value());
    CHECK(read_text(dir / "tree/2026/01/b.md") == "b\n");
}

TEST_CASE("remove_file_inside removes only inside the folder, never through a link, and prunes empty folders") {
    TempDir dir;
    write_text(dir / "out/a/b/page.html", "page\n");
    write_text(dir / "victim.txt", "keep\n");
    fs::create_directory_symlink(dir.path(), dir / "out/linked");
    CHECK(remove_file_inside(dir / "out", "a/b/page.html").value());
    CHECK_FALSE(fs::exists(dir / "out/a")); // emptied folders go
    CHECK(fs::exists(dir / "out"));
    CHECK_FALSE(remove_file_inside(dir / "out", "linked/victim.txt"));
    CHECK_FALSE(remove_file_inside(dir / "out", "../victim.txt"));
    CHECK_FALSE(remove_file_inside(dir / "out", (dir / "victim.txt").string()));
    CHECK(fs::exists(dir / "victim.txt"));
    CHECK(is_plain_relative_path("a/b.html"));
    for (const char* bad : {"", "/a", "a/../b", "./a", "a//b", "a/", "..", "a\\b"})
        CHECK_MESSAGE(!is_plain_relative_path(bad), bad);
}

TEST_CASE("remove_temp_files removes only leftovers named like paperpress's temporary files") {
    TempDir dir;
    for (const char* name : {"a/page.html.tmp.123", "b/c/feed.xml.tmp.9", "keep.tmp", "keep.tmp.x1", "a/page.html"})
        write_text(dir / "out" / name, "x");
    CHECK(remove_temp_files(dir / "out") == std::vector<std::string>{"a/page.html.tmp.123", "b/c/feed.xml.tmp.9"});
    CHECK(fs::exists(dir / "out/keep.tmp"));
    CHECK(fs::exists(dir / "out/keep.tmp.x1"));
    CHECK(fs::exists(dir / "out/a/page.html"));
}

TEST_CASE("an atomic write in progress has no name in the folder") {
    TempDir dir;
    FileUpdate file(dir / "big.txt");
    file.append(std::string(200'000, 'x')); // past the buffer: the temporary file is being written
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir.path())) names.push_back(entry.path().filename().string());
    CHECK(names.empty()); // a kill -9 now leaves nothing behind
    REQUIRE(file.commit());
    CHECK(fs::file_size(dir / "big.txt") == 200'000);
}

TEST_CASE("TreeLock: a lock whose holder was killed is free, and says its holder died") {
    TempDir dir;
    const fs::path lock = lock_path(dir / "site");
    CHECK(lock == dir / ".site.paperpress-lock");
    {
        auto first = TreeLock::acquire(lock, {});
        REQUIRE(first);
        CHECK_FALSE(first->last_holder_died());
    }
    const pid_t child = ::fork();
    if (child == 0) {
        auto held = TreeLock::acquire(lock, {});
        ::kill(::getpid(), SIGKILL); // dies holding it
        ::_exit(1);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    REQUIRE(WIFSIGNALED(status));
    long waited_for = -1;
    auto next = TreeLock::acquire(lock, [&](long pid) { waited_for = pid; });
    REQUIRE(next);
    CHECK(waited_for == -1); // the kernel dropped the dead holder's lock
    CHECK(next->last_holder_died());
}

TEST_CASE("walk_tree: entries in name order, folders entered when the visitor says so, never through a link") {
    TempDir dir;
    for (const char* name : {"b/2.md", "b/1.md", "a.md", "skip/x.md", "b/deep/3.md"})
        write_text(dir / "root" / name, "x");
    write_text(dir / "outside/secret.md", "x");
    fs::create_directory_symlink(dir / "outside", dir / "root/linked");
    fs::create_symlink(dir / "root/a.md", dir / "root/c.md");
    std::vector<std::string> seen;
    auto errors = walk_tree(dir / "root",
                            [&](const TreeEntry& entry) {
                                const char* kind = entry.kind == TreeEntry::Kind::folder ? "/"
                                                   : entry.kind == TreeEntry::Kind::link ? "@"
                                                                                         : "";
                                seen.push_back(entry.relative + kind + (entry.links_to_file() ? "->file" : ""));
                                CHECK(entry.path == (dir / "root" / entry.relative).string());
                                return entry.name != "skip";
                            },
                            {.sorted = true});
    CHECK(errors.empty());
    CHECK(seen == std::vector<std::string>{"a.md", "b/", "b/1.md", "b/2.md", "b/deep/", "b/deep/3.md", "c.md@->file",
                                           "linked@", "skip/"});
}

TEST_CASE("walk_tree names the folders it cannot list, and a missing root, and walks the rest") {
    TempDir dir;
    write_text(dir / "root/open/a.md", "x");
    write_text(dir / "root/closed/b.md", "x");
    fs::permissions(dir / "root/closed", fs::perms::none);
    std::vector<std::string> seen;
    auto errors = walk_tree(dir / "root",
                            [&](const TreeEntry& entry) {
                                seen.push_back(entry.relative);
                                return true;
                            },
                            {.sorted = true});
    fs::permissions(dir / "root/closed", fs::perms::owner_all);
    if (::geteuid() != 0) { // root lists any folder
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].file == (dir / "root/closed").string());
        CHECK(errors[0].message.starts_with("cannot list this folder: "));
    }
    CHECK(std::find(seen.begin(), seen.end(), "open/a.md") != seen.end());
    auto missing = walk_tree(dir / "none", [](const TreeEntry&) { return true; });
    REQUIRE(missing.size() == 1);
    CHECK(missing[0].file == (dir / "none").string());
}

TEST_CASE("hash: XXH3, and a sequence's boundaries count") {
    CHECK(hash_bytes("") == 0x2D06800538D394C2ull); // XXH3_64bits of nothing, as xxhsum -H3 prints it
    CHECK(hash_hex("") == "2d06800538d394c2");
    CHECK(Hasher().add("ab").add("c").value() != Hasher().add("a").add("bc").value());
    CHECK(Hasher().add("ab").value() == Hasher().add("ab").value());
    CHECK(Hasher().add(std::uint64_t{1}).value() != Hasher().add(std::uint64_t{2}).value());
}

// CpuLimits: {affinity, cgroup v2 cpu.max, cgroup v1 quota, cgroup v1 period}
TEST_CASE("usable_cpus: the affinity mask, lowered to a cgroup v2 or v1 CPU quota rounded up") {
    CHECK(usable_cpus({1, "max 100000\n", "", ""}) == 1);
    CHECK(usable_cpus({16, "max 100000\n", "", ""}) == 16);
    CHECK(usable_cpus({16, "150000 100000\n", "", ""}) == 2);
    CHECK(usable_cpus({16, "400000 100000", "", ""}) == 4);
    CHECK(usable_cpus({2, "400000 100000", "", ""}) == 2);
    CHECK(usable_cpus({16, "20000 100000", "", ""}) == 1); // a fifth of a CPU: still one thread
    CHECK(usable_cpus({8, "", "-1\n", "100000\n"}) == 8);
    CHECK(usable_cpus({8, "", "300000\n", "100000\n"}) == 3);
    CHECK(usable_cpus({8, "garbage", "x", ""}) == 8);
}

TEST_CASE("job_count: --jobs, then PAPERPRESS_JOBS, then the CPUs this thread may run on") {
    cpu_set_t before;
    REQUIRE(::sched_getaffinity(0, sizeof before, &before) == 0);
    cpu_set_t one;
    CPU_ZERO(&one);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &before)) {
            CPU_SET(cpu, &one);
            break;
        }
    const char* saved = std::getenv("PAPERPRESS_JOBS");
    const std::string saved_value = saved ? saved : "";
    ::unsetenv("PAPERPRESS_JOBS");
    REQUIRE(::sched_setaffinity(0, sizeof one, &one) == 0);
    CHECK(job_count() == 1); // taskset -c 0: one worker, whatever the machine has
    CHECK(job_count(3) == 3);
    ::setenv("PAPERPRESS_JOBS", "5", 1);
    CHECK(job_count() == 5);
    CHECK(job_count(2) == 2);
    ::setenv("PAPERPRESS_JOBS", "many", 1);
    CHECK(job_count() == 1);
    auto named = jobs_from_environment(); // which the command line prints as a warning
    REQUIRE_FALSE(named.has_value());
    CHECK(named.error().message == "expected PAPERPRESS_JOBS to be a whole number from 1, got 'many'");
    ::sched_setaffinity(0, sizeof before, &before);
    if (saved) ::setenv("PAPERPRESS_JOBS", saved_value.c_str(), 1);
    else ::unsetenv("PAPERPRESS_JOBS");
}

TEST_CASE("ThreadPool: every index once, on as many threads as asked") {
    ThreadPool pool(3, 0);
    CHECK(pool.size() == 3);
    std::vector<std::atomic<int>> hits(1000);
    pool.parallel_for(hits.size(), [&](std::size_t i) { ++hits[i]; });
    pool.parallel_for(0, [&](std::size_t) { FAIL("no work"); });
    CHECK(std::all_of(hits.begin(), hits.end(), [](const auto& n) { return n == 1; }));
}

TEST_CASE(
    "ThreadPool: once retired, a loop runs on the caller alone, and the pool is destroyed without waiting on work") {
    ThreadPool pool(3, 0);
    pool.retire();
    std::vector<int> hits(500); // not atomic: one thread, or TSan and the check see it
    std::set<std::thread::id> threads;
    pool.parallel_for(hits.size(), [&](std::size_t i) {
        ++hits[i];
        threads.insert(std::this_thread::get_id());
    });
    CHECK(std::all_of(hits.begin(), hits.end(), [](int n) { return n == 1; }));
    CHECK(threads == std::set<std::thread::id>{std::this_thread::get_id()});
    pool.retire(); // twice is fine
}

TEST_CASE("Shelf: bytes put by many threads stay as they were until dropped; a block goes back with its last bytes") {
    Shelf shelf(std::size_t{2} << 20);
    ThreadPool pool(4, 0);
    // Like a build: each "day" shelves its share, and a "month" of them is dropped together.
    std::vector<Shelf::Item> items(600);
    auto bytes_of = [](std::size_t i) { return std::string(20'000 + i * 7 % 5'000, static_cast<char>('a' + i % 26)); };
    pool.parallel_for(items.size(), [&](std::size_t i) { items[i] = shelf.put(bytes_of(i)); });
    for (std::size_t i = 0; i < items.size(); ++i) REQUIRE(items[i].view() == bytes_of(i));
    const std::size_t held = shelf.blocks_held();
    CHECK(held >= 6); // about 13.5 MB in 2 MB blocks
    for (std::size_t i = 0; i < items.size() / 2; ++i) items[i] = {};
    CHECK(shelf.blocks_held() < held);
    for (std::size_t i = items.size() / 2; i < items.size(); ++i) CHECK(items[i].view() == bytes_of(i));
    items.clear();
    CHECK(shelf.blocks_held() <= 1);                        // the block being filled stays, to be filled again
    Shelf::Item big = shelf.put(std::string(5 << 20, 'x')); // larger than a block
    CHECK(big.view().size() == std::size_t{5} << 20);
    Shelf::Item moved = std::move(big);
    CHECK(moved.view().front() == 'x');
    CHECK(shelf.put("").view().empty());
}

TEST_CASE("Shelf: months of items dropped by whichever thread completes them, while others put theirs") {
    Shelf shelf(std::size_t{2} << 20);
    ThreadPool pool(4, 0);
    constexpr std::size_t month = 28;
    std::vector<Shelf::Item> items(month * 20);
    std::vector<std::atomic<std::size_t>> done(items.size() / month);
    std::atomic<std::size_t> damaged{0};
    auto bytes_of = [](std::size_t i) { return std::string(60'000 + i % 7 * 1'000, static_cast<char>('a' + i % 26)); };
    pool.parallel_for(items.size(), [&](std::size_t i) {
        items[i] = shelf.put(bytes_of(i));
        const std::size_t m = i / month;
        if (++done[m] < month) return;
        for (std::size_t j = m * month; j < (m + 1) * month; ++j) {
            if (items[j].view() != bytes_of(j)) ++damaged;
            items[j] = {};
        }
    });
    CHECK(damaged == 0);
    CHECK(shelf.blocks_held() <= 1);
}

TEST_CASE("a library loaded on first use: a missing one names its package, a missing function its name") {
    auto absent = SharedLibrary::open("libpaperpress-absent.so.7", "libpaperpress-absent7");
    REQUIRE_FALSE(absent.has_value());
    CHECK(absent.error().message.find("cannot load libpaperpress-absent.so.7 (install libpaperpress-absent7)") == 0);

    auto libc = SharedLibrary::open("libc.so.6", "libc6");
    REQUIRE_MESSAGE(libc.has_value(), libc.error().to_string());
    decltype(&::strlen) length = nullptr;
    libc->find("strlen", length);
    REQUIRE(libc->check("glibc").has_value());
    CHECK(length("four") == 4);
    void (*absent_function)() = nullptr;
    libc->find("pp_no_such_function", absent_function);
    libc->find("pp_nor_this_one", absent_function);
    auto checked = libc->check("glibc");
    REQUIRE_FALSE(checked.has_value());
    CHECK(checked.error().message == "libc.so.6 has no pp_no_such_function: expected glibc");
}
