// What the browser tests share: their command line, the skip rule (exit 77
// when Chromium or playwright-core is missing, a failure under CI=true), and
// loading playwright-core from the repository's node_modules.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Returns { options: {source, paperpress, keep}, chromium, chromiumPath, skip }.
export function setUp(label, script) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const options = { source: path.resolve(here, "../.."), paperpress: "", keep: false };
  for (let i = 2; i < process.argv.length; ++i) {
    const arg = process.argv[i];
    if (arg === "--paperpress") options.paperpress = path.resolve(process.argv[++i]);
    else if (arg === "--source") options.source = path.resolve(process.argv[++i]);
    else if (arg === "--keep") options.keep = true;
    else {
      console.error(`usage: node ${script} --paperpress BINARY [--source REPO] [--keep]\nunknown argument: ${arg}`);
      process.exit(2);
    }
  }
  const inCI = /^(1|true|yes)$/i.test(process.env.CI || "");
  const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
  const skip = (reason) => {
    if (inCI) {
      console.error(`${label}: FAILED: ${reason} (CI=true: the browser test must run; scripts/setup installs it)`);
      process.exit(1);
    }
    console.log(`${label}: SKIPPED: ${reason}. Run scripts/setup to install chromium and the npm packages.`);
    process.exit(77);
  };
  if (!options.paperpress || !fs.existsSync(options.paperpress)) {
    console.error(`${label}: --paperpress must name the built paperpress binary`);
    process.exit(2);
  }
  if (!fs.existsSync(chromiumPath)) skip(`no Chromium at ${chromiumPath}`);
  let chromium;
  try {
    const require = createRequire(path.join(options.source, "package.json"));
    ({ chromium } = require("playwright-core"));
  } catch (error) {
    skip(`playwright-core is not installed in ${options.source}/node_modules (${error.code || error.message})`);
  }
  return { options, chromium, chromiumPath, skip };
}

// Named checks: check(name, body) runs one and reports "ok"/"FAIL"; the
// tally says how many passed and which failed; expect() fails a check.
export function checks() {
  const tally = { passed: 0, failures: [] };
  async function check(name, body) {
    const t0 = Date.now();
    try {
      await body();
      ++tally.passed;
      console.log(`ok   ${name} (${Date.now() - t0} ms)`);
    } catch (error) {
      tally.failures.push(name);
      console.log(`FAIL ${name}\n     ${String(error && error.stack || error).split("\n").slice(0, 4).join("\n     ")}`);
    }
  }
  return { check, tally };
}

// A paper's element in either shipped theme: classic's section.paper; the
// default theme's paper heading (a day article's h2 that is not a topic's).
export const PAPER = ".paper, article.day > h2:not(.topic-head)";

// site.js loads KaTeX when a formula comes near the viewport and typesets each
// part of a page as it does: katexReady waits for KaTeX; typesetAll typesets
// every formula, as printing does (a page without math loads no KaTeX).
export async function katexReady(page) {
  await page.waitForFunction(() => typeof window.renderMathInElement === "function");
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0))); // its onload has run
}
export async function typesetAll(page) {
  await page.evaluate(() => window.dispatchEvent(new Event("beforeprint")));
  if (await page.evaluate(() => document.querySelector('script[src*="katex"]') !== null)) await katexReady(page);
}

// How far a page is wider than the viewport, every part laid out: the shipped
// stylesheets let the browser skip papers off screen (content-visibility), whose
// width would otherwise not count until the reader scrolled to them.
export function sidewaysOverflow(page) {
  return page.evaluate(() => {
    const all = document.createElement("style");
    all.textContent = "* { content-visibility: visible !important; }";
    document.head.append(all);
    const extra = document.documentElement.scrollWidth - window.innerWidth;
    all.remove();
    return extra;
  });
}

export function expect(condition, message) {
  if (!condition) throw new Error(message);
}

// Headless Chromium with what makes it quiet and offline-safe on CI.
export function launch(chromium, chromiumPath) {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync"],
  });
}

// A page that records script errors, HTTP errors and failed requests in
// `problems`. A request cut short by the next navigation (a favicon fetched
// after "load", or a page left at "load") is no fault; nor is an HTTP error
// for a URL containing `expectedMissing`, when given.
export async function openPage(context, problems, { timeout = 10000, expectedMissing = null } = {}) {
  const page = await context.newPage();
  page.setDefaultTimeout(timeout);
  page.on("pageerror", (error) => problems.push(`script error: ${error.message}`));
  page.on("response", (response) => {
    if (response.status() >= 400 && !(expectedMissing && response.url().includes(expectedMissing)))
      problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on("requestfailed", (request) => {
    if ((request.failure() || {}).errorText !== "net::ERR_ABORTED") problems.push(`request failed: ${request.url()}`);
  });
  return page;
}

// Closes the browser and the servers, then removes the temporary folder
// unless --keep asked to keep it (`kept` says what is in it).
export async function tearDown({ browser, servers, tmp, keep, kept = "" }) {
  await browser.close();
  for (const server of Object.values(servers)) await server.close();
  if (!keep) fs.rmSync(tmp, { recursive: true, force: true });
  else console.log(`kept ${tmp}${kept}`);
}

// A site folder of the test's own in a temporary folder: the themes, and the
// sample archive imported (the fixture archive and the seed pages). `run`
// calls paperpress there and ends the test when it fails.
export function sampleSite(options, name) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `paperpress-${name}-`));
  const root = path.join(tmp, "main");
  fs.mkdirSync(root, { recursive: true });
  fs.cpSync(path.join(options.source, "themes"), path.join(root, "themes"), { recursive: true });
  const fixtures = path.join(options.source, "tests/fixtures");
  const seeds = fs.readdirSync(path.join(fixtures, "seeds")).filter((f) => f.endsWith(".txt")).sort()
    .map((f) => path.join(fixtures, "seeds", f));
  function run(args) {
    const result = spawnSync(options.paperpress, args, { cwd: root, encoding: "utf8" });
    if (result.status !== 0) {
      console.error(`${name} browser test: paperpress ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
      process.exit(1);
    }
  }
  run(["import", path.join(fixtures, "gpt-paper-assistant-archive/out"), ...seeds]);
  return { tmp, root, run };
}
