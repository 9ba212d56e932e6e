// Browser tests of the built site, in Debian's headless Chromium driven by
// playwright-core (npm; it never downloads a browser).
//
//   node tests/browser/run.mjs --paperpress build/generator/paperpress [--source .]
//
// Builds the sample archive (content/) with each shipped theme, and once
// with a one-file override in layouts/, into a temp folder; serves each
// site on 127.0.0.1 (a random port); then clicks through it: home -> day ->
// next day -> month -> year; a search finds a known paper and loads the
// archive's month data lazily; the light/dark choice persists across pages; a
// formula is typeset by KaTeX; every link, script and stylesheet of the
// main page kinds answers 200 in both themes; the override wins.
//
// Exit 0: all passed; 1: a check failed; 77: skipped (Chromium or
// playwright-core missing) - never under CI=true, where that is a failure.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PAPER, checks, expect, launch, openPage, setUp, tearDown } from "./harness.mjs";
import { serve } from "./server.mjs";

const { options, chromium, chromiumPath, skip } = setUp("browser test", "run.mjs");
if (!fs.existsSync(path.join(options.source, "node_modules/katex/dist/katex.min.js")))
  skip("KaTeX is not installed in node_modules");

// --- build the sites ------------------------------------------------------
const started = Date.now();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "paperpress-browser-"));
function prepare(root) {
  fs.mkdirSync(root, { recursive: true });
  fs.cpSync(path.join(options.source, "themes"), path.join(root, "themes"), { recursive: true });
  // The sample archive imported afresh, as scripts/make-sample-content makes content/ (never the
  // working tree's content/, which the main job adds to).
  const fixtures = path.join(options.source, "tests/fixtures");
  const seeds = fs.readdirSync(path.join(fixtures, "seeds")).filter((f) => f.endsWith(".txt")).sort()
    .map((f) => path.join(fixtures, "seeds", f));
  const imported = spawnSync(options.paperpress, ["import", path.join(fixtures, "gpt-paper-assistant-archive/out"), ...seeds],
                             { cwd: root, encoding: "utf8" });
  if (imported.status !== 0) {
    console.error(`browser test: import of the sample archive failed:\n${imported.stdout}${imported.stderr}`);
    process.exit(1);
  }
  fs.symlinkSync(path.join(options.source, "node_modules"), path.join(root, "node_modules"));
  // The word index is off here: these checks are of the month data's search (lazy months, as you type);
  // search.mjs and the others check the default, the word index.
  fs.writeFileSync(path.join(root, "paperpress.yaml"), "title: Browser digest\nbase_url: /\nsearch_index: false\n");
}
function build(root, theme, out) {
  const result = spawnSync(options.paperpress, ["build", "--theme", theme, "--out", out, "--base-url", "/"],
                           { cwd: root, encoding: "utf8" });
  if (result.status !== 0) {
    console.error(`browser test: build with theme ${theme} failed:\n${result.stdout}${result.stderr}`);
    process.exit(1);
  }
  return path.join(root, out);
}
const main = path.join(tmp, "main");
prepare(main);
const sites = { default: build(main, "default", "site-default"), classic: build(main, "classic", "site-classic") };
// A fork that changes one file: layouts/partials/foot.mustache next to the config.
const fork = path.join(tmp, "fork");
prepare(fork);
const foot = fs.readFileSync(path.join(fork, "themes/default/partials/foot.mustache"), "utf8");
fs.mkdirSync(path.join(fork, "layouts/partials"), { recursive: true });
fs.writeFileSync(path.join(fork, "layouts/partials/foot.mustache"),
                 foot.replace("</footer>", '<p id="override-marker">Overridden footer</p>\n</footer>'));
sites.override = build(fork, "default", "site");

// --- the checks -------------------------------------------------------------
const { check, tally } = checks();

const servers = {};
for (const [name, root] of Object.entries(sites)) servers[name] = await serve(fs.realpathSync(root));

const browser = await launch(chromium, chromiumPath);

// A page that fails the check on any script error or failed request.
const open = openPage;
const pathOf = (page) => new URL(page.url()).pathname + new URL(page.url()).hash;

const latest = "/2026/04/30/";
const beforeLatest = "/2026/04/29/";

try {
  for (const theme of ["default", "classic"]) {
    const base = servers[theme].url;

    await check(`${theme}: home -> day -> next day -> month -> year by clicking`, async () => {
      const problems = [];
      const context = await browser.newContext();
      const page = await open(context, problems);
      await page.goto(base + "/");
      await page.locator(`main a[href="${beforeLatest}"]`).first().click();
      await page.waitForURL(base + beforeLatest);
      await page.locator('a[rel="next"]').first().click();
      await page.waitForURL(base + latest);
      expect((await page.locator("h1").first().textContent()).includes("2026"), "the day page's heading");
      await page.locator('a[rel="up"]').first().click();
      await page.waitForURL(base + "/2026/04/");
      expect(await page.locator(`table a[href="${latest}"]`).count() === 1, "the calendar links the day");
      await page.locator('a[rel="up"]').first().click();
      await page.waitForURL(base + "/2026/");
      expect((await page.locator("h1").textContent()).includes("2026"), "the year page's heading");
      await page.locator('a[rel="prev"]').first().click();
      await page.waitForURL(base + "/2025/");
      expect(problems.length === 0, problems.join("; "));
      await context.close();
    });

    await check(`${theme}: the light/dark choice persists across pages, the system's is the default`, async () => {
      const problems = [];
      const context = await browser.newContext({ colorScheme: "light" });
      const page = await open(context, problems);
      await page.goto(base + latest);
      const toggle = page.locator(".theme-toggle").first();
      const attr = (await toggle.getAttribute("data-theme-attr")) || "data-theme"; // site.js's defaults
      const key = (await toggle.getAttribute("data-theme-key")) || "paperpress-theme";
      const scheme = () => page.evaluate((a) => document.documentElement.getAttribute(a), attr);
      const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(await scheme() === "light", `light by default, got ${await scheme()}`);
      const light = await background();
      await toggle.click();
      expect(await scheme() === "dark", "dark after the click");
      expect(await background() !== light, "the page's colours changed");
      expect(await page.evaluate((k) => localStorage.getItem(k), key) === "dark", `localStorage ${key}`);
      await page.locator('a[rel="prev"]').first().click();
      await page.waitForURL(base + beforeLatest);
      expect(await scheme() === "dark", "still dark on the next page");
      expect(await background() !== light, "dark colours on the next page");
      await page.locator('a[rel="up"]').first().click();
      await page.waitForURL(base + "/2026/04/");
      expect(await scheme() === "dark", "still dark on the month page");
      await page.locator(".theme-toggle").first().click();
      await page.reload();
      expect(await scheme() === "light", "light again after toggling back and reloading");
      await context.close();

      const dark = await browser.newContext({ colorScheme: "dark" });
      const darkPage = await open(dark, problems);
      await darkPage.goto(base + "/");
      expect(await darkPage.evaluate((a) => document.documentElement.getAttribute(a), attr) === "dark",
             "a dark system setting gives the dark theme");
      await dark.close();
      expect(problems.length === 0, problems.join("; "));
    });

    await check(`${theme}: a formula is typeset by KaTeX (served from the site, not a CDN)`, async () => {
      const problems = [];
      const context = await browser.newContext();
      const page = await open(context, problems);
      const outside = [];
      page.on("request", (request) => {
        if (!request.url().startsWith(base) && !request.url().startsWith("data:")) outside.push(request.url());
      });
      await page.goto(base + "/2025/02/25/");
      // classic: a section.paper with its h2 and .abstract; default: the paper's h2 is the anchor,
      // its abstract the paragraphs without a class that follow it.
      const paper = page.locator("#p-2502\\.15957");
      const title = theme === "classic" ? paper.locator("h2") : paper;
      const abstract = theme === "classic" ? paper.locator(".abstract") : page.locator(
        'xpath=//h2[@id="p-2502.15957"]/following-sibling::p[not(@class)][preceding-sibling::h2[1][@id="p-2502.15957"]]');
      await title.scrollIntoViewIfNeeded(); // math is typeset as the reader comes to it
      await abstract.locator(".katex").first().waitFor(); // the abstract's formula is typeset
      // The title's "R$^3$Mem" is one Unicode writes whole: the build wrote it so, and KaTeX had nothing to do.
      const shown = await title.textContent();
      expect(shown.includes("R³Mem") && !shown.includes("$"), `no raw LaTeX left in the title: ${shown}`);
      // The KaTeX fonts load from the site.
      await page.evaluate(() => document.fonts.ready);
      expect(outside.length === 0, `requests outside the site: ${outside.join(", ")}`);
      expect(problems.length === 0, problems.join("; "));
      await context.close();
    });

    await check(`${theme}: the header's search box finds a known paper, and the result opens it on its day`, async () => {
      const problems = [];
      const context = await browser.newContext();
      const page = await open(context, problems);
      await page.goto(base + "/2025/");
      const box = page.locator('form[role="search"] input[name="q"]').first();
      await box.fill("momentum-conserving Deformable");
      await box.press("Enter");
      await page.waitForURL((url) => url.pathname === "/search/");
      const result = page.locator(".search-result a", { hasText: "Momentum-Conserving Graph Neural Networks" });
      await result.first().waitFor();
      expect(await page.locator(".search-result").count() === 1, "exactly one paper matches");
      await page.locator("#search-status", { hasText: "found" }).waitFor();
      // By author and by arXiv ID too.
      await page.fill("#search-query", "Thomaszewski 2604.26097");
      await page.press("#search-query", "Enter");
      await page.locator(".search-result a", { hasText: "Momentum-Conserving" }).first().waitFor();
      await result.first().click();
      await page.waitForURL(base + latest + "#p-2604.26097");
      expect(await page.locator("#p-2604\\.26097").count() === 1, "the paper's anchor is on the day page");
      expect(problems.length === 0, problems.join("; "));
      await context.close();
    });

    await check(`${theme}: the month data's search runs as you type and finds accented names by accent-free spellings`, async () => {
      const problems = [];
      const context = await browser.newContext();
      const page = await open(context, problems);
      await page.goto(base + "/search/");
      await page.locator("#search-query").pressSequentially("scholkopf", { delay: 40 }); // no Enter
      // A loaded machine may pause between keys long enough to search a prefix first ("scholk" finds it
      // too): the whole query reaches the address once typing stops.
      await page.waitForFunction(() => new URL(location.href).searchParams.get("q") === "scholkopf");
      await page.locator('.search-result a[href$="#p-2503.04482"]').waitFor();
      await page.fill("#search-query", "");
      await page.locator("#search-query").pressSequentially("Schölkopf", { delay: 40 });
      await page.waitForFunction(() => new URL(location.href).searchParams.get("q") === "Schölkopf");
      await page.locator('.search-result a[href$="#p-2503.04482"]').waitFor();
      expect(problems.length === 0, problems.join("; "));
      await context.close();
    });

    await check(`${theme}: search loads the month data lazily, newest first, only as far as needed`, async () => {
      const problems = [];
      const context = await browser.newContext();
      const page = await open(context, problems);
      const fetched = [];
      page.on("request", (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith("/data/")) fetched.push(url.pathname);
      });
      await page.goto(base + "/search/");
      await page.waitForLoadState("networkidle");
      expect(fetched.length === 0, `nothing is fetched before a query, got ${fetched.join(", ")}`);
      const index = JSON.parse(fs.readFileSync(path.join(sites[theme], "data/index.json"), "utf8"));
      expect(index.months.length > 2, "the sample archive has several months");
      await page.fill("#search-query", "learning");
      await page.press("#search-query", "Enter");
      await page.locator("#search-status", { hasText: "so far" }).waitFor();
      expect(await page.locator(".search-result").count() === 50, "a first page of 50 results");
      expect(JSON.stringify(fetched) === JSON.stringify(["/data/index.json", "/data/" + index.months[0].url]),
             `only the index and the newest month, got ${fetched.join(", ")}`);
      await page.click("#search-more");
      await page.waitForFunction(() => document.querySelectorAll(".search-result").length === 100);
      expect(fetched.length < index.months.length + 1, `still not every month: ${fetched.join(", ")}`);
      expect(problems.length === 0, problems.join("; "));
      await context.close();
    });

    await check(`${theme}: every link, script and stylesheet of each page kind answers 200`, async () => {
      const problems = [];
      const context = await browser.newContext();
      const page = await open(context, problems);
      const targets = new Set();
      for (const where of ["/", latest, "/2026/04/", "/2026/", "/archive/", "/search/", "/2025/02/25/"]) {
        await page.goto(base + where);
        const links = await page.evaluate(() =>
          [...document.querySelectorAll("a[href], link[href], script[src], img[src]")].map((e) => e.href || e.src));
        for (const link of links) if (link.startsWith(base)) targets.add(link.split("#")[0]);
      }
      const bad = [];
      for (const target of targets) {
        const response = await page.request.get(target);
        if (response.status() !== 200) bad.push(`${response.status()} ${target}`);
      }
      expect(targets.size > 20, `few links found (${targets.size})`);
      expect(bad.length === 0, `broken: ${bad.slice(0, 5).join(", ")}`);
      const missing = await page.request.get(base + "/no-such-page/");
      expect(missing.status() === 404 && (await missing.text()).includes("Page not found"), "the 404 page");
      expect(problems.length === 0, problems.join("; "));
      await context.close();
    });
  }

  await check("a one-file override in the site's layouts/ wins over the theme's", async () => {
    const problems = [];
    const context = await browser.newContext();
    const page = await open(context, problems);
    await page.goto(servers.override.url + latest);
    expect(await page.locator("#override-marker").textContent() === "Overridden footer", "the overriding footer");
    expect(await page.locator(".theme-toggle").count() === 1, "the theme's other partials still used");
    expect(await page.locator(PAPER).count() > 0, "the theme's day layout still used");
    await page.goto(servers.override.url + "/archive/");
    expect(await page.locator("#override-marker").count() === 1, "on every page kind");
    expect(problems.length === 0, problems.join("; "));
    await context.close();
  });
} finally {
  await tearDown({ browser, servers, tmp, keep: options.keep });
}

console.log(`browser test: ${tally.passed} passed, ${tally.failures.length} failed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(tally.failures.length === 0 ? 0 : 1);
