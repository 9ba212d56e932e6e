// Search benchmark (issue 34): paperpress's word index against Pagefind run on
// the same built site (the 10-year bench archive), in Debian's Chromium
// over slow 4G (150 ms round trip, 1.6 Mbit/s down), emulated by the bench's own server.
//
//   node bench/search_bench.mjs --binary build/generator/paperpress [--baseline OLD_BINARY]
//        [--out DIR] [--runs 3] [--rare WORD] [--common WORD]
//
// 1. Builds bench/out/archive/paperpress (bench/gen_archive.py, as build_bench.py
//    sets it up) into DIR/site with --binary, timed (and with --baseline into
//    DIR/site-baseline, the index's cost being the difference).
// 2. Runs Pagefind (npm `pagefind`, installed into bench/out/pagefind with its
//    platform binary @pagefind/linux-x64) on that site, timed, into DIR/pagefind.
// 3. Serves both on 127.0.0.1 (slow 4G: throttledServer) and, for a rare and a common word, measures
//    in a fresh browser context each run: the files and bytes a query fetches
//    (after the page and each tool's start files are loaded: paperpress's list
//    of periods, Pagefind's script, WebAssembly and entry files), and the time
//    to the first result shown and to the first page of results (20) shown.
//    paperpress is timed from the input event, its 150 ms typing pause
//    included; Pagefind from its search() call, each result's data() loaded
//    as its UI loads them.
// Prints a Markdown table (also to DIR/search-bench.md).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import http from "node:http";
import zlib from "node:zlib";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const args = { binary: "", baseline: "", out: path.join(here, "out/search"), runs: 3, rare: "ararwen", common: "learning",
               "keep-pagefind": "" };
for (let i = 2; i < process.argv.length; ++i) {
  const key = process.argv[i].replace(/^--/, "");
  if (!(key in args)) { console.error(`unknown argument ${process.argv[i]}`); process.exit(2); }
  const value = process.argv[++i];
  if (key === "keep-pagefind") { args[key] = "yes"; --i; continue; }
  args[key] = key === "runs" ? Number(value) : ["binary", "baseline", "out"].includes(key) ? path.resolve(value) : value;
}
if (!args.binary) { console.error("--binary: the paperpress to measure"); process.exit(2); }

const archive = path.join(here, "out/archive/paperpress");
if (!fs.existsSync(path.join(archive, "content")))
  spawnSync("python3", [path.join(here, "gen_archive.py"), "--out", path.join(here, "out/archive")], { stdio: "inherit" });
if (!fs.existsSync(path.join(archive, "themes"))) fs.symlinkSync(path.join(root, "themes"), path.join(archive, "themes"));
fs.writeFileSync(path.join(archive, "paperpress.yaml"), "title: Bench digest\nbase_url: /\nmath: false\nsearch_index: true\n");
fs.mkdirSync(args.out, { recursive: true });

function timed(command, argv, cwd) {
  const t0 = process.hrtime.bigint();
  const result = spawnSync(command, argv, { cwd, encoding: "utf8", maxBuffer: 1 << 26 });
  if (result.status !== 0) throw new Error(`${command} ${argv.join(" ")}: ${result.stdout}${result.stderr}`);
  return Number(process.hrtime.bigint() - t0) / 1e9;
}
function fresh(site) {
  fs.rmSync(site, { recursive: true, force: true });
  fs.rmSync(path.join(path.dirname(site), `.${path.basename(site)}.paperpress-state`), { force: true });
}
function sizeOf(dir, skip = () => false) {
  let bytes = 0, files = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    if (entry.isFile() && !skip(file)) { bytes += fs.statSync(file).size; files += 1; }
  }
  return { bytes, files };
}

const site = path.join(args.out, "site");
fresh(site);
const build = { full: timed(args.binary, ["build", "--out", site], archive) };
if (args.baseline) {
  const baseline = path.join(args.out, "site-baseline");
  fresh(baseline);
  build.baseline = timed(args.baseline, ["build", "--out", baseline], archive);
  fresh(baseline);
}
const dayPages = sizeOf(site, (f) => !/\/\d{4}\/\d{2}\/\d{2}\/index\.html$/.test(f));
const ppIndex = sizeOf(path.join(site, "search"), (f) => f.endsWith("index.html"));

const pagefindDir = path.join(here, "out/pagefind");
const pagefindBin = path.join(pagefindDir, "node_modules/@pagefind/linux-x64/bin/pagefind_extended");
if (!fs.existsSync(pagefindBin)) {
  fs.mkdirSync(pagefindDir, { recursive: true });
  fs.writeFileSync(path.join(pagefindDir, "package.json"), '{"name":"pagefind-bench","private":true}\n');
  spawnSync("npm", ["install", "--no-audit", "--no-fund", "pagefind@1.6.0"], { cwd: pagefindDir, stdio: "inherit" });
}
// Pagefind's bundle beside the site (served at /pagefind/), so a rebuilt site keeps it (--keep-pagefind).
const pagefindOut = path.join(args.out, "pagefind"), pagefindTimeFile = path.join(args.out, "pagefind-time.txt");
if (!(args["keep-pagefind"] && fs.existsSync(pagefindTimeFile))) {
  fs.rmSync(pagefindOut, { recursive: true, force: true });
  fs.writeFileSync(pagefindTimeFile, String(timed(pagefindBin, ["--site", site, "--output-path", pagefindOut], args.out)));
}
const pagefindTime = Number(fs.readFileSync(pagefindTimeFile, "utf8"));
const pfIndex = sizeOf(pagefindOut);
const pagefindPage = '<!doctype html><meta charset="utf-8"><title>Pagefind bench</title><script type="module">' +
  'window.pagefind = await import("/pagefind/pagefind.js"); await window.pagefind.init(); window.ready = true;</script>';

// A static server whose one downlink is slow 4G: each response waits a round trip (150 ms), then
// its bytes (and 300 bytes of headers) queue on a 1.6 Mbit/s link shared by all responses. It
// counts the files and bytes served while `log.on`: a worker's fetches (Pagefind's) count too,
// which the browser's own throttling would not slow. Like GitHub Pages, it gzips text (mime-db's
// compressible types: HTML, CSS, JavaScript, JSON, plain text) for a client that asks; the word
// index's list and chunks are plain text since its format 3, a day's file and Pagefind's gzip'd.
const log = { on: false, files: 0, bytes: 0 };
function throttledServer() {
  let linkFree = 0;
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url, "http://localhost").pathname);
    let file = url.startsWith("/pagefind/") ? path.join(pagefindOut, url.slice(10)) : path.join(site, path.normalize(url));
    if (url.endsWith("/")) file = path.join(file, "index.html");
    const raw = url === "/pagefind-bench.html" ? Buffer.from(pagefindPage) : fs.existsSync(file) ? fs.readFileSync(file) : null;
    const compress = raw && /\.(html|css|js|json|txt)$/.test(url.endsWith("/") ? "index.html" : url) &&
                     /\bgzip\b/.test(req.headers["accept-encoding"] || "");
    const body = compress ? zlib.gzipSync(raw) : raw;
    if (log.on && body) { log.files += 1; log.bytes += body.length; }
    const now = Date.now(), start = Math.max(now + 150, linkFree);
    linkFree = start + ((body ? body.length : 0) + 300) * 8 / 1.6e3; // ms at 1.6 Mbit/s
    setTimeout(() => {
      if (!body) return res.writeHead(404).end();
      const name = url === "/pagefind-bench.html" ? url : file;
      const type = name.endsWith(".js") ? "text/javascript" : name.endsWith(".wasm") ? "application/wasm" :
                   name.endsWith(".html") ? "text/html" : name.endsWith(".css") ? "text/css" : "application/octet-stream";
      const headers = { "content-type": type, "cache-control": "no-store" };
      if (compress) headers["content-encoding"] = "gzip";
      res.writeHead(200, headers).end(body);
    }, linkFree - now);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () =>
    resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((d) => server.close(d)) })));
}

const require = createRequire(path.join(root, "package.json"));
const { chromium } = require("playwright-core");
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"] });
const server = await throttledServer();

// A page's work, or an error after a minute (a query whose results never show would hang the bench).
function withinAMinute(promise, what) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no results after 60 s`)), 60000); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// One query in a fresh, throttled context: {first, all, results, files, bytes}.
async function measure(tool, query) {
  const context = await browser.newContext();
  const page = await context.newPage();
  log.on = false;
  log.files = log.bytes = 0;
  let times;
  if (tool === "paperpress") {
    await page.goto(server.url + "/search/", { waitUntil: "networkidle" });
    log.on = true;
    times = await withinAMinute(page.evaluate((q) => new Promise((done) => {
      const list = document.getElementById("search-results"), status = document.getElementById("search-status");
      const t0 = performance.now();
      let first = 0;
      const check = () => {
        const items = [...list.children], shown = items.filter((li) => !li.hidden).length;
        if (!first && shown > 0) first = performance.now() - t0;
        const total = Number((status.textContent.match(/^(\d+) paper/) || [])[1] || -1);
        if (total >= 0 && shown === Math.min(20, total) && shown === items.length && shown > 0) {
          observer.disconnect();
          done({ first, all: performance.now() - t0, results: total });
        }
      };
      const observer = new MutationObserver(check);
      observer.observe(document.getElementById("main") || document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      const input = document.getElementById("search-query");
      input.value = q;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }), query), `paperpress "${query}" (is the site built with search_index: true?)`);
  } else {
    await page.goto(server.url + "/pagefind-bench.html", { waitUntil: "networkidle" });
    await page.waitForFunction(() => window.ready === true);
    log.on = true;
    times = await withinAMinute(page.evaluate(async (q) => {
      const t0 = performance.now();
      const search = await window.pagefind.search(q);
      if (!search.results.length) return { first: 0, all: performance.now() - t0, results: 0 };
      await search.results[0].data();
      const first = performance.now() - t0;
      await Promise.all(search.results.slice(0, 20).map((r) => r.data()));
      return { first, all: performance.now() - t0, results: search.results.length };
    }, query), `pagefind "${query}"`);
  }
  log.on = false;
  await context.close();
  return { ...times, files: log.files, bytes: log.bytes };
}

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (const [kind, query] of [["rare", args.rare], ["common", args.common]])
  for (const tool of ["paperpress", "pagefind"]) {
    const runs = [];
    for (let i = 0; i < args.runs; ++i) runs.push(await measure(tool, query));
    rows.push({ tool, kind, query, results: runs[0].results, files: median(runs.map((r) => r.files)),
                bytes: median(runs.map((r) => r.bytes)), first: median(runs.map((r) => r.first)),
                all: median(runs.map((r) => r.all)), spread: runs.map((r) => Math.round(r.all)).join("/") });
  }
await browser.close();
await server.close();

const mb = (b) => (b / 1e6).toFixed(1) + " MB";
const lines = [
  `bench archive: day pages ${mb(dayPages.bytes)} (${dayPages.files} files)`,
  `paperpress: full build ${build.full.toFixed(2)} s` + (build.baseline ? ` (${build.baseline.toFixed(2)} s without the index: ` +
    `+${(build.full - build.baseline).toFixed(2)} s)` : "") + `; index ${mb(ppIndex.bytes)} in ${ppIndex.files} files ` +
    `(${(ppIndex.bytes / dayPages.bytes).toFixed(3)} of the day pages)`,
  `pagefind 1.6.0: ${pagefindTime.toFixed(1)} s over the built site; index ${mb(pfIndex.bytes)} in ${pfIndex.files} files ` +
    `(${(pfIndex.bytes / dayPages.bytes).toFixed(3)} of the day pages)`,
  "",
  `| query | tool | results | files read | bytes read | first result, ms | first 20 shown, ms (runs) |`,
  `| --- | --- | --- | --- | --- | --- | --- |`,
  ...rows.map((r) => `| ${r.kind} (\`${r.query}\`) | ${r.tool} | ${r.results}${r.tool === "pagefind" ? " pages" : " papers"} | ` +
    `${r.files} | ${(r.bytes / 1e3).toFixed(0)} KB | ${Math.round(r.first)} | ${Math.round(r.all)} (${r.spread}) |`),
];
console.log(lines.join("\n"));
fs.writeFileSync(path.join(args.out, "search-bench.md"), lines.join("\n") + "\n");
