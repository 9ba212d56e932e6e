// The reader's site judged by independent checkers (issue 33), from npm and
// offline once installed:
//
//   node tests/browser/checkers.mjs --paperpress build/generator/paperpress [--source .] [--keep]
//
// Builds the sample archive (with failed runs after its last day) in both
// themes, then on every page kind: axe-core in Debian's headless Chromium, in
// the light and the dark scheme, must find no violation of impact serious or
// critical (nor of the rules landmark-unique and region); the Nu Html Checker (vnu.jar, on Debian's Java) must find no error.
// The same for the search page over the word index (search_index: true).
//
// Exit 0: all passed; 1: a check failed; 77: skipped (as run.mjs).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { checks, expect, launch, openPage, sampleSite, setUp, tearDown } from "./harness.mjs";
import { serve } from "./server.mjs";

const { options, chromium, chromiumPath, skip } = setUp("checkers browser test", "checkers.mjs");
const axePath = path.join(options.source, "node_modules/axe-core/axe.min.js");
const vnuPath = path.join(options.source, "node_modules/vnu-jar/build/dist/vnu.jar");
if (!fs.existsSync(path.join(options.source, "node_modules/katex/dist/katex.min.js"))) skip("KaTeX is not installed in node_modules");
if (!fs.existsSync(axePath)) skip("axe-core is not installed in node_modules");
if (!fs.existsSync(vnuPath)) skip("vnu-jar is not installed in node_modules");
if (spawnSync("java", ["-version"]).status !== 0) skip("no Java runtime (default-jre-headless)");

const started = Date.now();
const { tmp, root, run } = sampleSite(options, "checkers");
// Failed runs after the last day with papers (2026-04-30): the home page's note, failed marks.
fs.mkdirSync(path.join(root, "content/2026/05"), { recursive: true });
for (const date of ["2026-05-01", "2026-05-04"])
  fs.writeFileSync(path.join(root, "content/2026/05", `${date}.md`),
                   `---\ndate: ${date}\nstatus: failed\nreason: the LLM quota ran out\n---\n\n# arXiv papers for ${date}\n`);
fs.symlinkSync(path.join(options.source, "node_modules"), path.join(root, "node_modules"));
fs.writeFileSync(path.join(root, "paperpress.yaml"), "title: Checked digest\nbase_url: /sub/\n");
const sites = {};
for (const theme of ["default", "classic"]) {
  run(["build", "--theme", theme, "--out", `out-${theme}/sub`]);
  sites[theme] = path.join(root, `out-${theme}`);
}
// The search page over the word index (search_index: true), in the default theme.
fs.writeFileSync(path.join(root, "words.yaml"), "title: Checked digest\nbase_url: /sub/\nsearch_index: true\n");
run(["build", "--config", "words.yaml", "--out", "out-words/sub"]);
sites.words = path.join(root, "out-words");

// Every page kind: a day with math and one with a failed run among them.
const kinds = { home: "", day: "2026/04/30/", "day-math": "2025/02/25/", "day-failed": "2026/05/04/", month: "2026/04/",
                "month-failed": "2026/05/", year: "2026/", archive: "archive/", search: "search/", starred: "starred/",
                trends: "trends/", range: "range/", preferences: "preferences/", 404: "404.html" };
// The pages whose script fills a list from the data, with what to list.
const queries = { search: "?q=learning", range: "?from=2026-04-27&to=2026-04-30" };
const prompts = path.join(sites.default, "sub/prompts");
if (fs.existsSync(prompts)) kinds.prompt = `prompts/${fs.readdirSync(prompts).sort()[0]}/`; // the selection prompt's page
const file = (theme, where) => path.join(sites[theme], "sub", where.endsWith(".html") ? where : where + "index.html");

// Serious and critical violations, and two moderate rules the issue names:
// unique landmarks, all content in one.
async function axeViolations(page) {
  await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical" ||
                                           v.id === "landmark-unique" || v.id === "region")
      .map((v) => `${v.id} (${v.nodes.length}: ${v.nodes[0].target.join(" ")})`);
  });
}

const { check, tally } = checks();
const servers = {};
for (const [name, site] of Object.entries(sites)) servers[name] = await serve(fs.realpathSync(site));
const browser = await launch(chromium, chromiumPath);

try {
  for (const theme of ["default", "classic"]) {
    const base = servers[theme].url;
    for (const scheme of ["light", "dark"]) {
      await check(`${theme}, ${scheme}: axe-core finds no serious or critical violation on any page kind`, async () => {
        const problems = [];
        const context = await browser.newContext({ colorScheme: scheme });
        const page = await openPage(context, problems, { timeout: 30000, expectedMissing: "/404.html" });
        const found = [];
        for (const [kind, where] of Object.entries(kinds)) {
          await page.goto(`${base}/sub/${where}${queries[kind] || ""}`, { waitUntil: "load" });
          if (queries[kind]) await page.locator(".search-result").first().waitFor();
          for (const v of await axeViolations(page)) found.push(`${kind}: ${v}`);
        }
        expect(found.length === 0, found.join("; "));
        expect(problems.length === 0, problems.join("; "));
        await context.close();
      });
    }
    await check(`${theme}: the Nu Html Checker finds no error on any page kind`, async () => {
      const files = Object.values(kinds).map((where) => file(theme, where));
      const result = spawnSync("java", ["-jar", vnuPath, "--errors-only", "--format", "text", ...files], { encoding: "utf8" });
      expect(result.status === 0, `vnu: ${(result.stderr + result.stdout).split("\n").slice(0, 20).join("\n")}`);
    });
  }
  for (const scheme of ["light", "dark"]) {
    await check(`word index, ${scheme}: axe-core finds no serious or critical violation on the search page`, async () => {
      const problems = [];
      const context = await browser.newContext({ colorScheme: scheme });
      const page = await openPage(context, problems, { timeout: 30000 });
      await page.goto(`${servers.words.url}/sub/search/?q=learning`, { waitUntil: "load" });
      await page.locator(".search-result:not([hidden])").first().waitFor();
      const found = await axeViolations(page);
      expect(found.length === 0, found.join("; "));
      expect(problems.length === 0, problems.join("; "));
      await context.close();
    });
  }
  await check("word index: the Nu Html Checker finds no error on the search page", async () => {
    const result = spawnSync("java", ["-jar", vnuPath, "--errors-only", "--format", "text", file("words", "search/")],
                             { encoding: "utf8" });
    expect(result.status === 0, `vnu: ${(result.stderr + result.stdout).split("\n").slice(0, 20).join("\n")}`);
  });
} finally {
  await tearDown({ browser, servers, tmp, keep: options.keep });
}

console.log(`checkers browser test: ${tally.passed} passed, ${tally.failures.length} failed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(tally.failures.length === 0 ? 0 : 1);
