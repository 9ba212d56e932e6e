#!/usr/bin/env python3
"""Deterministic synthetic archive for the build benchmark.

Writes the same data twice:
  <out>/paperpress/content/YYYY/MM/YYYY-MM-DD.md   paperpress day files (docs/content-format.md,
                                                   canonical form: what pp::write_day emits)
  <out>/hugo/content/YYYY/MM/YYYY-MM-DD.md         Hugo pages (title/date front matter, Markdown body)
plus the section files Hugo needs (_index.md for home, years, months, archive) and one
selection prompt under content/prompts/.

Every day is generated from its own seeded RNG (seed, day number), so a day's bytes do not
depend on how many days are generated, and --only-day N writes exactly day N (the "append
one day" step). No clock, no hash-map order: two runs give identical trees.

  python3 bench/gen_archive.py --out bench/out/archive                  # 3,650 days x 40 papers
  python3 bench/gen_archive.py --out bench/out/archive --days 365
  python3 bench/gen_archive.py --out bench/out/archive --only-day 3651  # one more day
"""
import argparse
import datetime as dt
import multiprocessing
import os
import random

FIRST_DAY = dt.date(2015, 1, 1)
PROMPT = ("Select papers about *machine learning* methods: new architectures, training\n"
          "objectives, scaling behaviour and evaluation. Prefer papers with a clear\n"
          "empirical or theoretical contribution.\n")

SYLLABLES = ["ar", "ben", "cor", "dal", "en", "far", "gra", "hol", "in", "jor", "ka", "lin", "mor",
             "nex", "or", "pra", "quan", "ret", "sim", "tor", "ul", "ver", "wen", "xi", "yor", "zen",
             "ti", "ma", "lo", "ne", "ri", "sa"]
COMMON = ["the", "of", "and", "to", "a", "in", "we", "model", "learning", "network", "data", "method",
          "results", "show", "propose", "that", "for", "with", "on", "is", "this", "paper", "bound",
          "training", "loss", "gradient", "attention", "sample", "complexity", "optimal"]
LATEX = [r"$\mathcal{O}(n \log n)$", r"$x_1 < y^2$", r"$\epsilon$-optimal", r"$O(\sqrt{T})$",
         r"$\|W\|_2 \le 1$", r"$p(x \mid z)$", r"\[ \min_\theta L(\theta) \]", r"$k$-NN",
         r"$\alpha = 0.5$", r"$\mathbb{E}[X]$"]
CATEGORIES = ["cs.AI", "cs.CL", "cs.CV", "cs.LG", "stat.ML", "math.OC", "cs.RO", "eess.SP"]


def vocabulary():
    rng = random.Random(12345)
    words = set()
    while len(words) < 6000:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.choice((1, 2, 2, 3, 3, 4)))))
    return sorted(words) + COMMON * 60


VOCAB = vocabulary()


def fnv1a_hex(text):
    h = 14695981039346656037
    for byte in text.encode("utf-8"):
        h ^= byte
        h = (h * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


PROMPT_REF = f"prompts/{fnv1a_hex(PROMPT)}.md"


def sentence(rng):
    words = rng.choices(VOCAB, k=rng.randint(12, 28))
    r = rng.random()
    i = rng.randrange(len(words))
    if r < 0.12:
        words[i] = "*" + words[i] + "*"        # a little Markdown
    elif r < 0.20:
        words[i] = "`" + words[i] + "`"
    elif r < 0.32:
        words[i] = rng.choice(LATEX)            # a little LaTeX
    elif r < 0.36:
        words[i] = words[i] + "_" + str(rng.randint(1, 9))
    text = " ".join(words)
    return text[0].upper() + text[1:] + "."


def abstract(rng):
    paragraphs = []
    targets = [rng.randint(1100, 1600)] + ([450] if rng.random() < 0.15 else [])
    for target in targets:
        parts, size = [], 0
        while size < target:
            s = sentence(rng)
            parts.append(s)
            size += len(s) + 1
        paragraphs.append(" ".join(parts))
    return "\n\n".join(paragraphs)


def title(rng):
    return " ".join(w.capitalize() for w in rng.choices(VOCAB, k=rng.randint(5, 11)))


def author(rng):
    first = rng.choice(VOCAB[:6000]).capitalize()
    last = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
    return f"{first} {last}"


# Escaping as content/markdown.cpp does it, so the files are canonical.
ESCAPE = set("\\`*_[]<>&|~")


def escape_line(line, at_line_start):
    body = "".join("\\" + c if c in ESCAPE else c for c in line)
    if at_line_start and body:
        if body[0] in "#-+=":
            body = "\\" + body
        else:
            digits = len(body) - len(body.lstrip("0123456789"))
            if 0 < digits < len(body) and body[digits] in ".)":
                body = body[:digits] + "\\" + body[digits:]
    return body


def escape_lines(text, first_at_line_start):
    out = []
    for n, line in enumerate(text.split("\n")):
        out.append(escape_line(line, n > 0 or first_at_line_start))
    return "\n".join(out)


def money(x):
    return repr(x) if x != int(x) else str(int(x))


def day_data(number, papers_per_day):
    rng = random.Random(number * 7919 + 17)
    date = FIRST_DAY + dt.timedelta(days=number - 1)
    papers = []
    for k in range(papers_per_day):
        pid = f"{date.year % 100:02d}{date.month:02d}.{(number * 53 + k * 7) % 100000:05d}"
        relevance, novelty = rng.randint(3, 10), rng.randint(2, 10)
        papers.append({
            "id": pid, "title": title(rng), "authors": [author(rng) for _ in range(rng.randint(1, 8))],
            "relevance": relevance, "novelty": novelty,
            "comment": sentence(rng) if rng.random() < 0.7 else "",
            "categories": sorted(set(rng.choices(CATEGORIES, k=rng.randint(1, 3)))),
            "abstract": abstract(rng),
        })
    arxiv = rng.randint(300, 700)
    prompt_tokens, completion_tokens = rng.randint(20000, 90000), rng.randint(2000, 12000)
    return {"date": date, "papers": papers, "arxiv": arxiv, "scanned": arxiv - rng.randint(0, 40),
            "tokens": (prompt_tokens, completion_tokens), "cost": (prompt_tokens * 2.5e-6, completion_tokens * 1e-5)}


def paperpress_file(day):
    d = day["date"].isoformat()
    p_cost, c_cost = round(day["cost"][0], 2), round(day["cost"][1], 2)
    total = round(p_cost + c_cost, 2)
    out = [
        "---", f"date: {d}", "status: announced", "model: gpt-4o",
        "tokens:", f"  prompt: {day['tokens'][0]}", f"  completion: {day['tokens'][1]}", "  cached: 0",
        "cost:", f"  prompt: {money(p_cost)}", f"  completion: {money(c_cost)}", f"  total: {money(total)}",
        "counts:", f"  arxiv: {day['arxiv']}", f"  scanned: {day['scanned']}", f"  relevant: {len(day['papers'])}",
        f"prompt: {PROMPT_REF}", "---", "", f"# arXiv papers for {d}",
    ]
    for p in day["papers"]:
        out.append("")
        out.append(f"## [{escape_line(p['title'], False)}](https://arxiv.org/abs/{p['id']})")
        out.append("")
        out.append(f"- **ID:** {p['id']}")
        out.append(f"- **Authors:** {escape_line(', '.join(p['authors']), False)}")
        out.append(f"- **Relevance:** {p['relevance']}")
        out.append(f"- **Novelty:** {p['novelty']}")
        if p["comment"]:
            out.append(f"- **Comment:** {escape_line(p['comment'], False)}")
        out.append("")
        out.append(escape_lines(p["abstract"], True))
    return "\n".join(out) + "\n"


def hugo_file(day):
    d = day["date"].isoformat()
    out = ["---", f'title: "arXiv papers for {d}"', f"date: {d}", f"papers: {len(day['papers'])}", "---", ""]
    for p in day["papers"]:
        out.append(f"## [{p['title']}](https://arxiv.org/abs/{p['id']})")
        out.append("")
        out.append(f"- **ID:** {p['id']}")
        out.append(f"- **Authors:** {', '.join(p['authors'])}")
        out.append(f"- **Relevance:** {p['relevance']}, **Novelty:** {p['novelty']}")
        if p["comment"]:
            out.append(f"- **Comment:** {p['comment']}")
        out.append("")
        out.append(p["abstract"])
        out.append("")
    return "\n".join(out)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def generate(args):
    out, number, papers = args
    day = day_data(number, papers)
    d = day["date"]
    rel = f"{d.year:04d}/{d.month:02d}/{d.isoformat()}.md"
    write(os.path.join(out, "paperpress", "content", rel), paperpress_file(day))
    write(os.path.join(out, "hugo", "content", rel), hugo_file(day))
    return d


def sections(out, days):
    hugo = os.path.join(out, "hugo", "content")
    write(os.path.join(hugo, "_index.md"), '---\ntitle: "Daily arXiv digest"\n---\n')
    write(os.path.join(hugo, "archive", "_index.md"), '---\ntitle: "Archive"\nlayout: archive\n---\n')
    months = sorted({(d.year, d.month) for d in days})
    for year in sorted({y for y, _ in months}):
        write(os.path.join(hugo, f"{year:04d}", "_index.md"), f'---\ntitle: "{year}"\ndate: {year}-01-01\n---\n')
    for year, month in months:
        name = dt.date(year, month, 1).strftime("%B %Y")
        write(os.path.join(hugo, f"{year:04d}", f"{month:02d}", "_index.md"),
              f'---\ntitle: "{name}"\ndate: {year:04d}-{month:02d}-01\n---\n')
    write(os.path.join(out, "paperpress", "content", PROMPT_REF), PROMPT)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--days", type=int, default=3650)
    ap.add_argument("--papers", type=int, default=40)
    ap.add_argument("--only-day", type=int, default=0, help="write only day N (1 = 2015-01-01)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    numbers = [a.only_day] if a.only_day else list(range(1, a.days + 1))
    work = [(a.out, n, a.papers) for n in numbers]
    if len(work) > 1 and a.jobs > 1:
        with multiprocessing.Pool(a.jobs) as pool:
            days = pool.map(generate, work, chunksize=32)
    else:
        days = [generate(w) for w in work]
    sections(a.out, days)
    print(f"{len(days)} days ({days[0]} .. {days[-1]}) under {a.out}")


if __name__ == "__main__":
    main()
