// How the search folds words (util/folding.txt, search/stop_words.txt), on
// both sides: the build's C++ and the page's JavaScript (static/search-words.js,
// run here in node) split and fold the same text into the same words. And
// what a result says: one result per paper, and where its words were found.
#include "content/content_tree.h"
#include "search/query.h"
#include "search/words.h"
#include "site/builder.h"
#include "test_support.h"
#include "util/text.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <vector>

using namespace pp;
using namespace pp::test;

namespace {

// Words as a reader types them, and as names are written: capitals on the
// ASCII fast path, Latin letters NFKD leaves whole, marks, ligatures.
const std::vector<std::string> samples = {
    "Saebo",    "SAEBO",   "Sæbø",       "SÆBØ",  "Łukasz Kaiser",
    "Lukasz",   "Straße",  "STRASSE",    "Þórr",  "Œuvre complète",
    "Đorđević", "Dırak",   "Ærøskøbing", "Ħal",   "Schölkopf",
    "ŊATO",     "ǅemal",   "ﬁnite ﬁeld", "Ĳssel", "the of and",
    "x1 ε-net", "ΣΊΣΥΦΟΣ", "2502.00001", "Ꝥorn",  "x y 3 Z é ab which whiches theirs"};

std::string json_string(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

// The words of each sample by the page's script, one line each, words joined by spaces.
std::vector<std::string> words_in_node(const TempDir& dir) {
    write_text(dir / "search-words.js", search::words_script());
    std::string list = "[";
    for (const auto& sample : samples) list += (list.size() > 1 ? "," : "") + json_string(sample);
    write_text(dir / "samples.json", list + "]");
    write_text(dir / "run.js", "require('./search-words.js');\n"
                               "for (const s of require('./samples.json'))\n"
                               "  console.log(globalThis.paperpressWords.words(s).join(' '));\n");
    const std::string command = "cd '" + dir.path().string() + "' && node run.js > out.txt 2> err.txt";
    REQUIRE_MESSAGE(std::system(command.c_str()) == 0, read_text(dir / "err.txt"));
    const std::string out = read_text(dir / "out.txt");
    auto lines = split(out, '\n');
    return {lines.begin(), lines.end() - 1};
}

bool has_node() { return std::system("node --version > /dev/null 2>&1") == 0; }

} // namespace

TEST_CASE("search words: æ ø ß ł þ œ ı fold as readers type them, on the ASCII fast path and beyond it") {
    using W = std::vector<std::string>;
    CHECK(search::words_of("Sæbø") == W{"saebo"});
    CHECK(search::words_of("SÆBØ") == W{"saebo"});
    CHECK(search::words_of("Saebo") == W{"saebo"});
    CHECK(search::words_of("Łukasz") == W{"lukasz"});
    CHECK(search::words_of("Straße") == W{"strasse"});
    CHECK(search::words_of("Þórr") == W{"thorr"});
    CHECK(search::words_of("Œuvre") == W{"oeuvre"});
    CHECK(search::words_of("Đorđević") == W{"dordevic"});
    CHECK(search::words_of("Dırak") == W{"dirak"});
}

// Issue 46's mutants: every stop word is left out, the longest ones too, and a single letter or digit is no
// word (the index would list every "x" and "3"); what is neither stays.
TEST_CASE("search words: every stop word and every single letter is left out; other words of any length stay") {
    using W = std::vector<std::string>;
    std::string stops;
    std::size_t longest = 0;
    for (auto word : search::stop_words()) {
        CAPTURE(word);
        CHECK(search::is_stop_word(word));
        stops += std::string(word) + " ";
        longest = std::max(longest, word.size());
    }
    CHECK(longest == 5); // "which", "these", "their", ...
    CHECK(search::words_of(stops).empty());
    CHECK(search::words_of("x y 3 Z é ab which whiches theirs") == W{"ab", "whiches", "theirs"});
}

TEST_CASE("search words: the page's script splits and folds every sample into the words the build indexes") {
    if (!has_node()) {
        REQUIRE_MESSAGE(std::getenv("CI") == nullptr, "CI requires node (scripts/setup installs nodejs)");
        MESSAGE("SKIPPED: node is missing");
        return;
    }
    TempDir dir;
    const auto in_node = words_in_node(dir);
    REQUIRE(in_node.size() == samples.size());
    for (std::size_t i = 0; i < samples.size(); ++i) {
        CAPTURE(samples[i]);
        CHECK(in_node[i] == join(search::words_of(samples[i]), " "));
    }
    CHECK(in_node[2] == "saebo"); // Sæbø
}

namespace {

Paper paper(const std::string& id, const std::string& title, std::vector<std::string> authors,
            const std::string& abstract) {
    Paper p;
    p.id = id;
    p.title = title;
    p.authors = std::move(authors);
    p.abstract = abstract;
    p.relevance = 7;
    p.novelty = 6;
    return p;
}

// A site of a few days, built with the defaults (the word index on).
struct Site {
    TempDir dir;
    Site() { fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive); }
    void save(const char* iso, std::vector<Paper> papers) const {
        Day day;
        day.date = *parse_iso_date(iso);
        day.model = "gpt-4o";
        day.counts = Counts{500, 400, static_cast<long long>(papers.size())};
        day.papers = std::move(papers);
        REQUIRE(save_day(dir / "content", day));
    }
    BuildReport build(const std::string& theme = "default") const {
        BuildOptions options;
        options.content_dir = dir / "content";
        options.out_dir = dir / "site";
        options.site_dir = dir.path();
        options.themes_dir = dir / "themes";
        options.config.title = "Words";
        options.config.base_url = "/";
        options.config.theme = theme;
        auto report = build_site(options);
        REQUIRE(report.ok());
        return report;
    }
    search::Found find(const std::string& query) const {
        auto found = search::search_site(dir / "site", query, 20);
        REQUIRE_MESSAGE(found.has_value(), found.error().to_string());
        return *found;
    }
};

} // namespace

TEST_CASE("search words: \"Saebo\" finds a paper by Sæbø, and the search page loads the build's word tables") {
    Site site;
    site.save("2025-02-03", {paper("2502.00001", "Fjords", {"Kari Sæbø", "Łukasz Kaiser"}, "Waves.")});
    site.build();
    for (const char* query : {"Saebo", "SÆBØ", "saeb", "Lukasz", "ŁUKASZ"}) {
        CAPTURE(query);
        auto found = site.find(query);
        REQUIRE(found.hits.size() == 1);
        CHECK(found.hits[0].found_in == std::vector<std::string>{"authors"});
    }
    const std::string page = read_text(site.dir / "site/search/index.html");
    CHECK(page.find("static/search-words.js?v=") != std::string::npos);
    CHECK(read_text(site.dir / "site/static/search-words.js") == search::words_script());
}

TEST_CASE("search words: a paper listed on two days is one result, at its newest day; each result says where its "
          "words are") {
    Site site;
    Paper twice = paper("2502.00001", "Grokking widgets", {"Ada Lovelace"}, "A study of transformers.");
    site.save("2025-02-03", {twice, paper("2502.00002", "Other", {"Alan Turing"}, "Grokking again.")});
    site.save("2025-02-05", {twice});
    site.build();
    auto found = site.find("grokking");
    REQUIRE(found.hits.size() == 2);
    CHECK(found.total == 2);
    CHECK(found.hits[0].id == "2502.00001");
    CHECK(found.hits[0].date == "2025-02-05");
    CHECK(found.hits[0].found_in == std::vector<std::string>{"title"});
    CHECK(found.hits[1].id == "2502.00002");
    CHECK(found.hits[1].found_in == std::vector<std::string>{"abstract or comment"});
    CHECK(site.find("lovelace transform").hits[0].found_in ==
          std::vector<std::string>{"authors", "abstract or comment"});
    auto printed = run_paperpress("search grokking --site site", site.dir.path());
    CHECK(printed.out.find("found in the title") != std::string::npos);
    CHECK(printed.out.find("2 papers found") != std::string::npos);
}

TEST_CASE("search words: the index is on by default; a theme without a search layout is a warning naming it") {
    Site site;
    site.save("2025-02-03", {paper("2502.00001", "Fjords", {"Kari"}, "Waves.")});
    fs::copy(site.dir / "themes/default", site.dir / "themes/bare", fs::copy_options::recursive);
    fs::remove(site.dir / "themes/bare/layouts/search.mustache");
    auto report = site.build("bare");
    REQUIRE(report.warnings.size() == 1);
    CHECK(report.warnings[0].find("theme 'bare' has no search layout") != std::string::npos);
    auto searched = run_paperpress("search fjords --site site", site.dir.path());
    CHECK(searched.exit_code == 1);
    CHECK(searched.err.find("search layout") != std::string::npos);
    CHECK(site.build().warnings.empty());
    CHECK(fs::exists(site.dir / "site/search/index.json"));
}
