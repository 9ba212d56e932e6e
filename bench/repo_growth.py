#!/usr/bin/env python3
"""What a month of nights adds to the GitHub repository, in both ways of deploying.

  python3 bench/repo_growth.py [--binary build/generator/paperpress] [--nights 30] [--index on,off]

On the bench archive (bench/gen_archive.py: 3,650 days, 2015-01-01 ... 2024-12-28), for the word
index off and on: a content repository (content/ and paperpress.yaml on `main`) is built and
published once, and two bare repositories are made from it, then packed (`git gc`):

  actions.git  the content only: Pages from GitHub Actions, the workflow's default
               (PAPERPRESS_SITE_BRANCH=false: the day's commits are pushed, the site is deployed
               as an artifact and never committed);
  pages.git    the content and the gh-pages site branch (PAPERPRESS_SITE_BRANCH=true).

Then each night: one more day (gen_archive.py --only-day, the days after the archive, so a month
crosses 1 January), committed on main with git (what `paperpress run` commits), `paperpress build`,
and `paperpress publish --push` to each bare repository. After the last night both are packed again
with `git gc`; bytes per night = (packed size after - packed size before) / nights.

The push (`--push-with`, publish.push_with; auto: git's own client where git is installed):
libgit2's local transport writes the pack it would send into the remote as one pack file, so the new
pack's size is what libgit2 sends; git's client talks to the remote's `git-receive-pack`, which the
bench wraps to count the bytes it is sent (the commands and the pack). Against both:
`git pack-objects --revs --thin --stdout` over the same ref ranges, what `git push` sends (thin:
deltas against objects the remote has).

Prints a Markdown table (docs/performance.md, "Ten years in the repository") and the load average.
Everything goes under bench/out/growth/ (the archive under bench/out/archive, shared with
build_bench.py). Takes about 10-20 minutes on 2 cores, most of it the two `git gc` of the 10-year
site.
"""
import argparse
import datetime as dt
import glob
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(ROOT, "bench", "out")
ARCHIVE = os.path.join(OUT, "archive")
FIRST_DAY = dt.date(2015, 1, 1)  # gen_archive.py's day 1
ARCHIVE_DAYS = 3650
GIT_ID = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
          "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.com"}


def run(cmd, cwd, env=None, stdin=None):
    full = dict(os.environ, **GIT_ID, **(env or {}))
    r = subprocess.run(cmd, cwd=cwd, env=full, input=stdin, capture_output=True, shell=isinstance(cmd, str))
    if r.returncode != 0:
        sys.exit(f"failed: {cmd}\n{r.stdout.decode(errors='replace')}{r.stderr.decode(errors='replace')}")
    return r.stdout


def git(args, cwd, stdin=None):
    # No background auto-gc: it would race the measured `git gc` and load the machine.
    return run(["git", "-c", "gc.auto=0", "-c", "maintenance.auto=false"] + args, cwd, stdin=stdin).decode().strip()


def packs(bare):
    """Each pack file of a bare repository and its size; loose objects count as one entry."""
    out = {p: os.path.getsize(p) for p in glob.glob(os.path.join(bare, "objects", "pack", "*.pack"))}
    loose = sum(os.path.getsize(f) for f in glob.glob(os.path.join(bare, "objects", "??", "*")))
    out["loose"] = loose
    return out


def packed_size(bare, quick=False):
    if quick:  # no gc: the objects as they are (the growth comes from thin_pack_bytes)
        return 0
    git(["gc", "-q", "--prune=now"], bare)
    return sum(packs(bare).values())


def tip(repo, ref):
    r = subprocess.run(["git", "rev-parse", "-q", "--verify", ref], cwd=repo, capture_output=True, text=True)
    return r.stdout.strip()


def thin_pack_bytes(local, ranges):
    """What `git push` sends for these (new, old) tips: a thin pack."""
    revs = "".join(f"{new}\n" + (f"^{old}\n" if old else "") for new, old in ranges if new and new != old)
    if not revs:
        return 0
    return len(run(["git", "pack-objects", "--revs", "--thin", "--stdout", "--delta-base-offset", "-q"], local,
                   stdin=revs.encode()))


class Site:
    def __init__(self, work, binary, index, modes, quick, push_with):
        self.work, self.binary, self.index, self.quick, self.push_with = work, binary, index, quick, push_with
        self.local = os.path.join(work, "local")
        self.remotes = {name: os.path.join(work, name + ".git") for name in modes}
        self.sent = {name: [0, 0] for name in self.remotes}  # paperpress, git --thin
        self.publish_ms = {name: [] for name in self.remotes}

    def pp(self, args, env=None):
        return run([self.binary] + args, self.local, env=env)

    def start(self):
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.local)
        git(["init", "-q", "-b", "main"], self.local)
        run(["cp", "-al", os.path.join(ARCHIVE, "paperpress", "content"), self.local], self.local)  # days never change
        os.symlink(os.path.join(ROOT, "themes"), os.path.join(self.local, "themes"))
        with open(os.path.join(self.local, ".gitignore"), "w") as f:
            f.write("/site/\n/themes\n/.site.paperpress-*\n/.*.paperpress-lock\n/.cache/\n")
        with open(os.path.join(self.local, "paperpress.yaml"), "w") as f:
            f.write("title: Bench digest\nbase_url: https://example.github.io/arxiv-digest/\nmath: false\n"
                    f"search_index: {'true' if self.index else 'false'}\n"
                    f"publish:\n  push_with: {self.push_with}\n")
        git(["add", "-A"], self.local)
        git(["commit", "-q", "-m", "the archive"], self.local)
        self.pp(["build"])
        self.pp(["publish"], env={"PAPERPRESS_SITE_BRANCH": "true"})
        branches = {"actions": ["main"], "pages": ["main", "gh-pages"]}
        sizes = {}
        for name, bare in self.remotes.items():
            # A local clone links the objects; gc packs them (and drops gh-pages' from actions.git).
            git(["clone", "-q", "--bare", "--single-branch", "--branch", "main", self.local, bare], self.work)
            for branch in branches[name][1:]:
                git(["fetch", "-q", self.local, f"{branch}:{branch}"], bare)
            git(["remote", "add", name, bare], self.local)
            git(["config", f"remote.{name}.receivepack", self.counting_receive_pack(name)], self.local)
            git(["fetch", "-q", name], self.local)
            sizes[name] = packed_size(bare, self.quick)
        self.start_tips = {b: tip(self.local, b) for b in ("main", "gh-pages")}
        return sizes

    def counting_receive_pack(self, name):
        """A git-receive-pack that first counts what it is sent, for git's own client (libgit2's local
        transport writes into the remote without it)."""
        script = os.path.join(self.work, f"receive-pack-{name}.sh")
        with open(script, "w") as f:
            f.write(f"#!/bin/sh\ntee -a '{self.received(name)}' | git-receive-pack \"$@\"\n")
        os.chmod(script, 0o755)
        return script

    def received(self, name):
        return os.path.join(self.work, f"received-{name}.bytes")

    def night(self, number):
        days = os.path.join(self.work, "days")
        run([sys.executable, os.path.join(HERE, "gen_archive.py"), "--out", days, "--only-day", str(number)], self.work)
        date = FIRST_DAY + dt.timedelta(days=number - 1)
        rel = os.path.join("content", f"{date:%Y}", f"{date:%m}", f"{date:%Y-%m-%d}.md")
        os.makedirs(os.path.dirname(os.path.join(self.local, rel)), exist_ok=True)
        shutil.copy(os.path.join(days, "paperpress", rel), os.path.join(self.local, rel))
        git(["add", rel], self.local)
        git(["commit", "-q", "-m", f"Add {date}"], self.local)
        self.pp(["build"])
        for name, bare in self.remotes.items():
            kept = "true" if name == "pages" else "false"
            old = {b: tip(self.local, f"refs/remotes/{name}/{b}") for b in ("main", "gh-pages")}
            before = packs(bare)
            received = self.received(name)
            received_before = os.path.getsize(received) if os.path.exists(received) else 0
            t0 = time.monotonic()
            self.pp(["publish", "--push", "--remote", name],
                    env={"PAPERPRESS_SITE_BRANCH": kept, "PAPERPRESS_COMMIT_CONTENT": "true"})
            self.publish_ms[name].append((time.monotonic() - t0) * 1000)
            if os.path.exists(received):  # git's client: the bytes its receive-pack read
                self.sent[name][0] += os.path.getsize(received) - received_before
            else:  # libgit2: the pack its local transport wrote
                after = packs(bare)
                self.sent[name][0] += sum(size for p, size in after.items() if p != "loose" and p not in before)
                self.sent[name][0] += after["loose"] - before["loose"]
            ranges = [(tip(self.local, b), old[b]) for b in (["main", "gh-pages"] if name == "pages" else ["main"])]
            self.sent[name][1] += thin_pack_bytes(self.local, ranges)


def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def kb(n):
    return f"{n / 1000:,.0f} KB" if n < 10_000_000 else f"{n / 1e6:,.0f} MB"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", type=os.path.abspath, default=os.path.join(ROOT, "build", "generator", "paperpress"))
    ap.add_argument("--nights", type=int, default=30)
    ap.add_argument("--index", default="off,on", help="the word index: off, on or both (off,on)")
    ap.add_argument("--modes", default="actions,pages", help="actions (content only), pages (site branch) or both")
    ap.add_argument("--quick", action="store_true",
                    help="no git gc: a night's growth is the thin pack of the month's commits over the start, "
                         "new objects as deltas against the old, as gc stores them (minutes instead of an hour)")
    ap.add_argument("--push-with", default="auto", choices=["auto", "git", "libgit2"],
                    help="publish.push_with: the client paperpress pushes with")
    a = ap.parse_args()
    if not os.path.isdir(os.path.join(ARCHIVE, "paperpress", "content")):
        run([sys.executable, os.path.join(HERE, "gen_archive.py"), "--out", ARCHIVE], ROOT)
    print(f"== {a.nights} nights after the {ARCHIVE_DAYS}-day bench archive; {os.cpu_count()} CPUs; "
          f"load average before: {load()}", flush=True)
    rows = []
    indexes = [i == "on" for i in a.index.split(",")]
    for index in indexes:
        # The content repository does not depend on the index: measured once.
        modes = a.modes.split(",") if index == indexes[0] else ["pages"]
        site = Site(os.path.join(OUT, "growth", "index-on" if index else "index-off"), a.binary, index, modes, a.quick,
                    a.push_with)
        t0 = time.monotonic()
        start = site.start()
        print(f"-- index {'on' if index else 'off'}: packed at the start {', '.join(f'{n} {kb(s)}' for n, s in start.items())}"
              f" ({time.monotonic() - t0:.0f} s)", flush=True)
        for n in range(1, a.nights + 1):
            site.night(ARCHIVE_DAYS + n)
        for name, bare in site.remotes.items():
            end = packed_size(bare, a.quick)
            if a.quick:
                ranges = [(tip(site.local, b), site.start_tips[b]) for b in
                          (["main", "gh-pages"] if name == "pages" else ["main"])]
                end = start[name] + thin_pack_bytes(site.local, ranges)
            per_night = (end - start[name]) / a.nights
            sent, thin = site.sent[name]
            ms = sorted(site.publish_ms[name])[len(site.publish_ms[name]) // 2]
            rows.append((name, index, per_night, sent / a.nights, thin / a.nights, ms))
            print(f"-- {name}: {kb(start[name])} -> {kb(end)} after gc", flush=True)
    print(f"\n| deploy | word index | added a night after `git gc` | 10 years (2,520 nights; 3,650) "
          f"| push a night: paperpress ({a.push_with}) / `git push` | publish --push (median) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, index, per_night, sent, thin, ms in rows:
        mode = "Actions artifact (content only)" if name == "actions" else "site branch kept"
        index_text = "either" if name == "actions" else "on" if index else "off"
        ratio = f"{sent / thin:.2f}×" if thin else "-"
        print(f"| {mode} | {index_text} | {kb(per_night)} | {per_night * 2520 / 1e6:,.0f} MB; "
              f"{per_night * 3650 / 1e6:,.0f} MB | {kb(sent)} / {kb(thin)} ({ratio}) | {ms:.0f} ms |")
    print(f"\nload average after: {load()}")


if __name__ == "__main__":
    main()
