#!/usr/bin/env python3
"""The learned scorer's speed on a 10-year synthetic archive (see bench/README.md).

Scores a 1,000-paper feed against the content tree of bench/gen_archive.py
(3,650 days of 40 picks; the scorer reads the last year), with 20 past feeds
of 250 papers as background, as `run` would the day after the archive's last
day. Each repetition is a process of its own, as each night's run is; the
first builds the index cache from the day files, the others load it from the
cache, as every later night does. Prints the CPU
time (one thread) of each repetition and the median and spread of the warm ones.

  python3 bench/gen_archive.py --out bench/out/archive
  python3 bench/scorer_speed.py --content bench/out/archive/paperpress/content [max-df=0.25 ...]
"""
import argparse
import datetime as dt
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_archive  # noqa: E402  (its word generators, so the feed looks like the archive)
from scorer_quality import write_feed_xml  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def papers(rng, date, count, first):
    return [{"id": "%02d%02d.%05d" % (date.year % 100, date.month, first + k), "title": gen_archive.title(rng),
             "abstract": gen_archive.abstract(rng).replace("\n\n", " "), "authors": [gen_archive.author(rng)]}
            for k in range(count)]


def last_day(content):
    years = sorted(y for y in os.listdir(content) if y.isdigit())
    months = sorted(os.listdir(os.path.join(content, years[-1])))
    days = sorted(os.listdir(os.path.join(content, years[-1], months[-1])))
    return dt.date.fromisoformat(days[-1][:10])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--content", required=True, help="the synthetic archive's content tree")
    ap.add_argument("--bench", default=os.path.join(ROOT, "build", "bench", "bench_scorer_quality"))
    ap.add_argument("--topics", default=os.path.join(ROOT, "prompts", "topics.md"))
    ap.add_argument("--feed", type=int, default=1000, help="papers in today's feed")
    ap.add_argument("--repeat", type=int, default=7, help="repetitions (the first builds the cache)")
    ap.add_argument("--work", help="working folder, kept (default: a temporary one)")
    ap.add_argument("option", nargs="*", help="scorer options passed to the bench binary, e.g. max-df=0.25")
    args = ap.parse_args()
    options = [arg for option in args.option for arg in ("--" + option.partition("=")[0], option.partition("=")[2])]

    rng = random.Random(2024)
    last = last_day(args.content)
    today = last + dt.timedelta(days=1)
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or tmp
        feeds = os.path.join(work, "rss")
        os.makedirs(feeds, exist_ok=True)
        for back in range(20):
            date = last - dt.timedelta(days=back)
            write_feed_xml(os.path.join(feeds, date.isoformat() + ".xml"),
                           {"date": date.isoformat(), "papers": papers(rng, date, 250, 60000)})
        day = json.dumps({"date": today.isoformat(), "papers": papers(rng, today, args.feed, 70000)})
        days = os.path.join(work, "days.jsonl")
        with open(days, "w") as f:
            f.write(day + "\n")
        cache = os.path.join(work, "taste-index.bin")
        if os.path.exists(cache):
            os.remove(cache)
        # A process per repetition, as each night's run is one: nothing is warm but the cache file.
        stderr = ""
        for _ in range(args.repeat):
            run = subprocess.run([args.bench, "--content", args.content, "--topics", args.topics, "--days", days,
                                  "--work", work, "--feeds", feeds] + options, capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit("bench_scorer_quality failed:\n" + run.stderr)
            stderr += run.stderr
    pattern = re.compile(r"index ([\d.]+) s CPU \((\d+) picks, (\d+) background\), scoring ([\d.]+) s CPU")
    times = [tuple(float(x) for x in m.groups()) for m in map(pattern.search, stderr.splitlines()) if m]
    for n, (index, picks, background, scoring) in enumerate(times):
        print("%-5s index %.3f s + scoring %.3f s = %.3f s CPU (%d picks, %d background, %d papers scored)" % (
            "cold" if n == 0 else "warm", index, scoring, index + scoring, picks, background, args.feed))
    warm = [index + scoring for index, _, _, scoring in times[1:]]
    if warm:
        print("warm: median %.3f s CPU, min %.3f, max %.3f (%d runs)" % (
            statistics.median(warm), min(warm), max(warm), len(warm)))


if __name__ == "__main__":
    main()
