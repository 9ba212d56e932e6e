#!/usr/bin/env python3
"""paperpress vs Hugo on the synthetic 10-year archive, timed in the same run.

  python3 bench/build_bench.py               # generate (once), then time both; RUNS=3 by default
  python3 bench/build_bench.py --runs 5 --skip-hugo

For each place the output goes (the real disk under bench/out/, and a tmpfs
mounted for the run when the script may mount one: root), and each CPU
count (2 cores, pinned with taskset, and all the cores this script may use,
not pinned: taskset would change nothing but add its own start to the time;
one row when there are 2), both tools run the same builds:
  full       no output folder (and, for paperpress, no build state);
  no-change  the same content again;
  append     day 3651 (2024-12-29) added to both trees, built, and removed
             again (and built again, untimed), each run.
Each: one untimed warm-up, then --runs runs; the table gives the median and
the spread (min-max) of the wall time from start to exit of the tool's
process (to the millisecond; no wrapper such as /usr/bin/time, whose output
rounds to 10 ms) and the peak RSS as wait4() reports it; for full builds,
the output's bytes (sum of file sizes) and its files and folders. Then the
peak RSS of paperpress's full build at each worker count of --rss-jobs
(build -j N, on all cores; more workers than cores is how a CI runner whose
cgroup hides its quota would run), on the tmpfs when there is one.

Full builds start with no output folder. The last run's output is renamed
aside, not deleted, and the set-aside trees are deleted when the
measurements are done: on ext4 without a journal (as on these VMs), every
new file's inode search steps over the inodes deleted in the last minute
(find_inode_bit -> recently_deleted), which made the kernel time of a build
just after deleting its last output vary from 1 to 4.5 CPU-seconds; that
measures the file system's bookkeeping, not the tools. Before each run,
sync() writes the last run's files to disk, so no run shares the cores with
the kernel's write-back of the one before. The load average is printed
before and after: on a shared machine, other work skews every figure.
With --without-index, paperpress runs a third time in each row, the same
builds with `search_index: false` (bench/out/archive/paperpress/
paperpress-no-index.yaml): what the word index costs, as ratios of one run.
With --pagefind, Pagefind (npm `pagefind`, installed into bench/out/pagefind
as bench/search_bench.mjs does) indexes Hugo's output after Hugo's full
builds at 2 cores in each place, --pagefind-runs times (no warm-up: about
two minutes a run): "Hugo followed by Pagefind" is what a Hugo site with
full-text search costs, the peer of paperpress's build with its word index
(on by default). Its peak RSS is reported beside.
Everything lives under bench/out/ (gitignored); the table is also written
to bench/out/last-run.txt.
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(HERE, "out")
ARCHIVE = os.path.join(OUT, "archive")
PP_SITE = os.path.join(ARCHIVE, "paperpress")
HUGO_SITE = os.path.join(ARCHIVE, "hugo")
APPEND_DAY = 3651


def sh(cmd, **kw):
    subprocess.check_call(cmd, shell=True, **kw)


def timed(cmd, cwd):
    """Wall time of one run (ms precision; with taskset's own start, about 1 ms, where it pins the
    cores) and its peak RSS (wait4)."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        child = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode(errors="replace").strip()
    if child.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{text}")
    return seconds, usage.ru_maxrss / 1024, text.splitlines()[-1] if text else ""


SET_ASIDE = os.path.join(OUT, "set-aside")
NO_INDEX_CONFIG = "paperpress-no-index.yaml"  # --without-index
PAGEFIND_VERSION = "1.6.0"  # as bench/search_bench.mjs
PAGEFIND = os.path.join(OUT, "pagefind", "node_modules", "@pagefind", "linux-x64", "bin", "pagefind_extended")


def install_pagefind():
    if not os.path.exists(PAGEFIND):
        home = os.path.join(OUT, "pagefind")
        os.makedirs(home, exist_ok=True)
        with open(os.path.join(home, "package.json"), "w") as f:
            f.write('{"name":"pagefind-bench","private":true}\n')
        sh(f"npm install --no-audit --no-fund pagefind@{PAGEFIND_VERSION} >/dev/null", cwd=home)


def set_aside(path):
    """Moves `path` out of the way without deleting it (see the note above)."""
    if os.path.lexists(path):
        os.makedirs(SET_ASIDE, exist_ok=True)
        os.rename(path, os.path.join(SET_ASIDE, f"{len(os.listdir(SET_ASIDE))}-{os.path.basename(path)}"))


def measure(label, cmd, cwd, runs, pre=None, post=None, warmup=1):
    """Median and spread of wall time (s) and peak RSS (MB) over `runs` runs after `warmup`."""
    results = []
    for i in range(warmup + runs):
        if pre: pre()
        os.sync()  # no run pays for writing back the last run's pages
        wall, rss, last = timed(cmd, cwd)
        if post: post()
        if i >= warmup:
            results.append((wall, rss))
            print(f"  {label} run {i - warmup + 1}: {wall:.3f} s, {rss:.0f} MB  {last}", file=sys.stderr)
    walls = [w for w, _ in results]
    rsses = [r for _, r in results]
    return {"wall": statistics.median(walls), "min": min(walls), "max": max(walls), "rss": statistics.median(rsses)}


def tree_size(path):
    """Bytes (sum of file sizes), files and folders under `path`."""
    size = files = folders = 0
    for root, dirs, names in os.walk(path):
        folders += len(dirs)
        for name in names:
            files += 1
            size += os.lstat(os.path.join(root, name)).st_size
    return size, files, folders


def page_kind(relative):
    """The kind of output a site path is: day, month, year, data, search page, prompts, ..."""
    parts = relative.split("/")
    if parts[0].isdigit():
        return {2: "year pages", 3: "month pages", 4: "day pages"}.get(len(parts), "other")
    if parts[0] == "data":
        if len(parts) > 2: return "data/days/*.json"
        return "data/index.json" if parts[1] == "index.json" else "data/YYYY-MM.json (data and search)"
    if parts[0] == "search":
        return "search page"
    return parts[0] if len(parts) > 1 else "top-level files (home, feed, sitemap, 404)"


def breakdown(path):
    """Bytes and files per kind of output, largest first."""
    kinds = {}
    for root, _, names in os.walk(path):
        for name in names:
            full = os.path.join(root, name)
            kind = page_kind(os.path.relpath(full, path))
            size, count = kinds.get(kind, (0, 0))
            kinds[kind] = (size + os.lstat(full).st_size, count + 1)
    return sorted(kinds.items(), key=lambda item: -item[1][0])


def mount_tmpfs(path):
    """A tmpfs at `path` for this run, if this process may mount one; else None."""
    os.makedirs(path, exist_ok=True)
    if os.geteuid() != 0:
        return None
    if subprocess.call(["mount", "-t", "tmpfs", "-o", "size=3g", "tmpfs", path], stderr=subprocess.DEVNULL) != 0:
        return None
    return path


def load():
    return open("/proc/loadavg").read().split()[:3]


class Tee:
    """Prints to the terminal and keeps a copy in bench/out/last-run.txt."""
    def __init__(self, path):
        self.file, self.stdout = open(path, "w"), sys.stdout
    def write(self, text):
        self.stdout.write(text)
        self.file.write(text)
    def flush(self):
        self.stdout.flush()
        self.file.flush()


def cell(m):
    if m is None: return "not timed (= full build)"
    return f"{m['wall']:.3f} ({m['min']:.3f}-{m['max']:.3f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=int(os.environ.get("RUNS", 3)))
    ap.add_argument("--skip-hugo", action="store_true")
    ap.add_argument("--skip-tmpfs", action="store_true")
    ap.add_argument("--skip-disk", action="store_true")
    ap.add_argument("--warmup", type=int, default=1, help="untimed runs before each measurement")
    ap.add_argument("--hugo-no-change", action=argparse.BooleanOptionalAction, default=True,
                    help="also time Hugo's no-change build (it has no incremental mode: a full build again)")
    ap.add_argument("--binary", type=os.path.abspath, default=os.path.join(ROOT, "build-speed", "generator", "paperpress"))
    ap.add_argument("--rss-jobs", default="1,2,4,8,16",
                    help="worker counts (build -j N) whose full build's peak RSS is measured, on all cores; '' for none")
    ap.add_argument("--config", default="", help="extra lines for the bench site's paperpress.yaml (e.g. 'data: none')")
    ap.add_argument("--without-index", action="store_true",
                    help="also time paperpress with search_index: false, for the index's cost as a ratio")
    ap.add_argument("--pagefind", action="store_true", help="also time Pagefind over Hugo's output (see above)")
    ap.add_argument("--pagefind-runs", type=int, default=1)
    a = ap.parse_args()
    if a.pagefind and not a.skip_hugo: install_pagefind()
    if not a.skip_hugo and not shutil.which("hugo"):
        sh("apt-get install -y hugo >/dev/null")
    if not os.path.isdir(os.path.join(PP_SITE, "content")):
        sh(f"python3 {HERE}/gen_archive.py --out {ARCHIVE}")
    os.makedirs(PP_SITE, exist_ok=True)
    themes = os.path.join(PP_SITE, "themes")  # this checkout's (a link left by another checkout is replaced)
    if os.path.islink(themes) and os.readlink(themes) != os.path.join(ROOT, "themes"):
        os.remove(themes)
    if not os.path.lexists(themes):
        os.symlink(os.path.join(ROOT, "themes"), themes)
    config = ("title: Bench digest\nbase_url: https://example.github.io/arxiv-digest/\nmath: false\n" +  # no KaTeX beside it
              a.config.replace("\\n", "\n") + "\n")
    with open(os.path.join(PP_SITE, "paperpress.yaml"), "w") as f:
        f.write(config)
    with open(os.path.join(PP_SITE, NO_INDEX_CONFIG), "w") as f:
        f.write(config + "search_index: false\n")
    for name in ("hugo.toml", "layouts"):
        src, dst = os.path.join(HERE, "hugo", name), os.path.join(HUGO_SITE, name)
        if os.path.isdir(src):
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(src, dst)
        else:
            shutil.copy(src, dst)

    def append():
        sh(f"python3 {HERE}/gen_archive.py --out {ARCHIVE} --only-day {APPEND_DAY} >/dev/null")

    def unappend():
        for tree in ("paperpress", "hugo"):
            p = os.path.join(ARCHIVE, tree, "content", "2024", "12", "2024-12-29.md")
            if os.path.exists(p): os.remove(p)

    allowed = sorted(os.sched_getaffinity(0))  # the CPUs this script may use
    cores = len(allowed)
    core_counts = [2, cores] if cores > 2 else [cores]
    places = [] if a.skip_disk else [("disk", OUT)]
    tmpfs = None if a.skip_tmpfs else mount_tmpfs(os.path.join(OUT, "tmpfs"))
    if tmpfs: places.append(("tmpfs", tmpfs))
    sys.stdout = Tee(os.path.join(OUT, "last-run.txt"))
    print(f"== {cores} cores ({'all cores = 2: one row per place' if cores <= 2 else 'rows at 2 and at all cores'}); "
          f"content {subprocess.check_output(['du', '-sh', os.path.join(PP_SITE, 'content')], text=True).split()[0]}; "
          f"load average before: {' '.join(load())}")
    if not tmpfs and not a.skip_tmpfs: print("== no tmpfs (not root, or mount failed): real disk only")
    if a.config: print(f"== paperpress.yaml adds: {a.config}")
    if not a.skip_hugo: print(f"== {subprocess.check_output(['hugo', 'version'], text=True).strip()}")
    rows, rss_by_jobs, pagefind = [], [], {}
    try:
        unappend()
        for place, where in places:
            for n in core_counts:
                pin = ["taskset", "-c", ",".join(map(str, allowed[:n]))] if n < cores else []
                site = os.path.join(where, "pp-site")
                pp = pin + [a.binary, "build", "--out", site]
                hugo_out = os.path.join(where, "hugo-public")
                hugo = pin + ["hugo", "--quiet", "--destination", hugo_out]
                aside = lambda path: set_aside(path) if where == OUT else shutil.rmtree(path, ignore_errors=True)

                def clean_pp():
                    aside(site)
                    aside(os.path.join(where, ".pp-site.paperpress-state"))

                tools = [("paperpress", pp, PP_SITE, clean_pp, site)]
                if a.without_index:  # the same build with the word index off: what the index costs, in this run
                    bare = os.path.join(where, "pp-site-no-index")
                    tools.append(("paperpress, no index", pin + [a.binary, "build", "--config", NO_INDEX_CONFIG,
                                  "--out", bare], PP_SITE,
                                  lambda: (aside(bare), aside(os.path.join(where, ".pp-site-no-index.paperpress-state"))),
                                  bare))
                if not a.skip_hugo:
                    tools.append(("hugo", hugo, HUGO_SITE, lambda: aside(hugo_out), hugo_out))
                for tool, cmd, cwd, clean, out in tools:
                    label = f"{tool} {place} {n} cores"
                    full = measure(label + " full", cmd, cwd, a.runs, pre=clean, warmup=a.warmup)
                    size, files, folders = tree_size(out)
                    if not any(r[2] == tool for r in rows):  # once per tool: where the bytes go
                        print(f"where {tool}'s {size / 1e6:.0f} MB go:")
                        for kind, (kind_bytes, count) in breakdown(out):
                            print(f"  {kind:45} {kind_bytes / 1e6:8.1f} MB {count:6} files {kind_bytes / count / 1e3:8.1f} KB each")
                    skip = tool == "hugo" and not a.hugo_no_change
                    same = None if skip else measure(label + " no-change", cmd, cwd, a.runs, warmup=a.warmup)
                    # paperpress builds again after the day is removed, so the next append starts from the
                    # same state; Hugo keeps none.
                    restore = (lambda: (unappend(), timed(cmd, cwd))) if tool.startswith("paperpress") else unappend
                    appended = measure(label + " append", cmd, cwd, a.runs, pre=append, post=restore, warmup=a.warmup)
                    rows.append((place, n, tool, full, same, appended, size, files, folders))
                    if tool == "hugo" and a.pagefind and n == 2:
                        index = os.path.join(where, "pagefind-index")
                        pagefind[place] = measure(f"pagefind {place} 2 cores", pin + [PAGEFIND, "--site", hugo_out,
                                                  "--output-path", index], where, a.pagefind_runs,
                                                  pre=lambda: aside(index), warmup=0)
        rss_by_jobs = peak_rss_by_jobs(a, places[-1][1] if places else OUT)
    finally:  # the set-aside outputs take a few GB
        shutil.rmtree(SET_ASIDE, ignore_errors=True)
        if tmpfs: subprocess.call(["umount", tmpfs])
    print(f"load average after: {' '.join(load())}")
    print()
    print("| output on | cores | tool | full build, s | no-change, s | append one day, s | peak RSS (full), MB | output MB | files | folders |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for place, n, tool, full, same, appended, size, files, folders in rows:
        print(f"| {place} | {n}{' (all)' if n == cores else ''} | {tool} | {cell(full)} | {cell(same)} | {cell(appended)} | "
              f"{full['rss']:.0f} | {size / 1e6:.0f} | {files} | {folders} |")
    print()
    by = {(p, n, t): (f, s_, ap, size) for p, n, t, f, s_, ap, size, _, _ in rows}
    for place, _ in places:
        for n in core_counts:
            if (place, n, "hugo") in by:
                pf, hf = by[(place, n, "paperpress")][0], by[(place, n, "hugo")][0]
                pb, hb = by[(place, n, "paperpress")][3], by[(place, n, "hugo")][3]
                print(f"{place}, {n} cores: full build {pf['wall'] / hf['wall']:.2f} x Hugo (goal <= 0.2); "
                      f"bytes {pb / hb:.2f} x Hugo (goal <= 1); peak RSS {pf['rss']:.0f} MB (goal <= 64)")
                if (place, n, "paperpress, no index") in by:
                    bare = by[(place, n, "paperpress, no index")]
                    print(f"{place}, {n} cores: the word index costs a full build {pf['wall'] / bare[0]['wall']:.2f} x "
                          f"(goal <= 1.5), an append {by[(place, n, 'paperpress')][2]['wall'] / bare[2]['wall']:.2f} x; "
                          f"bytes {pb / bare[3]:.2f} x")
                if n == 2 and place in pagefind:
                    f = pagefind[place]
                    print(f"{place}, 2 cores: Pagefind over Hugo's output {cell(f)} s, peak RSS {f['rss']:.0f} MB; "
                          f"full build {pf['wall'] / (hf['wall'] + f['wall']):.3f} x Hugo followed by Pagefind (goal <= 0.25)")
    print("goals at 2 cores: append <= 60 ms, no-change <= 40 ms (medians above)")
    if rss_by_jobs:
        print(f"peak RSS of a full build by worker count (build -j N on {cores} cores, median of {a.runs}; goal <= 64 MB): " +
              ", ".join(f"-j {n}: {rss:.0f} MB ({lo:.0f}-{hi:.0f})" for n, rss, lo, hi in rss_by_jobs))


def peak_rss_by_jobs(a, where):
    """Peak RSS of paperpress's full build at each worker count of --rss-jobs, output in `where`."""
    rows = []
    site = os.path.join(where, "pp-site")
    for n in [int(j) for j in a.rss_jobs.split(",") if j.strip()]:
        def clean():
            shutil.rmtree(site, ignore_errors=True)
            if os.path.exists(state := os.path.join(where, ".pp-site.paperpress-state")): os.remove(state)
        rsses = []
        for _ in range(a.runs):
            clean()
            rsses.append(timed([a.binary, "build", "--out", site, "-j", str(n)], PP_SITE)[1])
        clean()
        rows.append((n, statistics.median(rsses), min(rsses), max(rsses)))
        print(f"  paperpress full build -j {n}: peak RSS {rows[-1][1]:.0f} MB", file=sys.stderr)
    return rows


if __name__ == "__main__":
    main()
