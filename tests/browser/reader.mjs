// Browser tests for the reader (issue 20), in Debian's headless Chromium
// driven by playwright-core:
//
//   node tests/browser/reader.mjs --paperpress build/generator/paperpress [--source .] [--keep]
//
// Builds the sample archive, with two failed runs after its last day, in
// both themes under the sub-path /sub/, and checks: the home page shows the
// latest day with papers and a note about the failed days; every page kind
// (and every day page) fits a 390 px phone without scrolling sideways
// (screenshots kept with --keep); ←/→ and k/j move between days and "/"
// focuses the search box, also after a reload, but not while typing; a star
// keeps a paper in the reading list across reloads, and the list exports
// BibTeX and arXiv IDs without any request leaving the site.
//
// Exit 0: all passed; 1: a check failed; 77: skipped (as run.mjs).
import fs from "node:fs";
import path from "node:path";
import { PAPER, checks, expect, katexReady, launch, openPage, sampleSite, setUp, sidewaysOverflow, tearDown } from "./harness.mjs";
import { serve } from "./server.mjs";

const { options, chromium, chromiumPath, skip } = setUp("reader browser test", "reader.mjs");
if (!fs.existsSync(path.join(options.source, "node_modules/katex/dist/katex.min.js")))
  skip("KaTeX is not installed in node_modules");

const started = Date.now();
const { tmp, root, run } = sampleSite(options, "reader");
// The last day with papers is 2026-04-30; two failed runs follow it.
const latest = "2026-04-30";
fs.mkdirSync(path.join(root, "content/2026/05"), { recursive: true });
for (const date of ["2026-05-01", "2026-05-04"])
  fs.writeFileSync(path.join(root, "content/2026/05", `${date}.md`),
                   `---\ndate: ${date}\nstatus: failed\nreason: the LLM quota ran out\n---\n\n# arXiv papers for ${date}\n`);
fs.symlinkSync(path.join(options.source, "node_modules"), path.join(root, "node_modules"));
fs.writeFileSync(path.join(root, "paperpress.yaml"), "title: Reader digest\nbase_url: /sub/\n");
const sites = {};
for (const theme of ["default", "classic"]) {
  run(["build", "--theme", theme, "--out", `out-${theme}/sub`]);
  sites[theme] = path.join(root, `out-${theme}`);
}
const shots = path.join(tmp, "screenshots");
fs.mkdirSync(shots);

const { check, tally } = checks();

const servers = {};
for (const [name, site] of Object.entries(sites)) servers[name] = await serve(fs.realpathSync(site));
const browser = await launch(chromium, chromiumPath);

// Script errors and failed requests fail a check (a /favicon.ico outside /sub/ among them).
const open = (context, problems) => openPage(context, problems, { timeout: 30000, expectedMissing: "/no-such-page/" });
const dayPath = (iso) => `/sub/${iso.slice(0, 4)}/${iso.slice(5, 7)}/${iso.slice(8, 10)}/`;
// The page's width beyond the viewport: 0 when nothing makes it scroll sideways.
const overflow = sidewaysOverflow;

try {
  for (const theme of ["default", "classic"]) {
    const base = servers[theme].url;

    await check(`${theme}: after failed last days the home page shows the latest day with papers and a note`, async () => {
      const problems = [];
      const context = await browser.newContext();
      const page = await open(context, problems);
      await page.goto(base + "/sub/");
      const note = page.locator(".newer");
      expect((await note.textContent()).includes("2026-05-04"), "the note names the newest failed day");
      expect((await note.textContent()).includes("2 days (2 failed)"), "and counts them, in words");
      expect(await note.locator("a").count() === 2, "one short line: the first and the last of them");
      expect((await page.locator("h1").first().textContent()).includes(theme === "classic" ? latest : "30 April 2026"),
             "the latest day with papers is shown");
      expect(await page.locator(PAPER).count() > 0, "with its papers");
      await page.locator(`.newer a[href="${dayPath("2026-05-04")}"]`).click();
      await page.waitForURL(base + dayPath("2026-05-04"));
      expect(await page.locator('[role="alert"]', { hasText: "failed" }).count() === 1, "the failed day keeps its banner");
      await page.goto(base + "/sub/2026/05/");
      expect((await page.locator("main").textContent()).includes("2 days (2 failed)"), "the month counts its failed days");
      expect(await page.locator('.calendar .failed [aria-label="run failed"]').count() === 2, "the calendar marks them");
      expect(problems.length === 0, problems.join("; "));
      await context.close();
    });

    await check(`${theme}: every page kind fits a 390 px phone (no sideways scroll), every day page too`, async () => {
      const problems = [];
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
      const page = await open(context, problems);
      const kinds = { home: "/sub/", day: dayPath(latest), "day-math": "/sub/2025/02/25/", month: "/sub/2026/04/",
                      "month-failed": "/sub/2026/05/", year: "/sub/2026/", archive: "/sub/archive/", search: "/sub/search/?q=learning",
                      starred: "/sub/starred/", "404": "/sub/no-such-page/" };
      const prompts = path.join(sites[theme], "sub/prompts");
      if (fs.existsSync(prompts)) kinds.prompt = `/sub/prompts/${fs.readdirSync(prompts).sort()[0]}/`; // a selection prompt's page
      const wide = [];
      for (const [kind, where] of Object.entries(kinds)) {
        await page.goto(base + where, { waitUntil: "load" });
        if (kind === "search") await page.locator(".search-result").first().waitFor();
        await page.screenshot({ path: path.join(shots, `${theme}-${kind}.png`), fullPage: true, timeout: 60000 });
        const extra = await overflow(page);
        if (extra > 0) wide.push(`${kind} (${where}) by ${extra} px`);
        if (kind === "day") { // the date in the heading on one line; every table shown whole (nothing scrolled out of sight)
          const lines = await page.evaluate(() => document.querySelector("h1 time").getClientRects().length);
          expect(theme === "default" || lines === 1, `the heading's date (classic's ISO date) on ${lines} lines`);
          const hidden = await page.evaluate(() => [...document.querySelectorAll("main table")]
            .filter((t) => t.scrollWidth > t.clientWidth + 1).map((t) => `${t.className} by ${t.scrollWidth - t.clientWidth} px`));
          expect(hidden.length === 0, `tables that scroll: ${hidden.join(", ")}`);
        }
        if (kind === "day-math") { // 76 papers: the contents list is closed, the first paper on the first screens
          const top = await page.evaluate((selector) => document.querySelector(selector).getBoundingClientRect().top, PAPER);
          expect(top < 2 * 844, `the first paper starts at ${top} px`);
        }
        if (kind.startsWith("month")) { // the whole week shows, Saturday too (not scrolled out of the calendar's box)
          const saturday = await page.evaluate(() => {
            const cells = document.querySelectorAll(".calendar thead tr:last-child th");
            return cells.length ? cells[cells.length - 1].getBoundingClientRect().right : 0;
          });
          expect(saturday > 0 && saturday <= 390, `Saturday's column ends at ${saturday} px`);
        }
      }
      const index = JSON.parse(fs.readFileSync(path.join(sites[theme], "sub/data/index.json"), "utf8"));
      for (const day of index.days) {
        await page.goto(base + dayPath(day.date), { waitUntil: "load" });
        const extra = await overflow(page);
        if (extra > 0) wide.push(`${day.date} by ${extra} px`);
      }
      expect(wide.length === 0, `pages wider than 390 px: ${wide.slice(0, 8).join(", ")} (${wide.length} in all)`);
      expect(problems.length === 0, problems.slice(0, 5).join("; "));
      await context.close();
    });

    await check(`${theme}: ←/→ and k/j move between days, "/" searches, also after a reload, not while typing`, async () => {
      const problems = [];
      const context = await browser.newContext();
      const page = await open(context, problems);
      await page.goto(base + dayPath("2026-04-29"));
      expect((await page.locator("footer").textContent()).includes("previous"), "the footer shows the keys");
      await page.keyboard.press("j");
      await page.waitForURL(base + dayPath(latest));
      await page.keyboard.press("k");
      await page.waitForURL(base + dayPath("2026-04-29"));
      await page.reload();
      await page.keyboard.press("ArrowRight");
      await page.waitForURL(base + dayPath(latest));
      await page.keyboard.press("ArrowLeft");
      await page.waitForURL(base + dayPath("2026-04-29"));
      await page.keyboard.press("/");
      expect(await page.evaluate(() => document.activeElement && document.activeElement.type === "search"),
             '"/" focuses the search box');
      await page.keyboard.type("jk");
      await page.waitForTimeout(300);
      expect(page.url() === base + dayPath("2026-04-29"), "typing j/k in the search box does not navigate");
      expect(await page.evaluate(() => document.activeElement.value) === "jk", "the letters went into the box");
      await page.goto(base + "/sub/2026/04/"); // a month page: k is its previous month
      const previousMonth = await page.locator('a[rel="prev"]').first().getAttribute("href");
      await page.keyboard.press("k");
      await page.waitForURL(base + previousMonth);
      await page.goto(base + "/sub/2026/"); // a year page too (issue 33): k is the previous year
      await page.keyboard.press("k");
      await page.waitForURL(base + "/sub/2025/");
      await page.goto(base + "/sub/search/"); // on the search page "/" goes to the page's own box
      await page.keyboard.press("/");
      expect(await page.evaluate(() => document.activeElement && document.activeElement.id === "search-query"),
             '"/" focuses the search page\'s box');
      expect(problems.length === 0, problems.join("; "));
      await context.close();
    });

    if (theme === "default")
      await check(`${theme}: site.js lists the contents from the headings (every paper in order, topics with counts) and adds the controls that need it; without JavaScript the papers are all there, and no control that would do nothing`, async () => {
        const problems = [];
        const context = await browser.newContext();
        const page = await open(context, problems);
        const contents = () => page.evaluate((paperSelector) => ({
          entries: [...document.querySelectorAll("nav.toc ol > li")].map((li) =>
            [li.firstElementChild.getAttribute("href"), li.firstElementChild.textContent]),
          papers: [...document.querySelectorAll(paperSelector)].map((h) =>
            ["#" + h.id, h.querySelector('a[href*="arxiv.org/abs/"]').textContent]),
          topics: [...document.querySelectorAll("nav.toc .topics > li")].map((li) =>
            `${li.firstElementChild.getAttribute("href")} ${li.firstElementChild.textContent} ${li.querySelector(".count").textContent}`),
          heads: [...document.querySelectorAll(".topic-head")].map((h) => `#${h.id} ${h.textContent}`),
          numbers: [...document.querySelectorAll("nav.toc ol > li")].map((li) => li.value),
        }), PAPER);
        for (const [date, grouped] of [["2026-04-23", true], ["2026-04-01", false]]) {
          await page.goto(base + dayPath(date));
          const toc = await contents();
          expect(toc.papers.length > 1, `${date}: papers on the page`);
          expect(JSON.stringify(toc.entries) === JSON.stringify(toc.papers),
                 `${date}: one entry per paper, in order: ${JSON.stringify(toc.entries.slice(0, 2))}`);
          expect(JSON.stringify(toc.numbers) === JSON.stringify(toc.papers.map((_, i) => i + 1)),
                 `${date}: numbered 1..${toc.papers.length} across topics: ${toc.numbers.join(",")}`);
          expect(grouped === toc.topics.length > 0, `${date}: grouped by topic: ${grouped}`);
          expect(JSON.stringify(toc.topics) === JSON.stringify(toc.heads),
                 `${date}: each topic with its count: ${toc.topics[0]} / ${toc.heads[0]}`);
        }
        expect(await page.locator("header form.search-box input[type=search]").count() === 1, "the search box");
        expect(await page.locator("header .theme-toggle").count() === 1, "the light/dark button");
        expect(await page.locator("footer .keys kbd").count() > 0, "the keys' hint");
        // A big day (more than 20 papers) shows its contents closed, saying how many; a click opens them.
        const papers = await page.locator(PAPER).count();
        expect(papers > 20, `the last day checked is big (${papers} papers)`);
        expect(await page.locator("nav.toc details:not([open]) > summary").textContent() === `All ${papers} papers`,
               "its contents list starts closed");
        await page.locator("nav.toc summary").click();
        const third = page.locator("nav.toc ol > li > a").nth(2);
        const href = await third.getAttribute("href");
        await third.click();
        await page.waitForURL((url) => url.hash === href);
        await context.close();

        const still = await browser.newContext({ javaScriptEnabled: false });
        const plain = await open(still, problems);
        await plain.goto(base + dayPath("2026-04-23"));
        // A day of up to 20 papers carries its contents list in the page (nothing moves when site.js runs).
        expect(await plain.locator("nav.toc a[href^='#p-']").count() === 13, "the contents list, in the page");
        expect(await plain.locator("article.day > h2 a[href*='arxiv.org/abs/']").count() === 13, "all 13 papers, linked");
        expect(await plain.locator("article.day > h2 + .meta a", { hasText: "PDF" }).count() === 13, "each with its PDF link");
        expect(await plain.locator("header a.search-box").getAttribute("href") === "/sub/search/", "a link to the search page");
        expect(await plain.locator("form, .theme-toggle, .keys").count() === 0, "no search box, light/dark button or keys' hint");
        await still.close();
        expect(problems.length === 0, problems.join("; "));
      });

    await check(`${theme}: a day shows only the papers scoring at least a chosen score, and all again`, async () => {
      const problems = [];
      const context = await browser.newContext();
      const page = await open(context, problems);
      await page.goto(base + "/sub/2025/02/25/"); // 76 papers
      const values = await page.locator("#score-filter option").evaluateAll((options) => options.map((o) => o.value));
      expect(values.length > 2 && values[0] === "0", `the choices: ${values.join(", ")}`);
      const least = values[1]; // the day's best score
      await page.selectOption("#score-filter", least);
      const shown = (selector) => page.evaluate((s) => [...document.querySelectorAll(s)].filter((p) => !p.hidden)
        .map((p) => p.getAttribute("data-score")), selector);
      const kept = await shown(PAPER);
      expect(kept.length > 0 && kept.length < 76 && kept.every((s) => s === null || Number(s) >= Number(least)),
             `score ${least} or more: ${kept.length} papers shown (${kept.slice(0, 5).join(", ")})`);
      expect((await page.locator("#score-filter option").nth(1).textContent()).endsWith(`(${kept.length})`),
             "the choice says how many papers it keeps");
      await page.selectOption("#score-filter", "0");
      expect((await shown(PAPER)).length === 76, "every paper again");
      expect(problems.length === 0, problems.join("; "));
      await context.close();
    });

    await check(`${theme}: a star keeps a paper in the reading list across reloads; BibTeX and IDs export`, async () => {
      const problems = [];
      const context = await browser.newContext({ acceptDownloads: true });
      const page = await open(context, problems);
      const outside = [];
      page.on("request", (request) => {
        if (!request.url().startsWith(base + "/sub/")) outside.push(request.url());
      });
      await page.goto(base + dayPath(latest));
      const paper = page.locator(PAPER).first(); // classic: a section; default: the paper's h2
      const id = (await paper.getAttribute("id")).slice(2);
      const title = (await paper.locator('a[href*="arxiv.org/abs/"]').textContent()).trim();
      const star = paper.locator("button.star");
      expect(await star.getAttribute("aria-pressed") === "false", "not starred at first");
      await star.click();
      expect(await star.getAttribute("aria-pressed") === "true", "starred after the click");
      await page.reload();
      expect(await page.locator(PAPER).first().locator("button.star").getAttribute("aria-pressed") === "true",
             "still starred after a reload");
      await page.goto(base + "/sub/starred/");
      await page.reload();
      const items = page.locator("#starred-list li");
      expect(await items.count() === 1, `one starred paper, got ${await items.count()}`);
      expect((await items.first().textContent()).includes(title), "listed by its title");
      expect(await page.locator("#starred-empty").isHidden(), "the empty note is hidden");
      expect(await page.evaluate(() => localStorage.getItem("paperpress-starred:/sub/")) !== null,
             "kept under the site's sub-path");
      const [ids] = await Promise.all([page.waitForEvent("download"), page.click("#starred-ids")]);
      expect(fs.readFileSync(await ids.path(), "utf8") === `${id}\n`, "the IDs export");
      const [bib] = await Promise.all([page.waitForEvent("download"), page.click("#starred-bibtex")]);
      const bibtex = fs.readFileSync(await bib.path(), "utf8");
      expect(bibtex.startsWith("@misc{") && bibtex.includes(`eprint = {${id}}`), `the BibTeX export: ${bibtex}`);
      // A title with math is kept as written, not as it is shown (issue 33, item 4): "R$^3$Mem", which the
      // build writes as "R³Mem" (issue 43: the page does not move when KaTeX comes).
      await page.goto(base + dayPath("2025-02-25"));
      const withMath = page.locator("#p-2502\\.15957");
      await withMath.scrollIntoViewIfNeeded();
      const shown = (await withMath.locator('a[href*="arxiv.org/abs/"]').first().textContent()).trim();
      expect(shown.startsWith("R³Mem: Bridging"), `the title as shown: ${shown}`);
      await withMath.locator("button.star").click();
      const kept = await page.evaluate(() => JSON.parse(localStorage.getItem("paperpress-starred:/sub/")));
      const math = kept.find((p) => p.id === "2502.15957");
      expect(math && math.title.startsWith("R$^3$Mem: Bridging"), `the raw title kept: ${math && math.title}`);
      // Commands KaTeX lacks but abstracts use (\Tilde) typeset, not shown in red (item 5).
      await katexReady(page);
      const tilde = await page.evaluate(() => {
        const p = document.createElement("p");
        p.textContent = "$\\Tilde{x}$";
        document.querySelector("main").append(p);
        window.paperpressTypeset(p);
        const typeset = p.querySelector(".katex") !== null && p.querySelector(".katex-error") === null;
        p.remove();
        return typeset;
      });
      expect(tilde, "\\Tilde typesets");
      // A feed day's authors carry affiliations: BibTeX gets the names alone (issue 42, item 1).
      await page.evaluate(() => {
        const key = "paperpress-starred:/sub/";
        const kept = JSON.parse(localStorage.getItem(key));
        kept.push({ id: "2505.00001", title: "Affiliated", date: "2025-05-01",
                    authors: "Kaiming He (MIT, CSAIL), Wei (David) Zhang (ETH), A. Smith (Inst. (IIT) Delhi)" });
        localStorage.setItem(key, JSON.stringify(kept));
      });
      await page.goto(base + "/sub/starred/");
      const [bib2] = await Promise.all([page.waitForEvent("download"), page.click("#starred-bibtex")]);
      const bibtex2 = fs.readFileSync(await bib2.path(), "utf8");
      expect(bibtex2.includes("title = {R$^3$Mem: Bridging"), `the BibTeX title as written: ${bibtex2}`);
      expect(bibtex2.includes("author = {Kaiming He and Wei (David) Zhang and A. Smith}"),
             `the BibTeX authors without affiliations: ${bibtex2}`);
      await items.first().locator("a").click();
      await page.waitForURL((url) => url.pathname === dayPath(latest) && url.hash === `#p-${id}`);
      expect(outside.length === 0, `requests outside the site: ${outside.join(", ")}`);
      expect(problems.length === 0, problems.join("; "));
      await context.close();
    });
  }
} finally {
  await tearDown({ browser, servers, tmp, keep: options.keep, kept: ` (screenshots in ${shots})` });
}

console.log(`reader browser test: ${tally.passed} passed, ${tally.failures.length} failed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(tally.failures.length === 0 ? 0 : 1);
