#!/usr/bin/env python3
"""paperpress vs Hugo on the synthetic 10-year archive, timed in the same run.

  python3 bench/build_bench.py               # generate (once), then time both; RUNS=3 by default
  python3 bench/build_bench.py --runs 5 --skip-hugo

Each measurement: one untimed warm-up, then the median of --runs runs: wall
time from start to exit of the tool's process (to the millisecond; no
wrapper such as /usr/bin/time, whose output rounds to 10 ms), and its peak
RSS as wait4() reports it. Full builds start with no output folder (and, for
paperpress, no build state). The last run's output is renamed aside, not
deleted, and the set-aside trees are deleted when the measurements are done:
on ext4 without a journal (as on these VMs), every new file's inode search
steps over the inodes deleted in the last minute, or the last six while
their inode table is not yet written back (find_inode_bit ->
recently_deleted), which made the kernel time of a build just after deleting
its last output vary from 1 to 4.5 CPU-seconds; that measures the file
system's bookkeeping, not the tools. Before each run, sync() writes the
last run's files to disk, so no run shares the cores with the kernel's
write-back of the one before. Both tools are measured the same way.
"Append" adds day 3651 (2024-12-29) to both trees, builds, and removes it
again, each run. Everything lives under bench/out/ (gitignored).
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
    """Wall time of one run (ms precision, without a wrapper's own start-up) and its peak RSS (wait4)."""
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


def set_aside(path):
    """Moves `path` out of the way without deleting it (see the note above)."""
    if os.path.lexists(path):
        os.makedirs(SET_ASIDE, exist_ok=True)
        os.rename(path, os.path.join(SET_ASIDE, f"{len(os.listdir(SET_ASIDE))}-{os.path.basename(path)}"))


def measure(label, cmd, cwd, runs, pre=None, post=None, warmup=1):
    results = []
    for i in range(warmup + runs):
        if pre: pre()
        os.sync()  # no run pays for writing back the last run's pages
        wall, rss, last = timed(cmd, cwd)
        if post: post()
        if i >= warmup:
            results.append((wall, rss))
            print(f"  {label} run {i - warmup + 1}: {wall:.3f} s, {rss:.0f} MB  {last}", file=sys.stderr)
    wall = statistics.median(w for w, _ in results)
    rss = statistics.median(r for _, r in results)
    print(f"{label}: median of {runs}: wall {wall:.3f} s, peak RSS {rss:.0f} MB")
    return wall, rss


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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=int(os.environ.get("RUNS", 3)))
    ap.add_argument("--skip-hugo", action="store_true")
    ap.add_argument("--binary", default=os.path.join(ROOT, "build-speed", "generator", "paperpress"))
    a = ap.parse_args()
    if not a.skip_hugo and not shutil.which("hugo"):
        sh("apt-get install -y hugo >/dev/null")
    if not os.path.isdir(os.path.join(PP_SITE, "content")):
        sh(f"python3 {HERE}/gen_archive.py --out {ARCHIVE}")
    os.makedirs(PP_SITE, exist_ok=True)
    if not os.path.exists(os.path.join(PP_SITE, "themes")):
        os.symlink(os.path.join(ROOT, "themes"), os.path.join(PP_SITE, "themes"))
    with open(os.path.join(PP_SITE, "paperpress.yaml"), "w") as f:
        f.write("title: Bench digest\nbase_url: https://example.github.io/arxiv-digest/\nmath: false\n")  # no KaTeX beside it
    for name in ("hugo.toml", "layouts"):
        src, dst = os.path.join(HERE, "hugo", name), os.path.join(HUGO_SITE, name)
        if os.path.isdir(src):
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(src, dst)
        else:
            shutil.copy(src, dst)
    site = os.path.join(OUT, "pp-site")
    pp = [a.binary, "build", "--out", site]

    def clean_pp():
        set_aside(site)
        set_aside(os.path.join(OUT, ".pp-site.paperpress-state"))

    def append():
        sh(f"python3 {HERE}/gen_archive.py --out {ARCHIVE} --only-day {APPEND_DAY} >/dev/null")

    def unappend():
        for tree in ("paperpress", "hugo"):
            p = os.path.join(ARCHIVE, tree, "content", "2024", "12", "2024-12-29.md")
            if os.path.exists(p): os.remove(p)

    sys.stdout = Tee(os.path.join(OUT, "last-run.txt"))
    print(f"== {os.cpu_count()} cores; content {subprocess.check_output(['du', '-sh', os.path.join(PP_SITE, 'content')], text=True).split()[0]}")
    try:
        unappend()
        figures = {}
        figures["pp_full"] = measure("paperpress full build", pp, PP_SITE, a.runs, pre=clean_pp)
        measure("paperpress no-op rebuild", pp, PP_SITE, a.runs)
        figures["pp_append"] = measure("paperpress append one day", pp, PP_SITE, a.runs, pre=append,
                                       post=lambda: (unappend(), timed(pp, PP_SITE)))
        if not a.skip_hugo:
            print(f"== {subprocess.check_output(['hugo', 'version'], text=True).strip()}")
            hugo = ["hugo", "--quiet"]
            figures["hugo_full"] = measure("hugo full build", hugo, HUGO_SITE, a.runs,
                                           pre=lambda: set_aside(os.path.join(HUGO_SITE, "public")))
            figures["hugo_append"] = measure("hugo append one day", hugo, HUGO_SITE, a.runs, pre=append, post=unappend)
            (pw, pr), (hw, hr) = figures["pp_full"], figures["hugo_full"]
            print(f"ratios, full build: wall {pw / hw:.3f} x Hugo (goal <= 0.2), peak RSS {pr / hr:.4f} x Hugo (goal <= 0.1)")
            print(f"append one day: paperpress {figures['pp_append'][0] * 1000:.0f} ms (goal <= 100 ms), "
                  f"hugo {figures['hugo_append'][0]:.2f} s")
    finally:  # the set-aside outputs take a few GB
        shutil.rmtree(SET_ASIDE, ignore_errors=True)


if __name__ == "__main__":
    main()
