#!/usr/bin/env python3
"""The reader's feedback loop, offline (see bench/README.md).

An offline user (the learned scorer, no LLM) whose archive, from --start on,
is the scorer's own picks; a simulated reader whose truth is the reference
system's LLM picks reads each day's page and the rest of the announcement,
hides every wrong pick and stars half of the misses (content/feedback/ lines
dated that day). bench_feedback_loop runs the days twice, without the loop
and with it; this script reports recall and precision of the truth per ISO
week and per span. The days and feeds are scorer_quality.py's.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scorer_quality as sq  # noqa: E402


def run(args, days_file, feeds, loop):
    with tempfile.TemporaryDirectory() as work:
        cmd = [args.bench, "--archive", args.archive, "--topics", args.topics, "--days", days_file,
               "--work", work, "--feeds", feeds, "--start", args.start, "--loop", "1" if loop else "0"]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit("bench_feedback_loop failed:\n" + done.stderr)
        return {r["date"]: r for r in map(json.loads, done.stdout.splitlines())}


def figures(rows):
    truth = sum(r["truth"] for r in rows)
    kept = sum(r["kept"] for r in rows)
    hits = sum(r["hits"] for r in rows)
    top = sum(r["top"] for r in rows)
    return "%.1f%% | %.1f%% | %.2f | %.1f%%" % (100.0 * hits / max(truth, 1), 100.0 * hits / max(kept, 1),
                                              kept / max(truth, 1), 100.0 * top / max(truth, 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--listings", default=os.path.join(os.path.dirname(sq.ROOT), "shared", "listings"))
    ap.add_argument("--archive", default=os.path.join(sq.ROOT, "tests", "fixtures", "gpt-paper-assistant-archive", "out"))
    ap.add_argument("--topics", default=os.path.join(sq.ROOT, "prompts", "topics.md"))
    ap.add_argument("--bench", default=os.path.join(sq.ROOT, "build", "bench", "bench_feedback_loop"))
    ap.add_argument("--start", default="2025-03-18", help="the first day whose archive is the scorer's own")
    args = ap.parse_args()

    days = sq.labelled_days(args.listings, args.archive)
    if not days:
        sys.exit("no labelled days: check --listings and --archive")
    with tempfile.TemporaryDirectory() as tmp:
        feeds = os.path.join(tmp, "rss")
        os.makedirs(feeds)
        days_file = os.path.join(tmp, "days.jsonl")
        with open(days_file, "w") as f:
            for day in days:
                sq.write_feed_xml(os.path.join(feeds, day["date"] + ".xml"), day)
                f.write(json.dumps({"date": day["date"], "papers": day["papers"], "picks": sorted(day["picks"])}) + "\n")
        without = run(args, days_file, feeds, False)
        with_loop = run(args, days_file, feeds, True)

    weeks = {}
    for date in sorted(without):
        year, week, _ = datetime.date.fromisoformat(date).isocalendar()
        weeks.setdefault("%d-W%02d" % (year, week), []).append(date)
    print("| week | days | picks | without: recall | precision | kept/picks | top 1.5x | with the loop: recall "
          "| precision | kept/picks | top 1.5x | judgements |")
    print("|" + " --- |" * 12)
    for week, dates in weeks.items():
        a, b = [without[d] for d in dates], [with_loop[d] for d in dates]
        print("| %s | %d | %d | %s | %s | %d |" % (week, len(dates), sum(r["truth"] for r in a),
                                                  figures(a), figures(b),
                                                  sum(r["judged"] for r in b)))
    for first, last in sq.SPANS:
        dates = [d for d in sorted(without) if first <= d <= last]
        if dates:
            print("%s..%s (%d days): without %s | with the loop %s  (recall | precision | kept/picks | recall of the top 1.5 x picks)" % (
                first, last, len(dates), figures([without[d] for d in dates]), figures([with_loop[d] for d in dates])))


if __name__ == "__main__":
    main()
