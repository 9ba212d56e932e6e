// Paths beneath a root (util/files.h) and the config's project paths
// (config/): whatever path a config, a day file or a state names, what is
// read beneath a root never comes from outside it and what is written never
// lands outside it, through '..', an absolute path or a link (issue 41).
#include "config/config.h"
#include "target.h"
#include "util/files.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;

// A tree beside a folder `outside` that holds one secret; the tree has links
// that lead out (to the secret, to the folder, to /proc) and one that stays in.
struct Sandbox {
    fs::path base, root, outside;
    Sandbox() {
        char name[] = "/tmp/pp-fuzz-paths-XXXXXX";
        base = ::mkdtemp(name);
        root = base / "root", outside = base / "outside";
        fs::create_directories(root / "2025/05");
        fs::create_directories(outside);
        (void)pp::write_file_atomic(outside / "secret", "SECRET");
        fs::create_symlink(outside / "secret", root / "secret.md");
        fs::create_symlink("../outside", root / "out");
        fs::create_symlink("/proc/self/environ", root / "environ.md");
        fs::create_symlink("2025", root / "in");
        fs::create_symlink("loop", root / "loop");
    }
    // Only the secret is outside, unchanged.
    bool outside_untouched() const {
        std::error_code ec;
        int entries = 0;
        for (const auto& entry : fs::directory_iterator(outside, ec))
            entries += entry.path().filename() == "secret" ? 1 : 2;
        auto secret = pp::read_file(outside / "secret");
        return !ec && entries == 1 && secret && *secret == "SECRET";
    }
};

} // namespace

PAPERPRESS_FUZZ_TARGET(paths_beneath) {
    static const Sandbox box;
    const std::string path(input.substr(0, 256));
    if (path.empty() || path.find('\0') != std::string::npos) return;
    // A path as a config names it: what project_path accepts is plain, relative and beneath a prompt folder.
    if (auto config = pp::parse_config("scoring:\n  topics: \"" + path + "\"\n", "paperpress.yaml")) {
        const std::string& topics = config->scoring.topics;
        if (!pp::is_plain_relative_path(topics) || !topics.ends_with(".md") ||
            !(topics.starts_with("prompts/") || topics.starts_with("content/")))
            std::abort();
    }
    for (const fs::path& named : {box.root / path, fs::path(path)}) {
        if (auto read = pp::read_file_inside(box.root, named); read && read->find("SECRET") != std::string::npos)
            std::abort();
        if (pp::write_file_inside(box.root, named, "x")) { // inside: removed again, so the tree stays small
            const fs::path relative = (box.root / path).lexically_normal().lexically_relative(box.root);
            (void)pp::remove_file_inside(box.root, relative.generic_string());
        }
        if (!box.outside_untouched()) std::abort();
    }
}
