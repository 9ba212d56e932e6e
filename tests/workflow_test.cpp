// .github/workflows: the GitHub workflows parse, every script and
// paperpress subcommand they call exists, and they are shaped as
// docs/operations.md says.
#include "test_support.h"

#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <regex>
#include <set>
#include <sstream>
#include <vector>

using namespace pp::test;

namespace {

std::set<std::string> paperpress_subcommands() {
    auto r = run_paperpress("--help", source_dir());
    std::set<std::string> names;
    std::istringstream in(r.out);
    bool listing = false;
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("Subcommands:")) listing = true;
        else if (listing && line.starts_with("  ") && line.size() > 2 && line[2] != ' ')
            names.insert(line.substr(2, line.find(' ', 2) - 2));
    }
    return names;
}

YAML::Node load_workflow(const std::string& name) {
    const fs::path path = source_dir() / ".github/workflows" / name;
    REQUIRE(fs::exists(path));
    try {
        return YAML::LoadFile(path.string());
    } catch (const YAML::Exception& e) {
        FAIL(name << " is not valid YAML: " << e.what());
    }
    return {};
}

std::vector<YAML::Node> all_steps(const YAML::Node& workflow) {
    std::vector<YAML::Node> steps;
    for (const auto& job : workflow["jobs"])
        for (const auto& step : job.second["steps"]) steps.push_back(step);
    return steps;
}

} // namespace

TEST_CASE("workflows: every workflow parses, and each script and paperpress subcommand it runs exists") {
    const auto subcommands = paperpress_subcommands();
    REQUIRE(subcommands.contains("build"));
    REQUIRE(subcommands.contains("publish"));
    const std::regex script(R"((?:^|[\s"'=(])((?:scripts|bench)/[A-Za-z0-9_./-]+))");
    const std::regex command(R"((?:^|[\s/])paperpress\s+([a-z][a-z-]*))");
    int workflows = 0;
    for (const auto& entry : fs::directory_iterator(source_dir() / ".github/workflows")) {
        if (entry.path().extension() != ".yml" && entry.path().extension() != ".yaml") continue;
        ++workflows;
        const std::string name = entry.path().filename().string();
        INFO(name);
        YAML::Node workflow = load_workflow(name);
        REQUIRE(workflow.IsMap());
        CHECK(workflow["on"]);
        REQUIRE(workflow["jobs"].IsMap());
        for (const auto& step : all_steps(workflow)) {
            CHECK((step["run"] || step["uses"]));
            if (step["uses"]) CHECK(std::regex_search(step["uses"].Scalar(), std::regex("^[\\w.-]+/[\\w./-]+@v\\d")));
            if (!step["run"]) continue;
            const std::string run = step["run"].Scalar();
            for (std::sregex_iterator it(run.begin(), run.end(), script), end; it != end; ++it) {
                INFO((*it)[1].str());
                CHECK(fs::is_regular_file(source_dir() / (*it)[1].str()));
            }
            for (std::sregex_iterator it(run.begin(), run.end(), command), end; it != end; ++it) {
                INFO("paperpress " << (*it)[1].str());
                CHECK(subcommands.contains((*it)[1].str()));
            }
        }
    }
    CHECK(workflows >= 2);
}

TEST_CASE("workflows: ci.yml builds and tests on push and pull request, and runs the sanitizer build") {
    YAML::Node ci = load_workflow("ci.yml");
    CHECK(ci["on"]["push"]);
    CHECK(ci["on"]["pull_request"]);
    bool tests = false, sanitized = false;
    for (const auto& step : all_steps(ci)) {
        if (!step["run"]) continue;
        tests = tests || step["run"].Scalar().find("bash scripts/test") != std::string::npos;
        sanitized = sanitized || step["run"].Scalar().find("bash scripts/sanitize") != std::string::npos;
    }
    CHECK(tests);
    CHECK(sanitized);
    const std::string script = read_text(source_dir() / "scripts/sanitize");
    for (const char* part : {"PAPERPRESS_SANITIZE=ON", "-Werror=odr", "-flto", "ctest"})
        CHECK_MESSAGE(script.find(part) != std::string::npos, part);
}

TEST_CASE("workflows: nightly.yml runs on weekday mornings, never twice at once, and publishes in one job") {
    YAML::Node nightly = load_workflow("nightly.yml");
    const YAML::Node on = nightly["on"];
    REQUIRE(on["schedule"].IsSequence());
    const std::string cron = on["schedule"][0]["cron"].Scalar();
    CHECK(std::regex_match(cron, std::regex(R"(\d+ [4-9] \* \* 1-5)"))); // after arXiv's midnight-Eastern rebuild
    REQUIRE(on["workflow_dispatch"]["inputs"].IsMap());
    for (const char* input : {"date", "from", "to"}) CHECK(on["workflow_dispatch"]["inputs"][input]);

    REQUIRE(nightly["concurrency"].IsMap());
    CHECK_FALSE(nightly["concurrency"]["group"].Scalar().empty());
    CHECK(nightly["concurrency"]["cancel-in-progress"].as<bool>() == false);
    CHECK(nightly["permissions"]["contents"].Scalar() == "write");
    CHECK(nightly["permissions"]["pages"].Scalar() == "write");

    // One job does it all, in order: install (cached), build, run, build the site, publish and push, deploy.
    REQUIRE(nightly["jobs"].size() == 1);
    const YAML::Node job = nightly["jobs"].begin()->second;
    std::vector<std::string> order;
    for (const auto& step : job["steps"]) {
        std::string text = step["run"] ? step["run"].Scalar() : step["uses"].Scalar();
        if (text.find("actions/cache") != std::string::npos) order.push_back("cache");
        else if (text.find("bash scripts/build") != std::string::npos) order.push_back("build");
        else if (text.find("paperpress run") != std::string::npos) order.push_back("run");
        else if (text.find("paperpress build") != std::string::npos) order.push_back("site");
        else if (text.find("paperpress publish --push") != std::string::npos) order.push_back("publish");
        else if (text.find("actions/deploy-pages") != std::string::npos) order.push_back("deploy");
        // Inputs reach the shell through the environment, never pasted into the script.
        if (step["run"]) CHECK(text.find("${{ inputs.") == std::string::npos);
    }
    CHECK(order == std::vector<std::string>{"cache", "build", "run", "site", "publish", "deploy"});

    // The secrets and variables the fork guide asks for.
    std::ostringstream text;
    text << nightly;
    for (const char* name : {"secrets.OPENAI_API_KEY", "vars.OPENAI_BASE_URL", "vars.OPENAI_MODEL", "GITHUB_TOKEN"})
        CHECK(text.str().find(name) != std::string::npos);
}

TEST_CASE("workflows: a partial or stale day (run exits 3) is published, and the nightly run still ends red") {
    YAML::Node nightly = load_workflow("nightly.yml");
    const YAML::Node job = nightly["jobs"].begin()->second;
    std::string run_step, last_step, last_if;
    for (const auto& step : job["steps"]) {
        std::string text = step["run"] ? step["run"].Scalar() : "";
        if (text.find("paperpress run") != std::string::npos) run_step = text;
        last_step = text;
        last_if = step["if"] ? step["if"].Scalar() : "";
    }
    CHECK(run_step.find("-eq 3") != std::string::npos);
    CHECK(run_step.find("incomplete=true") != std::string::npos);
    CHECK(last_if == "steps.run.outputs.incomplete == 'true'");
    CHECK(last_step.find("exit 1") != std::string::npos);
}
