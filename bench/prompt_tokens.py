#!/usr/bin/env python3
"""Prompt tokens of a 500-paper day, per batch size and paper layout.

The 52 days of ../shared/listings (12,504 real papers of cs.CV, cs.CL, cs.AI
and neighbours) are cut, in order, into days of 500 papers. For each layout,
bench_prompt_tokens (C++, the scorer's own prompt code) writes every request
a day makes, and count_tokens.mjs counts them with o200k_base (the encoding
of gpt-4o-mini, the default model), plus 7 tokens a request for the chat
format's message framing. Prints the median and the spread over the days,
and the estimate of a quarter of the characters for comparison.

    cmake -S . -B build -G Ninja -DPAPERPRESS_BENCH=ON && ninja -C build bench_prompt_tokens
    npm ci   # js-tiktoken
    python3 bench/prompt_tokens.py
    python3 bench/prompt_tokens.py --summaries   # what llm.summaries adds (docs/scoring.md, "Summaries")
"""
import argparse
import glob
import json
import lzma
import os
import statistics
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRAMING = 7  # tokens a request for its two messages' framing
LAYOUTS = [  # (batch size, authors before "et al." (-1: all), reply format, the reader's examples)
    (8, -1, "text", 0),          # until issue 31
    (8, -1, "json_schema", 0),
    (8, 3, "json_schema", 0),
    (16, -1, "json_schema", 0),
    (16, 3, "json_schema", 0),   # the default since issue 31
    (16, 3, "json_schema", 12),  # ... with the reader's stars and hides as examples, as many as fit (issue 44)
    (20, 3, "json_schema", 0),
    (25, 3, "json_schema", 0),
    (16, 0, "json_schema", 0),
]


def papers(listings):
    out = []
    for path in sorted(glob.glob(os.path.join(listings, "*.jsonl.xz"))):
        with lzma.open(path, "rt") as f:
            out += [json.loads(line) for line in f if line.strip()]
    return out


def requests(binary, day, batch, authors, fmt, examples):
    lines = "\n".join(json.dumps({k: p[k] for k in ("id", "title", "authors", "summary")}) for p in day)
    out = subprocess.run([binary, os.path.join(ROOT, "prompts"), str(batch), str(authors), fmt, str(examples)],
                         input=lines, capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if line]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listings", default=os.path.join(ROOT, "..", "shared", "listings"))
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "bench", "bench_prompt_tokens"))
    parser.add_argument("--day-size", type=int, default=500)
    parser.add_argument("--summaries", action="store_true", help="the summary requests of 26 and 40 picks a day")
    args = parser.parse_args()
    pool = papers(args.listings)
    days = [pool[i:i + args.day_size] for i in range(0, len(pool) - args.day_size + 1, args.day_size)]
    if args.summaries:
        return summaries(args.binary, days, [26, 40])
    print(f"{len(days)} days of {args.day_size} papers from {len(pool)} listed papers; o200k_base tokens")
    print("| batch | authors | format | examples | requests | prompt tokens: median (min-max) | chars/4 estimate |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for batch, authors, fmt, examples in LAYOUTS:
        per_day = [requests(args.binary, day, batch, authors, fmt, examples) for day in days]
        texts = [text for day in per_day for text in day]
        counted = subprocess.run(["node", os.path.join(ROOT, "bench", "count_tokens.mjs")], cwd=ROOT,
                                 input="\n".join(texts), capture_output=True, text=True, check=True).stdout.split()
        totals, estimates, at = [], [], 0
        for day in per_day:
            totals.append(sum(int(n) + FRAMING for n in counted[at:at + len(day)]))
            estimates.append(sum(len(json.loads(t)) // 4 for t in day))
            at += len(day)
        shown = "all" if authors < 0 else str(authors)
        print(f"| {batch} | {shown} | {fmt} | {examples} | {len(per_day[0])} | {statistics.median(totals):,.0f} "
              f"({min(totals):,}-{max(totals):,}) | {statistics.median(estimates):,.0f} |", flush=True)

def count(texts):
    return [int(n) for n in subprocess.run(["node", os.path.join(ROOT, "bench", "count_tokens.mjs")], cwd=ROOT,
                                           input="\n".join(texts), capture_output=True, text=True,
                                           check=True).stdout.split()]


def summaries(binary, days, picks_per_day):
    """The summary requests of a day's picks: every paper's request counted, the
    picks taken evenly spread over the day. A summary's reply is bounded by
    what the prompt asks (a sentence, then 1-3 sentences for each of four
    parts): its tokens are that many of the abstracts' own sentences."""
    per_day = [requests(binary, day, 1, -1, "summary") for day in days]
    counted = count([text for day in per_day for text in day])
    prompt = [n + FRAMING for n in counted]
    print(f"summary request: prompt tokens a pick, median {statistics.median(prompt):,.0f} "
          f"(min {min(prompt):,}, max {max(prompt):,})")
    sentences = [s.strip() for day in days for p in day for s in p["summary"].replace("\n", " ").split(". ")
                 if s.strip()]
    per_sentence = statistics.median(count([json.dumps(s) for s in sentences[:20000]]))
    print(f"abstracts' sentences: median {per_sentence:.0f} tokens")
    for picks in picks_per_day:
        totals, at = [], 0
        for day in per_day:
            step = len(day) / picks
            totals.append(sum(prompt[at + int(i * step)] for i in range(picks)))
            at += len(day)
        low, high = picks * 5 * per_sentence, picks * 13 * per_sentence
        print(f"{picks} picks: prompt {statistics.median(totals):,.0f} ({min(totals):,}-{max(totals):,}); "
              f"completion {low:,.0f}-{high:,.0f} (5 to 13 sentences a summary)")


if __name__ == "__main__":
    main()
