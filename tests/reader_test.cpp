// For the reader (issue 20): TeX shown as text (core/tex.h), links in
// abstracts, and the pages a reader sees on the sample archive.
#include "config/arxiv_dates.h"
#include "config/config.h"
#include "content/content_tree.h"
#include "content/month_summary.h"
#include "core/tex.h"
#include "notify/message.h"
#include "pipeline/month_summary.h"
#include "site/pages.h"
#include "site/render_markdown.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <regex>
#include <vector>

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
    // Issue 43: a letter accent before a space takes the next letter, as TeX reads it (a real author's
    // "Wa{\\l}{\\k e}ga"); over a group of letters, its first (a real abstract's "\\r{ho}"); a command that
    // only starts with an accent's letter is none.
    CHECK(tex_to_unicode("Wa{\\l}{\\k e}ga, O\\u g, \\v s") == "Wałęga, Oğ, š");
    CHECK(tex_to_unicode("ratio \\r{ho} = N") == "ratio h\u030Ao = N");
    CHECK(tex_to_unicode("\\u{} \\k{a b} \\b") == "\\u{} \\k{a b} \\b");
    CHECK(tex_to_unicode("\\cdot x") == "\u00B7 x"); // \cdot is no \c
    // A JSON escape leaked into a real abstract (2026-04-09): the character it names, not a breve over "0".
    CHECK(tex_to_unicode("pessimism-free \\u007eO(1/n) and \\u00e9t\\u00E9") ==
          "pessimism-free ~O(1/n) and \u00e9t\u00e9");
    CHECK(tex_to_unicode("\\u0000 \\u00g0") == "\\u0000 \\u00g0"); // nor a control, nor what is not hex
}

TEST_CASE("tex: the common escapes, dashes and ties; math and unknown commands stay") {
    CHECK(tex_to_unicode("Q\\&A, 50\\%, x\\_1, \\#3, \\$5") == "Q&A, 50%, x_1, #3, $5");
    CHECK(tex_to_unicode("pages 2--3 --- or so") == "pages 2–3 — or so");
    CHECK(tex_to_unicode("Fig.~2, models~(LLMs)") == "Fig.\u00a02, models\u00a0(LLMs)");
    CHECK(tex_to_unicode("about ~2x, (~80%), 1.69~2.18") == "about ~2x, (~80%), 1.69~2.18"); // plain text's tildes
    CHECK(tex_to_unicode("bound $x\\_1 \\cdot \\'e$ here") == "bound $x\\_1 \\cdot \\'e$ here");
    CHECK(tex_to_unicode("\\[ a--b \\] and \\( c~d \\)") == "\\[ a--b \\] and \\( c~d \\)");
    CHECK(tex_to_unicode("\\cdot {\\sim} \\unknown{x}") ==
          "· ∼ \\unknown{x}"); // symbols; an unknown argument as written
    CHECK(tex_to_unicode("a lone $ sign, a trailing \\") == "a lone $ sign, a trailing \\");
    CHECK(tex_to_unicode("plain text") == "plain text");
    CHECK(tex_to_unicode("costs \\$5 or \\$6", true) == "costs \\$5 or \\$6"); // no formula for KaTeX
    CHECK_FALSE(has_tex("plain text - with a dash"));
    CHECK_FALSE(has_tex("state-of-the-art, long enough to be scanned sixteen bytes at a time -"));
    CHECK_FALSE(has_tex(""));
    for (const char* tex : {"--", "a--b", "state-of-the-art models, pages 2--3", "x\\_1", "Fig.~2",
                            "a long run of plain words before the escape at its end \\"})
        CHECK(has_tex(tex));
    CHECK(has_math("we bound $x$"));
    CHECK(has_math("\\[ x \\]"));
    CHECK_FALSE(has_math("costs \\$5 and \\$6"));
    CHECK_FALSE(has_math("a lone $ sign"));
}

TEST_CASE("tex: text formatting, the older switches, footnotes and citations read as text (titles, feeds, search)") {
    // Issue 43: seen raw in titles of the fixture archive and the reference's abstracts.
    CHECK(tex_to_unicode("\\emph{Attention} is \\texttt{all\\_you} \\textbf{need}") == "Attention is all_you need");
    CHECK(tex_to_unicode("{\\it Italic} and {\\em emph}, {\\bf bold Sch\\\"utze} {\\itshape y}") ==
          "Italic and emph, bold Schütze y");
    CHECK(tex_to_unicode("as shown~\\cite{smith2020, doe}. Next \\citep{x}") == "as shown. Next");
    CHECK(tex_to_unicode("Results\\footnote{Code: \\emph{here}.} hold") == "Results (Code: here.) hold");
    // Math keeps its TeX for KaTeX.
    CHECK(tex_to_unicode("\\emph{$\\phi$-Balancing}", true) == "$\\phi$-Balancing");
    CHECK(tex_to_unicode("$\\emph{x} \\alpha$ and \\(\\cite{y}\\)") == "$\\emph{x} \\alpha$ and \\(\\cite{y}\\)");
    // Outside math (an abstract that lost its dollars), symbols as letters; a paper's own macros by their
    // names; labels, references and definitions dropped.
    CHECK(tex_to_unicode("x \\in (1,\\infty), \\alpha \\to 0 \\ie \\svd{} and \\LSLORA") ==
          "x ∈ (1,∞), α → 0 i.e. svd and LSLORA");
    CHECK(tex_to_unicode("(see \\cref{fig:a}) \\newcommand{\\x}[1]{\\text{#1}}Text") == "(see) Text");
}

TEST_CASE("tex: plain text for where no math renderer runs (the feed, descriptions)") {
    CHECK(tex_to_plain("$\\ell_1$-norm and $O(n^2)$, \\emph{Sch\\\"utze}") == "ℓ₁-norm and O(n²), Schütze");
    CHECK(tex_to_plain("$\\phi$-Balancing: $\\mathcal{O}(\\frac{1}{\\sqrt{T}})$ at $x_{ij}$") ==
          "φ-Balancing: O(1/√T) at xᵢⱼ");
    CHECK(tex_to_plain("costs \\$5 and \\$6; \\(\\alpha\\) and $$\\beta^{2n}$$") == "costs $5 and $6; α and β²ⁿ");
}

// A title's simple formulas are written in Unicode at build time: the page's first screen does not move
// when KaTeX arrives (a raw "$x_{1}$" wraps a title to more lines than the typeset formula).
TEST_CASE("tex: for a page, the formulas Unicode writes whole are written so; the others stay for KaTeX") {
    CHECK(tex_for_page("Bounds on $x_{1}$ for $\\phi$-Balancing, $\\alpha \\le \\beta^2$") ==
          "Bounds on x₁ for φ-Balancing, α ≤ β²");
    CHECK(tex_for_page("$\\ell_1$-norm \\emph{Sch\\\"utze} and $O(n^2)$ in $\\mathbb{R}^n$") ==
          "ℓ₁-norm Schütze and O(n²) in $\\mathbb{R}^n$");
    // KaTeX's: fonts, fractions, roots, operator names, scripts Unicode lacks, words, display math.
    for (const char* kept : {"$\\mathcal{O}(1)$", "$\\frac{1}{T}$", "$\\sqrt{n+1}$", "$O(n \\log n)$", "$x_{\\max}$",
                             "$x^{y}$", "$a \\ie b$", "$$x_1$$", "\\(x_1\\)", "$a & b$", "$x_{}$"})
        CHECK_MESSAGE(tex_for_page(std::string("A ") + kept + " bound") == std::string("A ") + kept + " bound", kept);
    // An escaped dollar opens no formula; text without math is tex_to_unicode's for a math renderer.
    CHECK(tex_for_page("costs \\$5 and $k$-means") == "costs \\$5 and k-means");
    CHECK(tex_for_page("Q\\&A, 2--3") == tex_to_unicode("Q\\&A, 2--3", true));
}

TEST_CASE("abstracts: the older switches as HTML, a footnote in parentheses, citations dropped") {
    CHECK(abstract_to_html("A {\\it fast} and {\\bf sound \\emph{method}} {\\em here}, {\\tt code}.") ==
          "<p>A <i>fast</i> and <b>sound <em>method</em></b> <em>here</em>, <code>code</code>.</p>\n");
    CHECK(abstract_to_html("We win~\\cite{a,b}.\\footnote{See \\url{https://a.b/c}.}") ==
          "<p>We win. (See <a href=\"https://a.b/c\">https://a.b/c</a>.)</p>\n");
    CHECK(abstract_to_html("$ {\\bf x} $ and {\\itshape y} and {\\bf open") ==
          "<p>$ {\\bf x} $ and y and {\\bf open</p>\n");
}

TEST_CASE("abstracts: text-mode TeX formatting becomes HTML outside math and stays inside it") {
    CHECK(abstract_to_html(
              "We \\emph{prove} a \\textbf{tight} bound in \\texttt{code\\_x} \\textit{and} \\textsc{Caps}.") ==
          "<p>We <em>prove</em> a <b>tight</b> bound in <code>code_x</code> <i>and</i> Caps.</p>\n");
    // Nested, with a link and TeX letters inside; escaped as any text.
    CHECK(abstract_to_html("\\textbf{See \\emph{Sch\\\"utze} at \\url{https://a.b/c} <x>}") ==
          "<p><b>See <em>Schütze</em> at <a href=\"https://a.b/c\">https://a.b/c</a> &lt;x&gt;</b></p>\n");
    // Math keeps its TeX for KaTeX (which knows \textbf); an unclosed group stays as written.
    CHECK(abstract_to_html("$\\textbf{x} + \\text{y}$ and \\(\\emph{z}\\) \\textbf{a} \\emph{open") ==
          "<p>$\\textbf{x} + \\text{y}$ and \\(\\emph{z}\\) <b>a</b> \\emph{open</p>\n");
    CHECK(abstract_to_html("costs \\$5 \\textbf{b} \\$6") == "<p>costs \\$5 <b>b</b> \\$6</p>\n"); // \$ opens no math
}

TEST_CASE("abstract links: TeX \\url and \\href, escaped underscores, trailing punctuation") {
    CHECK(abstract_to_html("Code: https://github.com/Ugness/ReDi\\_discrete.") ==
          "<p>Code: <a "
          "href=\"https://github.com/Ugness/ReDi_discrete\">https://github.com/Ugness/ReDi_discrete</a>.</p>\n");
    CHECK(abstract_to_html("Code at \\url{https://github.com/microsoft/glinthawk}.") ==
          "<p>Code at <a "
          "href=\"https://github.com/microsoft/glinthawk\">https://github.com/microsoft/glinthawk</a>.</p>\n");
    CHECK(abstract_to_html("(\\url{ https://huggingface.co/ControlLLM})") ==
          "<p>(<a href=\"https://huggingface.co/ControlLLM\">https://huggingface.co/ControlLLM</a>)</p>\n");
    CHECK(abstract_to_html("at $\\href{https://github.com/a/b.git}{\\texttt{here}}$.") ==
          "<p>at <a href=\"https://github.com/a/b.git\">here</a>.</p>\n");
    CHECK(abstract_to_html("see [our page](https://x.org/a\\_b) (or https://y.org/p_(q)).") ==
          "<p>see <a href=\"https://x.org/a_b\">our page</a> (or <a "
          "href=\"https://y.org/p_(q)\">https://y.org/p_(q)</a>).</p>\n");
    CHECK(abstract_to_html("Sch\\\"utze's x86\\_64 <b> & $a\\_b$\n\nnext") ==
          "<p>Schütze&#39;s x86_64 &lt;b&gt; &amp; $a\\_b$</p>\n<p>next</p>\n");
    CHECK(
        abstract_to_html("not a link: https:// nor \\url{javascript:alert(1)}") ==
        "<p>not a link: https:// nor \\url{javascript:alert(1)}</p>\n"); // A URL starts at its scheme, not after a letter; links side by side; colons inside a link.
    CHECK(abstract_to_html("xhttps://a.b/c hhttp://d.e/f") == "<p>xhttps://a.b/c hhttp://d.e/f</p>\n");
    // A Markdown link that lost its "[": two links, no "](" inside an href.
    CHECK(abstract_to_html("Code: https://github.com/a/b](https://github.com/a/b).") ==
          "<p>Code: <a href=\"https://github.com/a/b\">https://github.com/a/b</a>](<a "
          "href=\"https://github.com/a/b\">https://github.com/a/b</a>).</p>\n");
    CHECK(abstract_to_html("[l](https://a.b/)https://c.d/e") ==
          "<p><a href=\"https://a.b/\">l</a><a href=\"https://c.d/e\">https://c.d/e</a></p>\n");
    CHECK(
        abstract_to_html("https://a.b/c:d and http://e.f/g: done") ==
        "<p><a href=\"https://a.b/c:d\">https://a.b/c:d</a> and <a href=\"http://e.f/g\">http://e.f/g</a>: done</p>\n");
}

namespace {

std::vector<fs::path> day_pages(const fs::path& site) {
    std::vector<fs::path> pages;
    for (const auto& entry : fs::recursive_directory_iterator(site)) {
        const std::string path = entry.path().generic_string();
        if (entry.path().filename() == "index.html" &&
            std::regex_search(path, std::regex("/\\d{4}/\\d{2}/\\d{2}/index.html$")))
            pages.push_back(entry.path());
    }
    std::sort(pages.begin(), pages.end());
    return pages;
}

// The hrefs of the links inside the abstracts of a default-theme day page:
// its paragraphs without a class, each up to the next line that starts an
// element (abstract text lines never do: its `<` are escaped, links are inline).
std::vector<std::string> abstract_links(const std::string& page) {
    const auto day = page.find("<article class=day>");
    const std::string html = day == std::string::npos ? "" : page.substr(day, page.find("</article>", day) - day);
    std::vector<std::string> links;
    const std::regex href("<a href=\"([^\"]*)\"");
    for (std::size_t at = html.find("\n<p>"); at != std::string::npos; at = html.find("\n<p>", at + 1)) {
        std::size_t stop = html.size();
        for (const char* next : {"\n<p", "\n<h", "\n</"}) stop = std::min(stop, html.find(next, at + 1));
        const std::string abstract = html.substr(at, stop - at);
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

// ---------------------------------------------------------------- pages --

namespace {

Paper reader_paper(const std::string& id, const std::string& title, std::optional<int> relevance,
                   std::optional<int> novelty, const std::string& topic = "") {
    Paper p;
    p.id = id;
    p.title = title;
    p.authors = {"Hinrich Sch\\\"utze", "Lenka Zdeborov\\'a"};
    p.abstract = "We study " + title + ".";
    p.relevance = relevance;
    p.novelty = novelty;
    p.author_match = !relevance;
    p.topic = topic;
    return p;
}

Day reader_day(const char* iso, std::vector<Paper> papers, DayStatus status = DayStatus::announced) {
    Day day;
    day.date = *parse_iso_date(iso);
    day.status = status;
    if (status == DayStatus::failed) day.reason = "the LLM quota ran out";
    day.model = "gpt-4o-mini";
    day.papers = std::move(papers);
    return day;
}

// July 2026 with papers until the 28th, then a quiet day and two failed runs; a month
// before with one day.
struct ReaderSite {
    TempDir dir;
    fs::path content() const { return dir / "content"; }
    ReaderSite() {
        fs::copy(source_dir() / "themes", dir / "themes", fs::copy_options::recursive);
        write_text(dir / "paperpress.yaml",
                   "title: Reader digest\nbase_url: https://user.github.io/repo/\nmonth_best: 3\n");
        save(reader_day("2026-06-30", {reader_paper("2606.00001", "June paper", 5, 5, "Theory")}));
        save(reader_day("2026-07-27",
                        {reader_paper("2607.00001", "Best of July", 10, 9, "Scaling laws"),
                         reader_paper("2607.00002", "Middling", 6, 6, "Theory"),
                         reader_paper("2607.00003", "A followed author's paper", std::nullopt, std::nullopt)}));
        save(reader_day("2026-07-28", {reader_paper("2607.00004", "Second best $O(n)$", 9, 9, "Theory"),
                                       reader_paper("2607.00005", "Weak", 5, 4, "Scaling laws")}));
        save(reader_day("2026-07-29", {}));
        save(reader_day("2026-07-30", {}, DayStatus::failed));
        save(reader_day("2026-07-31", {}, DayStatus::failed));
    }
    void save(const Day& day) const { REQUIRE(save_day(content(), day)); }
    CommandResult build(const std::string& extra = "") const {
        auto result = run_paperpress("build --out site" + extra, dir.path());
        INFO(result.err);
        REQUIRE(result.exit_code == 0);
        return result;
    }
    std::string page(const std::string& path) const { return read_text(dir / "site" / path / "index.html"); }
};

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

} // namespace

TEST_CASE("reader: after failed last days the home page shows the latest day with papers, with a note") {
    ReaderSite site;
    site.build();
    for (const std::string theme : {"default", "classic"}) {
        CAPTURE(theme);
        if (theme == "classic") site.build(" --theme classic");
        const auto home = site.page("");
        CHECK(home.find("Second best") != std::string::npos); // the papers of 2026-07-28
        CHECK(home.find("Newer days have no papers") != std::string::npos);
        // The newer days as one line: how many, their states, the first and the last.
        const auto note = home.substr(home.find("Newer days have no papers"), 600);
        CHECK(note.find(
                  "3 days (2 failed, 1 quiet), <a href=\"/repo/2026/07/29/\"><time "
                  "datetime=\"2026-07-29\">2026-07-29</time></a> to "
                  "<a href=\"/repo/2026/07/31/\"><time datetime=\"2026-07-31\">2026-07-31</time></a>. The latest") !=
              std::string::npos);
        CHECK(note.find("2026-07-30") == std::string::npos);
        CHECK(home.find("2026-07-31") != std::string::npos);
        CHECK(home.find("✕ run failed") != std::string::npos);
        CHECK(home.find("○ no papers") != std::string::npos);
        CHECK(home.find("The run for this day failed") == std::string::npos); // the banner stays on the day page
        CHECK(site.page("2026/07/31").find("The run for this day failed") != std::string::npos);
        const auto month = site.page("2026/07");
        CHECK(month.find("5 days (2 failed, 1 quiet)") != std::string::npos);
        CHECK(month.find("aria-label=\"run failed\">✕</span>") != std::string::npos);
        CHECK(read_text(site.dir / "site/archive/index.html").find("5 days (2 failed, 1 quiet)") != std::string::npos);
    }
}

TEST_CASE("reader: the feed carries the days with papers; failed days only as short notices newer than them") {
    ReaderSite site;
    write_text(site.dir / "paperpress.yaml",
               "title: Reader digest\nbase_url: https://user.github.io/repo/\nfeed_days: 2\n");
    site.build();
    const auto feed = read_text(site.dir / "site/feed.xml");
    CHECK(count_of(feed, "<entry>") == 3); // 07-29 to 07-31 (quiet, failed, failed) as one notice, then 07-28 and 07-27
    CHECK(feed.find("<entry><title>No papers from 2026-07-29 to "
                    "2026-07-31</title><id>https://user.github.io/repo/2026/07/29/</id>") !=
          std::string::npos); // named by the run's first day: one entry while the run grows
    CHECK(feed.find("<updated>2026-07-31T00:00:00Z</updated><published>2026-07-29T00:00:00Z</published>") !=
          std::string::npos);
    CHECK(feed.find("the latest run failed") != std::string::npos);
    CHECK(feed.find("2026-07-30") == std::string::npos);
    CHECK(feed.find("2026-07-27") != std::string::npos);
    CHECK(feed.find("2026-06-30") == std::string::npos);
    CHECK(feed.find("Sch\\\"utze") == std::string::npos);
    CHECK(feed.find("Schütze") != std::string::npos);

    SUBCASE("a longer run is still one notice, with the same id; a single day is its own") {
        for (const char* iso : {"2026-08-03", "2026-08-04", "2026-08-05"})
            site.save(reader_day(iso, {}, DayStatus::failed));
        site.build();
        const auto longer = read_text(site.dir / "site/feed.xml");
        CHECK(count_of(longer, "<entry>") == 3);
        CHECK(longer.find("<title>No papers from 2026-07-29 to "
                          "2026-08-05</title><id>https://user.github.io/repo/2026/07/29/</id>") != std::string::npos);
        site.save(reader_day("2026-08-06", {reader_paper("2608.00001", "August paper", 7, 7)}));
        site.save(reader_day("2026-08-07", {}, DayStatus::failed));
        site.build();
        const auto single = read_text(site.dir / "site/feed.xml");
        CHECK(count_of(single, "<entry>") == 3); // 08-07's notice, 08-06 and 07-28
        CHECK(single.find("<title>arXiv papers for 2026-08-07 (run failed)</title>") != std::string::npos);
        CHECK(single.find("No papers from") == std::string::npos);
    }

    SUBCASE("a partial or stale day with papers says so, with its reason") {
        Day partial = reader_day("2026-07-28", {reader_paper("2607.00004", "Second best $O(n)$", 9, 9, "Theory")},
                                 DayStatus::partial);
        partial.reason = "3 of 40 candidates unscored <rate limit>";
        site.save(partial);
        site.build();
        const auto again = read_text(site.dir / "site/feed.xml");
        CHECK(again.find("arXiv papers for 2026-07-28 (1 paper, partial)") != std::string::npos);
        CHECK(again.find("This day is partial: 3 of 40 candidates unscored &amp;lt;rate limit&amp;gt;.") !=
              std::string::npos);
    }
}

TEST_CASE("reader: names, titles and search words show TeX as letters; the day file keeps arXiv's text") {
    ReaderSite site;
    site.build();
    const auto day = site.page("2026/07/27");
    CHECK(day.find("Hinrich Schütze, Lenka Zdeborová") != std::string::npos);
    CHECK(day.find("Sch\\\"utze") == std::string::npos);
    CHECK(read_text(site.content() / "2026/07/2026-07-27.md").find("Schütze") == std::string::npos);
    // The month data keeps arXiv's text, and the letters the search page shows and matches.
    const auto month = std::optional(read_text(site.dir / "site/data/2026-07.json"));
    CHECK(month->find("\"unicode\":{\"title\"") != std::string::npos);
    CHECK(month->find("Schütze") != std::string::npos);
    CHECK(month->find(R"(Sch\\\"utze)") != std::string::npos); // JSON-escaped Sch\"utze
}

TEST_CASE("reader: TeX's text formats in a title read as text on the day page, in the feed and the search data") {
    ReaderSite site;
    site.save(reader_day("2026-07-01", {reader_paper("2607.00009", "\\emph{Robust} {\\bf Models}~\\cite{x}", 8, 8)}));
    site.build();
    CHECK(site.page("2026/07/01").find("Robust Models</a>") != std::string::npos);
    const auto feed = read_text(site.dir / "site/feed.xml");
    CHECK(feed.find("Robust Models") != std::string::npos);
    CHECK(feed.find("emph") == std::string::npos);
    CHECK(feed.find("Second best O(n)") != std::string::npos); // feed readers typeset no math: plain text
    CHECK(feed.find("$O(n)$") == std::string::npos);
    const auto month = read_text(site.dir / "site/data/2026-07.json");
    CHECK(month.find("\"title\":\"Robust Models\"") != std::string::npos); // what the search page shows
}

TEST_CASE("reader: notifications name the authors as letters") {
    Day day = reader_day("2026-07-27", {reader_paper("2607.00001", "Best of July", 10, 9)});
    day.papers[0].authors = {"Fran\\c{c}ois-Xavier Briol", "Hinrich Sch\\\"utze"};
    const auto message = summarize_day(day, Config{}, 5);
    REQUIRE(message.top.size() == 1);
    CHECK(message.top[0].authors == "François-Xavier Briol, Hinrich Schütze");
}

TEST_CASE("reader: KaTeX only on pages with math; without KaTeX's files math must be turned off") {
    ReaderSite site;
    site.build();
    CHECK(site.page("2026/07/28").find("katex") != std::string::npos); // "$O(n)$" in a title
    CHECK(site.page("2026/07/27").find("katex") == std::string::npos);
    CHECK(read_text(site.dir / "site/archive/index.html").find("katex") == std::string::npos);
    CHECK(read_text(site.dir / "site/404.html").find("katex") == std::string::npos);
    // The search results and the reading list show titles with math (issue 43).
    CHECK(read_text(site.dir / "site/search/index.html").find("katex.min.js") != std::string::npos);
    CHECK(read_text(site.dir / "site/starred/index.html").find("katex.min.js") != std::string::npos);
    auto missing = run_paperpress_env("PAPERPRESS_KATEX_DIR=/nonexistent", "build --out site2", site.dir.path());
    CHECK(missing.exit_code != 0);
    CHECK(missing.err.find("math: false") != std::string::npos);
    write_text(site.dir / "paperpress.yaml", "title: Reader digest\nmath: false\n");
    auto off = run_paperpress_env("PAPERPRESS_KATEX_DIR=/nonexistent", "build --out site3", site.dir.path());
    INFO(off.err);
    CHECK(off.exit_code == 0);
    CHECK(read_text(site.dir / "site3/2026/07/28/index.html").find("katex") == std::string::npos);
}

TEST_CASE("reader: the month page ranks its best papers, keeps author matches and counts topics") {
    ReaderSite site;
    site.build();
    for (const std::string theme : {"default", "classic"}) {
        CAPTURE(theme);
        if (theme == "classic") site.build(" --theme classic");
        const auto month = site.page("2026/07");
        const auto best = month.find("Best of July");
        const auto second = month.find("Second best");
        const auto followed = month.find("A followed author");
        REQUIRE(best != std::string::npos);
        REQUIRE(second != std::string::npos);
        REQUIRE(followed != std::string::npos);
        CHECK(best < second);
        CHECK(second < followed); // author matches have no score: kept, ranked last
        const auto list = month.substr(month.find("best-list"),
                                       month.find("</ol>", month.find("best-list")) - month.find("best-list"));
        CHECK(list.find(">Middling<") == std::string::npos); // month_best: 3
        CHECK(month.find("<td>Theory</td><td>2</td>") != std::string::npos);
        CHECK(month.find("<td>Scaling laws</td><td>2</td>") != std::string::npos);
    }
}

TEST_CASE("month best-of: a paper the archive has on two days is listed once") {
    std::vector<Day> days = {
        reader_day("2026-07-01", {reader_paper("2607.00001", "Twice", 7, 7),
                                  reader_paper("2607.00002", "Followed twice", std::nullopt, std::nullopt)}),
        reader_day("2026-07-02", {reader_paper("2607.00001", "Twice", 9, 9),
                                  reader_paper("2607.00002", "Followed twice", std::nullopt, std::nullopt),
                                  reader_paper("2607.00003", "Once", 5, 5)}),
    };
    for (int limit : {2, 3, 20}) {
        CAPTURE(limit);
        std::vector<DayBest> shares;
        for (const auto& day : days) shares.push_back(day_best(day, limit));
        std::vector<std::string> listed;
        for (const auto& entry : month_best(shares, limit).papers)
            listed.push_back(entry.paper.id + " " + entry.date.iso());
        // The author match on its first day; the other at its best score.
        std::vector<std::string> expected = {"2607.00001 2026-07-02", "2607.00003 2026-07-02", "2607.00002 2026-07-01"};
        if (limit == 2) expected = {"2607.00001 2026-07-02", "2607.00002 2026-07-01"};
        CHECK(listed == expected);
    }
}

TEST_CASE("month best-of: made from the days' shares, it is the month's best with ties in date order") {
    // Ties at 14 across days, author matches beyond the limit, a limit smaller than a day.
    std::vector<Day> days = {
        reader_day("2026-07-01", {reader_paper("2607.00001", "Tie one", 7, 7, "Theory"),
                                  reader_paper("2607.00002", "Best", 9, 9, "Theory"),
                                  reader_paper("2607.00003", "Followed one", std::nullopt, std::nullopt),
                                  reader_paper("2607.00004", "Low", 2, 2)}),
        reader_day("2026-07-02", {reader_paper("2607.00011", "Followed two", std::nullopt, std::nullopt),
                                  reader_paper("2607.00012", "Tie two", 7, 7, "Scaling laws"),
                                  reader_paper("2607.00013", "Tie three", 8, 6, "Theory"),
                                  reader_paper("2607.00014", "Followed three", std::nullopt, std::nullopt)}),
    };
    for (int limit : {1, 2, 3, 4, 5, 20}) {
        CAPTURE(limit);
        std::vector<DayBest> shares;
        for (const auto& day : days) shares.push_back(day_best(day, limit));
        const MonthBest best = month_best(shares, limit);
        // Every author match first (in date order, up to the limit), then the best scores.
        std::vector<std::string> expected;
        for (const char* title :
             {"Followed one", "Followed two", "Followed three", "Best", "Tie one", "Tie two", "Tie three", "Low"})
            if (expected.size() < static_cast<std::size_t>(limit)) expected.push_back(title);
        std::stable_sort(expected.begin(), expected.end(), [&](const std::string& a, const std::string& b) {
            auto score = [](const std::string& t) {
                return t == "Best" ? 18 : t.starts_with("Tie") ? 14 : t == "Low" ? 4 : 0;
            };
            return score(a) > score(b);
        });
        std::vector<std::string> titles;
        for (const auto& entry : best.papers) titles.push_back(entry.paper.title);
        CHECK(titles == expected);
        for (const auto& entry : best.papers) CHECK(entry.paper.abstract.empty()); // a best-of shows no abstract
        using Topics = std::vector<std::pair<std::string, int>>;
        CHECK(best.topics == Topics{{"", 4}, {"Theory", 3}, {"Scaling laws", 1}}); // every paper counts
    }
}

TEST_CASE("reader: day pages group papers by topic with counts, or keep the ranked list") {
    ReaderSite site;
    site.build();
    auto day = site.page("2026/07/27");
    CHECK(day.find("<h2 class=topic-head id=t-scaling-laws>Scaling laws <span class=count>(1)</span></h2>") !=
          std::string::npos);
    CHECK(day.find("Other topics") != std::string::npos);
    write_text(site.dir / "paperpress.yaml", "title: Reader digest\ngroup_by_topic: false\n");
    site.build();
    day = site.page("2026/07/27");
    CHECK(day.find("Other topics") == std::string::npos);
    CHECK(day.find("t-scaling-laws") == std::string::npos);
    site.build(" --theme classic");
    day = site.page("2026/07/27");
    CHECK(day.find("start=\"0\"") == std::string::npos); // numbered from 1
}

TEST_CASE("reader: the default theme has a favicon under the base URL, and both themes a starred page") {
    ReaderSite site;
    site.build();
    CHECK(site.page("").find("href=\"/repo/static/favicon.svg\"") != std::string::npos);
    CHECK(fs::is_regular_file(site.dir / "site/static/favicon.svg"));
    CHECK(site.page("starred").find("id=\"starred-list\"") != std::string::npos);
    // The keys' hint: site.js adds it where the shortcuts work.
    CHECK(site.page("2026/07/27").find("<footer class=site data-keys>") != std::string::npos);
    CHECK(read_text(site.dir / "site/archive/index.html").find("data-keys") == std::string::npos);
    site.build(" --theme classic");
    CHECK(site.page("starred").find("id=\"starred-list\"") != std::string::npos);
}

// ------------------------------------------------------- month overview --

namespace {

// An OpenAI-compatible endpoint on loopback that answers every request with `overview`.
struct OverviewLlm {
    LoopbackServer http;
    std::vector<std::string> bodies;
    std::string overview = "July was about **scaling laws**.";
    OverviewLlm() {
        http.server.Post("/v1/chat/completions", [this](const httplib::Request& req, httplib::Response& res) {
            bodies.push_back(req.body);
            res.set_content("{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"" + overview +
                                "\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":1000,"
                                "\"completion_tokens\":100}}",
                            "application/json");
        });
        http.start();
    }
    ~OverviewLlm() { http.stop(); }
};

} // namespace

TEST_CASE("month overview: written once when the month's last announcement is in, never rewritten unless asked") {
    ReaderSite site;
    OverviewLlm llm;
    const ArxivCalendar calendar = arxiv_calendar(ArxivSettings{});
    CHECK(last_announcement(calendar, 2026, 7) == *parse_iso_date("2026-07-31"));
    CHECK(last_announcement(calendar, 2026, 5) == *parse_iso_date("2026-05-29")); // the 31st is a Sunday
    // No mailing on the evening of Tuesday 30 December 2025: December's last announcement is the 30th's.
    CHECK(last_announcement(calendar, 2025, 12) == *parse_iso_date("2025-12-30"));
    CHECK(months_to_summarize(site.content(), calendar, {*parse_iso_date("2026-07-30")}) ==
          std::vector<std::pair<int, int>>{{2026, 6}}); // July is not over; June is
    CHECK(months_to_summarize(site.content(), calendar, {*parse_iso_date("2026-07-31")}) ==
          std::vector<std::pair<int, int>>{{2026, 6}, {2026, 7}});

    Config config;
    config.llm.base_url = llm.http.url("/v1");
    config.llm.model = "gpt-4o-mini";
    auto written = write_month_overview({2026, 7, site.content(), false, "test-key"}, config);
    REQUIRE(written);
    CHECK(written->written);
    REQUIRE(llm.bodies.size() == 1);
    CHECK(llm.bodies[0].find("Best of July") != std::string::npos);
    // The scoring's sampling: temperature 0 and the seed, for an overview that does not change on a rerun.
    CHECK(llm.bodies[0].find("\"temperature\":0") != std::string::npos);
    CHECK(llm.bodies[0].find("\"seed\":42") != std::string::npos);
    CHECK(llm.bodies[0].find("response_format") == std::string::npos);
    CHECK(llm.bodies[0].find("Schütze") == std::string::npos); // titles and abstracts, not names
    auto summary = load_month_summary(site.content(), 2026, 7);
    REQUIRE(summary);
    REQUIRE(summary->has_value());
    CHECK((*summary)->generated);
    CHECK((*summary)->model == "gpt-4o-mini");
    REQUIRE((*summary)->cost);
    CHECK(*(*summary)->cost > 0);
    CHECK((*summary)->markdown == "July was about **scaling laws**.");
    CHECK(months_to_summarize(site.content(), calendar, {*parse_iso_date("2026-07-31")}) ==
          std::vector<std::pair<int, int>>{{2026, 6}}); // July has its overview now

    // A person's edit stays; only --summary (force) writes again.
    write_text(site.content() / "2026/07/summary.md", "Edited by hand.\n");
    auto again = write_month_overview({2026, 7, site.content(), false, "test-key"}, config);
    REQUIRE(again);
    CHECK_FALSE(again->written);
    CHECK(llm.bodies.size() == 1);
    CHECK(read_text(site.content() / "2026/07/summary.md") == "Edited by hand.\n");

    // The month page shows it; the content check does not take it for a misplaced day file.
    auto built = site.build();
    CHECK(built.err.find("summary.md") == std::string::npos);
    CHECK(site.page("2026/07").find("<p>Edited by hand.</p>") != std::string::npos);

    llm.overview = "Rewritten.";
    auto forced = run_paperpress_env("OPENAI_BASE_URL=" + llm.http.url("/v1") + " OPENAI_API_KEY=test-key",
                                     "run --summary 2026-07 --out site", site.dir.path());
    INFO(forced.err);
    CHECK(forced.exit_code == 0);
    auto page = site.page("2026/07");
    CHECK(page.find("<p>Rewritten.</p>") != std::string::npos);
    CHECK(page.find("generated") != std::string::npos);
    CHECK(page.find("gpt-4o-mini") != std::string::npos);
}
