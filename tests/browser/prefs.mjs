// The reader's preferences and the date range (issue 45), in both shipped
// themes, under a sub-path: keywords and authors saved on the preferences
// page are exported as the paperpress.yaml and topics-prompt lines (which
// paperpress reads back); on a day page and in search results the papers
// that match are marked with what matched and come first, the others in
// their order; the date range lists exactly the papers `paperpress ls
// --json` lists for its days, by date or by score, and reads only the range's
// month files.
//
//   node tests/browser/prefs.mjs --paperpress build/generator/paperpress [--source .] [--keep]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PAPER, checks, expect, launch, openPage, sampleSite, setUp, tearDown } from "./harness.mjs";
import { serve } from "./server.mjs";

const { options, chromium, chromiumPath } = setUp("prefs browser test", "tests/browser/prefs.mjs");
const { tmp, root, run } = sampleSite(options, "prefs");
fs.writeFileSync(path.join(root, "paperpress.yaml"), "title: Preferred digest\nbase_url: /sub/\n");
const sites = {};
for (const theme of ["default", "classic"]) {
  run(["build", "--theme", theme, "--out", `out-${theme}/sub`]);
  sites[theme] = path.join(root, `out-${theme}`);
}
const listed = JSON.parse(spawnSync(options.paperpress, ["ls", "--json"], { cwd: root, encoding: "utf8" }).stdout);
const day = "2026-04-30";

const { check, tally } = checks();
const servers = {};
for (const theme of Object.keys(sites)) servers[theme] = await serve(fs.realpathSync(sites[theme]));
const browser = await launch(chromium, chromiumPath);

// The day page's papers in page order: id, authors' names, and the text a keyword is looked for in.
async function dayPapers(page) {
  return page.$$eval(PAPER, (heads) => heads.map((head) => {
    const parts = [head];
    if (/^H\d$/.test(head.tagName))
      for (let e = head.nextElementSibling; e && !/^H\d$/.test(e.tagName); e = e.nextElementSibling) parts.push(e);
    const link = head.querySelector('a[href*="arxiv.org/abs/"]');
    const authors = parts.map((e) => e.matches(".authors") ? e : e.querySelector(".authors")).find(Boolean);
    return { id: link.href.split("/abs/")[1], match: head.classList.contains("pref-match"),
             why: (parts.find((e) => e.matches(".pref-why")) || head.querySelector(".pref-why") || {}).textContent || "",
             authors: authors ? authors.textContent.replace(/^Authors:\s*/, "").split(", ") : [],
             title: link.textContent };
  }));
}

// Saves preferences through the page's form, as a reader does.
async function savePrefs(page, base, keywords, authors) {
  await page.goto(base + "/sub/preferences/");
  await page.fill("#prefs-keywords", keywords.join("\n"));
  await page.fill("#prefs-authors", authors.join("\n"));
  await page.click("#prefs-form button[type=submit]");
  await page.waitForFunction(() => document.getElementById("prefs-status").textContent.startsWith("Saved"));
}

for (const theme of Object.keys(sites)) {
  const base = servers[theme].url;

  await check(`${theme}: the preferences are exported as the lines paperpress.yaml and the topics prompt take`, async () => {
    const problems = [];
    const context = await browser.newContext();
    const page = await openPage(context, problems);
    const authors = ["Kurt Gödel", 'O"Brien \\ Jr.', "Ada Lovelace"];
    await savePrefs(page, base, ["pruning, grokking", "KV cache"], authors);
    const yaml = await page.textContent("#prefs-yaml");
    expect(yaml === 'scoring:\n  authors: ["Kurt Gödel", "O\\"Brien \\\\ Jr.", "Ada Lovelace"]\n', `yaml: ${yaml}`);
    const topics = await page.textContent("#prefs-topics");
    expect(topics === "- Relevant: pruning, grokking, KV cache\n", `topics line: ${topics}`);
    // paperpress reads the lines back as the same three names.
    fs.writeFileSync(path.join(root, "exported.yaml"), `base_url: /sub/\n${yaml}`);
    const checked = spawnSync(options.paperpress, ["check", "--config", "exported.yaml"], { cwd: root, encoding: "utf8" });
    expect(checked.status === 0, `paperpress check reads the exported lines: ${checked.stdout}${checked.stderr}`);
    // Kept: the page shows them again after a reload.
    await page.reload();
    expect(await page.inputValue("#prefs-authors") === authors.join("\n"), "kept in localStorage");
    expect(problems.length === 0, problems.join("; "));
    await context.close();
  });

  await check(`${theme}: on a day page the matching papers are marked with what matched and come first`, async () => {
    const problems = [];
    const context = await browser.newContext();
    const page = await openPage(context, problems);
    const dayUrl = base + "/sub/" + day.replace(/-/g, "/") + "/";
    await page.goto(dayUrl);
    const plain = await dayPapers(page);
    expect(plain.length >= 6 && plain.every((p) => !p.match), "no preferences: no marks");
    // An author of the day's last paper, and a word of its third-last paper's title that no other title has.
    const author = plain[plain.length - 1].authors[0];
    const word = plain[plain.length - 3].title.split(/\s+/).find((w) => /^[A-Za-z]{6,}$/.test(w) &&
      plain.filter((p) => p.title.toLowerCase().includes(w.toLowerCase())).length === 1);
    expect(word, "a distinctive title word");
    await savePrefs(page, base, [word.toLowerCase()], [author]);
    await page.goto(dayUrl);
    const marked = await dayPapers(page);
    const byAuthor = plain.filter((p) => p.authors.includes(author)).map((p) => p.id);
    const matched = marked.filter((p) => p.match).map((p) => p.id);
    expect(matched.includes(plain[plain.length - 1].id) && matched.includes(plain[plain.length - 3].id),
           `both found: ${matched.join(", ")}`);
    byAuthor.forEach((id) => expect(matched.includes(id), `every paper by ${author} is marked`));
    // First, in the page's order among themselves; the others after, in theirs.
    const expected = plain.filter((p) => matched.includes(p.id)).concat(plain.filter((p) => !matched.includes(p.id)));
    expect(JSON.stringify(marked.map((p) => p.id)) === JSON.stringify(expected.map((p) => p.id)),
           `matches first: ${marked.map((p) => p.id).join(", ")}`);
    const last = marked.find((p) => p.id === plain[plain.length - 1].id);
    expect(last.why.includes(`author \u201c${author}\u201d`), `what matched is shown: ${last.why}`);
    const third = marked.find((p) => p.id === plain[plain.length - 3].id);
    expect(third.why.includes(`keyword \u201c${word.toLowerCase()}\u201d`), `the keyword: ${third.why}`);
    // Search results: the day's papers, the matches first.
    await page.goto(base + "/sub/search/?q=" + day);
    await page.waitForFunction(() => document.querySelectorAll(".search-result").length > 0);
    await page.waitForLoadState("networkidle");
    const results = await page.$$eval(".search-result", (items) => items.map((li) => ({
      id: decodeURIComponent(li.querySelector("a").hash.slice(3)), match: li.classList.contains("pref-match") })));
    const firstOther = results.findIndex((r) => !r.match);
    expect(results.filter((r) => r.match).length === matched.length &&
           results.slice(0, matched.length).every((r) => r.match) && firstOther === matched.length,
           `search results: matches first: ${JSON.stringify(results.slice(0, matched.length + 1))}`);
    expect(problems.length === 0, problems.join("; "));
    await context.close();
  });

  await check(`${theme}: a date range lists the papers of its days, by date or by score, reading only its months`, async () => {
    const problems = [];
    const context = await browser.newContext();
    const page = await openPage(context, problems);
    const fetched = [];
    page.on("request", (request) => fetched.push(new URL(request.url()).pathname));
    const from = "2026-04-24", to = "2026-04-30";
    await page.goto(`${base}/sub/range/?from=${from}&to=${to}&sort=date`);
    await page.waitForFunction(() => /papers on/.test(document.getElementById("range-status").textContent));
    const ids = await page.$$eval("#range-results .search-result a", (links) => links.map((a) => a.hash.slice(3)));
    const days = listed.filter((d) => d.date >= from && d.date <= to).reverse(); // newest first
    const expected = days.flatMap((d) => d.papers.map((id) => id.replace(/\//g, "-")));
    expect(days.length >= 3 && JSON.stringify(ids) === JSON.stringify(expected),
           `the range's papers by date, as ls --json lists them: ${ids.length} vs ${expected.length}`);
    const data = fetched.filter((p) => p.includes("/data/"));
    expect(JSON.stringify(data) === JSON.stringify(["/sub/data/2026-04.json"]), `its month's file only: ${data.join(", ")}`);
    // By score: the same papers, best first.
    await page.goto(`${base}/sub/range/?from=${from}&to=${to}&sort=score`);
    await page.waitForFunction(() => /papers on/.test(document.getElementById("range-status").textContent));
    const scored = await page.$$eval("#range-results .search-result", (items) => items.map((li) => ({
      id: li.querySelector("a").hash.slice(3), score: Number((/score (\d+)/.exec(li.textContent) || [0, -1])[1]) })));
    expect(JSON.stringify(scored.map((s) => s.id).sort()) === JSON.stringify(expected.slice().sort()), "the same papers");
    expect(scored.every((s, i) => i === 0 || scored[i - 1].score >= s.score), "best first");
    // The last 7 days: the newest day's week.
    await page.goto(`${base}/sub/range/?last=7`);
    await page.waitForFunction(() => /papers on/.test(document.getElementById("range-status").textContent));
    expect(await page.inputValue("#range-from") === "2026-04-24" && await page.inputValue("#range-to") === "2026-04-30",
           "last 7 days: from the newest day back six");
    expect(problems.length === 0, problems.join("; "));
    await context.close();
  });

  await check(`${theme}: the trends page fits 390 px, its charts titled, their numbers in tables`, async () => {
    const problems = [];
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await openPage(context, problems);
    await page.goto(base + "/sub/trends/");
    const fit = await page.evaluate(() => document.documentElement.scrollWidth <= 390);
    expect(fit, "no sideways scrolling at 390 px");
    const charts = await page.$$eval("section.chart", (all) => all.map((c) => ({
      title: c.querySelector("h2").textContent, label: c.querySelector("svg").getAttribute("aria-label"),
      rows: c.querySelectorAll("tbody tr").length, width: c.querySelector("svg").getBoundingClientRect().width })));
    expect(charts.length === 4 && charts.every((c) => c.title === c.label && c.rows > 0 && c.width <= 390),
           `four charts: ${JSON.stringify(charts)}`);
    expect(problems.length === 0, problems.join("; "));
    await context.close();
  });
}

await tearDown({ browser, servers, tmp, keep: options.keep });
console.log(`prefs browser test: ${tally.passed} passed, ${tally.failures.length} failed`);
process.exit(tally.failures.length ? 1 : 0);
