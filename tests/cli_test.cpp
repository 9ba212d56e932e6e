// The command line, end to end through the real binary.
#include "content/content_tree.h"
#include "content/day_file.h"
#include "test_support.h"
#include "util/gzip.h"
#include "util/text.h"

#include <doctest/doctest.h>
#include <git2/version.h>
#include <pugixml.hpp>
#include <rapidjson/document.h>

#include <sys/wait.h>

#include <algorithm>

using namespace pp;
using namespace pp::test;

namespace {

// 2025-05-20 with one paper, 2505.00001.
Day day_of_one_paper(const std::string& title, const std::string& abstract = "") {
    Day day;
    day.date = *parse_iso_date("2025-05-20");
    Paper paper;
    paper.id = "2505.00001";
    paper.title = title;
    paper.abstract = abstract;
    day.papers = {paper};
    return day;
}

} // namespace

TEST_CASE("every command has --help") {
    TempDir dir;
    for (const char* command : {"", "import", "ls", "check", "build", "run", "publish", "notify", "serve", "theme"}) {
        auto result = run_paperpress(std::string(command) + " --help", dir.path());
        CHECK_MESSAGE(result.exit_code == 0, command);
        CHECK(result.out.find("Usage:") != std::string::npos);
        CHECK(result.out.find("--content") != std::string::npos);
    }
    auto wrong = run_paperpress("frobnicate", dir.path());
    CHECK(wrong.exit_code == 2);
}

TEST_CASE("an unknown command is named, with the command it was probably meant to be, even before --help") {
    TempDir dir;
    for (const char* args : {"biuld x", "biuld --help", "--content c biuld", "biuld"}) {
        auto result = run_paperpress(args, dir.path());
        CHECK_MESSAGE(result.exit_code == 2, args);
        CHECK_MESSAGE(result.err.find("unknown command 'biuld'; did you mean 'build'?") != std::string::npos,
                      args << ": " << result.err);
        CHECK(result.out.find("Usage:") == std::string::npos);
    }
    auto far = run_paperpress("frobnicate", dir.path());
    CHECK(far.err.find("unknown command 'frobnicate' (paperpress --help lists the commands)") != std::string::npos);
}

TEST_CASE("one binary: cmake --install gives a paperpress that builds and runs from any folder") {
    TempDir prefix;
    const std::string install = "cmake --install '" PAPERPRESS_BUILD_DIR "' --prefix '" + prefix.path().string() +
                                "' > '" + (prefix / "install.log").string() + "' 2>&1";
    REQUIRE_MESSAGE(std::system(install.c_str()) == 0, read_text(prefix / "install.log"));
    const fs::path binary = prefix / "bin/paperpress";
    REQUIRE(fs::exists(binary));
    CHECK(fs::exists(prefix / "share/paperpress/themes/default"));
    CHECK(fs::exists(prefix / "share/paperpress/prompts/topics.md"));
    CHECK(fs::directory_iterator(prefix / "bin") != fs::directory_iterator()); // the binary alone: no module beside it
    for (const auto& entry : fs::directory_iterator(prefix / "bin")) CHECK(entry.path().filename() == "paperpress");

    // A folder with only content: themes, prompts and the sample come from the install.
    TempDir work;
    REQUIRE(
        run_paperpress("import '" + (fixture_archive() / "md/2025-01/2025-01-17-output.md").string() + "'", work.path())
            .exit_code == 0);
    auto run = [&](const std::string& args, const std::string& env = "") {
        std::string command = "cd '" + work.path().string() + "' && " + env + " '" + binary.string() + "' " + args +
                              " > out.txt 2> err.txt";
        int status = std::system(command.c_str());
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };
    CHECK(run("--help") == 0);
    CHECK(read_text(work / "out.txt").find("publish") != std::string::npos);
    // KaTeX from the install (not the tests' stub: $PAPERPRESS_KATEX_DIR would come first).
    CHECK_MESSAGE(run("build", "PAPERPRESS_KATEX_DIR=") == 0, read_text(work / "err.txt"));
    CHECK(fs::exists(work / "site/2025/01/17/index.html"));
    const fs::path installed_katex = prefix / "share/paperpress/katex";
    REQUIRE(fs::exists(installed_katex / "katex.min.js"));
    CHECK(read_text(work / "site/static/katex/katex.min.js") == read_text(installed_katex / "katex.min.js"));
    CHECK(fs::exists(installed_katex / "contrib/auto-render.min.js"));
    CHECK(fs::exists(installed_katex / "fonts/KaTeX_Main-Regular.woff2"));
    CHECK(fs::exists(work / "site/static/katex/fonts/KaTeX_Main-Regular.woff2"));
    // Without the installed copy: Debian's libjs-katex (scripts/setup installs it).
    fs::remove_all(installed_katex);
    const fs::path system_katex = "/usr/share/javascript/katex";
    if (fs::exists(system_katex / "katex.min.js")) {
        CHECK_MESSAGE(run("build", "PAPERPRESS_KATEX_DIR=") == 0, read_text(work / "err.txt"));
        CHECK(read_text(work / "site/static/katex/katex.min.js") == read_text(system_katex / "katex.min.js"));
        CHECK(read_text(work / "site/static/katex/contrib/auto-render.min.js") ==
              read_text(system_katex / "contrib/auto-render.js"));
        CHECK(fs::exists(work / "site/static/katex/fonts/KaTeX_Main-Regular.ttf"));
    } else {
        MESSAGE("Debian's libjs-katex is not installed: its fallback is not tested (scripts/setup installs it)");
    }
    CHECK_MESSAGE(run("run --offline --no-build") == 0, read_text(work / "err.txt"));
    CHECK(fs::exists(work / "content/2025/05/2025-05-28.md"));
}

TEST_CASE("start-up: build never loads libcurl, libgit2 or the libraries only they bring") {
    TempDir work;
    REQUIRE(
        run_paperpress("import '" + (fixture_archive() / "md/2025-01/2025-01-17-output.md").string() + "'", work.path())
            .exit_code == 0);
    fs::copy(source_dir() / "themes", work / "themes", fs::copy_options::recursive);
    // The dynamic loader names every library it maps (LD_DEBUG=files).
    auto build = run_paperpress_env("LD_DEBUG=files", "build", work.path());
    REQUIRE_MESSAGE(build.exit_code == 0, build.err.substr(build.err.size() > 2000 ? build.err.size() - 2000 : 0));
    CHECK(build.err.find("libyaml-cpp") != std::string::npos); // the loader did report
    for (const char* online_only : {"libcurl", "libldap", "libgnutls", "librtmp", "libnghttp2"})
        CHECK_MESSAGE(build.err.find(online_only) == std::string::npos, online_only);
    for (const char* git_only : {"libgit2", "libssh2", "libmbedtls", "libgssapi_krb5", "libhttp_parser"})
        CHECK_MESSAGE(build.err.find(git_only) == std::string::npos, git_only);
}

TEST_CASE("publish without a loadable libgit2: one clear error, exit 1, nothing committed") {
    TempDir work;
    REQUIRE(
        run_paperpress("import '" + (fixture_archive() / "md/2025-01/2025-01-17-output.md").string() + "'", work.path())
            .exit_code == 0);
    fs::copy(source_dir() / "themes", work / "themes", fs::copy_options::recursive);
    REQUIRE(run_paperpress("build", work.path()).exit_code == 0);
    const std::string in_work = "cd '" + work.path().string() + "' && ";
    REQUIRE(std::system((in_work + "git init -q .").c_str()) == 0);
    // The loader looks in LD_LIBRARY_PATH first, and finds a file there that is no library.
    fs::create_directories(work / "broken");
    write_text(work / "broken" / ("libgit2.so." LIBGIT2_SOVERSION), "not a library");
    auto published = run_paperpress_env("LD_LIBRARY_PATH='" + (work / "broken").string() + "'", "publish", work.path());
    CHECK(published.exit_code == 1);
    CHECK_MESSAGE(std::count(published.err.begin(), published.err.end(), '\n') == 1, published.err); // one line
    CHECK_MESSAGE(published.err.find("cannot load libgit2.so." LIBGIT2_SOVERSION " (install libgit2-" LIBGIT2_SOVERSION
                                     ")") != std::string::npos,
                  published.err);
    CHECK(std::system((in_work + "git rev-parse --verify -q refs/heads/gh-pages >/dev/null").c_str()) != 0);
}

TEST_CASE("import, then ls --json lists each day with its papers in page order") {
    TempDir dir;
    auto imported = run_paperpress("import '" + fixture_archive().string() + "'", dir.path());
    CHECK(imported.exit_code == 0);
    CHECK(imported.out.find("import: 93 days") != std::string::npos);
    CHECK(imported.out.find("imported 2025-01-17: 25 papers") != std::string::npos);

    auto listed = run_paperpress("ls --json", dir.path());
    REQUIRE(listed.exit_code == 0);
    rapidjson::Document json;
    json.Parse(listed.out.c_str());
    REQUIRE(json.IsArray());
    REQUIRE(json.Size() == 93);
    CHECK(std::string(json[0]["date"].GetString()) == "2025-01-17");
    CHECK(json[0]["papers"].Size() == 25);
    CHECK(std::string(json[0]["papers"][0].GetString()) == "2501.09412");
    CHECK(std::string(json[0]["status"].GetString()) == "announced");

    auto plain = run_paperpress("ls", dir.path());
    CHECK(plain.out.find("2025-01-17  announced   25 papers") != std::string::npos);

    auto checked = run_paperpress("check", dir.path());
    CHECK(checked.exit_code == 0);
    CHECK(checked.out.find("check: 93 days") != std::string::npos);
}

TEST_CASE("check passes on the sample archive") {
    TempDir dir;
    import_sample_archive(dir.path());
    auto result = run_paperpress("check", dir.path());
    CHECK_MESSAGE(result.exit_code == 0, result.err);
    CHECK(result.out.find(" 0 errors") != std::string::npos);
}

TEST_CASE("check fails on bad content, naming file and line") {
    TempDir dir;
    Day day = day_of_one_paper("T");
    day.papers.push_back(day.papers.front());
    REQUIRE(save_day(dir / "content", day).has_value());
    write_text(dir / "content/2025/05/2025-05-21.md", "---\ndate: 2025-05-22\n---\n");
    write_text(dir / "content/2025/05/2025-05-23.md", "---\ndate: 2025-05-23\nstatus: sunny\n---\n");
    write_text(dir / "content/2025/05/stray.md", "hello");
    auto result = run_paperpress("check", dir.path());
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("2025-05-20.md: paper 2505.00001 is listed twice on this day") != std::string::npos);
    CHECK(result.err.find("2025-05-21.md:2: the front matter says 2025-05-22") != std::string::npos);
    CHECK(result.err.find("2025-05-23.md:3: expected 'status' to be announced, partial, stale or failed") !=
          std::string::npos);
    CHECK(result.err.find("stray.md: not a day file") != std::string::npos);
    CHECK(result.out.find("4 errors") != std::string::npos);
}

TEST_CASE("a broken config file is an error naming its line") {
    TempDir dir;
    write_text(dir / "paperpress.yaml", "title: My papers\nfeed_days: many\n");
    auto result = run_paperpress("ls", dir.path());
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("paperpress.yaml:2: expected 'feed_days' to be a whole number") != std::string::npos);
}

TEST_CASE("import of a missing source fails clearly") {
    TempDir dir;
    auto result = run_paperpress("import does-not-exist", dir.path());
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("does-not-exist: no such file or folder") != std::string::npos);
}

TEST_CASE("run: URL userinfo, query tokens and a key echoed by a peer reach no log line and no notification") {
    TempDir dir;
    fs::copy(source_dir() / "prompts", dir / "prompts");
    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    const std::string key = "sk-cli-test-9d2e1f";
    LoopbackServer peers;
    std::mutex mutex;
    std::vector<std::string> notices;
    auto refuse = [&](const httplib::Request&, httplib::Response& res) {
        res.status = 403;
        res.set_content("forbidden for key " + key, "text/plain");
    };
    peers.server.Get("/rss/.*", refuse);
    peers.server.Get("/api.*", refuse);
    peers.server.Post("/hook", [&](const httplib::Request& req, httplib::Response& res) {
        std::lock_guard lock(mutex);
        notices.push_back(req.body);
        res.set_content("{}", "application/json");
    });
    peers.start();
    write_text(dir / "paperpress.yaml", "arxiv:\n  request_interval: 0\nnotify:\n  on_failure: true\n  attempts: 1\n"
                                        "  webhook:\n    url_env: PP_TEST_HOOK\n");
    auto with_userinfo = [&](const std::string& path) {
        std::string url = peers.url(path);
        return url.insert(url.find("//") + 2, "user:PASSWORD@");
    };
    auto result = run_paperpress_env("OPENAI_API_KEY=" + key + " OPENAI_BASE_URL= PP_TEST_HOOK=" + peers.url("/hook") +
                                         " PAPERPRESS_ARXIV_RSS_URL=" + with_userinfo("/rss/") +
                                         " PAPERPRESS_ARXIV_API_URL=" + with_userinfo("/api?token=QUERYTOKEN"),
                                     "run --no-build", dir.path());
    std::string shown = result.out + result.err;
    INFO(shown);
    CHECK(result.exit_code != 0);
    CHECK(shown.find("http://***@127.0.0.1:") != std::string::npos); // the URL is named, its secrets are not
    CHECK(shown.find("[$OPENAI_API_KEY]") != std::string::npos);
    CHECK(shown.find("notify: notify:") == std::string::npos);
    std::lock_guard lock(mutex);
    std::string sent = join(notices, "\n");
    CHECK(sent.find("***@127.0.0.1") != std::string::npos);
    for (const std::string& secret : {std::string("PASSWORD"), std::string("QUERYTOKEN"), key})
        CHECK((shown + sent).find(secret) == std::string::npos);
}

// Every file under `root`, concatenated (the site as built, a content tree).
// Every file's bytes, gzip'd ones unpacked (the month data, the search index): what a reader can get.
std::string all_files(const fs::path& root) {
    std::string all;
    for (const auto& [path, bytes] : file_tree(root))
        all += path + "\n" + (path.ends_with(".gz") ? gunzip(bytes, 64u << 20).value_or("(not gzip)") : bytes) + "\n";
    return all;
}

TEST_CASE("run: a 401 echoing the key, cut at 300 bytes anywhere, reaches no line printed, no day file, no page and no "
          "job summary") {
    TempDir dir;
    fs::copy(source_dir() / "prompts", dir / "prompts");
    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    const std::string key = "sk-LEAKED-7f3a9c2e41b8d605";
    // OpenAI's 401 body quotes the key it got; here it quotes it again and again, so that each
    // cut of the provider's words (300 bytes) falls inside one.
    std::string said = "Incorrect API key provided:";
    while (said.size() < 700) said += " " + key;
    LoopbackServer peers;
    const std::string feed = read_text(source_dir() / "samples/arxiv-feed.xml");
    peers.server.Get("/rss/.*", [&](const httplib::Request&, httplib::Response& res) {
        res.set_content(feed, "application/rss+xml");
    });
    peers.server.Post("/v1/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
        res.status = 401;
        res.set_content("{\"error\":{\"message\":\"" + said +
                            "\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_key\"}}",
                        "application/json");
    });
    peers.start();
    write_text(dir / "paperpress.yaml", "arxiv:\n  request_interval: 0\n  catch_up_days: 0\n");
    auto result = run_paperpress_env("OPENAI_API_KEY=" + key + " OPENAI_BASE_URL=" + peers.url("/v1") +
                                         " PAPERPRESS_ARXIV_RSS_URL=" + peers.url("/rss/"),
                                     "run --date 2025-05-28", dir.path());
    const std::string shown = result.out + result.err;
    INFO(shown);
    CHECK(result.exit_code == 3); // partial: the embedded scorer stood in
    CHECK(result.err.find("paperpress run: exit 3: 2025-05-28 is partial") != std::string::npos);
    CHECK(result.err.find("[$OPENAI_API_KEY]") != std::string::npos);
    const std::string day = read_text(dir / "content/2025/05/2025-05-28.md");
    CHECK(day.find("the provider says") != std::string::npos);
    write_text(dir / "run.log", shown);
    const std::string command = "cd '" + dir.path().string() + "' && PAPERPRESS='" PAPERPRESS_BINARY "' bash '" +
                                (source_dir() / "scripts/night-summary").string() + "' run.log > summary.md";
    REQUIRE(std::system(command.c_str()) == 0);
    const std::string summary = read_text(dir / "summary.md");
    CHECK(summary.find("paperpress run: exit 3") != std::string::npos);
    // Not the key, nor the start of it a cut left.
    for (const auto& [sink, text] :
         {std::pair{"output", shown}, {"day file", day}, {"site", all_files(dir / "site")}, {"job summary", summary}}) {
        INFO(sink);
        CHECK(text.find("LEAKED") == std::string::npos);
    }
}

TEST_CASE("build alone registers the config's secrets from the environment: a key in a day file reaches no page") {
    TempDir dir;
    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    const std::string key = "sk-HANDEDIT-31c9e07d5b";
    auto day = day_of_one_paper("A hand-edited day", "Pasted by mistake: " + key + ", and in the feed.");
    write_text(dir / "content/2025/05/2025-05-20.md", write_day(day));
    write_text(dir / "paperpress.yaml", "search_index: true\n"); // the index's gzip'd chunks too
    auto result = run_paperpress_env("OPENAI_API_KEY=" + key, "build", dir.path());
    INFO(result.err);
    CHECK(result.exit_code == 0);
    const std::string site = all_files(dir / "site");
    CHECK(site.find("Pasted by mistake: [$OPENAI_API_KEY]") != std::string::npos); // the page, the feed
    CHECK(site.find("HANDEDIT") == std::string::npos);
    std::string folded = site; // the word index keeps words folded to lower case
    std::transform(folded.begin(), folded.end(), folded.begin(), [](unsigned char c) { return std::tolower(c); });
    CHECK(folded.find("handedit") == std::string::npos);
}

TEST_CASE("check refuses what build refuses: a prompt path out of the tree, with file and line, quoted once") {
    TempDir dir;
    Day day = day_of_one_paper("T");
    day.prompt = "../outside.md";
    REQUIRE(save_day(dir / "content", day).has_value());
    day.date = *parse_iso_date("2025-05-21");
    day.prompt = (dir / "outside.md").string();
    REQUIRE(save_day(dir / "content", day).has_value());
    write_text(dir / "outside.md", "a prompt outside the tree\n");
    auto result = run_paperpress("check", dir.path());
    INFO(result.err);
    CHECK(result.exit_code == 1);
    const std::string first = read_text(dir / "content/2025/05/2025-05-20.md");
    int line = 1 + static_cast<int>(std::count(first.begin(), first.begin() + first.find("\nprompt:") + 1, '\n'));
    CHECK(result.err.find("2025-05-20.md:" + std::to_string(line) +
                          ": expected a prompt path inside the content folder, got '../outside.md'") !=
          std::string::npos);
    CHECK(result.err.find("2025-05-21.md:" + std::to_string(line) +
                          ": expected a prompt path inside the content folder") != std::string::npos);
    CHECK(result.err.find("''") == std::string::npos); // quoted once
}

TEST_CASE("check names a folder called like a day file, and bounds its line of repeated IDs") {
    TempDir dir;
    fs::create_directories(dir / "content/2025/05/2025-05-27.md");
    Day day;
    day.date = *parse_iso_date("2025-05-20");
    for (int i = 0; i < 25; ++i) {
        Paper paper;
        paper.id = "2505." + std::to_string(10000 + i);
        paper.title = "T";
        day.papers.push_back(paper);
    }
    REQUIRE(save_day(dir / "content", day).has_value());
    day.date = *parse_iso_date("2025-05-21");
    REQUIRE(save_day(dir / "content", day).has_value());
    auto result = run_paperpress("check", dir.path());
    INFO(result.err);
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("2025-05-27.md: a folder named like a day file: expected a file") != std::string::npos);
    CHECK(result.err.find("25 papers were already listed on an earlier day: 2505.10000 (2025-05-20), ") !=
          std::string::npos);
    CHECK(result.err.find("2505.10009 (2025-05-20) and 15 more") != std::string::npos);
    CHECK(result.err.find("2505.10010") == std::string::npos);
}

TEST_CASE("a control character or invalid UTF-8 in a day file: check names file and line, build keeps feed.xml XML") {
    TempDir dir;
    Day day = day_of_one_paper("Clean title", "Clean abstract.");
    REQUIRE(save_day(dir / "content", day).has_value());
    const fs::path file = dir / "content/2025/05/2025-05-20.md";
    std::string text = read_text(file);
    text.replace(text.find("Clean title"), 11, "Bad\x01title");
    text.replace(text.find("Clean abstract."), 15, "Bad \xFF\xFE abstract.");
    write_text(file, text);
    const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + text.find('\x01'), '\n'));
    auto checked = run_paperpress("check", dir.path());
    INFO(checked.err);
    CHECK(checked.exit_code == 1);
    CHECK(checked.err.find("2025-05-20.md:" + std::to_string(line) +
                           ": expected valid UTF-8 text without control characters, got the byte 0x01") !=
          std::string::npos);

    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    auto built = run_paperpress("build --out site", dir.path());
    REQUIRE_MESSAGE(built.exit_code == 0, built.err);
    pugi::xml_document feed;
    auto parsed = feed.load_file((dir / "site/feed.xml").c_str());
    CHECK_MESSAGE(parsed, parsed.description());
    const std::string xml = read_text(dir / "site/feed.xml");
    CHECK(xml.find('\x01') == std::string::npos);
    CHECK(first_invalid_xml_char(xml) == std::string::npos);
    CHECK(xml.find("Bad title") != std::string::npos);
}

TEST_CASE(
    "a day of more papers than a day page may hold: check and build refuse it alike, naming the content's limit") {
    TempDir dir;
    for (size_t count : {max_papers_per_day, max_papers_per_day + 1}) {
        Day day;
        day.date = *parse_iso_date(count == max_papers_per_day ? "2025-05-27" : "2025-05-28");
        for (size_t i = 0; i < count; ++i) {
            Paper p;
            p.id = "2505." + std::to_string((count == max_papers_per_day ? 10000 : 30000) + i); // no paper on both days
            p.title = "Paper " + std::to_string(i);
            p.authors = {"Ada Lovelace"};
            p.relevance = 7;
            p.novelty = 6;
            day.papers.push_back(p);
        }
        REQUIRE(save_day(dir / "content", day).has_value());
    }
    const std::string limit =
        "expected at most 5000 papers in a day file (paperpress's limit for a day page), got more";
    auto checked = run_paperpress("check", dir.path());
    CHECK(checked.exit_code == 1);
    CHECK_MESSAGE(checked.err.find("2025-05-28.md:") != std::string::npos, checked.err);
    CHECK(checked.err.find(limit) != std::string::npos);
    CHECK(checked.err.find("2025-05-27") == std::string::npos); // the limit itself is a day page the themes render
    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    write_text(dir / "paperpress.yaml", "math: false\n");
    auto built = run_paperpress("build --out site", dir.path());
    CHECK_MESSAGE(built.err.find(limit) != std::string::npos, built.out << built.err);
    CHECK(built.err.find("sections repeat") == std::string::npos);
    CHECK(fs::exists(dir / "site/2025/05/27/index.html"));
}

namespace {

// A project that `run --offline` can run in: prompts, themes and the sample announcement.
void offline_project(const fs::path& dir) {
    fs::copy(source_dir() / "prompts", dir / "prompts");
    fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
    fs::create_directories(dir / "samples");
    fs::copy_file(source_dir() / "samples/arxiv-feed.xml", dir / "samples/arxiv-feed.xml");
}

// Whether any file under `root` holds `secret`.
bool published(const fs::path& root, const std::string& secret) {
    for (const auto& [path, bytes] : file_tree(root))
        if (bytes.find(secret) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("run: a prompt file that is a link to the environment or out of prompts/ publishes no secret") {
    // Issue 41: prompts/topics.md -> /proc/self/environ copied OPENAI_API_KEY and GITHUB_TOKEN into
    // content/prompts/<hash>.md and the published site/prompts/<hash>/index.html.
    TempDir dir;
    offline_project(dir.path());
    const std::string secret = "ghs_environ_secret_7c1d9e";
    fs::remove(dir / "prompts/topics.md");
    SUBCASE("a link to /proc/self/environ") { fs::create_symlink("/proc/self/environ", dir / "prompts/topics.md"); }
    SUBCASE("a link out of prompts/ to a file of the project") {
        write_text(dir / ".git/config", "[http]\n\textraheader = AUTHORIZATION: basic " + secret + "\n");
        fs::create_symlink("../.git/config", dir / "prompts/topics.md");
    }
    auto result =
        run_paperpress_env("GITHUB_TOKEN=" + secret + " OPENAI_API_KEY=" + secret, "run --offline", dir.path());
    const std::string shown = result.out + result.err;
    INFO(shown);
    CHECK(result.exit_code != 0);
    CHECK(result.err.find("prompts/topics.md") != std::string::npos);
    CHECK(result.err.find("expected a file inside") != std::string::npos);
    CHECK_FALSE(published(dir / "content", secret));
    CHECK_FALSE(published(dir / "site", secret));
    CHECK((result.out + result.err).find(secret) == std::string::npos);
}

TEST_CASE("check and build refuse a config path out of the project, naming the key, the file and the line") {
    TempDir dir;
    offline_project(dir.path());
    write_text(dir / "paperpress.yaml", "title: T\nscoring:\n  topics: /proc/self/environ\n");
    for (const char* command : {"check", "build", "run --offline"}) {
        auto result = run_paperpress(command, dir.path());
        INFO(command);
        INFO(result.err);
        CHECK(result.exit_code != 0);
        CHECK(
            result.err.find("paperpress.yaml:3: expected 'scoring.topics' to be a relative path inside the project") !=
            std::string::npos);
    }
}

TEST_CASE("run never writes a day, a prompt or a raw response through a folder that links out; check names it") {
    // Issue 41: with content/2025/05 a link to another folder, run wrote the day there and check skipped the
    // folder in silence; .cache/arxiv as a link got the raw responses.
    TempDir dir;
    offline_project(dir.path());
    fs::create_directories(dir / "elsewhere/month");
    fs::create_directories(dir / "content/2025");
    fs::create_directory_symlink(dir / "elsewhere/month", dir / "content/2025/05");
    auto result = run_paperpress("run --offline --no-build", dir.path());
    const std::string shown = result.out + result.err;
    INFO(shown);
    CHECK(result.exit_code != 0);
    CHECK(result.err.find("content/2025/05") != std::string::npos);
    CHECK(file_tree(dir / "elsewhere").size() == 1); // the folder itself, still empty

    auto check = run_paperpress("check", dir.path());
    INFO(check.err);
    CHECK(check.exit_code == 1);
    CHECK(check.err.find("content/2025/05: a symbolic link to a folder") != std::string::npos);
}

TEST_CASE("run keeps no raw response through a cache folder that is a link out of the project") {
    TempDir dir;
    offline_project(dir.path());
    fs::create_directories(dir / "elsewhere");
    fs::create_directories(dir / ".cache");
    fs::create_directory_symlink(dir / "elsewhere", dir / ".cache/arxiv");
    const std::string feed = read_text(dir / "samples/arxiv-feed.xml");
    LoopbackServer arxiv;
    arxiv.server.Get("/rss/.*", [&](const httplib::Request&, httplib::Response& res) {
        res.set_content(feed, "application/rss+xml");
    });
    arxiv.start();
    write_text(dir / "paperpress.yaml",
               "arxiv:\n  request_interval: 0\n  catch_up_days: 0\n  wait_for_feed_minutes: 0\n");
    auto result = run_paperpress_env("OPENAI_API_KEY= OPENAI_BASE_URL= PAPERPRESS_ARXIV_RSS_URL=" + arxiv.url("/rss/"),
                                     "run --no-build --date 2025-05-28", dir.path());
    const std::string shown = result.out + result.err;
    INFO(shown);
    CHECK(shown.find("warning: cannot keep the raw response: .cache/arxiv/rss: expected a file inside") !=
          std::string::npos);
    CHECK(file_tree(dir / "elsewhere").empty());
}
