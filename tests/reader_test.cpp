// For the reader (issue 20): TeX shown as text (core/tex.h), links in
// abstracts, and the pages a reader sees on the sample archive.
#include "core/tex.h"
#include "site/render_markdown.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <regex>

using namespace pp;
using namespace pp::test;

TEST_CASE("tex: the accents of arXiv's author names become letters") {
    // All seen in the fixture archive's authors.
    CHECK(tex_to_unicode("Fran\\c{c}ois-Xavier Briol") == "François-Xavier Briol");
    CHECK(tex_to_unicode("Hinrich Sch\\\"utze") == "Hinrich Schütze");
    CHECK(tex_to_unicode("Lenka Zdeborov\\'a") == "Lenka Zdeborová");
    CHECK(tex_to_unicode("Micha{\\l} Dere{\\'n}") == "Michał Dereń");
    CHECK(tex_to_unicode("Bj{\\o}rn and Bj\\o rn") == "Bjørn and Bjørn");
    CHECK(tex_to_unicode("Du\\v{s}an Jani\\v{c}i\\'c") == "Dušan Janičić");
    CHECK(tex_to_unicode("Do\\u{g}an Ka\\k{a}t \\.Zurek \\.Ibrahim") == "Doğan Kaąt Żurek İbrahim");
    CHECK(tex_to_unicode("Jos\\'e Pe\\~na Garc\\`ia") == "José Peña Garcìa");
    CHECK(tex_to_unicode("G\\\"{o}del") == "Gödel");
    CHECK(tex_to_unicode("Mart{\\'\\i}n and Mart\\'{\\i}n") == "Martín and Martín");
    CHECK(tex_to_unicode("{\\AA}ngstr\\\"om, {\\ae}sir, Gro\\ss{}e") == "Ångström, æsir, Große");
    CHECK(tex_to_unicode("\\c{T}\\^{i}r\\^ea") == "Ţîrêa");
}

TEST_CASE("tex: the common escapes, dashes and ties; math and unknown commands stay") {
    CHECK(tex_to_unicode("Q\\&A, 50\\%, x\\_1, \\#3, \\$5") == "Q&A, 50%, x_1, #3, $5");
    CHECK(tex_to_unicode("pages 2--3 --- or so") == "pages 2–3 — or so");
    CHECK(tex_to_unicode("Fig.~2") == "Fig.\u00a02");
    CHECK(tex_to_unicode("bound $x\\_1 \\cdot \\'e$ here") == "bound $x\\_1 \\cdot \\'e$ here");
    CHECK(tex_to_unicode("\\[ a--b \\] and \\( c~d \\)") == "\\[ a--b \\] and \\( c~d \\)");
    CHECK(tex_to_unicode("\\textbf{bold} \\cdot {\\sim}") == "\\textbf{bold} \\cdot {\\sim}");
    CHECK(tex_to_unicode("a lone $ sign, a trailing \\") == "a lone $ sign, a trailing \\");
    CHECK(tex_to_unicode("plain text") == "plain text");
    CHECK_FALSE(has_tex("plain text - with a dash"));
    CHECK(has_math("we bound $x$"));
    CHECK(has_math("\\[ x \\]"));
    CHECK_FALSE(has_math("costs \\$5 and \\$6"));
    CHECK_FALSE(has_math("a lone $ sign"));
}

TEST_CASE("abstract links: TeX \\url and \\href, escaped underscores, trailing punctuation") {
    CHECK(abstract_to_html("Code: https://github.com/Ugness/ReDi\\_discrete.") ==
          "<p>Code: <a href=\"https://github.com/Ugness/ReDi_discrete\">https://github.com/Ugness/ReDi_discrete</a>.</p>\n");
    CHECK(abstract_to_html("Code at \\url{https://github.com/microsoft/glinthawk}.") ==
          "<p>Code at <a href=\"https://github.com/microsoft/glinthawk\">https://github.com/microsoft/glinthawk</a>.</p>\n");
    CHECK(abstract_to_html("(\\url{ https://huggingface.co/ControlLLM})") ==
          "<p>(<a href=\"https://huggingface.co/ControlLLM\">https://huggingface.co/ControlLLM</a>)</p>\n");
    CHECK(abstract_to_html("at $\\href{https://github.com/a/b.git}{\\texttt{here}}$.") ==
          "<p>at <a href=\"https://github.com/a/b.git\">here</a>.</p>\n");
    CHECK(abstract_to_html("see [our page](https://x.org/a\\_b) (or https://y.org/p_(q)).") ==
          "<p>see <a href=\"https://x.org/a_b\">our page</a> (or <a href=\"https://y.org/p_(q)\">https://y.org/p_(q)</a>).</p>\n");
    CHECK(abstract_to_html("Sch\\\"utze's x86\\_64 <b> & $a\\_b$\n\nnext") ==
          "<p>Schütze&#39;s x86_64 &lt;b&gt; &amp; $a\\_b$</p>\n<p>next</p>\n");
    CHECK(abstract_to_html("not a link: https:// nor \\url{javascript:alert(1)}") ==
          "<p>not a link: https:// nor \\url{javascript:alert(1)}</p>\n");
}

namespace {

std::vector<fs::path> day_pages(const fs::path& site) {
    std::vector<fs::path> pages;
    for (const auto& entry : fs::recursive_directory_iterator(site)) {
        const std::string path = entry.path().generic_string();
        if (entry.path().filename() == "index.html" && std::regex_search(path, std::regex("/\\d{4}/\\d{2}/\\d{2}/index.html$")))
            pages.push_back(entry.path());
    }
    std::sort(pages.begin(), pages.end());
    return pages;
}

// The hrefs of the links inside the abstracts of a day page.
std::vector<std::string> abstract_links(const std::string& html) {
    std::vector<std::string> links;
    const std::regex href("<a href=\"([^\"]*)\"");
    for (std::size_t at = html.find("<div class=\"abstract\">"); at != std::string::npos;
         at = html.find("<div class=\"abstract\">", at + 1)) {
        const std::string abstract = html.substr(at, html.find("</div>", at) - at);
        for (std::sregex_iterator it(abstract.begin(), abstract.end(), href), end; it != end; ++it)
            links.push_back((*it)[1]);
    }
    return links;
}

} // namespace

TEST_CASE("reader: every link in the abstracts of the sample archive is whole and unescaped") {
    TempDir out;
    import_sample_archive(out.path());
    fs::copy(source_dir() / "themes", out / "themes", fs::copy_options::recursive);
    auto result = run_paperpress("build --out site --base-url https://user.github.io/repo/", out.path());
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    std::size_t total = 0;
    std::vector<std::string> broken;
    // A URL as a browser should get it: no TeX or Markdown escape, no brace,
    // no sentence punctuation at the end.
    const std::regex whole("https?://[A-Za-z0-9.-]+(/[A-Za-z0-9._~:/?#@!$&;=%+,()*-]*)?");
    for (const auto& page : day_pages(out / "site")) {
        for (const auto& link : abstract_links(read_text(page))) {
            ++total;
            const bool ends_badly = std::string(".,;:)}").find(link.back()) != std::string::npos &&
                                    !(link.back() == ')' && link.find('(') != std::string::npos);
            if (!std::regex_match(link, whole) || link.find("%5C") != std::string::npos || ends_badly)
                broken.push_back(page.parent_path().string() + ": " + link);
        }
    }
    CHECK(total > 100);
    CHECK_MESSAGE(broken.empty(), broken.size() << " broken, first: " << (broken.empty() ? "" : broken.front()));
}
