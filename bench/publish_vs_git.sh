#!/usr/bin/env bash
# Benchmark: the publish commit of a nightly change on a 10-year site, paperpress
# publish against `git add -A && git commit` on a copy of the same site.
#
#   bash bench/publish_vs_git.sh [PAPERPRESS_BINARY] [DAYS]
#
# Generates a synthetic site (DAYS day folders, default 3650, each with an
# index.html of about 20 KB, plus month and year pages, a home page and a
# feed), commits it once both ways, then plays NIGHTS nightly changes (a new
# day; the previous day's nav, the month, the year, the home page and the
# feed change) and times each publish. Prints the medians and their ratio.
# Not part of the test suite; it runs in well under two minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(realpath "${1:-build/generator/paperpress}")
days=${2:-3650}
nights=${NIGHTS:-7}
[ -x "$binary" ] || { echo "no paperpress binary at $binary (build first: bash scripts/build)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com

# --- the synthetic site ------------------------------------------------------
python3 - "$work/site" "$days" <<'PY'
import datetime as dt, os, random, sys
root, days = sys.argv[1], int(sys.argv[2])
first = dt.date(2015, 1, 1)
words = ("model learning training data network language graph reward policy optimal sparse "
         "attention transformer diffusion benchmark robust causal kernel bound theorem").split()
def para(rng, n):
    return " ".join(rng.choice(words) for _ in range(n))
def write(path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)
dates = [first + dt.timedelta(days=i) for i in range(days)]
months, years = {}, {}
for i, d in enumerate(dates):
    rng = random.Random(i)
    prev = dates[i - 1].isoformat() if i else ""
    nxt = dates[i + 1].isoformat() if i + 1 < len(dates) else ""
    body = "".join(f"<article><h2>{para(rng, 8)}</h2><p>{para(rng, 170)}</p></article>\n" for _ in range(14))
    write(f"{d:%Y/%m/%d}/index.html",
          f"<html><nav><a href='{prev}'>prev</a> <a href='{nxt}'>next</a></nav>\n{body}</html>\n")
    months.setdefault((d.year, d.month), []).append(d)
    years.setdefault(d.year, []).append(d)
for (y, m), ds in months.items():
    write(f"{y}/{m:02d}/index.html", "".join(f"<a href='{d:%d}/'>{d}</a>\n" for d in ds))
for y, ds in years.items():
    write(f"{y}/index.html", f"<h1>{y}</h1><p>{len(ds)} days</p>\n")
write("index.html", "".join(f"<a>{d}</a>\n" for d in dates[-10:]))
write("feed.xml", "".join(f"<entry>{d}</entry>\n" for d in dates[-20:]))
PY

# --- one nightly change: a new day and the pages that point at it ----------
night() { # SITE N
    python3 - "$1" "$days" "$2" <<'PY'
import datetime as dt, os, random, sys
root, days, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
first = dt.date(2015, 1, 1)
new = first + dt.timedelta(days=days + n)
prev = new - dt.timedelta(days=1)
def write(path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)
def append(path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "a") as f:
        f.write(text)
rng = random.Random(days + n)
write(f"{new:%Y/%m/%d}/index.html", "<html>" + "x" * 20000 + f"{rng.random()}</html>\n")
append(f"{prev:%Y/%m/%d}/index.html", f"<a href='{new}'>next</a>\n")
append(f"{new:%Y/%m}/index.html", f"<a>{new}</a>\n")
append(f"{new:%Y}/index.html", f"<a>{new}</a>\n")
append("index.html", f"<a>{new}</a>\n")
append("feed.xml", f"<entry>{new}</entry>\n")
PY
}

now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# paperpress: a repository with the site in an ignored folder, published to gh-pages.
mkdir -p "$work/pp"
git -C "$work/pp" init -q -b main
echo "/site/" > "$work/pp/.gitignore"
git -C "$work/pp" add .gitignore && git -C "$work/pp" commit -q -m start
cp -r "$work/site" "$work/pp/site"
# git: the same site as a working tree (what a gh-pages checkout with `git add -A` does).
mkdir -p "$work/git"
git -C "$work/git" init -q -b gh-pages
cp -r "$work/site/." "$work/git/"

files=$(find "$work/site" -type f | wc -l)
size=$(du -sm "$work/site" | cut -f1)
echo "site: $days days, $files files, ${size} MB"

t0=$(now); (cd "$work/pp" && "$binary" publish > /dev/null); t1=$(now)
t2=$(now); (cd "$work/git" && git add -A && git commit -q -m first); t3=$(now)
echo "first publish (whole site): paperpress $(((t1 - t0) / 1000000)) ms, git add -A && git commit $(((t3 - t2) / 1000000)) ms"
sleep 1 # both sides then trust their stat caches (files older than the cache/index)

pp_times=() git_times=()
for n in $(seq 1 "$nights"); do
    night "$work/pp/site" "$n"
    night "$work/git" "$n"
    t0=$(now); (cd "$work/pp" && "$binary" publish > /dev/null); t1=$(now)
    t2=$(now); (cd "$work/git" && git add -A && git commit -q -m "night $n"); t3=$(now)
    pp_times+=($(((t1 - t0) / 1000))) git_times+=($(((t3 - t2) / 1000)))
done
# Same trees on both sides.
[ "$(git -C "$work/pp" rev-parse gh-pages^{tree})" = "$(git -C "$work/git" rev-parse HEAD^{tree})" ] ||
    { echo "the two trees differ" >&2; exit 1; }

pp=$(printf '%s\n' "${pp_times[@]}" | median)
gt=$(printf '%s\n' "${git_times[@]}" | median)
echo "nightly publish, median of $nights (6 files changed): paperpress publish $((pp / 1000)).$(((pp % 1000) / 100)) ms," \
     "git add -A && git commit $((gt / 1000)).$(((gt % 1000) / 100)) ms"
awk -v a="$pp" -v b="$gt" 'BEGIN { printf "ratio paperpress / git: %.2f\n", a / b }'
