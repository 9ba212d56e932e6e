// Every input that once made a fuzz target crash, hang or leak
// (tests/fuzz/regressions/<target>/*) runs through that target again.
#include "target.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

TEST_CASE("fuzz: every saved crash input runs cleanly through its target") {
    const fs::path root = fs::path(PAPERPRESS_SOURCE_DIR) / "tests/fuzz/regressions";
    REQUIRE_FALSE(pp::fuzz::targets().empty());
    int inputs = 0;
    for (const auto& dir : fs::directory_iterator(root)) {
        if (!dir.is_directory()) continue;
        const std::string name = dir.path().filename().string();
        INFO("target " << name);
        REQUIRE_MESSAGE(pp::fuzz::targets().count(name), "regressions/" << name << " has no target of that name");
        for (const auto& file : fs::directory_iterator(dir.path())) {
            std::ifstream in(file.path(), std::ios::binary);
            std::ostringstream bytes;
            bytes << in.rdbuf();
            INFO("input " << file.path().filename().string());
            pp::fuzz::targets().at(name)(bytes.str());
            ++inputs;
        }
    }
    MESSAGE(inputs << " saved inputs ran");
}
