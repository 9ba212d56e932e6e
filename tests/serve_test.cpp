// serve/: the preview server. The pieces (content types, the injected
// script, path lookup, the watcher) are checked directly; then
// `paperpress serve --port 0` runs as a child process on a small archive and
// is checked over HTTP the way a browser sees it: pages, 404, traversal,
// live-reload events, rebuilds after edits, a broken layout, SIGTERM.
#include "content/content_tree.h"
#include "serve/change_notifier.h"
#include "serve/server.h"
#include "serve/watcher.h"
#include "test_support.h"

#include <doctest/doctest.h>
#include <httplib.h>

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <fcntl.h>
#include <functional>
#include <map>
#include <mutex>
#include <netinet/in.h>
#include <poll.h>
#include <regex>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace pp;
using namespace pp::test;
using namespace std::chrono_literals;

namespace {

Paper paper(const std::string& id, const std::string& title) {
    Paper p;
    p.id = id;
    p.title = title;
    p.authors = {"Ada Lovelace", "Alan Turing"};
    p.abstract = "An abstract about " + title + ".";
    p.relevance = 8;
    p.novelty = 7;
    return p;
}

Day day(const char* iso, std::vector<Paper> papers) {
    Day d;
    d.date = *parse_iso_date(iso);
    d.model = "gpt-4o";
    d.counts = Counts{100, 90, static_cast<long long>(papers.size())};
    d.papers = std::move(papers);
    return d;
}

// Polls `ready` every 50 ms for up to `limit`.
bool eventually(const std::function<bool()>& ready, std::chrono::milliseconds limit = 15s) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
        if (ready()) return true;
        std::this_thread::sleep_for(50ms);
    }
    return ready();
}

// `paperpress ARGS...` running in `cwd`, its output going to files.
class ServeProcess {
public:
    ServeProcess(const fs::path& cwd, std::vector<std::string> args) : out_(logs_ / "out"), err_(logs_ / "err") {
        args.insert(args.begin(), "paperpress");
        std::vector<char*> argv;
        for (auto& arg : args) argv.push_back(arg.data());
        argv.push_back(nullptr);
        const std::string dir = cwd.string(), out = out_.string(), err = err_.string();
        pid_ = fork();
        REQUIRE(pid_ >= 0);
        if (pid_ == 0) {
            // Only async-signal-safe calls between fork and exec.
            const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (o < 0 || e < 0 || ::chdir(dir.c_str()) != 0) _exit(126);
            ::dup2(o, 1);
            ::dup2(e, 2);
            ::execv(PAPERPRESS_BINARY, argv.data());
            _exit(127);
        }
    }
    ~ServeProcess() {
        if (pid_ > 0 && !exited_) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
    }
    ServeProcess(const ServeProcess&) = delete;
    ServeProcess& operator=(const ServeProcess&) = delete;

    std::string out() const { return read_text(out_); }
    std::string err() const { return read_text(err_); }

    // The port of the "Serving http://127.0.0.1:N/" line, 0 if none came.
    int wait_for_port(std::chrono::milliseconds limit = 60s) {
        static const std::regex serving(R"(Serving http://127\.0\.0\.1:(\d+)/ \(Ctrl-C to stop\))");
        int port = 0;
        eventually(
            [&] {
                std::smatch match;
                const std::string text = out();
                if (std::regex_search(text, match, serving)) port = std::stoi(match[1].str());
                return port != 0 || finished();
            },
            limit);
        return port;
    }

    bool finished() {
        if (exited_) return true;
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            exited_ = true;
            exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        return exited_;
    }

    // Sends `signal`; the exit code, or -1 if it did not stop in time.
    int stop(int signal = SIGTERM, std::chrono::milliseconds limit = 10s) {
        ::kill(pid_, signal);
        if (!eventually([&] { return finished(); }, limit)) return -1;
        return exit_code_;
    }

private:
    TempDir logs_;
    fs::path out_, err_;
    pid_t pid_ = -1;
    bool exited_ = false;
    int exit_code_ = -1;
};

// Every file under `root` by relative path, with its bytes.
std::map<std::string, std::string> tree_of(const fs::path& root) {
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(root))
        if (entry.is_regular_file()) files[fs::relative(entry.path(), root).generic_string()] = read_text(entry.path());
    return files;
}

std::string token_in(const std::string& html) {
    static const std::regex script(R"re(var t="([0-9]+-[0-9]+)")re");
    std::smatch match;
    return std::regex_search(html, match, script) ? match[1].str() : std::string();
}

struct Site {
    TempDir dir;
    fs::path content() const { return dir / "content"; }

    Site() {
        fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
        write_text(dir / "paperpress.yaml", "title: Serve digest\n");
        REQUIRE(save_day(content(), day("2025-05-20", {paper("2505.00001", "Original flow title"),
                                                       paper("2505.00002", "Second paper")})));
        REQUIRE(save_day(content(), day("2025-05-21", {paper("2505.00003", "Another day's paper")})));
    }
};

} // namespace

TEST_CASE("serve: content types for the site's files") {
    CHECK(content_type_for("index.html") == "text/html; charset=utf-8");
    CHECK(content_type_for("static/style.css") == "text/css; charset=utf-8");
    CHECK(content_type_for("static/search.js") == "text/javascript; charset=utf-8");
    CHECK(content_type_for("data/index.json") == "application/json");
    CHECK(content_type_for("feed.xml") == "application/xml");
    CHECK(content_type_for("static/logo.SVG") == "image/svg+xml");
    CHECK(content_type_for("static/fonts/KaTeX_Main-Regular.woff2") == "font/woff2");
    CHECK(content_type_for("LICENSE") == "application/octet-stream");
}

TEST_CASE("serve: the reload snippet goes before the last </body>") {
    const std::string snippet = live_reload_snippet("17-3", "");
    CHECK(snippet.find("/__paperpress/events") != std::string::npos);
    CHECK(snippet.find("var t=\"17-3\"") != std::string::npos);
    CHECK(snippet.find("paperpress-build-error") == std::string::npos);
    CHECK(inject_before_body_end("<p>a</p></body></html>\n", "X") == "<p>a</p>X</body></html>\n");
    CHECK(inject_before_body_end("<pre></body></pre></BODY>", "X") == "<pre></body></pre>X</BODY>");
    CHECK(inject_before_body_end("<p>no body end", "X") == "<p>no body endX");

    const std::string failed = live_reload_snippet("17-4", "layouts/day.mustache: <unclosed> & \"so on\"");
    CHECK(failed.find("paperpress-build-error") != std::string::npos);
    CHECK(failed.find("layouts/day.mustache: &lt;unclosed&gt; &amp; &quot;so on&quot;") != std::string::npos);
}

TEST_CASE("serve: URL paths map to files inside the output folder only") {
    TempDir dir;
    const fs::path root = dir / "site";
    write_text(root / "index.html", "home");
    write_text(root / "2025/05/20/index.html", "day");
    write_text(root / "feed.xml", "feed");
    write_text(dir / "secret.txt", "secret");
    using Kind = SiteLookup::Kind;

    auto home = lookup_site_path(root, "/");
    CHECK(home.kind == Kind::file);
    CHECK(read_text(home.file) == "home");
    auto page = lookup_site_path(root, "/2025/05/20/");
    CHECK(page.kind == Kind::file);
    CHECK(read_text(page.file) == "day");
    CHECK(lookup_site_path(root, "/feed.xml").kind == Kind::file);
    CHECK(lookup_site_path(root, "//feed.xml").kind == Kind::file);

    auto folder = lookup_site_path(root, "/2025/05/20");
    CHECK(folder.kind == Kind::redirect);
    CHECK(folder.location == "/2025/05/20/");
    // A doubled slash must not redirect to "//2025/", a URL of another host.
    auto doubled = lookup_site_path(root, "//2025/05/20");
    CHECK(doubled.kind == Kind::redirect);
    CHECK(doubled.location == "/2025/05/20/");
    CHECK(lookup_site_path(root, "///2025//05/20").location == "/2025/05/20/");

    CHECK(lookup_site_path(root, "/2025/05/21/").kind == Kind::not_found);
    CHECK(lookup_site_path(root, "/2025/").kind == Kind::not_found); // a folder without index.html
    CHECK(lookup_site_path(root, "/nope.css").kind == Kind::not_found);

    CHECK(lookup_site_path(root, "/../secret.txt").kind == Kind::forbidden);
    CHECK(lookup_site_path(root, "/2025/../../secret.txt").kind == Kind::forbidden);
    CHECK(lookup_site_path(root, "/2025/..").kind == Kind::forbidden);
    CHECK(lookup_site_path(root, "/./index.html").kind == Kind::forbidden);
    CHECK(lookup_site_path(root, "/..\\secret.txt").kind == Kind::forbidden);
    CHECK(lookup_site_path(root, "relative").kind == Kind::forbidden);

    // A symbolic link out of the folder is refused too.
    fs::create_symlink(dir / "secret.txt", root / "link.txt");
    CHECK(lookup_site_path(root, "/link.txt").kind == Kind::forbidden);
}

TEST_CASE("serve: many open pages cannot take every thread; pages beyond the cap still load") {
    TempDir dir;
    write_text(dir / "site/index.html", "<html><body>home</body></html>");
    PreviewServer server(dir / "site");
    auto port = server.bind("127.0.0.1", 0);
    REQUIRE(port);
    server.start();
    // Event streams held open the way a page's EventSource holds one.
    std::vector<int> streams;
    auto open_stream = [&] {
        int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(static_cast<std::uint16_t>(*port));
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
        const std::string request = "GET " + std::string(events_path) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        REQUIRE(::write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size()));
        streams.push_back(fd);
    };
    for (int i = 0; i < max_event_streams + 8; ++i) open_stream();

    httplib::Client client("127.0.0.1", *port);
    client.set_read_timeout(5, 0);
    client.set_connection_timeout(5, 0);
    // Wait until every stream is being served or refused, then a page still loads.
    CHECK(eventually([&] {
        auto events = client.Get(std::string(events_path).c_str());
        return events && events->status == 503;
    }));
    auto page = client.Get("/");
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(page->body.find("home") != std::string::npos);
    for (int fd : streams) ::close(fd);
    server.stop();
}

TEST_CASE("serve: the watcher reports added, modified and removed files, and ignores temp files") {
    TempDir dir;
    write_text(dir / "content/2025/05/2025-05-20.md", "one");
    write_text(dir / "paperpress.yaml", "title: A\n");
    write_text(dir / "out/index.html", "built");
    Watcher watcher({dir / "content", dir / "paperpress.yaml", dir / "layouts", dir / "out"}, {dir / "out"});
    CHECK(watcher.poll().empty());
    CHECK(watcher.last().size() == 2);

    write_text(dir / "content/2025/05/2025-05-21.md", "two");
    write_text(dir / "content/2025/05/.2025-05-21.md.swp", "editor");
    write_text(dir / "content/2025/05/2025-05-21.md.tmp.123", "half");
    write_text(dir / "content/2025/05/2025-05-21.md~", "backup");
    write_text(dir / "out/index.html", "rebuilt");
    auto changes = watcher.poll();
    CHECK(changes.added == std::vector<std::string>{(dir / "content/2025/05/2025-05-21.md").generic_string()});
    CHECK(changes.modified.empty());
    CHECK(changes.removed.empty());

    // Same size, new time: still a change.
    const auto path = dir / "content/2025/05/2025-05-20.md";
    write_text(path, "ONE");
    fs::last_write_time(path, fs::last_write_time(path) + 2s);
    write_text(dir / "layouts/day.mustache", "{{> head}}");
    fs::remove(dir / "paperpress.yaml");
    changes = watcher.poll();
    CHECK(changes.modified == std::vector<std::string>{path.generic_string()});
    CHECK(changes.added == std::vector<std::string>{(dir / "layouts/day.mustache").generic_string()});
    CHECK(changes.removed == std::vector<std::string>{(dir / "paperpress.yaml").generic_string()});
    CHECK(changes.count() == 3);
    CHECK(changes.describe(2).find("3 files changed: modified ") == 0);
    CHECK(changes.describe(2).ends_with(", and 1 more"));
    CHECK(watcher.poll().empty());

    WatchChanges one;
    one.modified = {"content/2025/05/2025-05-20.md"};
    CHECK(one.describe() == "modified content/2025/05/2025-05-20.md");
}

TEST_CASE("serve: inotify tells of edits in the watched trees, new folders included, and of nothing else") {
    TempDir dir;
    write_text(dir / "content/2025/05/2025-05-20.md", "one");
    write_text(dir / "paperpress.yaml", "title: A\n");
    write_text(dir / "out/index.html", "built");
    auto opened = ChangeNotifier::open({dir / "content", dir / "layouts", dir / "paperpress.yaml"}, {dir / "out"});
    REQUIRE_MESSAGE(opened, opened.error().to_string());
    ChangeNotifier& notifier = **opened;
    // Did an event that counts come within a second (after `act`)?
    auto told = [&](const std::function<void()>& act) {
        act();
        const auto until = std::chrono::steady_clock::now() + 1s;
        bool changed = false;
        while (!changed && std::chrono::steady_clock::now() < until) {
            pollfd entry{notifier.fd(), POLLIN, 0};
            ::poll(&entry, 1, 100);
            changed = notifier.drain();
        }
        std::this_thread::sleep_for(50ms); // and nothing left over for the next step
        notifier.drain();
        return changed;
    };
    CHECK_FALSE(told([] {}));
    CHECK(told([&] { write_text(dir / "content/2025/05/2025-05-20.md", "ONE"); }));
    CHECK_FALSE(told([&] { write_text(dir / "content/2025/05/.2025-05-20.md.swp", "editor"); }));
    CHECK_FALSE(told([&] { write_text(dir / "out/index.html", "rebuilt"); }));
    CHECK_FALSE(told([&] { write_text(dir / "notes.txt", "beside the config"); }));
    // A new year's folder, then a day in it: the folder is watched as it comes.
    CHECK(told([&] { fs::create_directories(dir / "content/2026/01"); }));
    CHECK(told([&] { write_text(dir / "content/2026/01/2026-01-05.md", "new"); }));
    // The config replaced by a rename, as editors and write_file_atomic save.
    CHECK(told([&] {
        write_text(dir / "paperpress.yaml.tmp.1", "title: B\n");
        fs::rename(dir / "paperpress.yaml.tmp.1", dir / "paperpress.yaml");
    }));
    // A root that did not exist yet: layouts/ made later, then a file in it.
    CHECK(told([&] { fs::create_directories(dir / "layouts"); }));
    CHECK(told([&] { write_text(dir / "layouts/day.mustache", "{{> head}}"); }));
    CHECK(told([&] { fs::remove(dir / "content/2025/05/2025-05-20.md"); }));
    CHECK(notifier.watches() >= 6);
}

TEST_CASE("serve: watches by inotify unless --poll-interval is given; a burst of saves is one rebuild") {
    Site site;
    ServeProcess serve(site.dir.path(), {"serve", "--port", "0"});
    REQUIRE_MESSAGE(serve.wait_for_port() > 0, serve.err());
    CHECK(serve.out().find("paperpress.yaml (by inotify)") != std::string::npos);
    auto builds = [&] {
        std::size_t count = 0;
        for (auto at = serve.out().find("build: "); at != std::string::npos; at = serve.out().find("build: ", at + 1))
            ++count;
        return count;
    };
    const std::size_t first = builds();
    // An editor's save: a backup, the new bytes in a temp file, a rename, a touch.
    const fs::path file = site.content() / "2025/05/2025-05-20.md";
    const std::string text = read_text(file);
    fs::copy_file(file, fs::path(file.string() + "~"));
    write_text(fs::path(file.string() + ".tmp.1"), text + "\n");
    fs::rename(fs::path(file.string() + ".tmp.1"), file);
    fs::last_write_time(file, fs::file_time_type::clock::now());
    fs::remove(fs::path(file.string() + "~"));
    CHECK(eventually([&] { return builds() == first + 1; }));
    std::this_thread::sleep_for(700ms);
    CHECK(builds() == first + 1);
    CHECK(serve.stop() == 0);

    ServeProcess polling(site.dir.path(), {"serve", "--port", "0", "--poll-interval", "50"});
    REQUIRE_MESSAGE(polling.wait_for_port() > 0, polling.err());
    CHECK(polling.out().find("paperpress.yaml (every 50 ms)") != std::string::npos);
    CHECK(polling.stop() == 0);
}

TEST_CASE("serve: builds, serves, reloads after edits and survives a broken layout") {
    Site site;
    ServeProcess serve(site.dir.path(), {"serve", "--port", "0"});
    const int port = serve.wait_for_port();
    REQUIRE_MESSAGE(port > 0, "no Serving line; stdout:\n" << serve.out() << "\nstderr:\n" << serve.err());
    const std::string base = "http://127.0.0.1:" + std::to_string(port) + "/";
    httplib::Client client("127.0.0.1", port);
    client.set_connection_timeout(5);
    client.set_read_timeout(10);
    const fs::path built = site.dir / ".cache/serve/site";
    auto logged = [&](const std::string& text) {
        return eventually([&] { return serve.out().find(text) != std::string::npos; });
    };

    SUBCASE("pages, 404, redirects, content types, traversal") {
        auto home = client.Get("/");
        REQUIRE(home);
        CHECK(home->status == 200);
        CHECK(home->get_header_value("Content-Type") == "text/html; charset=utf-8");
        CHECK(home->body.find("Serve digest") != std::string::npos);
        CHECK(home->body.find("/__paperpress/events") != std::string::npos);

        auto page = client.Get("/2025/05/20/");
        REQUIRE(page);
        CHECK(page->status == 200);
        CHECK(page->body.find("Original flow title") != std::string::npos);
        // The script is added before </body>, to exactly the bytes on disk.
        const std::string on_disk = read_text(built / "2025/05/20/index.html");
        CHECK(on_disk.find("__paperpress") == std::string::npos);
        CHECK(page->body == inject_before_body_end(on_disk, live_reload_snippet(token_in(page->body), "")));
        CHECK(!token_in(page->body).empty());

        auto folder = client.Get("/2025/05/20");
        REQUIRE(folder);
        CHECK(folder->status == 301);
        CHECK(folder->get_header_value("Location") == "/2025/05/20/");

        auto missing = client.Get("/2031/01/01/");
        REQUIRE(missing);
        CHECK(missing->status == 404);
        CHECK(missing->body.find("Page not found") != std::string::npos);
        CHECK(missing->body.find("/__paperpress/events") != std::string::npos);
        CHECK(missing->body ==
              inject_before_body_end(read_text(built / "404.html"), live_reload_snippet(token_in(missing->body), "")));

        auto css = client.Get("/static/style.css");
        REQUIRE(css);
        CHECK(css->status == 200);
        CHECK(css->get_header_value("Content-Type") == "text/css; charset=utf-8");
        CHECK(css->body == read_text(built / "static/style.css"));
        auto feed = client.Get("/feed.xml");
        REQUIRE(feed);
        CHECK(feed->get_header_value("Content-Type") == "application/xml");
        CHECK(feed->body == read_text(built / "feed.xml"));
        CHECK(feed->body.find(base + "2025/05/20/") != std::string::npos);
        auto json = client.Get("/data/index.json");
        REQUIRE(json);
        CHECK(json->get_header_value("Content-Type") == "application/json");

        for (const char* attack : {"/../paperpress.yaml", "/%2e%2e/paperpress.yaml", "/2025/../../paperpress.yaml",
                                   "/..%2fpaperpress.yaml", "/../../../../etc/passwd"}) {
            CAPTURE(attack);
            auto refused = client.Get(attack);
            REQUIRE(refused);
            CHECK(refused->status == 403);
            CHECK(refused->body.find("Serve digest") == std::string::npos);
        }
    }

    SUBCASE("the output on disk is a normal build for the same base URL") {
        auto built_here = run_paperpress("build --out plain --base-url " + base, site.dir.path());
        REQUIRE_MESSAGE(built_here.exit_code == 0, built_here.err);
        const auto served = tree_of(built);
        const auto plain = tree_of(site.dir / "plain");
        CHECK(served.size() == plain.size());
        CHECK(served.size() > 10);
        for (const auto& [path, bytes] : plain) {
            CAPTURE(path);
            auto it = served.find(path);
            REQUIRE(it != served.end());
            CHECK(it->second == bytes);
            CHECK(bytes.find("__paperpress") == std::string::npos);
        }
        CHECK(!fs::exists(site.dir / "site")); // never the published folder
    }

    SUBCASE("the event stream sends the page's token, then a new one after a build") {
        auto page = client.Get("/2025/05/21/");
        REQUIRE(page);
        const std::string token = token_in(page->body);
        REQUIRE(!token.empty());

        std::vector<std::string> events;
        std::thread editor([&] {
            std::this_thread::sleep_for(500ms);
            REQUIRE(save_day(site.content(), day("2025-05-21", {paper("2505.00003", "Edited while listening")})));
        });
        httplib::Client listener("127.0.0.1", port);
        listener.set_read_timeout(20);
        std::string buffer;
        listener.Get("/__paperpress/events", [&](const char* data, std::size_t size) {
            buffer.append(data, size);
            std::size_t end;
            while ((end = buffer.find("\n\n")) != std::string::npos) {
                const std::string event = buffer.substr(0, end);
                buffer.erase(0, end + 2);
                auto at = event.find("data: ");
                if (at != std::string::npos) events.push_back(event.substr(at + 6));
            }
            return events.size() < 2;
        });
        editor.join();
        REQUIRE(events.size() == 2);
        CHECK(events[0] == token);
        CHECK(events[1] != token);
        auto reloaded = client.Get("/2025/05/21/");
        REQUIRE(reloaded);
        CHECK(token_in(reloaded->body) == events[1]);
        CHECK(reloaded->body.find("Edited while listening") != std::string::npos);
    }

    SUBCASE("an edited day file is rebuilt and served within seconds") {
        const std::string before = token_in(client.Get("/2025/05/20/")->body);
        REQUIRE(save_day(site.content(), day("2025-05-20", {paper("2505.00001", "Renamed flow title"),
                                                            paper("2505.00002", "Second paper")})));
        // The new page can be served a moment before the build finishes and
        // its token changes (the page then reloads once more): wait for both.
        std::string body;
        CHECK(eventually(
            [&] {
                auto page = client.Get("/2025/05/20/");
                body = page ? page->body : "";
                return body.find("Renamed flow title") != std::string::npos && token_in(body) != before;
            },
            10s));
        CHECK(body.find("Original flow title") == std::string::npos);
        CHECK(logged("modified content/2025/05/2025-05-20.md"));
        CHECK(serve.out().find("build: ", serve.out().find("modified content/")) != std::string::npos);

        // A deleted day's page goes away.
        fs::remove(site.content() / "2025/05/2025-05-21.md");
        CHECK(eventually([&] {
            auto page = client.Get("/2025/05/21/");
            return page && page->status == 404;
        }));
        CHECK(logged("removed content/2025/05/2025-05-21.md"));
    }

    SUBCASE("a mustache syntax error is logged with its file; the server keeps answering") {
        write_text(site.dir / "layouts/day.mustache", "{{> head}}\n{{#day}}\n<h1>unclosed section</h1>\n{{> foot}}\n");
        CHECK(eventually([&] { return serve.err().find("layouts/day.mustache") != std::string::npos; }));
        CHECK(serve.err().find("error: ") != std::string::npos);

        auto page = client.Get("/2025/05/20/");
        REQUIRE(page);
        CHECK(page->status == 200);
        CHECK(page->body.find("Original flow title") != std::string::npos); // the last good build
        CHECK(page->body.find("paperpress-build-error") != std::string::npos);
        CHECK(page->body.find("layouts/day.mustache") != std::string::npos);
        CHECK(read_text(built / "2025/05/20/index.html").find("paperpress-build-error") == std::string::npos);

        // Fixed: the overlay goes away.
        fs::remove(site.dir / "layouts/day.mustache");
        CHECK(eventually([&] {
            auto fixed = client.Get("/2025/05/20/");
            return fixed && fixed->status == 200 && fixed->body.find("paperpress-build-error") == std::string::npos;
        }));
    }

    SUBCASE("a config change rebuilds every page") {
        write_text(site.dir / "paperpress.yaml", "title: Renamed digest\n");
        CHECK(eventually([&] {
            auto page = client.Get("/2025/05/21/");
            return page && page->body.find("Renamed digest") != std::string::npos;
        }));
        // The preview keeps its own base URL whatever the config says.
        write_text(site.dir / "paperpress.yaml", "title: Renamed digest\nbase_url: https://example.org/repo/\n");
        CHECK(logged("modified paperpress.yaml"));
        CHECK(eventually([&] {
            auto feed = client.Get("/feed.xml");
            return feed && feed->body.find(base + "2025/05/20/") != std::string::npos &&
                   feed->body.find("example.org") == std::string::npos &&
                   serve.out().rfind("build: ") > serve.out().find("modified paperpress.yaml");
        }));
    }

    CHECK(serve.stop(SIGTERM) == 0);
    CHECK(serve.out().find("serve: stopping (SIGTERM)") != std::string::npos);
}

TEST_CASE("serve: SIGINT stops it too, and --no-watch serves without rebuilding") {
    Site site;
    // Checks for edits every 10 ms if it (wrongly) watched: 500 ms is time to notice and rebuild.
    ServeProcess serve(site.dir.path(),
                       {"serve", "--port", "0", "--no-watch", "--out", "preview", "--poll-interval", "10"});
    const int port = serve.wait_for_port();
    REQUIRE_MESSAGE(port > 0, serve.err());
    CHECK(fs::exists(site.dir / "preview/index.html"));
    CHECK(serve.out().find("watching") == std::string::npos);
    REQUIRE(save_day(site.content(), day("2025-05-20", {paper("2505.00001", "Not picked up")})));
    std::this_thread::sleep_for(500ms);
    httplib::Client client("127.0.0.1", port);
    auto page = client.Get("/2025/05/20/");
    REQUIRE(page);
    CHECK(page->body.find("Original flow title") != std::string::npos);
    CHECK(serve.stop(SIGINT) == 0);
    CHECK(serve.out().find("serve: stopping (SIGINT)") != std::string::npos);
}

TEST_CASE("serve: a port in use is an error; a non-loopback host is warned about") {
    Site site;
    LoopbackServer taken;
    taken.start();
    const std::string url = taken.url();
    const std::string port = url.substr(url.rfind(':') + 1);
    auto busy = run_paperpress("serve --no-watch --port " + port, site.dir.path());
    CHECK(busy.exit_code == 1);
    CHECK(busy.err.find("cannot listen on 127.0.0.1:" + port) != std::string::npos);

    auto bad = run_paperpress("serve --port 70000", site.dir.path());
    CHECK(bad.exit_code == 2);
    auto help = run_paperpress("serve --help", site.dir.path());
    CHECK(help.exit_code == 0);
    for (const char* option : {"--port", "--host", "--out", "--no-watch", "--poll-interval", "--content", "--config"})
        CHECK_MESSAGE(help.out.find(option) != std::string::npos, option);

    ServeProcess open(site.dir.path(), {"serve", "--port", "0", "--host", "0.0.0.0", "--no-watch"});
    CHECK(open.wait_for_port() > 0);
    CHECK(open.err().find("warning: --host 0.0.0.0") != std::string::npos);
    CHECK(open.stop() == 0);
}

namespace {

// One raw HTTP exchange on a fresh connection: the whole reply, read to its close.
std::string raw_exchange(int port, const std::string& request) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) return {};
    timeval timeout{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    (void)::write(fd, request.data(), request.size());
    std::string reply;
    char buffer[65536];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) reply.append(buffer, static_cast<size_t>(n));
    ::close(fd);
    return reply;
}

std::string get_with(int port, const std::string& headers) {
    return raw_exchange(port, "GET /data.bin HTTP/1.1\r\n" + headers + "Connection: close\r\n\r\n");
}

} // namespace

TEST_CASE("serve: bound to loopback, only loopback Host names are answered (DNS rebinding)") {
    CHECK(loopback_host_header("localhost"));
    CHECK(loopback_host_header("LOCALHOST:8000"));
    CHECK(loopback_host_header("127.0.0.1:65535"));
    CHECK(loopback_host_header("[::1]:8000"));
    CHECK(loopback_host_header("[::1]"));
    CHECK_FALSE(loopback_host_header("evil.example"));
    CHECK_FALSE(loopback_host_header("evil.example:8000"));
    CHECK_FALSE(loopback_host_header("localhost.evil.example"));
    CHECK_FALSE(loopback_host_header("127.0.0.1.evil.example"));
    CHECK_FALSE(loopback_host_header("localhost:80x"));
    CHECK_FALSE(loopback_host_header(""));

    TempDir dir;
    write_text(dir / "site/data.bin", "0123456789");
    PreviewServer server(dir / "site");
    auto port = server.bind("127.0.0.1", 0);
    REQUIRE(port);
    server.start();
    const std::string good = get_with(*port, "Host: 127.0.0.1:" + std::to_string(*port) + "\r\n");
    CHECK(good.starts_with("HTTP/1.1 200"));
    CHECK(good.ends_with("0123456789"));
    CHECK(get_with(*port, "Host: localhost:" + std::to_string(*port) + "\r\n").starts_with("HTTP/1.1 200"));
    const std::string rebound = get_with(*port, "Host: evil.example:" + std::to_string(*port) + "\r\n");
    CHECK(rebound.starts_with("HTTP/1.1 403"));
    CHECK(rebound.find("0123456789") == std::string::npos);
    CHECK(get_with(*port, "").starts_with("HTTP/1.1 403")); // no Host at all
    server.stop();
}

TEST_CASE("serve: one byte range per request; a request for many ranges is refused, not amplified") {
    TempDir dir;
    write_text(dir / "site/data.bin", std::string(100000, 'z'));
    PreviewServer server(dir / "site");
    auto port = server.bind("127.0.0.1", 0);
    REQUIRE(port);
    server.start();
    const std::string host = "Host: 127.0.0.1\r\n";
    const std::string one = get_with(*port, host + "Range: bytes=10-19\r\n");
    INFO(one.substr(0, 300));
    CHECK(one.starts_with("HTTP/1.1 206"));
    CHECK(one.ends_with("\r\n\r\nzzzzzzzzzz"));
    CHECK(one.find("Content-Range: bytes 10-19/100000") != std::string::npos);
    std::string ranges = "Range: bytes=0-";
    for (int i = 0; i < 2500; ++i) ranges += ",0-";
    const std::string many = get_with(*port, host + ranges + "\r\n");
    INFO(many.substr(0, 300));
    CHECK(many.starts_with("HTTP/1.1 416"));
    CHECK(many.size() < 1000);
    CHECK(get_with(*port, host + "Range: bytes=0-1,5-6\r\n").starts_with("HTTP/1.1 416"));
    const std::string rebound = get_with(*port, "Host: evil.example\r\n" + ranges + "\r\n");
    CHECK(rebound.starts_with("HTTP/1.1 416"));
    CHECK(rebound.size() < 1000); // a refused Host is not amplified either
    server.stop();
}

namespace {

int connect_to(int port) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Has the server closed `fd`? Reads (and drops) what it sent; waits up to `limit`.
bool closed_by_server(int fd, std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    char buffer[4096];
    do { // at least one look, however short the limit
        pollfd entry{fd, POLLIN, 0};
        if (::poll(&entry, 1, 20) <= 0) continue;
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) return true;
    } while (std::chrono::steady_clock::now() < until);
    return false;
}

// Clients that send a request a header line at a time (slowloris), every
// `interval`, from their own thread, until destroyed.
class SlowClients {
public:
    SlowClients(int port, int count, std::chrono::milliseconds interval) {
        for (int i = 0; i < count; ++i) {
            const int fd = connect_to(port);
            REQUIRE(fd >= 0);
            const std::string line = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n";
            (void)::send(fd, line.data(), line.size(), MSG_NOSIGNAL);
            sockets_.push_back(fd);
        }
        opened_ = std::chrono::steady_clock::now();
        thread_ = std::thread([this, interval] {
            for (int n = 0; !stop_; ++n) {
                std::unique_lock lock(mutex_);
                if (wake_.wait_for(lock, interval, [&] { return stop_; })) break;
                const std::string line = "X-Slow-" + std::to_string(n) + ": 1\r\n";
                for (int fd : sockets_) (void)::send(fd, line.data(), line.size(), MSG_NOSIGNAL);
            }
        });
    }
    ~SlowClients() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        thread_.join();
        for (int fd : sockets_) ::close(fd);
    }
    const std::vector<int>& sockets() const { return sockets_; }
    std::chrono::steady_clock::time_point opened() const { return opened_; }

private:
    std::vector<int> sockets_;
    std::chrono::steady_clock::time_point opened_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    std::thread thread_;
};

std::chrono::milliseconds since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
}

} // namespace

TEST_CASE("serve: slow clients (a header line a second) never keep a new client waiting, and are cut at the deadline") {
    TempDir dir;
    write_text(dir / "site/index.html", "<html><body>home</body></html>");
    PreviewServerOptions options;
    options.request_deadline = 3s;
    PreviewServer server(dir / "site", {}, options);
    auto port = server.bind("127.0.0.1", 0);
    REQUIRE(port);
    server.start();

    SUBCASE("more slow clients than the server has threads") {
        SlowClients slow(*port, 64, 1s);
        std::this_thread::sleep_for(1500ms); // each has sent a header line since
        httplib::Client client("127.0.0.1", *port);
        client.set_connection_timeout(5, 0);
        client.set_read_timeout(5, 0);
        for (int i = 0; i < 3; ++i) {
            const auto start = std::chrono::steady_clock::now();
            auto page = client.Get("/");
            REQUIRE(page);
            CHECK(page->status == 200);
            CHECK(page->body.find("home") != std::string::npos);
            CHECK(since(start) < 1000ms);
        }
        // Every slow client is closed by the deadline (some before it, to make room).
        for (int fd : slow.sockets()) CHECK(closed_by_server(fd, 3s + 1500ms - since(slow.opened())));
        CHECK(since(slow.opened()) < 3s + 1500ms);
    }

    SUBCASE("a few slow clients: closed at the deadline, not before") {
        SlowClients slow(*port, 4, 1s);
        for (int fd : slow.sockets()) CHECK_FALSE(closed_by_server(fd, 2500ms - since(slow.opened())));
        for (int fd : slow.sockets()) CHECK(closed_by_server(fd, 4500ms - since(slow.opened())));
    }

    SUBCASE("a header line that never ends is cut after 64 KiB, not read for the whole deadline") {
        const int fd = connect_to(*port);
        REQUIRE(fd >= 0);
        const auto start = std::chrono::steady_clock::now();
        const std::string line = "GET /" + std::string(1 << 20, 'a');
        (void)::send(fd, line.data(), line.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        CHECK(closed_by_server(fd, 2s));
        CHECK(since(start) < 2s);
        ::close(fd);
    }
    server.stop();
}

TEST_CASE("serve: clients that do not read their replies never keep a new client waiting") {
    TempDir dir;
    write_text(dir / "site/index.html", "<html><body>home</body></html>");
    {
        const int fd = ::open((dir / "site/big.bin").c_str(), O_WRONLY | O_CREAT, 0644);
        REQUIRE(fd >= 0);
        REQUIRE(::ftruncate(fd, 64 << 20) == 0); // sparse: 64 MiB of zeros
        ::close(fd);
    }
    PreviewServer server(dir / "site"); // as shipped: 10 s for a request, 5 s for each write
    auto port = server.bind("127.0.0.1", 0);
    REQUIRE(port);
    server.start();
    // A reader for each of the server's threads, each asking for the big file and reading none of it.
    std::vector<int> readers;
    for (int i = 0; i < server_threads; ++i) {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        int small = 4096;
        ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(static_cast<std::uint16_t>(*port));
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
        const std::string request = "GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        REQUIRE(::send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size()));
        readers.push_back(fd);
    }
    // Every thread is sending a reply (each reader has its first bytes), however
    // loaded the machine: a new client then finds none idle.
    for (int fd : readers) {
        pollfd entry{fd, POLLIN, 0};
        REQUIRE(::poll(&entry, 1, 30000) == 1);
    }
    httplib::Client client("127.0.0.1", *port);
    client.set_read_timeout(30, 0); // a late answer is measured below, not lost
    const auto start = std::chrono::steady_clock::now();
    auto page = client.Get("/");
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(since(start) < 1000ms); // not after a write's 5 s timeout
    // Nor do they hold up a stop.
    const auto stopping = std::chrono::steady_clock::now();
    server.stop();
    CHECK(since(stopping) < 2000ms);
    for (int fd : readers) ::close(fd);
}

TEST_CASE("serve: a missing page gets the site's 404.html only when it is inside the folder") {
    TempDir dir;
    write_text(dir / "site/index.html", "<html><body>home</body></html>");
    write_text(dir / "secret.html", "<html><body>SECRET beside the site</body></html>");
    fs::create_symlink(dir / "secret.html", dir / "site/404.html");
    PreviewServer server(dir / "site");
    auto port = server.bind("127.0.0.1", 0);
    REQUIRE(port);
    server.start();
    auto missing = [&] {
        return raw_exchange(*port, "GET /2031/01/01/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    };
    const std::string linked = missing();
    INFO(linked);
    CHECK(linked.starts_with("HTTP/1.1 404"));
    CHECK(linked.find("SECRET") == std::string::npos);
    CHECK(linked.find("404 Not Found") != std::string::npos); // the server's own page instead

    fs::remove(dir / "site/404.html");
    write_text(dir / "site/404.html", "<html><body>The site's own 404</body></html>");
    const std::string own = missing();
    CHECK(own.starts_with("HTTP/1.1 404"));
    CHECK(own.find("The site's own 404") != std::string::npos);
    server.stop();
}

TEST_CASE("serve: a closed page gives its live-reload stream up at once (160 pages opened and closed in turn)") {
    TempDir dir;
    write_text(dir / "site/index.html", "<html><body>home</body></html>");
    PreviewServer server(dir / "site");
    auto port = server.bind("127.0.0.1", 0);
    REQUIRE(port);
    server.start();
    // A page's stream: the reply up to its first event (or all of a refusal), then the page closes it.
    auto open_and_close = [&] {
        const int fd = connect_to(*port);
        if (fd < 0) return std::string();
        timeval timeout{5, 0};
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        const std::string request = "GET " + std::string(events_path) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        (void)::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
        std::string reply;
        char buffer[4096];
        for (ssize_t n; reply.find("\n\n", reply.find("data: ")) == std::string::npos &&
                        (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;)
            reply.append(buffer, static_cast<std::size_t>(n));
        ::close(fd);
        return reply;
    };
    for (int page = 0; page < 5 * max_event_streams; ++page) {
        CAPTURE(page);
        // The last page's close is seen at once, not at the stream's next write (15 s):
        // a refusal is tried again for 2 s at most.
        const auto start = std::chrono::steady_clock::now();
        std::string reply = open_and_close();
        while (reply.starts_with("HTTP/1.1 503") && since(start) < 2s) {
            std::this_thread::sleep_for(10ms);
            reply = open_and_close();
        }
        INFO(reply.substr(0, 200));
        REQUIRE(reply.starts_with("HTTP/1.1 200"));
        CHECK(reply.find("data: " + server.token() + "\n\n") != std::string::npos);
    }
    server.stop();
}

TEST_CASE("serve: a page whose live-reload stream was refused (503) asks again later") {
    // EventSource does not retry a refusal itself (WHATWG HTML, server-sent
    // events: a failed connection is CLOSED for good); the script must.
    const std::string snippet = live_reload_snippet("17-3", "");
    CHECK(snippet.find("s.onerror=function(){if(s.readyState===2){setTimeout(c,w);") != std::string::npos);
    CHECK(snippet.find("(function c(){var s=new EventSource(") != std::string::npos);
}

TEST_CASE("serve: byte ranges follow RFC 9110 for one range") {
    using Kind = ByteRange::Kind;
    auto part = [](std::uint64_t offset, std::uint64_t length) { return std::pair{offset, length}; };
    auto of = [](const ByteRange& range) { return std::pair{range.offset, range.length}; };
    CHECK(byte_range_for("", 100).kind == Kind::whole);
    CHECK(byte_range_for("items=0-5", 100).kind == Kind::whole);
    CHECK(byte_range_for("bytes=10-19", 100).kind == Kind::part);
    CHECK(of(byte_range_for("bytes=10-19", 100)) == part(10, 10));
    CHECK(of(byte_range_for("bytes=90-", 100)) == part(90, 10));
    CHECK(of(byte_range_for("bytes=90-500", 100)) == part(90, 10));
    CHECK(of(byte_range_for("bytes=-5", 100)) == part(95, 5));
    CHECK(of(byte_range_for("bytes=-500", 100)) == part(0, 100));
    CHECK(byte_range_for("bytes=100-", 100).kind == Kind::unsatisfiable);
    CHECK(byte_range_for("bytes=99999999999999999999999-", 100).kind == Kind::unsatisfiable);
    CHECK(byte_range_for("bytes=-0", 100).kind == Kind::unsatisfiable);
    CHECK(byte_range_for("bytes=0-,0-", 100).kind == Kind::unsatisfiable);
    CHECK(byte_range_for("bytes=19-10", 100).kind == Kind::whole); // invalid: ignored
    CHECK(byte_range_for("bytes=x-1", 100).kind == Kind::whole);
}

TEST_CASE("serve: a range of a big file is read from the file (a 1 GiB file, sparse)") {
    TempDir dir;
    const fs::path file = dir / "site/video.bin";
    write_text(file, "");
    const std::uint64_t size = 1ull << 30;
    const std::uint64_t at = 900'000'000;
    {
        const int fd = ::open(file.c_str(), O_WRONLY);
        REQUIRE(fd >= 0);
        REQUIRE(::ftruncate(fd, static_cast<off_t>(size)) == 0);
        REQUIRE(::pwrite(fd, "MARKER", 6, static_cast<off_t>(at)) == 6);
        ::close(fd);
    }
    PreviewServer server(dir / "site");
    auto port = server.bind("127.0.0.1", 0);
    REQUIRE(port);
    server.start();
    const std::string host = "Host: 127.0.0.1\r\n";
    auto exchange = [&](const std::string& range) {
        return raw_exchange(*port, "GET /video.bin HTTP/1.1\r\n" + host + range + "Connection: close\r\n\r\n");
    };
    const std::string middle =
        exchange("Range: bytes=" + std::to_string(at - 2) + "-" + std::to_string(at + 7) + "\r\n");
    INFO(middle.substr(0, 300));
    CHECK(middle.starts_with("HTTP/1.1 206"));
    CHECK(middle.find("Content-Range: bytes 899999998-900000007/1073741824\r\n") != std::string::npos);
    CHECK(middle.find("Content-Length: 10\r\n") != std::string::npos);
    CHECK(middle.find("Accept-Ranges: bytes\r\n") != std::string::npos);
    CHECK(middle.ends_with(std::string("\r\n\r\n") + '\0' + '\0' + "MARKER" + '\0' + '\0'));
    const std::string tail = exchange("Range: bytes=-3\r\n");
    CHECK(tail.starts_with("HTTP/1.1 206"));
    CHECK(tail.find("Content-Range: bytes 1073741821-1073741823/1073741824\r\n") != std::string::npos);
    const std::string beyond = exchange("Range: bytes=1073741824-\r\n");
    CHECK(beyond.starts_with("HTTP/1.1 416"));
    CHECK(beyond.find("Content-Range: bytes */1073741824\r\n") != std::string::npos);
    std::string ranges = "Range: bytes=0-";
    for (int i = 0; i < 2500; ++i) ranges += ",0-";
    const std::string many = exchange(ranges + "\r\n");
    CHECK(many.starts_with("HTTP/1.1 416"));
    CHECK(many.size() < 1000);
    server.stop();
}
