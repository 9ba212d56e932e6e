#!/usr/bin/env python3
"""Where a day page's bytes go: one or more built day pages, per part, split
into text and markup (tags and the blanks between them).

    python3 bench/page_bytes.py site/2020/03/02/index.html [more pages...]

A part is recognised by how its line starts (the default theme's day page,
before and after issue 17's lean markup); per-paper parts are summed over the
page's papers. Prints the mean bytes a page per part.
"""
import re
import sys

# (part, line-start pattern), first match wins; lines inside a block stay in it.
PARTS = [
    ("blank lines", r"$"),
    ("paper: heading", r"<(section|article|h2)[^>]*\bid=\"?p-|<h2>(<span class=\"?num|\d+\. )?"),
    ("paper: meta line (ID, PDF, HTML)", r"<p class=\"?(meta|m)\b"),
    ("paper: authors", r"<p class=\"?(authors|au)\b"),
    ("paper: scores", r"<p class=\"?(scores|sc)\b"),
    ("paper: comment", r"<p class=\"?(comment|cm)\b"),
    ("paper: abstract wrapper and text", r"<div class=\"?abstract|<p>|</div>|</section>|</article>\n?$"),
]
BLOCKS = [  # (part, first line, last line)
    ("head", r"<!DOCTYPE", r"</head>"),
    ("header and site nav", r"<body", r"<main"),
    ("pager (prev / up / next)", r"<nav class=\"?pager", r"</nav>"),
    ("day heading, counts, usage", r"<article class=\"?day|<h1", r"<p class=\"?usage|</dl>"),
    ("contents list", r"<nav class=\"?toc", r"</nav>"),
    ("prompt link, footer", r"<p class=\"?prompt", r"</html>"),
]
TAG = re.compile(r"<[^>]*>")


def split(line):
    markup = sum(len(m.group(0).encode()) for m in TAG.finditer(line)) + 1  # + the newline
    return len(line.encode()) + 1 - markup, markup


def measure(html, totals):
    block = None
    for line in html.split("\n"):
        if block is None:
            for name, first, last in BLOCKS:
                if re.match(first, line):
                    block = (name, last)
                    break
        if block is not None:
            name = block[0]
            if re.search(block[1], line):
                block = None
        else:
            name = next((n for n, p in PARTS if re.match(p, line)), "other")
        text, markup = split(line)
        t = totals.setdefault(name, [0, 0])
        t[0] += text
        t[1] += markup


def main():
    pages = sys.argv[1:]
    totals = {}
    for page in pages:
        with open(page, encoding="utf-8") as f:
            measure(f.read(), totals)
    n = len(pages)
    print(f"| part | text | markup | total |\n| --- | ---: | ---: | ---: |")
    all_text = all_markup = 0
    for name, (text, markup) in sorted(totals.items(), key=lambda kv: -sum(kv[1])):
        all_text += text
        all_markup += markup
        print(f"| {name} | {text / n:,.0f} | {markup / n:,.0f} | {(text + markup) / n:,.0f} |")
    print(f"| **page** | {all_text / n:,.0f} | {all_markup / n:,.0f} | {(all_text + all_markup) / n:,.0f} |")


if __name__ == "__main__":
    main()
