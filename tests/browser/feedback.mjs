// Browser test of the reader's feedback (issue 44), in Debian's headless
// Chromium driven by playwright-core:
//
//   node tests/browser/feedback.mjs --paperpress build/generator/paperpress [--source .] [--keep]
//
// Builds a day of its own (two papers and two not picked) in both themes,
// with and without `repository:` in the config, and checks: "not for me"
// collapses a paper to its struck-out heading, survives a reload and is
// undone; starring a hidden paper un-hides it; a paper not picked can be
// starred from the day's closed list; the reading list's feedback opens
// GitHub's "new file" page with content/feedback/reader-<UTC stamp>.txt and
// exactly the judgements' lines, or downloads the same file when no
// repository is known.
//
// Exit 0: all passed; 1: a check failed; 77: skipped (as run.mjs).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PAPER, checks, expect, launch, openPage, setUp, tearDown } from "./harness.mjs";
import { serve } from "./server.mjs";

const { options, chromium, chromiumPath } = setUp("feedback browser test", "feedback.mjs");
const started = Date.now();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "paperpress-feedback-"));
const root = path.join(tmp, "main");
fs.mkdirSync(path.join(root, "content/2026/04"), { recursive: true });
fs.cpSync(path.join(options.source, "themes"), path.join(root, "themes"), { recursive: true });

const paper = (id, title, author) => `## [${title}](https://arxiv.org/abs/${id})\n\n- **ID:** ${id}\n` +
  `- **Authors:** ${author}\n- **Relevance:** 9\n- **Novelty:** 7\n\nThe abstract of ${id}.\n\n`;
const papers = [["2604.00001", "Sparse experts at scale"], ["2604.00002", "Quantization without tears"]];
const misses = [["2604.00003", "A missed paper on protein folding"], ["hep-th/9901004", "Another miss # with a hash"]];
fs.writeFileSync(path.join(root, "content/2026/04/2026-04-30.md"),
  "---\ndate: 2026-04-30\nstatus: announced\n---\n\n# arXiv papers for 2026-04-30\n\n" +
  paper(...papers[0], "Ada Lovelace") + paper(...papers[1], "Alan Turing") + "## Not picked\n\n" +
  misses.map(([id, title]) => `- [${title}](https://arxiv.org/abs/${id})\n`).join(""));
const repository = "octo-org/paper.digest";
fs.writeFileSync(path.join(root, "plain.yaml"), "title: Feedback digest\nbase_url: /sub/\nmath: false\n");
fs.writeFileSync(path.join(root, "repo.yaml"),
  `title: Feedback digest\nbase_url: /sub/\nmath: false\nrepository: ${repository}\nbranch: content/main\n`);
// Not from this machine's environment: an Actions run's GITHUB_REPOSITORY would name a repository.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("GITHUB_")));
const sites = {};
for (const theme of ["default", "classic"])
  for (const config of ["plain", "repo"]) {
    const out = `out-${theme}-${config}`;
    const args = ["build", "--config", `${config}.yaml`, "--theme", theme, "--out", `${out}/sub`];
    const result = spawnSync(options.paperpress, args, { cwd: root, encoding: "utf8", env });
    if (result.status !== 0) {
      console.error(`feedback browser test: paperpress ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
      process.exit(1);
    }
    sites[`${theme}-${config}`] = path.join(root, out);
  }

const { check, tally } = checks();
const servers = {};
for (const [name, site] of Object.entries(sites)) servers[name] = await serve(fs.realpathSync(site));
const browser = await launch(chromium, chromiumPath);
const today = () => new Date().toISOString().slice(0, 10);
const day = "/sub/2026/04/30/";

// On the day page: hide the first paper (and undo, and hide again), star the second and the
// first paper not picked. The lines the feedback file must then hold, in its order.
async function judge(page, base, theme) {
  await page.goto(base + day);
  const first = page.locator(PAPER).first(), second = page.locator(PAPER).nth(1);
  const hide = first.locator("button.not-for-me");
  const abstract = theme === "classic" ? first.locator(".abstract") : page.locator("article.day > h2 + p.meta").first();
  expect(await hide.getAttribute("aria-pressed") === "false", "not hidden at first");
  expect(await abstract.isVisible(), "the paper shows whole");
  await hide.click();
  expect(await hide.getAttribute("aria-pressed") === "true", "hidden after the click");
  expect(await hide.textContent() === "Undo", `the button offers to undo: ${await hide.textContent()}`);
  expect(await abstract.isHidden(), "the hidden paper collapses");
  const heading = theme === "classic" ? first.locator("h2") : first;
  expect((await heading.getAttribute("class") || "").includes("dismissed"), "its heading is marked");
  expect(await heading.isVisible(), "its heading stays");
  await page.reload();
  expect(await page.locator(PAPER).first().locator("button.not-for-me").getAttribute("aria-pressed") === "true" &&
         await abstract.isHidden(), "still hidden after a reload");
  await hide.click();
  expect(await abstract.isVisible() && await hide.getAttribute("aria-pressed") === "false", "undone: the paper shows again");
  // A star takes a hide back, and a hide a star: one judgement a paper, as in content/feedback/.
  await hide.click();
  await first.locator("button.star").first().click();
  expect(await hide.getAttribute("aria-pressed") === "false" && await abstract.isVisible(), "starring a hidden paper un-hides it");
  await hide.click();
  expect(await first.locator("button.star").first().getAttribute("aria-pressed") === "false", "hiding a starred paper un-stars it");
  await second.locator("button.star").first().click();
  // The papers not picked: closed, titles and links; each can be starred.
  const rest = page.locator("details.unpicked");
  expect(await rest.getAttribute("open") === null, "the papers not picked start closed");
  expect((await rest.locator("summary").textContent()).includes("2 papers"), "their summary counts them");
  expect(await rest.locator("li button.not-for-me").count() === 0, "they need no 'not for me'");
  await rest.locator("summary").click();
  await rest.locator("li").first().locator("button.star").click();
  expect(await rest.locator("li").first().locator("button.star").getAttribute("aria-pressed") === "true", "a miss starred");
  return [`${today()} hide ${papers[0][0]}  # ${papers[0][1]}`, `${today()} star ${papers[1][0]}  # ${papers[1][1]}`,
          `${today()} star ${misses[0][0]}  # ${misses[0][1]}`].sort().join("\n") + "\n";
}

const stamped = /^reader-(\d{4}-\d\d-\d\d)-(\d\d)(\d\d)(\d\d)\.txt$/;
// The file name's UTC stamp is the click's (within the test's own time).
function checkStamp(name, before) {
  const m = stamped.exec(name);
  expect(m, `the file name ${name} is reader-YYYY-MM-DD-HHMMSS.txt`);
  const at = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`);
  expect(at >= Math.floor(before / 1000) * 1000 && at <= Date.now(), `its stamp ${name} is the click's, in UTC`);
}

try {
  for (const theme of ["default", "classic"]) {
    await check(`${theme}: "not for me" collapses a paper, survives a reload, is undone; the reading list proposes the feedback file on GitHub's new-file page`, async () => {
      const problems = [];
      const context = await browser.newContext();
      // GitHub is not reached: the test reads the address the page opens.
      await context.route("https://github.com/**", (route) => route.fulfill({ status: 200, body: "new file" }));
      const page = await openPage(context, problems, { timeout: 15000 });
      const base = servers[`${theme}-repo`].url;
      const lines = await judge(page, base, theme);
      await page.goto(base + "/sub/starred/");
      expect((await page.locator("#hidden-list li").textContent()).includes(papers[0][1]), "the reading list shows the hidden paper");
      const link = page.locator("#starred-feedback");
      expect((await link.textContent()).includes(repository), `the link names the repository: ${await link.textContent()}`);
      const before = Date.now();
      const [popup] = await Promise.all([page.waitForEvent("popup"), link.click()]);
      await popup.waitForURL(/^https:\/\/github\.com\//);
      const url = new URL(popup.url());
      expect(url.origin === "https://github.com" && url.pathname === `/${repository}/new/content/main`,
             `GitHub's new-file page of the repository's branch: ${url.origin}${url.pathname}`);
      expect(JSON.stringify([...url.searchParams.keys()]) === '["filename","value"]', `its parameters: ${url.search.slice(0, 80)}`);
      const name = url.searchParams.get("filename");
      expect(name.startsWith("content/feedback/"), `the file goes to content/feedback/: ${name}`);
      checkStamp(name.slice("content/feedback/".length), before);
      expect(url.searchParams.get("value") === lines, `the file's lines:\n${url.searchParams.get("value")}\nexpected:\n${lines}`);
      await popup.close();
      // Undone on the reading list: the paper leaves the file.
      await page.locator("#hidden-list li button").click();
      expect(await page.locator(".hidden-papers").isHidden(), "no hidden paper left to list");
      await page.goto(base + day);
      expect(await page.locator(PAPER).first().locator("button.not-for-me").getAttribute("aria-pressed") === "false",
             "the day page shows it again");
      expect(problems.length === 0, problems.join("; "));
      await context.close();
    });

    await check(`${theme}: without a repository the same file downloads; a star kept before judgements had dates carries its day's`, async () => {
      const problems = [];
      const context = await browser.newContext({ acceptDownloads: true });
      const page = await openPage(context, problems, { timeout: 15000 });
      const outside = [];
      page.on("request", (request) => { if (!request.url().startsWith(servers[`${theme}-plain`].url)) outside.push(request.url()); });
      const base = servers[`${theme}-plain`].url;
      let lines = await judge(page, base, theme);
      await page.evaluate(() => { // as an earlier version kept a star: no judgement date
        const key = "paperpress-starred:/sub/", list = JSON.parse(localStorage.getItem(key));
        list.push({ id: "2501.00009", title: "Starred long ago", date: "2025-01-09" });
        localStorage.setItem(key, JSON.stringify(list));
      });
      lines = "2025-01-09 star 2501.00009  # Starred long ago\n" + lines;
      await page.goto(base + "/sub/starred/");
      const link = page.locator("#starred-feedback");
      expect(await link.textContent() === "Download feedback", `the link downloads: ${await link.textContent()}`);
      const before = Date.now();
      const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
      checkStamp(download.suggestedFilename(), before);
      const text = fs.readFileSync(await download.path(), "utf8");
      expect(text === lines, `the downloaded file:\n${text}\nexpected:\n${lines}`);
      expect(outside.length === 0, `requests outside the site: ${outside.join(", ")}`);
      expect(problems.length === 0, problems.join("; "));
      await context.close();
    });
  }
} finally {
  await tearDown({ browser, servers, tmp, keep: options.keep });
}

console.log(`feedback browser test: ${tally.passed} passed, ${tally.failures.length} failed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(tally.failures.length === 0 ? 0 : 1);
