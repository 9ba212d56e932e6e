#include "test_support.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/wait.h>

namespace pp::test {

namespace {

// A build needs KaTeX's files unless math is off. The tests get a stub of
// them through $PAPERPRESS_KATEX_DIR (inherited by the binary they run), so
// they never depend on node_modules; a test of KaTeX names its own folder.
struct StubKatex {
    std::optional<TempDir> dir;
    StubKatex() {
        if (const char* set = std::getenv("PAPERPRESS_KATEX_DIR"); set && *set) return;
        dir.emplace();
        write_text(*dir / "katex.min.js", "/* KaTeX stub for the tests */\n");
        write_text(*dir / "katex.min.css", "/* KaTeX stub for the tests */\n");
        write_text(*dir / "contrib/auto-render.min.js", "/* KaTeX stub for the tests */\n");
        ::setenv("PAPERPRESS_KATEX_DIR", dir->path().c_str(), 1);
    }
};

} // namespace

TempDir::TempDir() {
    std::random_device random;
    path_ = fs::temp_directory_path() / ("paperpress-test-" + std::to_string(random()) + std::to_string(random()));
    fs::create_directories(path_);
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

void write_text(const fs::path& path, const std::string& text) {
    if (path.has_parent_path()) fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

namespace {
const StubKatex stub_katex; // after write_text and TempDir, which it uses
} // namespace

CommandResult run_paperpress(const std::string& args, const fs::path& cwd) { return run_paperpress_env("", args, cwd); }

CommandResult run_paperpress_env(const std::string& env, const std::string& args, const fs::path& cwd) {
    TempDir capture;
    std::string command = "cd '" + cwd.string() + "' && " + env + " '" PAPERPRESS_BINARY "' " + args + " > '" +
                          (capture / "out").string() + "' 2> '" + (capture / "err").string() + "'";
    int status = std::system(command.c_str());
    CommandResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = read_text(capture / "out");
    result.err = read_text(capture / "err");
    return result;
}

LoopbackServer::~LoopbackServer() { stop(); }

void LoopbackServer::stop() {
    server.stop();
    if (thread_.joinable()) thread_.join();
}

void LoopbackServer::start() {
    port_ = server.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server.listen_after_bind(); });
    for (int i = 0; i < 2000 && !server.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

std::string LoopbackServer::url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
}

fs::path fixture_archive() { return fs::path(PAPERPRESS_FIXTURES_DIR) / "gpt-paper-assistant-archive/out"; }
fs::path seeds_dir() { return fs::path(PAPERPRESS_FIXTURES_DIR) / "seeds"; }
std::map<std::string, std::string> file_tree(const fs::path& root) {
    std::map<std::string, std::string> entries;
    if (!fs::exists(root)) return entries;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        auto name = fs::relative(entry.path(), root).generic_string();
        entries[name] = entry.is_directory() ? std::string("<dir>") : read_text(entry.path());
    }
    return entries;
}

fs::path source_dir() { return fs::path(PAPERPRESS_SOURCE_DIR); }

void import_sample_archive(const fs::path& dir) {
    std::string args = "import '" + fixture_archive().string() + "'";
    std::vector<std::string> seeds;
    for (const auto& entry : fs::directory_iterator(seeds_dir()))
        if (entry.path().extension() == ".txt") seeds.push_back(entry.path().string());
    std::sort(seeds.begin(), seeds.end());
    for (const auto& seed : seeds) args += " '" + seed + "'";
    auto imported = run_paperpress(args, dir);
    if (imported.exit_code != 0) throw std::runtime_error("importing the sample archive failed: " + imported.err);
}

Clock::time_point FakeClock::now() {
    std::lock_guard lock(mutex_);
    return now_;
}

void FakeClock::sleep_for(duration length) {
    std::lock_guard lock(mutex_);
    if (length <= duration::zero()) return;
    sleeps_.push_back(length);
    now_ += length;
}

void FakeClock::sleep_until(time_point when) {
    std::lock_guard lock(mutex_);
    if (when <= now_) return;
    sleeps_.push_back(when - now_);
    now_ = when;
}

std::vector<Clock::duration> FakeClock::sleeps() {
    std::lock_guard lock(mutex_);
    return sleeps_;
}

Clock::duration FakeClock::slept() {
    std::lock_guard lock(mutex_);
    duration sum{};
    for (auto length : sleeps_) sum += length;
    return sum;
}

} // namespace pp::test
