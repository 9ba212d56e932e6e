// .github/workflows: the GitHub workflows parse, every script and
// paperpress subcommand they call exists, and they are shaped as
// docs/operations.md says.
#include "content/content_tree.h"
#include "test_support.h"

#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

using namespace pp;
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

namespace {

// The nightly job: the one that runs `paperpress run`.
YAML::Node nightly_job(const YAML::Node& workflow) {
    for (const auto& job : workflow["jobs"])
        for (const auto& step : job.second["steps"])
            if (step["run"] && step["run"].Scalar().find("paperpress run") != std::string::npos) return job.second;
    FAIL("no job runs paperpress run");
    return {};
}

std::string text_of(const YAML::Node& node) {
    std::ostringstream out;
    out << node;
    return out.str();
}

std::string step_text(const YAML::Node& step) { return step["run"] ? step["run"].Scalar() : step["uses"].Scalar(); }

// The steps of every job that use `action` (e.g. "actions/cache"), with their job.
std::vector<std::pair<YAML::Node, YAML::Node>> steps_using(const YAML::Node& workflow, const std::string& action) {
    std::vector<std::pair<YAML::Node, YAML::Node>> out;
    for (const auto& job : workflow["jobs"])
        for (const auto& step : job.second["steps"])
            if (step["uses"] && step["uses"].Scalar().starts_with(action + "@")) out.emplace_back(job.second, step);
    return out;
}

} // namespace

TEST_CASE("workflows: nightly.yml runs on weekday mornings; a queued night never cancels a manual back-fill") {
    YAML::Node nightly = load_workflow("nightly.yml");
    const YAML::Node on = nightly["on"];
    REQUIRE(on["schedule"].IsSequence());
    const std::string cron = on["schedule"][0]["cron"].Scalar();
    CHECK(std::regex_match(cron, std::regex(R"(\d+ [4-9] \* \* 1-5)"))); // after arXiv's midnight-Eastern rebuild
    REQUIRE(on["workflow_dispatch"]["inputs"].IsMap());
    for (const char* input : {"date", "from", "to"}) CHECK(on["workflow_dispatch"]["inputs"][input]);

    // A group holds one pending run, and a newer one cancels it: scheduled
    // runs share a group, each manual run has its own.
    REQUIRE(nightly["concurrency"].IsMap());
    const std::string group = nightly["concurrency"]["group"].Scalar();
    CHECK(group.find("github.event_name == 'schedule'") != std::string::npos);
    CHECK(group.find("github.run_id") != std::string::npos);
    CHECK(nightly["concurrency"]["cancel-in-progress"].as<bool>() == false);
    CHECK(nightly_job(nightly)["permissions"]["contents"].Scalar() == "write");

    // The nightly job, in order: caches, install, build, run, build the site, publish and push, package.
    const YAML::Node job = nightly_job(nightly);
    std::vector<std::string> order;
    for (const auto& step : job["steps"]) {
        const std::string text = step_text(step);
        if (text.find("actions/cache") != std::string::npos) order.push_back("cache");
        else if (text.find("scripts/setup") != std::string::npos) order.push_back("setup");
        else if (text.find("cmake --build") != std::string::npos) order.push_back("build");
        else if (text.find("paperpress run") != std::string::npos) order.push_back("run");
        else if (text.find("paperpress build") != std::string::npos) order.push_back("site");
        else if (text.find("paperpress publish --push") != std::string::npos) order.push_back("publish");
        else if (text.find("upload-pages-artifact") != std::string::npos) order.push_back("package");
        // Inputs reach the shell through the environment, never pasted into the script.
        if (step["run"]) CHECK(text.find("${{ inputs.") == std::string::npos);
    }
    CHECK(order ==
          std::vector<std::string>{"cache", "cache", "setup", "cache", "build", "run", "site", "publish", "package"});

    // The secrets and variables the fork guide asks for.
    const std::string text = text_of(nightly);
    for (const char* name : {"secrets.OPENAI_API_KEY", "vars.OPENAI_BASE_URL", "vars.OPENAI_MODEL", "GITHUB_TOKEN"})
        CHECK(text.find(name) != std::string::npos);
}

TEST_CASE("workflows: secrets are set only on the steps that run paperpress run, publish or notify") {
    for (const char* name : {"nightly.yml", "ci.yml"}) {
        INFO(name);
        YAML::Node workflow = load_workflow(name);
        // Never for the whole workflow or a whole job: apt, npm's lifecycle scripts and
        // every action of the job would see them.
        CHECK(text_of(workflow["env"]).find("secrets.") == std::string::npos);
        for (const auto& job : workflow["jobs"]) {
            INFO(job.first.Scalar());
            CHECK(text_of(job.second["env"]).find("secrets.") == std::string::npos);
            CHECK(text_of(job.second["container"]).find("secrets.") == std::string::npos);
            for (const auto& step : job.second["steps"]) {
                const std::string text = step_text(step);
                INFO(text);
                CHECK(text_of(step["with"]).find("secrets.") == std::string::npos);
                if (text.find("secrets.") != std::string::npos) FAIL_CHECK("a secret pasted into a script");
                const std::string env = text_of(step["env"]);
                if (env.find("secrets.") == std::string::npos) continue;
                const bool runs_paperpress = std::regex_search(text, std::regex(R"(paperpress (run|publish|notify))"));
                const bool fetches =
                    text.find("git ") != std::string::npos && text.find(" fetch ") != std::string::npos;
                CHECK((runs_paperpress || fetches));
                // The LLM key only where papers are scored (or a notification is sent).
                if (env.find("secrets.OPENAI_API_KEY") != std::string::npos)
                    CHECK(std::regex_search(text, std::regex(R"(paperpress (run|notify))")));
            }
        }
    }
}

TEST_CASE("workflows: every cache is keyed by what it holds, and the night installs no test-only packages") {
    YAML::Node nightly = load_workflow("nightly.yml");
    std::map<std::string, std::string> keys; // path -> key
    std::map<std::string, std::string> restore;
    for (const auto& [job, step] : steps_using(nightly, "actions/cache")) {
        const std::string path = step["with"]["path"].Scalar();
        keys[path] = step["with"]["key"].Scalar();
        if (step["with"]["restore-keys"]) restore[path] = step["with"]["restore-keys"].Scalar();
    }
    REQUIRE(keys.size() == 3);
    INFO(text_of(nightly));
    // apt: the package list is in scripts/setup.
    CHECK(keys["/var/cache/apt/archives"].find("hashFiles('scripts/setup')") != std::string::npos);
    // npm: the lock file.
    CHECK(keys["node_modules"].find("hashFiles('package-lock.json')") != std::string::npos);
    // ccache: the compiler and the sources; an older cache of the same compiler warms a miss.
    std::string ccache_path;
    for (const auto& [path, key] : keys)
        if (key.starts_with("ccache")) ccache_path = path;
    REQUIRE_FALSE(ccache_path.empty());
    CHECK(keys[ccache_path].find("steps.setup.outputs.compiler") != std::string::npos);
    CHECK(keys[ccache_path].find("hashFiles('CMakeLists.txt', 'generator/**')") != std::string::npos);
    CHECK(restore[ccache_path] == "ccache-debian12-${{ steps.setup.outputs.compiler }}-");
    const YAML::Node job = nightly_job(nightly);
    CHECK(job["env"]["CCACHE_DIR"].Scalar() == ccache_path);

    bool runtime_setup = false, ccache_build = false;
    for (const auto& step : job["steps"]) {
        if (!step["run"]) continue;
        const std::string run = step["run"].Scalar();
        INFO(run);
        CHECK(run.find("scripts/build") == std::string::npos); // the full developer set, tests included
        CHECK(run.find("chromium") == std::string::npos);
        CHECK(run.find("npm ci") == std::string::npos);
        if (run.find("scripts/setup") != std::string::npos) {
            CHECK(run.find("scripts/setup --runtime") != std::string::npos);
            CHECK(step["id"].Scalar() == "setup");
            CHECK(run.find("compiler=") != std::string::npos);
            runtime_setup = true;
        }
        if (run.find("cmake -S") != std::string::npos) {
            CHECK(run.find("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache") != std::string::npos);
            CHECK(run.find("-DBUILD_TESTING=OFF") != std::string::npos);
            ccache_build = true;
        }
    }
    CHECK(runtime_setup);
    CHECK(ccache_build);
    // The runtime set leaves out the browser and the test-only packages, and npm's dev packages.
    const std::string setup = read_text(source_dir() / "scripts/setup");
    CHECK(
        setup.find("test_only=\" doctest-dev python3-aiosmtpd openssl clang-format chromium default-jre-headless \"") !=
        std::string::npos);
    CHECK(setup.find("npm ci --omit=dev") != std::string::npos);
}

TEST_CASE("workflows: the deploy job matches the Pages source; only it declares the github-pages environment") {
    YAML::Node nightly = load_workflow("nightly.yml");
    const std::string actions_source = "vars.PAGES_SOURCE != 'branch'";
    int environments = 0;
    for (const auto& job : nightly["jobs"]) {
        INFO(job.first.Scalar());
        const YAML::Node& j = job.second;
        const bool deploys = text_of(j["steps"]).find("actions/deploy-pages@") != std::string::npos;
        const bool declares = text_of(j["environment"]).find("github-pages") != std::string::npos;
        CHECK(deploys == declares);
        if (!declares) {
            if (j["permissions"]) CHECK_FALSE(j["permissions"]["pages"]);
            continue;
        }
        ++environments;
        // Not in the branch case (actions/deploy-pages#108), and only after the nightly job.
        REQUIRE(j["if"]);
        CHECK(j["if"].Scalar() == actions_source);
        CHECK(j["needs"].Scalar() == "nightly");
        CHECK(j["permissions"]["pages"].Scalar() == "write");
        CHECK(j["permissions"]["id-token"].Scalar() == "write");
    }
    CHECK(environments == 1);
    CHECK_FALSE(nightly["permissions"]["pages"]);
    auto uploads = steps_using(nightly, "actions/upload-pages-artifact");
    REQUIRE(uploads.size() == 1);
    CHECK(uploads[0].second["if"].Scalar() == actions_source);
}

TEST_CASE("workflows: checkouts are shallow, and only gh-pages' tip is fetched") {
    for (const char* name : {"nightly.yml", "ci.yml"}) {
        INFO(name);
        YAML::Node workflow = load_workflow(name);
        auto checkouts = steps_using(workflow, "actions/checkout");
        REQUIRE_FALSE(checkouts.empty());
        for (const auto& [job, step] : checkouts) {
            REQUIRE(step["with"]["fetch-depth"]);
            CHECK(step["with"]["fetch-depth"].as<int>() == 1);
        }
    }
    YAML::Node nightly = load_workflow("nightly.yml");
    bool fetched = false;
    for (const auto& step : nightly_job(nightly)["steps"]) {
        if (!step["run"] || step["run"].Scalar().find(" fetch ") == std::string::npos) continue;
        fetched = true;
        CHECK(step["run"].Scalar().find("--depth=1 origin +refs/heads/gh-pages:refs/remotes/origin/gh-pages") !=
              std::string::npos);
    }
    CHECK(fetched);
    for (const auto& [job, step] : steps_using(nightly, "actions/checkout"))
        CHECK(step["with"]["persist-credentials"].as<bool>() == false);
}

// With Pages from GitHub Actions the gh-pages branch serves nothing: the night
// builds from content/, deploys the artifact, and neither fetches nor commits
// nor pushes the site branch unless Pages is served from it or the owner asks.
TEST_CASE("workflows: the night keeps a site branch only for the branch source or when asked") {
    YAML::Node nightly = load_workflow("nightly.yml");
    const YAML::Node job = nightly_job(nightly);
    INFO(text_of(job));
    REQUIRE(job["env"]["PAPERPRESS_SITE_BRANCH"]);
    CHECK(job["env"]["PAPERPRESS_SITE_BRANCH"].Scalar() ==
          "${{ (vars.PAGES_SOURCE == 'branch' || vars.KEEP_SITE_BRANCH == 'true') && 'true' || 'false' }}");
    int build = -1, publish = -1, upload = -1, fetches = 0, index = 0;
    for (const auto& step : job["steps"]) {
        const std::string text = step_text(step);
        if (text.find("paperpress build") != std::string::npos) build = index;
        if (text.find("paperpress publish") != std::string::npos) publish = index;
        if (text.starts_with("actions/upload-pages-artifact@")) {
            upload = index;
            CHECK(step["with"]["path"].Scalar() == "site");
        }
        if (step["run"] && text.find("gh-pages") != std::string::npos) {
            ++fetches;
            REQUIRE(step["if"]);
            CHECK(step["if"].Scalar() == "env.PAPERPRESS_SITE_BRANCH == 'true'");
        }
        ++index;
    }
    CHECK(fetches == 1);
    // The day's commits are pushed (publish.site_branch decides about gh-pages), then the site deployed.
    CHECK(build >= 0);
    CHECK(build < publish);
    CHECK(publish < upload);
    const std::string operations = read_text(source_dir() / "docs/operations.md");
    CHECK(operations.find("KEEP_SITE_BRANCH") != std::string::npos);
    CHECK(read_text(source_dir() / "docs/configuration.md").find("PAPERPRESS_SITE_BRANCH") != std::string::npos);
}

TEST_CASE("workflows: a partial or stale day (run exits 3) is published, summarised, and the run still ends red") {
    YAML::Node nightly = load_workflow("nightly.yml");
    const YAML::Node job = nightly_job(nightly);
    std::string run_step, summary_if, summary;
    for (const auto& step : job["steps"]) {
        std::string text = step["run"] ? step["run"].Scalar() : "";
        if (text.find("paperpress run") != std::string::npos) run_step = text;
        if (text.find("GITHUB_STEP_SUMMARY") != std::string::npos) {
            summary = text;
            summary_if = step["if"] ? step["if"].Scalar() : "";
        }
    }
    CHECK(run_step.find("-eq 3") != std::string::npos);
    CHECK(run_step.find("incomplete=true") != std::string::npos);
    CHECK(job["outputs"]["incomplete"].Scalar() == "${{ steps.run.outputs.incomplete }}");
    CHECK(summary.find("scripts/night-summary") != std::string::npos);
    CHECK(summary_if == "always()");
    // The verdict comes after the deploy, so the partial day is deployed first.
    const YAML::Node verdict = nightly["jobs"]["verdict"];
    REQUIRE(verdict);
    CHECK(text_of(verdict["needs"]).find("deploy") != std::string::npos);
    CHECK(verdict["if"].Scalar() == "always() && needs.nightly.outputs.incomplete == 'true'");
    CHECK(text_of(verdict["steps"]).find("exit 1") != std::string::npos);
}

TEST_CASE("workflows: the night's summary lists each day written with its counts, cost, status and link") {
    TempDir dir;
    Day day;
    day.date = *parse_iso_date("2025-05-13");
    day.status = DayStatus::partial;
    day.reason = "3 candidates unscored";
    for (int i = 0; i < 2; ++i) {
        Paper p;
        p.id = "2505.0000" + std::to_string(i + 1);
        p.title = "Paper " + std::to_string(i);
        p.authors = {"Ada Lovelace"};
        p.abstract = "Abstract.";
        day.papers.push_back(p);
    }
    REQUIRE(save_day(dir / "content", day));
    write_text(dir / "paperpress.yaml", "base_url: https://ada.github.io/digest\n");
    write_text(dir / "run.log", "scorer: LLM gpt-4o-mini\n"
                                "2025-05-13: 412 in the announcement, 400 scanned, 12 already listed on earlier days, "
                                "2 selected (0 by followed authors, 3 unscored); tokens 10 prompt + 5 completion "
                                "(0 cached); cost $0.0123\n"
                                "paperpress run: exit 3: the day is partial or stale\n");
    const std::string command = "cd '" + dir.path().string() + "' && PAPERPRESS='" PAPERPRESS_BINARY "' bash '" +
                                (source_dir() / "scripts/night-summary").string() + "' run.log > summary.md";
    REQUIRE(std::system(command.c_str()) == 0);
    const std::string summary = read_text(dir / "summary.md");
    INFO(summary);
    CHECK(summary.find("| [2025-05-13](https://ada.github.io/digest/2025/05/13/) | partial | 2 | 412 in the "
                       "announcement") != std::string::npos);
    CHECK(summary.find("cost $0.0123") != std::string::npos);
    CHECK(summary.find("paperpress run: exit 3") != std::string::npos);
}

namespace {

// Each workflow file, by name, as text and as YAML.
std::vector<std::pair<std::string, std::string>> workflow_texts() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& entry : fs::directory_iterator(source_dir() / ".github/workflows"))
        if (entry.path().extension() == ".yml" || entry.path().extension() == ".yaml")
            out.emplace_back(entry.path().filename().string(), read_text(entry.path()));
    return out;
}

// What a permissions block grants that is more than read: "contents" -> "write".
std::map<std::string, std::string> writes(const YAML::Node& permissions) {
    std::map<std::string, std::string> out;
    if (permissions.IsScalar()) out["*"] = permissions.Scalar(); // read-all / write-all
    if (permissions.IsMap())
        for (const auto& grant : permissions)
            if (grant.second.Scalar() != "read" && grant.second.Scalar() != "none")
                out[grant.first.Scalar()] = grant.second.Scalar();
    return out;
}

} // namespace

// A tag can be moved to other code after review; a commit cannot. GitHub's
// security hardening guide: pinning to a full length commit SHA "is currently
// the only way to use an action as an immutable release"
// (https://docs.github.com/en/actions/security-guides/security-hardening-for-github-actions).
// The SHAs are the tags' commits in the actions' own repositories.
TEST_CASE("workflows: every action is pinned by a full commit SHA with its tag in a comment") {
    const std::regex uses_line(R"(^\s*(?:-\s+)?uses:\s*(\S+)(.*)$)");
    const std::regex pinned(R"(^[\w.-]+/[\w./-]+@[0-9a-f]{40}$)");
    const std::regex tag_comment(R"(^\s+# v\d+\.\d+\.\d+\s*$)");
    for (const auto& [name, text] : workflow_texts()) {
        INFO(name);
        int lines = 0;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);) {
            std::smatch m;
            if (!std::regex_match(line, m, uses_line)) continue;
            ++lines;
            INFO(line);
            CHECK(std::regex_match(m[1].str(), pinned));
            CHECK(std::regex_match(m[2].str(), tag_comment));
        }
        int steps = 0;
        for (const auto& step : all_steps(load_workflow(name))) steps += step["uses"] ? 1 : 0;
        CHECK(lines == steps); // every uses: was seen on a line of its own
        CHECK(steps > 0);
    }
}

TEST_CASE("workflows: permissions are declared for each job, the least it needs; none for the whole workflow") {
    // Only these jobs write, and only this: pushing the night, deploying Pages.
    const std::map<std::string, std::map<std::string, std::string>> allowed = {
        {"nightly.yml/nightly", {{"contents", "write"}}},
        {"nightly.yml/deploy", {{"id-token", "write"}, {"pages", "write"}}},
    };
    for (const auto& [name, text] : workflow_texts()) {
        INFO(name);
        YAML::Node workflow = load_workflow(name);
        REQUIRE(workflow["permissions"]); // else every job gets the repository's default token
        CHECK(writes(workflow["permissions"]).empty());
        for (const auto& job : workflow["jobs"]) {
            const std::string id = name + "/" + job.first.Scalar();
            INFO(id);
            REQUIRE(job.second["permissions"]);
            auto it = allowed.find(id);
            CHECK(writes(job.second["permissions"]) ==
                  (it == allowed.end() ? std::map<std::string, std::string>{} : it->second));
        }
    }
}

TEST_CASE("workflows: npm never runs a package's install scripts, in a workflow or in the scripts it calls") {
    std::vector<std::pair<std::string, std::string>> sources = workflow_texts();
    for (const auto& entry : fs::directory_iterator(source_dir() / "scripts"))
        if (entry.is_regular_file()) sources.emplace_back(entry.path().string(), read_text(entry.path()));
    const std::regex npm_install(R"((^|[\s;&|(])npm\s+(ci|install|i)(\s|$))");
    int installs = 0;
    for (const auto& [name, text] : sources) {
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);) {
            const auto code = line.substr(0, line.find('#'));
            if (!std::regex_search(code, npm_install) || code.find("echo ") != std::string::npos) continue;
            ++installs;
            INFO(name << ": " << line);
            CHECK(code.find("--ignore-scripts") != std::string::npos);
        }
    }
    CHECK(installs >= 3); // scripts/setup's three
}
