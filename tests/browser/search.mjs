// The search page over the word index (issue 34), in both shipped themes,
// under a sub-path: typing (no Enter) shows ranked results, the same papers
// in the same order as `paperpress search` (which reads the same files);
// accent-free spellings find accented names; a word of an abstract, a topic
// note or an ID finds its paper; a date lists its day; only search/ files
// are fetched, and only a few; a chunk whose first word is not ASCII is
// found by its name (the page hashes UTF-8 bytes, as the build does); a
// malformed posting is refused by the page and the CLI alike.
//
//   node tests/browser/search.mjs --paperpress build/generator/paperpress [--source .] [--keep]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { checks, expect, launch, openPage, sampleSite, setUp, tearDown } from "./harness.mjs";
import { serve } from "./server.mjs";

const { options, chromium, chromiumPath, skip } = setUp("search browser test", "tests/browser/search.mjs");
if (!fs.existsSync(path.join(options.source, "node_modules/katex/dist/katex.min.js"))) skip("KaTeX is not installed in node_modules");

const { tmp, root, run } = sampleSite(options, "search");
fs.symlinkSync(path.join(options.source, "node_modules"), path.join(root, "node_modules"));
fs.writeFileSync(path.join(root, "paperpress.yaml"), "title: Searched digest\nbase_url: /sub/\n"); // the word index by default
// A year of Greek words only: some of its chunks begin with a non-ASCII word, whose file name the page
// must hash from the word's UTF-8 bytes as the build does (chunkName, search/index.h's chunk_name).
const greek = greekDay();
fs.mkdirSync(path.join(root, "content/2019/03"), { recursive: true });
fs.writeFileSync(path.join(root, "content/2019/03/2019-03-04.md"), greek.text);
const sites = {};
for (const theme of ["default", "classic"]) {
  run(["build", "--theme", theme, "--out", `out-${theme}/sub`]);
  sites[theme] = path.join(root, `out-${theme}`);
}

// A day file of 40 papers whose titles and abstracts are made-up Greek words, from a fixed seed.
function greekDay() {
  let state = 7;
  const random = (n) => { state = (state * 1103515245 + 12345) % 2147483648; return state % n; };
  const letters = "αβγδεζηθικλμνξοπρστυφχψω";
  const vocabulary = Array.from({ length: 3000 }, () =>
    Array.from({ length: 4 + random(6) }, () => letters[random(letters.length)]).join(""));
  const pick = (n) => Array.from({ length: n }, () => vocabulary[random(vocabulary.length)]).join(" ");
  const lines = ["---", "date: 2019-03-04", "status: announced", "---", "", "# arXiv papers for 2019-03-04", ""];
  for (let i = 1; i <= 40; ++i) {
    const id = `1903.${String(i).padStart(5, "0")}`;
    lines.push(`## [${pick(5)}](https://arxiv.org/abs/${id})`, "", `- **ID:** ${id}`, "- **Authors:** Ζήνων Ελεάτης",
               "- **Relevance:** 8", "- **Novelty:** 7", "", pick(120), "");
  }
  return { text: lines.join("\n") };
}

// The first words of the chunks of the site's year 2019 that are not ASCII.
function greekFirstWords(theme) {
  const index = JSON.parse(fs.readFileSync(path.join(sites[theme], "sub/search/index.json"), "utf8"));
  const year = index.periods.find((p) => p.name === "2019");
  return year ? year.chunks.filter((w) => /[^\x00-\x7f]/.test(w)) : [];
}

// How many periods the built site's word index has (a folder each, beside days/).
function periods(theme) {
  return fs.readdirSync(path.join(sites[theme], "sub/search"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== "days").length;
}

// `paperpress search`'s results: arXiv IDs, best first.
function cliIds(theme, query) {
  const result = spawnSync(options.paperpress, ["search", query, "--site", `out-${theme}/sub`, "--limit", "20"],
                           { cwd: root, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`paperpress search ${query}: ${result.stdout}${result.stderr}`);
  return [...result.stdout.matchAll(/^ {4}arXiv:(\S+)/gm)].map((m) => m[1]);
}

const { check, tally } = checks();
const servers = {};
for (const theme of Object.keys(sites)) servers[theme] = await serve(fs.realpathSync(sites[theme]));
const browser = await launch(chromium, chromiumPath);

// The IDs of the results on the page once `count` are filled in.
async function pageIds(page) {
  await page.waitForFunction(() => {
    const items = [...document.querySelectorAll(".search-result")];
    return items.length > 0 && items.every((li) => !li.hidden);
  });
  return page.$$eval(".search-result a", (links) => links.map((a) => decodeURIComponent(a.hash.slice(3))));
}

// Types the query key by key, as a reader does, with no Enter.
async function type(page, query) {
  await page.fill("#search-query", "");
  await page.locator("#search-query").pressSequentially(query, { delay: 40 });
}

for (const theme of Object.keys(sites)) {
  const base = servers[theme].url;
  const fetched = [];
  async function searchPage(context, problems) {
    const page = await openPage(context, problems);
    page.on("request", (request) => fetched.push(new URL(request.url()).pathname));
    await page.goto(base + "/sub/search/");
    await page.waitForLoadState("networkidle");
    return page;
  }

  await check(`${theme}: typing shows ranked results as you type, the same as \`paperpress search\``, async () => {
    const problems = [];
    const context = await browser.newContext();
    const page = await searchPage(context, problems);
    expect(JSON.stringify(fetched.filter((p) => p.includes("/search/") && /\.(json|txt|gz)$/.test(p))) ===
           JSON.stringify(["/sub/search/index.json"]), `only the list of periods before a key: ${fetched.join(", ")}`);
    fetched.length = 0;
    await page.fill("#search-query", "grokking"); // one input event, one query: what it reads is its own
    const ids = await pageIds(page);
    expect(ids[0] === "2604.17673", `the newest best-scored paper with the word in its title first, got ${ids.join(", ")}`);
    expect(JSON.stringify(ids) === JSON.stringify(cliIds(theme, "grokking")), `as paperpress search: ${ids.join(", ")}`);
    expect(await page.locator("#search-status", { hasText: "14 papers match" }).count() === 1, "the count");
    // Each result says where its words are (issue 43): here the title of the first.
    const foundIn = await page.$$eval(".search-result .found-in", (ps) => ps.map((p) => p.textContent));
    expect(foundIn.length === ids.length && foundIn[0] === "Found in the title",
           `each result says where its words are: ${foundIn.slice(0, 3).join("; ")}`);
    expect(new URL(page.url()).searchParams.get("q") === "grokking", "the query is in the address");
    const searchFiles = fetched.filter((p) => p.includes("/search/"));
    expect(fetched.every((p) => !p.includes("/data/")), `no month data: ${fetched.join(", ")}`);
    // A chunk or two a period (its words' range), and the days of the results shown.
    const chunks = searchFiles.filter((p) => /\/[0-9a-f]{8}\.txt$/.test(p));
    const days = searchFiles.filter((p) => p.includes("/search/days/"));
    expect(chunks.length <= 2 * periods(theme) && days.length <= ids.length && chunks.length + days.length === searchFiles.length,
           `a few files, not the archive (${periods(theme)} periods): ${searchFiles.join(", ")}`);
    // A prefix as one types finds the same papers.
    await type(page, "grokk");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("q") === "grokk");
    expect(JSON.stringify(await pageIds(page)) === JSON.stringify(ids), "the prefix finds the same papers");
    expect(problems.length === 0, problems.join("; "));
    await context.close();
  });

  await check(`${theme}: accent-free spellings, abstract words, IDs and dates find their papers`, async () => {
    const problems = [];
    const context = await browser.newContext();
    const page = await searchPage(context, problems);
    for (const [query, expected] of [["Ostby", "2604.17673"], ["scholkopf", "2503.04482"],
                                     ["depthwise", "2604.17177"], ["the depthwise of", "2604.17177"], ["arXiv:2604.26097", "2604.26097"],
                                     ["momentum-conserving deformable", "2604.26097"]]) {
      await type(page, query);
      await page.waitForFunction((q) => new URL(location.href).searchParams.get("q") === q, query);
      const ids = await pageIds(page);
      expect(ids.includes(expected), `${query} finds ${expected}: ${ids.join(", ")}`);
      expect(JSON.stringify(ids) === JSON.stringify(cliIds(theme, query)), `${query} as paperpress search: ${ids.join(", ")}`);
    }
    await type(page, "2026-04-21");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("q") === "2026-04-21");
    await pageIds(page);
    expect(await page.locator("#search-status", { hasText: "34 papers match; showing the best 20." }).count() === 1,
           `a date lists its day: ${await page.locator("#search-status").textContent()}`);
    await page.click("#search-more");
    await page.waitForFunction(() => document.querySelectorAll(".search-result:not([hidden])").length === 34);
    // A day of the newest week, a period of its own (search/2026-04-27/).
    await type(page, "2026-04-29");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("q") === "2026-04-29");
    const week = await pageIds(page);
    expect(week.length > 0 && JSON.stringify(week) === JSON.stringify(cliIds(theme, "2026-04-29")),
           `a day of the newest week lists its papers as paperpress search does: ${week.join(", ")}`);
    // A result opens its paper on its day page.
    await type(page, "Thomaszewski");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("q") === "Thomaszewski");
    await pageIds(page);
    await page.locator(".search-result a").first().click();
    await page.waitForURL(base + "/sub/2026/04/30/#p-2604.26097");
    expect(problems.length === 0, problems.join("; "));
    await context.close();
  });

  await check(`${theme}: a chunk that begins with a non-ASCII word is found by its name, as paperpress search finds it`, async () => {
    const problems = [];
    const context = await browser.newContext();
    const page = await searchPage(context, problems);
    const words = greekFirstWords(theme);
    expect(words.length >= 3, `the Greek year has chunks that begin with a Greek word: ${words.slice(0, 5).join(", ")}`);
    for (const word of words.slice(0, 6)) {
      // A fresh page a word, so no result of the word before can be read as this one's.
      await page.goto(base + "/sub/search/?q=" + encodeURIComponent(word));
      const ids = await pageIds(page);
      expect(ids.length > 0 && ids.every((id) => id.startsWith("1903.")), `${word} finds its Greek papers: ${ids.join(", ")}`);
      expect(JSON.stringify(ids) === JSON.stringify(cliIds(theme, word)), `${word} as paperpress search: ${ids.join(", ")}`);
    }
    expect(problems.length === 0, problems.join("; "));
    await context.close();
  });
}

// A chunk edited into malformed postings: the page says the search failed and names no wrong paper,
// and `paperpress search` refuses it too (search_hostile_test has the C++ reader's cases).
await check("a malformed posting in a chunk: the page and paperpress search refuse it", async () => {
  const theme = "default";
  const word = greekFirstWords(theme)[0];
  const chunkDir = path.join(sites[theme], "sub/search/2019");
  for (const [what, postings] of [["no capital at its end", "1b"], ["too many digits", "1234567A"], ["no gap", "A"]]) {
    const file = fs.readdirSync(chunkDir).map((f) => path.join(chunkDir, f))
      .find((f) => fs.readFileSync(f, "utf8").startsWith(word + "\t"));
    expect(file !== undefined, `the chunk that begins with ${word}`);
    const original = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, `${word}\t${postings}\n` + original.slice(original.indexOf("\n") + 1));
    const problems = [];
    const context = await browser.newContext();
    const page = await openPage(context, problems);
    await page.goto(servers[theme].url + "/sub/search/?q=" + encodeURIComponent(word));
    await page.waitForFunction(() => /Search failed/.test(document.getElementById("search-status").textContent));
    const status = await page.locator("#search-status").textContent();
    expect(/posting/.test(status), `${what}: the page says what is wrong: ${status}`);
    expect(await page.locator(".search-result").count() === 0, `${what}: no result shown`);
    const cli = spawnSync(options.paperpress, ["search", word, "--site", `out-${theme}/sub`], { cwd: root, encoding: "utf8" });
    expect(cli.status !== 0 && /posting/.test(cli.stderr), `${what}: paperpress search refuses it: ${cli.stderr}`);
    fs.writeFileSync(file, original);
    await context.close();
  }
});

await tearDown({ browser, servers, tmp, keep: options.keep });
console.log(`search browser test: ${tally.passed} passed, ${tally.failures.length} failed`);
process.exit(tally.failures.length ? 1 : 0);
