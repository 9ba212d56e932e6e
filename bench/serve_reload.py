#!/usr/bin/env python3
"""Save-to-reload-event latency of `paperpress serve` on the sample archive.

Copies the repository's content/, themes/ and paperpress.yaml into a temp folder,
starts `paperpress serve --port 0` there and listens on its live-reload stream
(/__paperpress/events) as an open page does. Then, again and again, saves a day
file as editors do (the new bytes into a temp file, renamed over the day) and
times from the rename to the next `data:` event, which is what makes the open
page reload. The peer, measured in the same run, is the same server polling
(`--poll-interval 300`, the watcher before inotify); the two take turns, a round
of saves each, so a busy machine slows both alike.

    python3 bench/serve_reload.py --binary build/generator/paperpress [--saves 10] [--rounds 3]
"""
import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def make_site(folder):
    for name in ("content", "themes"):
        shutil.copytree(os.path.join(ROOT, name), os.path.join(folder, name))
    shutil.copy(os.path.join(ROOT, "paperpress.yaml"), folder)
    katex = os.path.join(ROOT, "node_modules", "katex")
    if os.path.isdir(katex):  # the default theme typesets math with the KaTeX scripts/setup installed
        os.makedirs(os.path.join(folder, "node_modules"))
        os.symlink(katex, os.path.join(folder, "node_modules", "katex"))
    days = []
    for base, _, files in os.walk(os.path.join(folder, "content")):
        days += [os.path.join(base, f) for f in files if re.fullmatch(r"\d{4}-\d{2}-\d{2}\.md", f)]
    return sorted(days)


class Events:
    """The live-reload stream, read as a page's EventSource reads it."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"GET /__paperpress/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        self.buffer = b""

    def next_token(self, timeout=30):
        self.sock.settimeout(timeout)
        while True:
            match = re.search(rb"data: ([0-9-]+)\n", self.buffer)
            if match:
                self.buffer = self.buffer[match.end():]
                return match.group(1).decode()
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("the event stream closed")
            self.buffer += chunk


def save(path, text):
    """An editor's save: a temp file renamed over the day. Returns the time of the rename."""
    temp = path + ".tmp.bench"
    with open(temp, "w") as f:
        f.write(text)
    started = time.perf_counter()
    os.rename(temp, path)
    return started


def run_round(binary, folder, days, extra, saves, counter):
    out = open(os.path.join(folder, "serve.log"), "w+")
    server = subprocess.Popen([binary, "serve", "--port", "0"] + extra, cwd=folder, stdout=out,
                              stderr=subprocess.STDOUT)
    try:
        port = None
        for _ in range(600):
            out.seek(0)
            match = re.search(r"Serving http://127\.0\.0\.1:(\d+)/", out.read())
            if match:
                port = int(match.group(1))
                break
            time.sleep(0.1)
        if port is None:
            raise RuntimeError("no Serving line:\n" + open(out.name).read())
        events = Events(port)
        events.next_token()
        time.sleep(0.5)
        out.seek(0)
        if "error" in out.read():
            raise RuntimeError("the sample archive does not build:\n" + open(out.name).read())
        latencies = []
        for i in range(saves):
            day = days[(counter + i) % len(days)]
            with open(day) as f:
                text = f.read()
            # A retitled paper: its day page, the month and the lists showing it change.
            text = (text.replace("## [Edited: ", "## [", 1) if "## [Edited: " in text
                    else text.replace("## [", "## [Edited: ", 1))
            started = save(day, text)
            events.next_token()
            latencies.append((time.perf_counter() - started) * 1000)
            time.sleep(0.3)  # the next save is a new one, not part of this one
        out.seek(0)
        log = out.read()
        if "error" in log:
            raise RuntimeError("an edit did not build:\n" + log)
        counter_builds = [int(ms) for ms in re.findall(r"build: .* in (\d+) ms", log)[1:]]
        return latencies, counter_builds
    finally:
        server.terminate()
        server.wait(timeout=20)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "generator", "paperpress"))
    parser.add_argument("--saves", type=int, default=10, help="saves a round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    modes = {"inotify": [], "polling 300 ms (peer)": ["--poll-interval", "300"]}
    results = {name: [] for name in modes}
    builds = {name: [] for name in modes}
    print("load average before:", os.getloadavg())
    with tempfile.TemporaryDirectory(prefix="paperpress-serve-bench-") as folder:
        days = make_site(folder)
        counter = 0
        for _ in range(args.rounds):
            for name, extra in modes.items():
                latencies, build_ms = run_round(args.binary, folder, days, extra, args.saves, counter)
                results[name] += latencies
                builds[name] += build_ms
                counter += args.saves
    print("load average after:", os.getloadavg())
    print(f"{len(days)} day files; {args.rounds} rounds of {args.saves} saves a mode\n")
    print("| watcher | save to reload event: median ms | min ms | max ms | of which the build (median ms) |")
    print("| --- | --- | --- | --- | --- |")
    for name, values in results.items():
        print(f"| {name} | {statistics.median(values):.1f} | {min(values):.1f} | {max(values):.1f} | "
              f"{statistics.median(builds[name]):.0f} |")
    names = list(results)
    ratio = statistics.median(results[names[1]]) / statistics.median(results[names[0]])
    print(f"\npolling's median / inotify's median: {ratio:.1f}x")


if __name__ == "__main__":
    main()
