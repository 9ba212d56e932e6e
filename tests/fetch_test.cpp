// fetch: arXiv's feed and API parsers, and the polite HTTP client against
// real HTTP servers on loopback.
#include "config/arxiv_dates.h"
#include "core/arxiv_calendar.h"
#include "fetch/arxiv_feed.h"
#include "fetch/arxiv_source.h"
#include "fetch/curl_library.h"
#include "fetch/http_client.h"
#include "score/author_match.h"
#include "test_support.h"
#include "util/redact.h"
#include "util/text.h"

#include <doctest/doctest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <set>

using namespace pp;
using namespace pp::test;
using namespace std::chrono_literals;

namespace {

std::string rss_item(const std::string& id, const std::string& type, const std::string& primary,
                     const std::string& title = "A title") {
    return "<item><title>" + title + "</title><link>https://arxiv.org/abs/" + id +
           "</link>"
           "<description>arXiv:" +
           id + "v1 Announce Type: " + type + " \nAbstract: About " + id +
           ".</description>"
           "<guid isPermaLink=\"false\">oai:arXiv.org:" +
           id + "v1</guid><category>" + primary +
           "</category>"
           "<arxiv:announce_type>" +
           type +
           "</arxiv:announce_type>"
           "<dc:creator>Lenka Zdeborov\\'a, Ann Other</dc:creator></item>";
}

std::string rss(const std::string& items, const std::string& pub_date = "Wed, 28 May 2025 00:00:00 -0400") {
    return "<?xml version=\"1.0\"?><rss xmlns:arxiv=\"http://arxiv.org/schemas/atom\" "
           "xmlns:dc=\"http://purl.org/dc/elements/1.1/\" version=\"2.0\"><channel><title>cs.LG updates</title>" +
           (pub_date.empty() ? std::string() : "<pubDate>" + pub_date + "</pubDate>") + items + "</channel></rss>";
}

std::string api_entry(const std::string& id) {
    return "<entry><id>http://arxiv.org/abs/" + id + "v2</id><title>Title\n  of " + id +
           "</title><summary>  Abstract of " + id +
           ".\n</summary><author><name>A. Author</name></author><author><name>B. Author</name></author>"
           "<arxiv:primary_category term=\"cs.LG\"/><category term=\"cs.LG\"/><category term=\"stat.ML\"/></entry>";
}

std::string api_page(long long total, const std::vector<std::string>& ids) {
    std::string entries;
    for (const auto& id : ids) entries += api_entry(id);
    return "<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\" "
           "xmlns:opensearch=\"http://a9.com/-/spec/opensearch/1.1/\" xmlns:arxiv=\"http://arxiv.org/schemas/atom\">"
           "<opensearch:totalResults>" +
           std::to_string(total) + "</opensearch:totalResults>" + entries + "</feed>";
}

HttpOptions quick_options() {
    HttpOptions options;
    options.backoff = std::chrono::milliseconds(20);
    options.timeout = std::chrono::seconds(5);
    return options;
}

} // namespace

TEST_CASE("the RSS feed gives the announcement date and clean papers") {
    auto feed = parse_rss_feed(
        rss(rss_item("2505.21073", "new", "cs.LG") + rss_item("hep-th/9901001", "cross", "stat.ML")), "feed");
    REQUIRE_MESSAGE(feed.has_value(), feed.error().to_string());
    CHECK(feed->date->iso() == "2025-05-28");
    REQUIRE(feed->entries.size() == 2);
    const auto& first = feed->entries[0];
    CHECK(first.paper.id == "2505.21073");
    CHECK(first.paper.abstract == "About 2505.21073.");
    CHECK(first.paper.authors == std::vector<std::string>{"Lenka Zdeborov\\'a", "Ann Other"});
    CHECK(first.announce_type == "new");
    CHECK(feed->entries[1].paper.id == "hep-th/9901001");
    CHECK(feed->entries[1].categories == std::vector<std::string>{"stat.ML"});
}

TEST_CASE("the shipped sample announcement parses whole") {
    auto feed = ArxivSource::read_feed_file(source_dir() / "samples/arxiv-feed.xml");
    REQUIRE_MESSAGE(feed.has_value(), feed.error().to_string());
    CHECK(feed->date->iso() == "2025-05-28");
    CHECK(feed->entries.size() == 78);
    std::set<std::string> ids;
    for (const auto& e : feed->entries) {
        ids.insert(e.paper.id);
        CHECK_FALSE(e.paper.abstract.starts_with("arXiv:"));
        CHECK_FALSE(e.paper.title.empty());
        CHECK_FALSE(e.paper.authors.empty());
    }
    CHECK(ids.size() == 78);
}

TEST_CASE("an empty weekend feed is an announcement of nothing; broken feeds are errors") {
    auto weekend = parse_rss_feed(rss("", "Sat, 31 May 2025 00:00:00 -0400"), "feed");
    REQUIRE(weekend.has_value());
    CHECK(weekend->entries.empty());

    auto malformed = parse_rss_feed("<rss><channel>\n<item><title>x</item>", "https://rss.arxiv.org/rss/cs.LG");
    REQUIRE_FALSE(malformed.has_value());
    CHECK(malformed.error().to_string().starts_with("https://rss.arxiv.org/rss/cs.LG:2: malformed XML"));

    auto error_feed = parse_rss_feed("<rss><channel><title>Feed error for query cs.XX</title></channel></rss>", "feed");
    REQUIRE_FALSE(error_feed.has_value());
    CHECK(error_feed.error().message.find("error feed") != std::string::npos);

    auto html = parse_rss_feed("<html><body>Rate exceeded</body></html>", "feed");
    REQUIRE_FALSE(html.has_value());
    CHECK(html.error().message.find("expected an RSS 2.0 document") != std::string::npos);
}

TEST_CASE("API pages: IDs lose versions, titles are tidied, errors are reported") {
    auto page = parse_api_page(api_page(12, {"2505.00001", "math.CA/0611800"}), "api");
    REQUIRE_MESSAGE(page.has_value(), page.error().to_string());
    CHECK(page->total_results == 12);
    REQUIRE(page->entries.size() == 2);
    CHECK(page->entries[0].paper.id == "2505.00001");
    CHECK(page->entries[0].paper.title == "Title of 2505.00001");
    CHECK(page->entries[0].paper.abstract == "Abstract of 2505.00001.");
    CHECK(page->entries[0].paper.authors.size() == 2);
    CHECK(page->entries[1].paper.id == "math.CA/0611800");
    auto error =
        parse_api_page("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>http://arxiv.org/api/errors#x</id>"
                       "<title>Error</title><summary>start must be an integer</summary></entry></feed>",
                       "api");
    REQUIRE_FALSE(error.has_value());
    CHECK(error.error().message.find("start must be an integer") != std::string::npos);
}

// arXiv's feed writes each author in dc:creator as "Name (Affiliation, Affiliation)" and joins
// the authors with ", " (github.com/arXiv/arxiv-feed, feed/serializers/extensions.py,
// ArxivEntryExtension.__add_authors); the export API gives <name> and one <arxiv:affiliation> each.
TEST_CASE("a paper has the same authors from the feed and the API, and a followed author matches by name") {
    const std::string creator = "Kaiming He (MIT, CSAIL), Ross Girshick, Wei (David) Zhang, "
                                "A. Smith (Inst. of Tech. (IIT) Delhi), Yixuan Zhang (Lucy)";
    std::string item = rss_item("2505.21073", "new", "cs.LG");
    item.replace(item.find("Lenka"), std::string("Lenka Zdeborov\\'a, Ann Other").size(), creator);
    auto feed = parse_rss_feed(rss(item), "feed");
    REQUIRE_MESSAGE(feed.has_value(), feed.error().to_string());

    auto author = [](const std::string& name, const std::vector<std::string>& affiliations) {
        std::string xml = "<author><name>" + name + "</name>";
        for (const auto& a : affiliations) xml += "<arxiv:affiliation>" + a + "</arxiv:affiliation>";
        return xml + "</author>";
    };
    std::string entry = api_entry("2505.21073");
    const std::string api_authors = "<author><name>A. Author</name></author><author><name>B. Author</name></author>";
    entry.replace(entry.find(api_authors), api_authors.size(),
                  author("Kaiming He", {"MIT", "CSAIL"}) + author("Ross Girshick", {}) +
                      author("Wei (David) Zhang", {}) + author("A. Smith", {"Inst. of Tech. (IIT) Delhi"}) +
                      author("Yixuan Zhang (Lucy)", {}));
    std::string xml = api_page(1, {});
    xml.insert(xml.find("</feed>"), entry);
    auto page = parse_api_page(xml, "api");
    REQUIRE_MESSAGE(page.has_value(), page.error().to_string());
    REQUIRE(page->entries.size() == 1);

    const Paper& from_feed = feed->entries[0].paper;
    const Paper& from_api = page->entries[0].paper;
    CHECK(from_feed.authors == std::vector<std::string>{"Kaiming He (MIT, CSAIL)", "Ross Girshick", "Wei (David) Zhang",
                                                        "A. Smith (Inst. of Tech. (IIT) Delhi)",
                                                        "Yixuan Zhang (Lucy)"});
    CHECK(from_api.authors == from_feed.authors);

    // The name is what a follow list holds; parentheses inside a name stay in it.
    const AuthorMatcher followed({"Kaiming He", "A. Smith", "Wei (David) Zhang", "Yixuan Zhang"});
    const std::vector<std::string> names{"Kaiming He", "Wei (David) Zhang", "A. Smith", "Yixuan Zhang"};
    CHECK(followed.matches(from_feed) == names);
    CHECK(followed.matches(from_api) == names);
    CHECK(AuthorMatcher({"Ross Girshick (FAIR)"}).matches(from_feed) == std::vector<std::string>{"Ross Girshick"});
    CHECK(AuthorMatcher({"MIT"}).matches(from_feed).empty());
}

TEST_CASE("an author splits into the name and the parenthesized affiliations that end it") {
    auto parts = [](const char* author) {
        AuthorParts p = split_author(author);
        return p.name + "|" + p.affiliations;
    };
    CHECK(parts("Kaiming He (MIT, CSAIL)") == "Kaiming He|MIT, CSAIL");
    CHECK(parts("  Kaiming He  ") == "Kaiming He|");
    CHECK(parts("A. Smith (Inst. (IIT) Delhi)") == "A. Smith|Inst. (IIT) Delhi");
    CHECK(parts("Wei (David) Zhang") == "Wei (David) Zhang|");
    CHECK(parts("Wei (David) Zhang (MIT)") == "Wei (David) Zhang|MIT");
    CHECK(parts("(Anonymous)") == "(Anonymous)|");
    CHECK(parts("Smith (MIT") == "Smith (MIT|");
    CHECK(parts("Smith MIT)") == "Smith MIT)|");
    CHECK(parts("") == "|");
    CHECK(feed_author("Kaiming He", {"MIT", " ", "CSAIL"}) == "Kaiming He (MIT, CSAIL)");
    CHECK(feed_author("Ross Girshick", {}) == "Ross Girshick");
}

TEST_CASE("libcurl loads on first use, once, with every function the client calls") {
    auto first = curl_library();
    REQUIRE_MESSAGE(first.has_value(), first.error().to_string());
    auto again = curl_library();
    REQUIRE(again.has_value());
    CHECK(*first == *again);
    const CurlLibrary& lib = **first;
    for (const void* function :
         {reinterpret_cast<const void*>(lib.easy_init), reinterpret_cast<const void*>(lib.easy_setopt),
          reinterpret_cast<const void*>(lib.easy_perform), reinterpret_cast<const void*>(lib.easy_getinfo),
          reinterpret_cast<const void*>(lib.easy_reset), reinterpret_cast<const void*>(lib.easy_cleanup),
          reinterpret_cast<const void*>(lib.easy_strerror), reinterpret_cast<const void*>(lib.slist_append),
          reinterpret_cast<const void*>(lib.slist_free_all)})
        CHECK(function != nullptr);
    CHECK(std::string(lib.easy_strerror(CURLE_COULDNT_CONNECT)).find("connect") != std::string::npos);
}

TEST_CASE("the HTTP client retries 429 honouring Retry-After, and 503, then succeeds") {
    LoopbackServer server;
    FakeClock clock;
    std::atomic<int> calls{0};
    std::vector<Clock::time_point> times;
    std::mutex mutex;
    server.server.Get("/feed", [&](const httplib::Request&, httplib::Response& res) {
        {
            std::lock_guard lock(mutex);
            times.push_back(clock.now());
        }
        int n = ++calls;
        if (n == 1) {
            res.status = 429;
            res.set_header("Retry-After", "1");
        } else if (n == 2) {
            res.status = 503;
        } else {
            res.set_content("ok", "text/plain");
        }
    });
    server.start();
    std::vector<std::string> retries;
    auto options = quick_options();
    options.clock = &clock;
    options.on_retry = [&](const std::string& line) { retries.push_back(line); };
    HttpClient http(options);
    auto response = http.get(server.url("/feed"));
    REQUIRE_MESSAGE(response.has_value(), response.error().to_string());
    CHECK(response->body == "ok");
    CHECK(calls == 3);
    REQUIRE(retries.size() == 2);
    CHECK(retries[0].find("HTTP 429, the server asked to wait 1000 ms") != std::string::npos);
    CHECK(retries[1].find("HTTP 503") != std::string::npos);
    CHECK(times[1] - times[0] >= 1s); // waited as asked
}

TEST_CASE("a Retry-After shorter than the minimum interval still waits the minimum interval") {
    LoopbackServer server;
    FakeClock clock;
    std::vector<Clock::time_point> times;
    std::mutex mutex;
    server.server.Get("/api", [&](const httplib::Request&, httplib::Response& res) {
        std::lock_guard lock(mutex);
        times.push_back(clock.now());
        if (times.size() == 1) {
            res.status = 429;
            res.set_header("Retry-After", "0");
        } else {
            res.set_content("ok", "text/plain");
        }
    });
    server.start();
    auto options = quick_options();
    options.clock = &clock;
    options.min_interval = 3s; // arXiv's
    HttpClient http(options);
    auto response = http.get(server.url("/api"));
    REQUIRE_MESSAGE(response.has_value(), response.error().to_string());
    REQUIRE(times.size() == 2);
    CHECK(times[1] - times[0] >= 3s);
}

TEST_CASE("every rate-limit signal is read: retry-after-ms, Retry-After, 'try again in', x-ratelimit-reset-*") {
    auto delay = [](std::map<std::string, std::string> headers, std::string body = {}) {
        HttpResponse response;
        response.status = 429;
        response.headers = std::move(headers);
        response.body = std::move(body);
        return server_retry_delay(response);
    };
    CHECK(delay({{"retry-after-ms", "1500"}, {"retry-after", "9"}}) == 1500ms);
    CHECK(delay({{"retry-after", "2"}}) == 2000ms);
    CHECK(delay({{"retry-after", "0.5"}}) == 500ms);
    CHECK_FALSE(delay({{"retry-after", "Wed, 21 Oct 2015 07:28:00 GMT"}}).has_value()); // a date: backoff decides
    const std::string openai =
        R"({"error":{"message":"Rate limit reached for gpt-4o in organization org-x on tokens )"
        R"(per min (TPM): Limit 30000, Used 29000, Requested 3200. Please try again in 4.4s. )"
        R"(Visit https://platform.openai.com/account/rate-limits to learn more.","type":"tokens"}})";
    CHECK(delay({{"x-ratelimit-reset-tokens", "30s"}}, openai) == 4400ms); // the text is about this request
    CHECK(delay({}, "Please try again in 20ms.") == 20ms);
    CHECK(delay({}, "please try again in 6m0s") == 360000ms);
    CHECK(delay({}, "Try again in 20 seconds") == 20000ms);
    // The reset headers: the exhausted limit's, else the longest.
    CHECK(delay({{"x-ratelimit-reset-requests", "6m0s"},
                 {"x-ratelimit-remaining-requests", "12"},
                 {"x-ratelimit-reset-tokens", "1s"},
                 {"x-ratelimit-remaining-tokens", "0"}}) == 1000ms);
    CHECK(delay({{"x-ratelimit-reset-requests", "20ms"}, {"x-ratelimit-reset-tokens", "1.5s"}}) == 1500ms);
    CHECK_FALSE(delay({}).has_value());
    CHECK_FALSE(delay({{"x-ratelimit-reset-tokens", "soon"}}).has_value());
    CHECK(parse_duration("1h2m3.5s") == 3723500ms);
    CHECK_FALSE(parse_duration("12").has_value()); // no unit
}

TEST_CASE("the HTTP client waits what the 429 asks, whichever way it asks") {
    LoopbackServer server;
    FakeClock clock;
    std::map<std::string, std::string> headers;
    std::string body;
    std::atomic<int> calls{0};
    server.server.Get("/limited", [&](const httplib::Request&, httplib::Response& res) {
        if (++calls % 2 == 1) {
            res.status = 429;
            for (const auto& [name, value] : headers) res.set_header(name, value);
            res.set_content(body, "application/json");
        } else {
            res.set_content("ok", "text/plain");
        }
    });
    server.start();
    auto options = quick_options();
    options.clock = &clock;
    HttpClient http(options);
    auto waited_for = [&](std::map<std::string, std::string> h, std::string b) {
        headers = std::move(h);
        body = std::move(b);
        auto before = clock.slept();
        auto response = http.get(server.url("/limited"));
        REQUIRE_MESSAGE(response.has_value(), response.error().to_string());
        return std::chrono::duration_cast<std::chrono::milliseconds>(clock.slept() - before);
    };
    CHECK(waited_for({{"retry-after-ms", "1500"}}, "") == 1500ms);
    CHECK(waited_for({{"x-ratelimit-reset-requests", "1m30s"}, {"x-ratelimit-remaining-requests", "0"}}, "") ==
          90000ms);
    CHECK(waited_for({{"retry-after", "3600"}}, "") == 120000ms); // capped by max_wait
    CHECK(waited_for({}, R"({"error":{"message":"Please try again in 1.2s."}})") == 1200ms);
}

TEST_CASE("the HTTP client gives up after its attempts with a clear error") {
    LoopbackServer server;
    std::atomic<int> calls{0};
    server.server.Get("/down", [&](const httplib::Request&, httplib::Response& res) {
        ++calls;
        res.status = 503;
        res.set_content("maintenance", "text/plain");
    });
    server.start();
    auto options = quick_options();
    options.max_attempts = 3;
    HttpClient http(options);
    auto response = http.get(server.url("/down?key=secret"));
    REQUIRE_FALSE(response.has_value());
    CHECK(calls == 3);
    CHECK(response.error().message.find("HTTP 503") != std::string::npos);
    CHECK(response.error().message.find("maintenance") != std::string::npos);
    CHECK(response.error().message.find("secret") == std::string::npos); // query strings are not logged

    HttpClient closed(quick_options());
    auto refused = closed.get("http://127.0.0.1:1/nothing");
    REQUIRE_FALSE(refused.has_value());
}

TEST_CASE("requests are spaced by the minimum interval, over one connection") {
    LoopbackServer server;
    FakeClock clock;
    std::vector<Clock::time_point> times;
    std::set<int> client_ports;
    std::mutex mutex;
    server.server.Get("/r", [&](const httplib::Request& req, httplib::Response& res) {
        std::lock_guard lock(mutex);
        times.push_back(clock.now());
        client_ports.insert(req.remote_port);
        res.set_content("x", "text/plain");
    });
    server.start();
    auto options = quick_options();
    options.clock = &clock;
    options.min_interval = 3s;
    HttpClient http(options);
    for (int i = 0; i < 4; ++i) REQUIRE(http.get(server.url("/r")).has_value());
    REQUIRE(times.size() == 4);
    for (size_t i = 1; i < times.size(); ++i) CHECK(times[i] - times[i - 1] >= 3s);
    CHECK(client_ports.size() == 1); // the connection was reused
}

TEST_CASE("API back-fill pages by what was actually received") {
    LoopbackServer server;
    std::vector<std::string> all;
    for (int i = 0; i < 25; ++i) all.push_back("2505." + std::to_string(10000 + i));
    std::vector<long long> starts;
    std::string query;
    server.server.Get("/api/query", [&](const httplib::Request& req, httplib::Response& res) {
        long long start = std::stoll(req.get_param_value("start"));
        long long size = std::stoll(req.get_param_value("max_results"));
        starts.push_back(start);
        query = req.get_param_value("search_query");
        // The second page comes back short.
        long long give = starts.size() == 2 ? 3 : size;
        std::vector<std::string> ids(all.begin() + start, all.begin() + std::min<long long>(25, start + give));
        res.set_content(api_page(25, ids), "application/atom+xml");
    });
    server.start();
    ArxivSettings settings;
    settings.api_url = server.url("/api/query");
    settings.request_interval = 0.05;
    settings.api_page_size = 10;
    settings.cache_dir.clear();
    FakeClock clock;
    ArxivSource source(
        settings, [](const std::string&) {}, clock);
    auto entries = source.fetch_submitted(*parse_iso_date("2025-05-19"), *parse_iso_date("2025-05-19"));
    REQUIRE_MESSAGE(entries.has_value(), entries.error().to_string());
    std::set<std::string> ids;
    for (const auto& e : *entries) ids.insert(e.paper.id);
    CHECK(ids.size() == 25);
    CHECK(entries->size() == 25);
    CHECK(starts == std::vector<long long>{0, 10, 13, 23});
    CHECK(query == "(cat:cs.LG OR cat:cs.AI) AND submittedDate:[202505190000 TO 202505192359]");
}

namespace {

// An API entry submitted at `published` (the API's <published>), with an
// abstract of `abstract_bytes`.
std::string dated_entry(const std::string& id, const std::string& published, size_t abstract_bytes = 20) {
    std::string entry = api_entry(id);
    entry.insert(entry.find("<title>"), "<published>" + published + "</published>");
    const std::string summary = "<summary>";
    entry.insert(entry.find(summary) + summary.size(), std::string(abstract_bytes, 'a') + " ");
    return entry;
}

std::string dated_page(long long total, const std::vector<std::string>& entries) {
    std::string page = api_page(total, {});
    std::string all;
    for (const auto& entry : entries) all += entry;
    return page.insert(page.find("</feed>"), all);
}

ArxivSettings api_settings(const LoopbackServer& server, const fs::path& cache) {
    ArxivSettings settings;
    settings.api_url = server.url("/api/query");
    settings.request_interval = 0;
    settings.api_page_size = 100;
    settings.cache_dir = cache.string();
    return settings;
}

// Every byte under `dir`.
std::uintmax_t bytes_under(const fs::path& dir) {
    std::uintmax_t bytes = 0;
    if (fs::exists(dir))
        for (const auto& entry : fs::recursive_directory_iterator(dir))
            if (entry.is_regular_file()) bytes += entry.file_size();
    return bytes;
}

// A broken API: 30,000 results (its cap) of ever new papers inside the
// window, `abstract_bytes` each. After `guard` pages it answers 400, so a
// back-fill without bounds ends too (with another error).
struct EndlessApi {
    LoopbackServer server;
    std::atomic<int> pages{0};
    size_t abstract_bytes;
    int guard;
    EndlessApi(size_t abstract_size, int last_page) : abstract_bytes(abstract_size), guard(last_page) {
        server.server.Get("/api/query", [this](const httplib::Request& req, httplib::Response& res) {
            if (++pages > guard) {
                res.status = 400;
                return;
            }
            const long long start = std::stoll(req.get_param_value("start"));
            std::vector<std::string> entries;
            for (long long i = start; i < start + 100; ++i)
                entries.push_back(
                    dated_entry("2505." + std::to_string(10000 + i), "2025-05-19T12:00:00Z", abstract_bytes));
            res.set_content(dated_page(30000, entries), "application/atom+xml");
        });
        server.start();
    }
    ~EndlessApi() { server.stop(); }
};

} // namespace

TEST_CASE("a back-fill from an API that never ends stops at its budget of pages: an error, and the cache bounded") {
    EndlessApi api(10000, 40); // pages of about 1 MB
    TempDir dir;
    std::vector<std::string> log;
    FakeClock clock;
    ArxivSource source(
        api_settings(api.server, dir / "cache"), [&](const std::string& line) { log.push_back(line); }, clock);
    source.max_received_bytes = 4u << 20;
    auto entries = source.fetch_submitted(*parse_iso_date("2025-05-19"), *parse_iso_date("2025-05-19"));
    REQUIRE_FALSE(entries.has_value());
    INFO(entries.error().to_string());
    CHECK(entries.error().message.starts_with("the arXiv API sent more than 4 MiB of pages for papers submitted "
                                              "2025-05-19T00:00Z to 2025-05-19T23:59Z (at 400 of 30000 results), "
                                              "the back-fill's budget"));
    CHECK(entries.error().message.find("likely broken") != std::string::npos);
    CHECK(api.pages == 5);                         // four pages fit, the fifth is over
    CHECK(bytes_under(dir / "cache") <= 4u << 20); // the page over the budget is not kept
    CHECK(bytes_under(dir / "cache") > 3u << 20);
    CHECK(source.max_received_bytes == 4u << 20);
    CHECK(ArxivSource(ArxivSettings{}, [](const std::string&) {}).max_received_bytes == 128u << 20);
}

TEST_CASE("a back-fill holds at most its budget of papers, whatever the pages weigh") {
    EndlessApi api(10000, 40);
    TempDir dir;
    FakeClock clock;
    ArxivSource source(
        api_settings(api.server, dir / "cache"), [](const std::string&) {}, clock);
    source.max_held_bytes = 2u << 20;
    auto entries = source.fetch_submitted(*parse_iso_date("2025-05-19"), *parse_iso_date("2025-05-19"));
    REQUIRE_FALSE(entries.has_value());
    INFO(entries.error().to_string());
    CHECK(entries.error().message.starts_with("the arXiv API sent more than 2 MiB of papers submitted "
                                              "2025-05-19T00:00Z to 2025-05-19T23:59Z ("));
    CHECK(api.pages == 2); // about 1 MB of papers a page: the second goes over
    CHECK(ArxivSource(ArxivSettings{}, [](const std::string&) {}).max_held_bytes == 64u << 20);
}

TEST_CASE("a back-fill from an API whose pages come back with one paper each stops after twice the pages needed") {
    // Bounded in time too (issue 41): 30,000 results one a page would take 25 hours at 3 s a request.
    LoopbackServer server;
    std::atomic<int> pages{0};
    server.server.Get("/api/query", [&](const httplib::Request& req, httplib::Response& res) {
        if (++pages > 200) return void(res.status = 400);
        const long long start = std::stoll(req.get_param_value("start"));
        res.set_content(dated_page(500, {dated_entry("2505." + std::to_string(10000 + start), "2025-05-19T12:00:00Z")}),
                        "application/atom+xml");
    });
    server.start();
    TempDir dir;
    FakeClock clock;
    ArxivSettings settings = api_settings(server, dir / "cache");
    settings.api_page_size = 100;
    ArxivSource source(
        settings, [](const std::string&) {}, clock);
    auto entries = source.fetch_submitted(*parse_iso_date("2025-05-19"), *parse_iso_date("2025-05-19"));
    REQUIRE_FALSE(entries.has_value());
    INFO(entries.error().to_string());
    CHECK(entries.error().message.find("of 500 results for papers submitted 2025-05-19T00:00Z to 2025-05-19T23:59Z "
                                       "in 15 pages, twice the pages the total needs") != std::string::npos);
    CHECK(pages == 15); // 5 pages of 100 needed: 10, the empty-page tries and 2 more
    server.stop();
}

TEST_CASE("a back-fill keeps only the papers submitted inside its window, each once") {
    LoopbackServer server;
    // The window is 2025-05-19 18:00 to 2025-05-20 17:59 UTC; the pages hold
    // papers from before and after it, and repeat some of its own.
    const std::vector<std::vector<std::string>> pages = {
        {dated_entry("2505.00001", "2025-05-19T17:59:59Z"), dated_entry("2505.00002", "2025-05-19T18:00:00Z"),
         dated_entry("2505.00003", "2025-05-19T14:30:00-04:00"), dated_entry("2505.00004", "2025-05-20T12:00:00Z")},
        {dated_entry("2505.00004", "2025-05-20T12:00:00Z"), dated_entry("2505.00005", "2025-05-20T17:59:30Z"),
         dated_entry("2505.00006", "2025-05-20T18:00:00Z"), dated_entry("2505.00007", "2025-05-20T13:59:00-04:00")},
        {dated_entry("2505.00002", "2025-05-19T18:00:00Z"), dated_entry("2505.00008", "2025-05-21T09:00:00+01:00")},
    };
    server.server.Get("/api/query", [&](const httplib::Request& req, httplib::Response& res) {
        const size_t page = std::stoul(req.get_param_value("start")) / 4;
        res.set_content(dated_page(10, page < pages.size() ? pages[page] : std::vector<std::string>{}),
                        "application/atom+xml");
    });
    server.start();
    TempDir dir;
    std::vector<std::string> log;
    FakeClock clock;
    auto settings = api_settings(server, dir / "cache");
    settings.api_page_size = 4;
    ArxivSource source(
        settings, [&](const std::string& line) { log.push_back(line); }, clock);
    auto entries = source.fetch_submitted(UtcMinute{*parse_iso_date("2025-05-19"), 18, 0},
                                          UtcMinute{*parse_iso_date("2025-05-20"), 17, 59});
    REQUIRE_MESSAGE(entries.has_value(), entries.error().to_string());
    std::vector<std::string> ids;
    for (const auto& entry : *entries) ids.push_back(entry.paper.id);
    // 00003 is 18:30 UTC; 00007 is 17:59 UTC; 00008 is 08:00 UTC the next day.
    CHECK(ids == std::vector<std::string>{"2505.00002", "2505.00003", "2505.00004", "2505.00005", "2505.00007"});
    REQUIRE_FALSE(log.empty());
    CHECK(log.back() == "warning: the arXiv API sent 3 papers submitted outside 2025-05-19T18:00Z to "
                        "2025-05-20T17:59Z and 2 papers again; left out");
}

TEST_CASE("the API's <published> is read as a UTC minute, whatever its offset; a malformed one is an error") {
    auto minute = [](const char* text) {
        auto parsed = parse_atom_time(text);
        return parsed ? parsed->iso() : std::string("none");
    };
    CHECK(minute("2025-05-19T17:59:59Z") == "2025-05-19T17:59Z");
    CHECK(minute(" 2007-02-27T16:02:02-05:00\n") == "2007-02-27T21:02Z");
    CHECK(minute("2025-12-31T22:30:00-04:00") == "2026-01-01T02:30Z");
    CHECK(minute("2025-03-01T00:10:00.123+01:00") == "2025-02-28T23:10Z");
    for (const char* bad :
         {"", "2025-05-19", "2025-05-19T17:59Z", "2025-02-30T00:00:00Z", "2025-05-19T24:00:00Z", "2025-05-19T17:59:59",
          "2025-05-19T17:59:59+0400", "2025-05-19 17:59:59Z", "9999999999-05-19T17:59:59Z"})
        CHECK_MESSAGE(minute(bad) == "none", bad);
    auto page = parse_api_page(dated_page(1, {dated_entry("2505.00001", std::string(500, '9'))}), "api");
    REQUIRE_FALSE(page.has_value());
    CHECK(page.error().message.starts_with("expected <published> to be a time such as 2025-05-19T17:59:59Z, got '999"));
    CHECK(page.error().message.size() < 200);
}

TEST_CASE("hostile feed items are errors with a short excerpt, never an exception") {
    std::string short_guid = "<item><title>T</title><link>https://example.com/x</link><guid>oai:1</guid></item>";
    auto feed = parse_rss_feed(rss(short_guid), "feed");
    REQUIRE_FALSE(feed.has_value());
    CHECK(feed.error().message == "expected an arXiv link or guid in every item, got 'https://example.com/x'");

    std::string long_link = "<item><title>T</title><link>" + std::string(100000, 'x') + "</link><guid/></item>";
    auto long_feed = parse_rss_feed(rss(long_link), "feed");
    REQUIRE_FALSE(long_feed.has_value());
    CHECK(long_feed.error().message.size() < 200);

    // A guid that is a bare ID (no "oai:arXiv.org:" prefix) still names the paper.
    std::string bare_guid = "<item><title>T</title><link>https://example.com/x</link><guid>2505.00001v1</guid></item>";
    auto bare = parse_rss_feed(rss(bare_guid), "feed");
    REQUIRE_MESSAGE(bare.has_value(), bare.error().to_string());
    REQUIRE(bare->entries.size() == 1);
    CHECK(bare->entries[0].paper.id == "2505.00001");

    auto long_date = parse_rss_feed(rss(rss_item("2505.00001", "new", "cs.LG"), std::string(100000, '7')), "feed");
    REQUIRE_FALSE(long_date.has_value());
    CHECK(long_date.error().message.size() < 200);
}

TEST_CASE("an RFC 822 date with a year or day beyond int does not wrap around into a real date") {
    CHECK(parse_rfc822_date("Wed, 28 May 2025 00:00:00 -0400") == Date{2025, 5, 28});
    CHECK_FALSE(parse_rfc822_date("Wed, 28 May 4294969321 00:00:00 -0400").has_value());   // 2025 + 2^32
    CHECK_FALSE(parse_rfc822_date("Wed, 4294967324 May 2025 00:00:00 -0400").has_value()); // 28 + 2^32
}

TEST_CASE("hostile API pages: errors quote an excerpt; a negative total is none") {
    std::string huge_id = "<entry><id>" + std::string(100000, 'y') + "</id><title>T</title></entry>";
    auto page = parse_api_page("<feed xmlns=\"http://www.w3.org/2005/Atom\">" + huge_id + "</feed>", "api");
    REQUIRE_FALSE(page.has_value());
    CHECK(page.error().message.starts_with("expected an arXiv abs URL in <id>, got 'yyy"));
    CHECK(page.error().message.size() < 200);

    auto negative = parse_api_page(api_page(-5, {}), "api");
    REQUIRE(negative.has_value());
    CHECK(negative->total_results == 0);
}

TEST_CASE("API results get the feed's announce types: a configured primary category is new, any other a cross-list") {
    LoopbackServer server;
    server.server.Get("/api/query", [&](const httplib::Request&, httplib::Response& res) {
        std::string cross = api_entry("2505.10002");
        const std::string primary = "primary_category term=\"cs.LG\"";
        cross.replace(cross.find(primary), primary.size(), "primary_category term=\"math.OC\"");
        std::string page = api_page(2, {"2505.10001"});
        page.insert(page.find("</feed>"), cross);
        res.set_content(page, "application/atom+xml");
    });
    server.start();
    ArxivSettings settings;
    settings.api_url = server.url("/api/query");
    settings.categories = {"cs.LG"};
    settings.request_interval = 0;
    settings.cache_dir.clear();
    FakeClock clock;
    ArxivSource source(
        settings, [](const std::string&) {}, clock);
    auto entries = source.fetch_submitted(*parse_iso_date("2025-05-19"), *parse_iso_date("2025-05-19"));
    REQUIRE_MESSAGE(entries.has_value(), entries.error().to_string());
    REQUIRE(entries->size() == 2);
    CHECK((*entries)[0].announce_type == "new");
    CHECK((*entries)[1].paper.id == "2505.10002");
    CHECK((*entries)[1].announce_type == "cross");
}

TEST_CASE("every HTTP reply is capped by its kind while it is read: the transfer stops, the error names the cap") {
    LoopbackServer server;
    std::atomic<int> calls{0};
    std::atomic<long long> sent{0};
    // An endless reply without a length: only a cap enforced while reading ends it.
    server.server.Post("/v1/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
        ++calls;
        res.set_chunked_content_provider("application/json", [&](size_t, httplib::DataSink& sink) {
            static const std::string block(1 << 16, 'x');
            sent += static_cast<long long>(block.size());
            return sink.write(block.data(), block.size());
        });
    });
    server.server.Get("/small", [](const httplib::Request&, httplib::Response& res) {
        res.set_content(std::string(1000, 'y'), "text/plain");
    });
    server.start();
    auto options = quick_options();
    options.peer = HttpPeer::llm();
    HttpClient http(options);
    auto reply = http.post(server.url("/v1/chat/completions"), "{}", {});
    REQUIRE_FALSE(reply.has_value());
    CHECK(reply.error().message.find("the LLM reply is larger than its cap of 4 MiB (4194304 bytes)") !=
          std::string::npos);
    CHECK(calls == 1);        // no retry: the same reply would come again
    CHECK(sent < 64ll << 20); // stopped near the cap, not read to the end

    CHECK(HttpPeer::feed().max_reply_bytes == 32u << 20);
    CHECK(HttpPeer::api().max_reply_bytes == 32u << 20);
    CHECK(HttpPeer::notify().max_reply_bytes == 1u << 20);
    HttpPeer tiny{"test reply", 999, true};
    options.peer = tiny;
    HttpClient small(options);
    auto over = small.get(server.url("/small"));
    REQUIRE_FALSE(over.has_value());
    CHECK(over.error().message.find("the test reply is larger than its cap of 999 bytes") != std::string::npos);
    small.set_peer(HttpPeer::feed());
    auto fits = small.get(server.url("/small"));
    REQUIRE_MESSAGE(fits.has_value(), fits.error().to_string());
    CHECK(fits->body.size() == 1000);
}

TEST_CASE("LLM and notification requests follow a redirect only to the same origin over https; a feed follows") {
    LoopbackServer elsewhere;
    std::atomic<int> stolen{0};
    elsewhere.server.Post("/steal", [&](const httplib::Request&, httplib::Response& res) {
        ++stolen;
        res.set_content("the target's secret reply", "text/plain");
    });
    elsewhere.server.Get("/feed",
                         [&](const httplib::Request&, httplib::Response& res) { res.set_content("feed", "text/xml"); });
    elsewhere.start();
    LoopbackServer server;
    server.server.Post("/hook", [&](const httplib::Request&, httplib::Response& res) {
        res.status = 307;
        res.set_header("Location", elsewhere.url("/steal"));
    });
    server.server.Get("/moved", [&](const httplib::Request&, httplib::Response& res) {
        res.status = 302;
        res.set_header("Location", elsewhere.url("/feed"));
    });
    server.start();
    for (const HttpPeer& peer : {HttpPeer::llm(), HttpPeer::notify()}) {
        auto options = quick_options();
        options.peer = peer;
        HttpClient http(options);
        auto reply = http.post(server.url("/hook"), "{\"day\": 1}", {});
        REQUIRE_FALSE(reply.has_value());
        CHECK(reply.error().message.find("refused to follow HTTP 307 to " + elsewhere.url("/steal")) !=
              std::string::npos);
        CHECK(reply.error().message.find("only to the same origin over https") != std::string::npos);
        CHECK(reply.error().message.find("secret reply") == std::string::npos);
        const std::string body = "{}";
        auto sent = http.send(server.url("/hook"), &body, {});
        CHECK_FALSE(sent.has_value());
    }
    CHECK(stolen == 0);
    auto options = quick_options();
    options.peer = HttpPeer::feed();
    HttpClient feed(options);
    auto moved = feed.get(server.url("/moved"));
    REQUIRE_MESSAGE(moved.has_value(), moved.error().to_string());
    CHECK(moved->body == "feed");

    CHECK(same_https_origin("https://api.example.org/v1/chat", "https://API.example.org:443/v2"));
    CHECK(same_https_origin("https://u:p@[::1]:8443/a", "https://[::1]:8443/b"));
    CHECK_FALSE(same_https_origin("https://api.example.org/v1", "http://api.example.org/v1"));
    CHECK_FALSE(same_https_origin("http://api.example.org/v1", "http://api.example.org/v2"));
    CHECK_FALSE(same_https_origin("https://api.example.org/v1", "https://169.254.169.254/latest"));
    CHECK_FALSE(same_https_origin("https://api.example.org/v1", "https://api.example.org:444/v1"));
}

TEST_CASE("the HTTP client's errors and retry lines hide URL userinfo, query tokens and echoed secrets") {
    register_secret("sk-fetch-test-77c1e", "PP_FETCH_TEST_KEY");
    LoopbackServer server;
    server.server.Post("/v1/chat/completions", [&](const httplib::Request&, httplib::Response& res) {
        res.status = 503;
        res.set_content("{\"error\": \"Incorrect API key provided: sk-fetch-test-77c1e\"}", "application/json");
    });
    server.start();
    std::string url = server.url("/v1/chat/completions?api_key=QUERYTOKEN");
    url.insert(url.find("//") + 2, "user:PASSWORD@");
    std::vector<std::string> retries;
    auto options = quick_options();
    options.max_attempts = 2;
    options.on_retry = [&](const std::string& line) { retries.push_back(line); };
    HttpClient http(options);
    auto reply = http.post(url, "{}", {"Authorization: Bearer sk-fetch-test-77c1e"});
    REQUIRE_FALSE(reply.has_value());
    std::string all = reply.error().message + "\n" + join(retries, "\n");
    CHECK(retries.size() == 1);
    CHECK(all.find("Incorrect API key provided: [$PP_FETCH_TEST_KEY]") != std::string::npos);
    CHECK(all.find("http://***@127.0.0.1:") != std::string::npos);
    for (const char* secret : {"PASSWORD", "QUERYTOKEN", "sk-fetch-test-77c1e"})
        CHECK(all.find(secret) == std::string::npos);
}

TEST_CASE("feed and API text is made valid XML text: a control from &#1; becomes a space, invalid UTF-8 U+FFFD") {
    auto feed = parse_rss_feed(rss(rss_item("2505.21073", "new", "cs.LG", "A &#1;title\xFF")), "feed");
    REQUIRE_MESSAGE(feed.has_value(), feed.error().to_string());
    REQUIRE(feed->entries.size() == 1);
    CHECK(feed->entries[0].paper.title == "A title\xEF\xBF\xBD");
    CHECK(first_invalid_xml_char(feed->entries[0].paper.abstract) == std::string::npos);
}

TEST_CASE("a retry line names the URL once; a malformed URL is not retried") {
    std::vector<std::string> retries;
    auto options = quick_options();
    options.max_attempts = 2;
    options.on_retry = [&](const std::string& line) { retries.push_back(line); };
    HttpClient http(options);
    auto refused = http.get("http://127.0.0.1:1/feed");
    REQUIRE_FALSE(refused.has_value());
    REQUIRE(retries.size() == 1);
    CHECK(retries[0].starts_with("http://127.0.0.1:1/feed: "));
    CHECK(retries[0].find("http://127.0.0.1:1/feed", 1) == std::string::npos); // not "url: url:"

    retries.clear();
    auto malformed = http.get("ht tp://x/feed");
    REQUIRE_FALSE(malformed.has_value());
    CHECK(retries.empty());
    CHECK(malformed.error().message.starts_with("ht tp://x/feed: "));
    CHECK(malformed.error().message.find("ht tp://x/feed", 1) == std::string::npos);
}

TEST_CASE("an HTTP error carries its kind and status, so callers decide without reading the message") {
    LoopbackServer server;
    server.server.Get("/busy", [](const httplib::Request&, httplib::Response& res) {
        res.status = 429;
        res.set_content("slow down", "text/plain");
    });
    server.server.Get("/broken", [](const httplib::Request&, httplib::Response& res) {
        res.status = 500;
        res.set_content("oops", "text/plain");
    });
    server.server.Get("/slow", [](const httplib::Request&, httplib::Response& res) {
        std::this_thread::sleep_for(1500ms);
        res.set_content("late", "text/plain");
    });
    server.server.Get("/big", [](const httplib::Request&, httplib::Response& res) {
        res.set_content(std::string(4096, 'x'), "text/plain");
    });
    server.start();
    auto options = quick_options();
    options.max_attempts = 1;
    HttpClient http(options);
    for (auto [path, status] : {std::pair{"/busy", 429L}, std::pair{"/broken", 500L}}) {
        auto response = http.get(server.url(path));
        REQUIRE_FALSE(response.has_value());
        CHECK(response.error().kind == ErrorKind::http);
        CHECK(response.error().http_status == status);
    }
    auto slow_options = quick_options();
    slow_options.max_attempts = 1;
    slow_options.timeout = 300ms;
    auto timed_out = HttpClient(slow_options).get(server.url("/slow"));
    REQUIRE_FALSE(timed_out.has_value());
    CHECK(timed_out.error().kind == ErrorKind::timeout);

    auto refused = http.get("http://127.0.0.1:1/nothing");
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().kind == ErrorKind::network);

    auto capped_options = quick_options();
    capped_options.peer.max_reply_bytes = 1024;
    auto capped = HttpClient(capped_options).get(server.url("/big"));
    REQUIRE_FALSE(capped.has_value());
    CHECK(capped.error().kind == ErrorKind::too_large);
    CHECK(HttpClient(quick_options()).get("ht tp://x/feed").error().kind == ErrorKind::invalid);
}

TEST_CASE("every request names paperpress by the version CMake builds") {
    LoopbackServer server;
    std::string agent;
    server.server.Get("/feed", [&](const httplib::Request& req, httplib::Response& res) {
        agent = req.get_header_value("User-Agent");
        res.set_content("ok", "text/plain");
    });
    server.start();
    HttpClient http(quick_options());
    REQUIRE(http.get(server.url("/feed")).has_value());
    CHECK(agent == std::string("paperpress/") + PAPERPRESS_VERSION);
    CHECK(std::string(PAPERPRESS_VERSION).starts_with("0.1.")); // CMake's project(VERSION 0.1.0)
}
