// Helpers shared by the tests: temporary folders and running the binary.
#pragma once

#include <filesystem>
#include <map>
#include <string>

namespace pp::test {

namespace fs = std::filesystem;

// A fresh folder under the system temp dir, removed when the object dies.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const fs::path& path() const { return path_; }
    fs::path operator/(const std::string& name) const { return path_ / name; }

private:
    fs::path path_;
};

struct CommandResult {
    int exit_code = 0;
    std::string out; // stdout
    std::string err; // stderr
};

// Runs the paperpress binary with `args` (a shell-quoted string) in `cwd`.
CommandResult run_paperpress(const std::string& args, const fs::path& cwd);

std::string read_text(const fs::path& path);
// Every file and folder under `root` (relative, generic form) with each
// file's bytes ("<dir>" for a folder); empty when `root` does not exist.
std::map<std::string, std::string> file_tree(const fs::path& root);
void write_text(const fs::path& path, const std::string& text);

fs::path fixture_archive(); // tests/fixtures/gpt-paper-assistant-archive/out (real reference output)
fs::path seeds_dir();       // tests/fixtures/seeds (three real Markdown pages)
fs::path source_dir();      // the repository root

// The sample archive, made afresh in `dir`/content the way
// scripts/make-sample-content makes content/: the fixture archive and the
// seed pages imported (96 days). Tests never read the working tree's
// content/, which the main job adds to.
void import_sample_archive(const fs::path& dir);

} // namespace pp::test

#include "util/clock.h"

#include <httplib.h>

#include <mutex>
#include <thread>
#include <vector>

namespace pp::test {

// A real HTTP server on 127.0.0.1 (an ephemeral port), running on its own
// thread for the life of the object: tests register handlers on `server`
// before calling start().
class LoopbackServer {
public:
    httplib::Server server;
    LoopbackServer() = default;
    ~LoopbackServer();
    void start();
    // Stops accepting and waits for running handlers. An owner whose handlers
    // use its other members calls this first in its destructor.
    void stop();
    std::string url(const std::string& path = "") const; // "http://127.0.0.1:PORT" + path

private:
    int port_ = 0;
    std::thread thread_;
};

// Runs the binary with extra environment assignments ("NAME=value ...").
CommandResult run_paperpress_env(const std::string& env, const std::string& args, const fs::path& cwd);

// A clock whose sleeps advance its time at once: backoffs, rate limits and
// polite intervals cost no real time, and a test can read what was waited.
// Safe to share between threads (workers, a loopback server's handlers).
class FakeClock final : public Clock {
public:
    time_point now() override;
    void sleep_for(duration length) override;
    void sleep_until(time_point when) override; // to `when` (concurrent sleepers overlap, as in real time)
    void advance(duration length) { sleep_for(length); }
    std::vector<duration> sleeps(); // every positive sleep, in order
    duration slept();               // their sum

private:
    std::mutex mutex_;
    time_point now_ = time_point(std::chrono::hours(1));
    std::vector<duration> sleeps_;
};

} // namespace pp::test
