// Redaction (util/redact.h) at its choke points: a URL's userinfo and secret
// query values, a cut, a secret URL's fragments, the lines printed, the day file written.
#include "content/day_file.h"
#include "util/redact.h"
#include "util/text.h"

#include <doctest/doctest.h>

#include <sstream>

using namespace pp;

TEST_CASE("redact: a cut never leaves the start of a secret: the text is redacted first, a prefix before '…' too") {
    const std::string key = "sk-CUTKEY-5e0b2c9a71f4d3";
    register_secret(key, "PP_REDACT_CUT_KEY");
    // The provider's words, cut at 300 bytes with the key across the cut.
    const std::string said = "Incorrect API key provided: " + std::string(262, '.') + key + ". See the docs.";
    const std::string quoted = excerpt(said, 300);
    INFO(quoted);
    CHECK(quoted.find("CUTKEY") == std::string::npos);
    CHECK(quoted.find("[$PP_REDAC") != std::string::npos); // the label, cut in its turn
    // A cut made elsewhere, marked with "…": the prefix left is hidden when the text leaves.
    CHECK(redact("the provider says 'sk-CUTKEY-5e0\u2026' (900 bytes)") ==
          "the provider says '[$PP_REDACT_CUT_KEY]\u2026' (900 bytes)");
    CHECK(redact("sk-C\u2026 and sk\u2026") == "[$PP_REDACT_CUT_KEY]\u2026 and sk\u2026"); // under 4 bytes: ordinary
}

TEST_CASE("redact: a secret URL's token-like path segments and query values are secrets on their own") {
    register_secret("https://hooks.slack.com/services/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",
                    "PP_REDACT_SLACK");
    CHECK(redact("invalid_token: no hook at /services/T0AB12CD3/B0CDE45FG67/Zq8dWm3KcR7tYv2LpX9sNb4H") ==
          "invalid_token: no hook at /services/[$PP_REDACT_SLACK]/[$PP_REDACT_SLACK]/[$PP_REDACT_SLACK]");
    register_secret("https://example.org/api/hook?channel=news&token=tk-4471-QUERY&format=json", "PP_REDACT_HOOK");
    CHECK(redact("403: token tk-4471-QUERY is revoked (channel news, format json)") ==
          "403: token [$PP_REDACT_HOOK] is revoked (channel news, format json)");
    CHECK(redact("POST https://example.org/api/hook failed") == "POST [$PP_REDACT_HOOK] failed");
    CHECK(redact("the services api hook") == "the services api hook"); // words are no secret
}

TEST_CASE("redact: RedactedOutput hides a secret printed in pieces, line by line, and writes the rest at the end") {
    register_secret("sk-PIECES-0c41d9e2", "PP_REDACT_PIECES_KEY");
    std::ostringstream stream;
    {
        RedactedOutput redacted(stream);
        stream << "error: HTTP 401: key sk-PIE" << std::flush; // a line is written only when it ends
        CHECK(stream.str().empty());
        stream << "CES-0c41d9e2 refused\nhttps://u:pw@host/x?token=T0K" << '\r';
        stream << "no newline at the end sk-PIECES-0c41d9e2";
    }
    CHECK(stream.str() == "error: HTTP 401: key [$PP_REDACT_PIECES_KEY] refused\nhttps://***@host/x?token=***\r"
                          "no newline at the end [$PP_REDACT_PIECES_KEY]");
    stream << "after: sk-PIECES-0c41d9e2"; // the stream's own buffer is back
    CHECK(stream.str().ends_with("after: sk-PIECES-0c41d9e2"));
}

TEST_CASE("redact: the day file never holds a registered secret value, in the front matter or a paper's text") {
    register_secret("sk-DAYFILE-8b2e61f0a9", "PP_REDACT_DAY_KEY");
    Day day;
    day.date = *parse_iso_date("2025-05-20");
    day.status = DayStatus::partial;
    day.reason = "the provider says 'Incorrect API key provided: sk-DAYFILE-8b2e61f0a9'";
    day.prompt = "## Topics\n\nkey: sk-DAYFILE-8b2e61f0a9\n";
    Paper paper;
    paper.id = "2505.00001";
    paper.title = "A title with sk-DAYFILE-8b2e61f0a9 in it";
    paper.abstract = "An abstract quoting sk-DAYFILE-8b2e61f0a9 (a hand edit).";
    paper.comment = "sk-DAYFILE-8b2e61f0a9";
    day.papers = {paper};
    const std::string written = write_day(day);
    INFO(written);
    CHECK(written.find("DAYFILE") == std::string::npos);
    auto read = read_day(written, "day.md");
    REQUIRE_MESSAGE(read.has_value(), read.error().to_string()); // still a well-formed day file
    CHECK(read->papers.at(0).comment == "[$PP_REDACT_DAY_KEY]");
    CHECK(read->papers.at(0).abstract == "An abstract quoting [$PP_REDACT_DAY_KEY] (a hand edit).");
}

TEST_CASE("redact_url hides userinfo and the values of secret query parameters, nothing else") {
    CHECK(redact_url("http://user:PASSWORD@host:8080/v1") == "http://***@host:8080/v1");
    CHECK(redact_url("https://host/v1?key=abc&q=cats&api_key=k1&access_token=t&X-Api-Key=z#f") ==
          "https://host/v1?key=***&q=cats&api_key=***&access_token=***&X-Api-Key=***#f");
    CHECK(redact_url("https://export.arxiv.org/api/query?search_query=cat:cs.LG&start=0") ==
          "https://export.arxiv.org/api/query?search_query=cat:cs.LG&start=0");
    CHECK(redact_url("https://host/path@not-userinfo") == "https://host/path@not-userinfo");
    CHECK(redact_url("") == "");
}

TEST_CASE("redact hides every URL's secrets in running text and the registered secret values anywhere") {
    CHECK(redact("HTTP 401 from http://u:PASSWORD@h/v1: bad, see \"https://h/x?token=T0K\".") ==
          "HTTP 401 from http://***@h/v1: bad, see \"https://h/x?token=***\".");
    CHECK(redact("scorer: LLM m at http://user:pw@127.0.0.1:9/v1 (set)") ==
          "scorer: LLM m at http://***@127.0.0.1:9/v1 (set)");
    register_secret("sk-core-test-4f9a", "PP_CORE_TEST_KEY");
    register_secret("abc", "PP_TOO_SHORT"); // too short to hide: would blank ordinary words
    CHECK(redact("{\"error\": \"Incorrect API key provided: sk-core-test-4f9a.\"} abc") ==
          "{\"error\": \"Incorrect API key provided: [$PP_CORE_TEST_KEY].\"} abc");
    CHECK(redact("sk-core-test-4f9ask-core-test-4f9a") == "[$PP_CORE_TEST_KEY][$PP_CORE_TEST_KEY]");
    CHECK(redact("no :// scheme, a bare ://") == "no :// scheme, a bare ://");
}
