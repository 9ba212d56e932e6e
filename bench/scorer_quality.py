#!/usr/bin/env python3
"""The embedded scorers' quality on labelled days (see bench/README.md).

For each day of the listings (xz JSON lines, one file a day), the reference
archive's LLM picks that day (out/json/YYYY-MM/DATE-output.json) are the
positives and the listing's other papers the negatives; the feed is both.
bench_scorer_quality (C++, the real scorers) scores every feed, its history
being the archive's days before the test day; past feeds (the listings of
earlier test days, written as the fetch cache's rss/DATE.xml) are its
background. This script computes recall of the picks, precision, the
kept/picked ratio and AUC, per day and per span, for the keyword scorer and
the learned one, and the cascade's recall and prompt-token share.
"""
import argparse
import ast
import glob
import json
import lzma
import math
import os
import subprocess
import sys
import tempfile
from xml.sax.saxutils import escape

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPANS = [("2025-03-18", "2025-04-30"), ("2026-04-01", "2026-04-30")]
CUTOFF = 7  # scoring.relevance_cutoff's default: what a day keeps
SWEEP = (2, 4, 8)  # cascades of a multiple of the usual daily picks, for comparison
FRACTIONS = (0.2, 0.25, 0.3, 0.35, 0.4)  # ... and shares of the feed
BATCH = 8   # llm.batch_size's default: papers per request, each request repeats the prompt


def load_listing(path):
    with lzma.open(path, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_picks(archive, date):
    path = os.path.join(archive, "json", date[:7], date + "-output.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        data = json.load(f)
    return {pid: p for pid, p in data.items() if isinstance(p, dict) and "title" in p}


def author_list(authors):
    """The archive's JSON writes a list as Python's repr ("['A. B', 'C. D']")."""
    if isinstance(authors, str):
        try:
            authors = ast.literal_eval(authors) if authors.startswith("[") else [authors]
        except (ValueError, SyntaxError):
            authors = [authors]
    return [str(a) for a in authors]


def labelled_days(listings, archive):
    days = []
    for path in sorted(glob.glob(os.path.join(listings, "*.jsonl.xz"))):
        date = os.path.basename(path)[:10]
        picks = load_picks(archive, date)
        if picks is None:
            continue
        papers = {pid: {"id": pid, "title": p["title"], "abstract": p.get("abstract", ""),
                        "authors": author_list(p.get("authors", []))} for pid, p in picks.items()}
        for item in load_listing(path):
            pid = item["id"].split("v")[0] if "v" in item["id"][-3:] else item["id"]
            papers.setdefault(pid, {"id": pid, "title": " ".join(item["title"].split()),
                                    "abstract": " ".join(item["summary"].split()),
                                    "authors": item.get("authors", [])})
        feed = [papers[k] for k in sorted(papers)]  # by ID: no order that gives the labels away
        days.append({"date": date, "papers": feed, "picks": set(picks)})
    return days


def write_feed_xml(path, day):
    """The day's feed as arXiv's RSS, as the fetch cache keeps it."""
    items = []
    for p in day["papers"]:
        items.append("<item><title>%s</title><link>https://arxiv.org/abs/%s</link>"
                     "<description>arXiv:%sv1 Announce Type: new \nAbstract: %s</description>"
                     "<dc:creator>%s</dc:creator><arxiv:announce_type>new</arxiv:announce_type></item>"
                     % (escape(p["title"]), p["id"], p["id"], escape(p["abstract"]), escape(", ".join(p["authors"]))))
    weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    import datetime
    d = datetime.date.fromisoformat(day["date"])
    pub = "%s, %02d %s %d 00:00:00 -0400" % (weekday[d.weekday()], d.day, d.strftime("%b"), d.year)
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<rss xmlns:arxiv="http://arxiv.org/schemas/atom" '
           'xmlns:dc="http://purl.org/dc/elements/1.1/" version="2.0"><channel><title>cs.LG updates</title>'
           "<pubDate>%s</pubDate>%s</channel></rss>\n" % (pub, "".join(items)))
    with open(path, "w") as f:
        f.write(xml)


def auc(scores, labels):
    """Probability that a pick outranks a non-pick (ties count half)."""
    pos = [s for s, y in zip(scores, labels) if y]
    neg = [s for s, y in zip(scores, labels) if not y]
    if not pos or not neg:
        return float("nan")
    ranked = sorted(scores)
    # Mann-Whitney U through average ranks.
    rank_of = {}
    i = 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j] == ranked[i]:
            j += 1
        rank_of[ranked[i]] = (i + j + 1) / 2.0
        i = j
    r = sum(rank_of[s] for s in pos)
    return (r - len(pos) * (len(pos) + 1) / 2.0) / (len(pos) * len(neg))


def paper_tokens(p):
    # About four characters a token, plus the per-paper labels of the prompt.
    return (len(p["title"]) + len(p["abstract"]) + len(", ".join(p["authors"]))) / 4.0 + 20


def prompt_tokens(n_papers, paper_token_sum, fixed):
    return fixed * math.ceil(n_papers / BATCH) + paper_token_sum


def cascade(day, result, multiple, fixed_tokens, fraction=None):
    """The learned ranking's top ceil(multiple x usual daily picks) go to the LLM
    (or, with `fraction`, that share of the feed)."""
    labels = [p["id"] in day["picks"] for p in day["papers"]]
    by_id = {row[0]: row for row in result["papers"]}
    rows = [by_id[p["id"]] for p in day["papers"]]
    order = sorted(range(len(rows)), key=lambda i: (-rows[i][2], rows[i][0]))
    size = len(rows) if result["usual"] <= 0 else min(len(rows), math.ceil(multiple * result["usual"]))
    if fraction is not None and result["usual"] > 0:
        size = math.ceil(fraction * len(rows))
    sent = order[:size]
    all_tokens = prompt_tokens(len(rows), sum(paper_tokens(p) for p in day["papers"]), fixed_tokens)
    sent_tokens = prompt_tokens(size, sum(paper_tokens(day["papers"][i]) for i in sent), fixed_tokens)
    return {"sent": size, "hits": sum(labels[i] for i in sent), "token_share": sent_tokens / all_tokens}


def evaluate(day, result, cascade_fraction, fixed_tokens):
    labels = [p["id"] in day["picks"] for p in day["papers"]]
    by_id = {row[0]: row for row in result["papers"]}
    rows = [by_id[p["id"]] for p in day["papers"]]
    picked = sum(labels)
    out = {"date": day["date"], "feed": len(labels), "picked": picked}
    for name, kept_of, score_of in (("keywords", lambda r: r[1] >= CUTOFF, lambda r: r[1]),
                                    ("learned", lambda r: r[3] >= CUTOFF, lambda r: r[2])):
        kept = [kept_of(r) for r in rows]
        hits = sum(k and y for k, y in zip(kept, labels))
        # The ranking alone, whatever the calibration: the top 1.5 x the day's real number of picks.
        top = sorted(range(len(rows)), key=lambda i: (-score_of(rows[i]), rows[i][0]))[:math.ceil(1.5 * picked)]
        out[name] = {"kept": sum(kept), "hits": hits, "auc": auc([score_of(r) for r in rows], labels),
                     "hits_at_1_5x": sum(labels[i] for i in top)}
    out["cascade"] = cascade(day, result, 0, fixed_tokens, cascade_fraction)
    out["cascade_sweep"] = {"x%g" % m: cascade(day, result, m, fixed_tokens) for m in SWEEP}
    out["cascade_sweep"].update({"%g of the feed" % f: cascade(day, result, 0, fixed_tokens, f) for f in FRACTIONS})
    out["seconds"] = result["seconds"]
    return out


def summary(days, name):
    picked = sum(d["picked"] for d in days)
    kept = sum(d[name]["kept"] for d in days)
    hits = sum(d[name]["hits"] for d in days)
    aucs = [d[name]["auc"] for d in days if not math.isnan(d[name]["auc"])]
    at_1_5x = sum(d[name]["hits_at_1_5x"] for d in days)
    return {"recall_at_1_5x_picks": at_1_5x / picked if picked else float("nan"),
            "recall": hits / picked if picked else float("nan"), "precision": hits / kept if kept else float("nan"),
            "kept_per_picked": kept / picked if picked else float("nan"), "auc": sum(aucs) / len(aucs) if aucs else float("nan")}


def cascade_summary(days, key=None):
    picked = sum(d["picked"] for d in days)
    runs = [d["cascade"] if key is None else d["cascade_sweep"][key] for d in days]
    hits = sum(r["hits"] for r in runs)
    share = sum(r["token_share"] for r in runs) / len(days)
    return {"picks_reaching_llm": hits / picked, "picks_lost": picked - hits, "token_share": share}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--listings", default=os.path.join(os.path.dirname(ROOT), "shared", "listings"))
    ap.add_argument("--archive", default=os.path.join(ROOT, "tests", "fixtures", "gpt-paper-assistant-archive", "out"))
    ap.add_argument("--topics", default=os.path.join(ROOT, "prompts", "topics.md"))
    ap.add_argument("--bench", default=os.path.join(ROOT, "build", "bench", "bench_scorer_quality"))
    ap.add_argument("--work", help="working folder (default: a temporary one)")
    ap.add_argument("--no-past-feeds", action="store_true", help="no background from past feeds")
    ap.add_argument("--cascade-fraction", type=float, default=0.35, help="share of the feed the cascade sends on")
    ap.add_argument("--per-day", action="store_true", help="print every day's figures")
    ap.add_argument("--json", help="write all figures to this file")
    ap.add_argument("--save-scores", help="write every day's labels and scores (JSON lines) to this file")
    ap.add_argument("option", nargs="*", help="scorer options passed to the bench binary, e.g. neighbours=5")
    args = ap.parse_args()

    fixed_tokens = sum(os.path.getsize(os.path.join(ROOT, "prompts", f)) for f in
                       ("system.md", "topics.md", "score_criteria.md", "postfix.md")) / 4.0
    days = labelled_days(args.listings, args.archive)
    if not days:
        sys.exit("no labelled days: check --listings and --archive")
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or tmp
        feeds = os.path.join(work, "rss")
        os.makedirs(feeds, exist_ok=True)
        for day in days:
            if not args.no_past_feeds:
                write_feed_xml(os.path.join(feeds, day["date"] + ".xml"), day)
        days_file = os.path.join(work, "days.jsonl")
        with open(days_file, "w") as f:
            for day in days:
                f.write(json.dumps({"date": day["date"], "papers": day["papers"]}) + "\n")
        index_cache = os.path.join(work, "taste-index.bin")
        if os.path.exists(index_cache):
            os.remove(index_cache)
        cmd = [args.bench, "--archive", args.archive, "--topics", args.topics, "--days", days_file, "--work", work,
               "--feeds", feeds, "--cascade-fraction", str(args.cascade_fraction)]
        for option in args.option:
            key, _, value = option.partition("=")
            cmd += ["--" + key, value]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("bench_scorer_quality failed:\n" + run.stderr)
        results = {r["date"]: r for r in map(json.loads, run.stdout.splitlines())}
    if args.save_scores:
        with open(args.save_scores, "w") as f:
            for day in days:
                f.write(json.dumps({"picks": sorted(day["picks"]), **results[day["date"]]}) + "\n")

    evaluated = [evaluate(day, results[day["date"]], args.cascade_fraction, fixed_tokens) for day in days]
    report = {"per_day": evaluated, "spans": {}}
    if args.per_day:
        print("%-10s %5s %6s | %-22s | %-22s | %s" % ("day", "feed", "picked", "keywords kept/hit/AUC",
                                                     "learned kept/hit/AUC", "cascade sent/hit/tokens"))
        for d in evaluated:
            print("%-10s %5d %6d | %4d %4d %6.3f        | %4d %4d %6.3f        | %4d %4d %5.1f%%" % (
                d["date"], d["feed"], d["picked"], d["keywords"]["kept"], d["keywords"]["hits"], d["keywords"]["auc"],
                d["learned"]["kept"], d["learned"]["hits"], d["learned"]["auc"], d["cascade"]["sent"],
                d["cascade"]["hits"], 100 * d["cascade"]["token_share"]))
    for first, last in SPANS:
        span = [d for d in evaluated if first <= d["date"] <= last]
        if not span:
            continue
        key = first + ".." + last
        report["spans"][key] = {"days": len(span), "keywords": summary(span, "keywords"),
                                "learned": summary(span, "learned"), "cascade": cascade_summary(span),
                                "max_seconds": max(d["seconds"] for d in span)}
        s = report["spans"][key]
        print("%s (%d days, %d picks)" % (key, len(span), sum(d["picked"] for d in span)))
        for name in ("keywords", "learned"):
            m = s[name]
            print("  %-8s recall %5.1f%%  precision %5.1f%%  kept/picked %.2f  AUC %.3f  (top 1.5 x picks: recall %5.1f%%)" % (
                name, 100 * m["recall"], 100 * m["precision"], m["kept_per_picked"], m["auc"],
                100 * m["recall_at_1_5x_picks"]))
        c = s["cascade"]
        print("  cascade  %g of the feed: %5.1f%% of picks reach the LLM (%d lost), %4.1f%% of the prompt tokens" % (
            args.cascade_fraction, 100 * c["picks_reaching_llm"], c["picks_lost"], 100 * c["token_share"]))
        for label in ["x%g" % m for m in SWEEP] + ["%g of the feed" % f for f in FRACTIONS]:
            c = cascade_summary(span, label)
            s.setdefault("cascade_sweep", {})[label] = c
            print("    %-16s %5.1f%% of picks, %4.1f%% of tokens" % (label, 100 * c["picks_reaching_llm"], 100 * c["token_share"]))
        print("  learned scorer: at most %.3f s CPU a day (index load + scoring)" % s["max_seconds"])
    months = sorted({d["date"][:7] for d in evaluated})
    for month in months:  # the "no month under 60%": by calendar month, at the default cutoff
        span = [d for d in evaluated if d["date"].startswith(month)]
        m = summary(span, "learned")
        report.setdefault("months", {})[month] = m
        print("%s (%d days, %d picks): learned recall %5.1f%% at %.2f x the picks, precision %5.1f%%, top 1.5 x %5.1f%%" % (
            month, len(span), sum(d["picked"] for d in span), 100 * m["recall"], m["kept_per_picked"],
            100 * m["precision"], 100 * m["recall_at_1_5x_picks"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
