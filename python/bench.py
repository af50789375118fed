#!/usr/bin/env python3
"""Games read and validated per second from Python, beside the CLI's figure on the same files.

    python python/bench.py [PATH ...] [--runs N] [--xqa target/release/xqa]

PATH defaults to the repository's pgn-samples/ (give a larger folder of records for figures that
mean something). Each measurement is run ``--runs`` times and the median is printed:

* ``read_games``: iterating over every game (a ``Game`` object each, tags and moves reachable);
* ``read_games + iccs()``: also turning each main line into a list of ICCS strings;
* ``validate``: the list of per-game dicts (``xqa validate --json``'s objects);
* ``xqa validate --json``: the CLI on the same paths, wall-clock time of the whole process
  (start-up and printing included), and the rate the CLI itself reports on stderr; skipped, with
  a note, when there is no CLI (``cargo build --release --bin xqa`` builds it).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import xiangqi_arbiter as xa

REPO = Path(__file__).resolve().parents[1]


def median_time(fn, runs: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", default=[str(REPO / "pgn-samples")])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--xqa", default=os.environ.get("XQA", str(REPO / "target/release/xqa")))
    ap.add_argument("--threads", type=int, default=0, help="worker threads (0 = all cores)")
    args = ap.parse_args()
    paths = [str(p) for p in args.paths]

    def read():
        return sum(1 for _ in xa.read_games(paths))

    def read_iccs():
        n = 0
        for g in xa.read_games(paths):
            g.iccs()
            n += 1
        return n

    def validate():
        # (The files that hold no game record are said, not counted, as by the CLI.)
        return sum("header" in r for r in xa.validate(paths, threads=args.threads))

    rows = []
    for name, fn in [("read_games", read), ("read_games + iccs()", read_iccs), ("validate", validate)]:
        t, n = median_time(fn, args.runs)
        rows.append((f"python {name}", n, t))

    cli_rates = []

    def cli():
        r = subprocess.run(
            [args.xqa, "validate", "--json", "--threads", str(args.threads), *paths],
            capture_output=True,
            text=True,
        )
        m = re.search(r"^(\d+) games: .*\(([\d.]+) games/s", r.stderr, re.M)
        if not m:
            sys.exit(f"unexpected output of {args.xqa}: {r.stderr[-500:]}")
        cli_rates.append(float(m.group(2)))
        return int(m.group(1))

    have_cli = Path(args.xqa).is_file()
    if have_cli:
        t, n = median_time(cli, args.runs)
        rows.append(("xqa validate --json (process)", n, t))

    print(f"{len(paths)} path(s): {', '.join(paths)}; median of {args.runs} runs, {os.cpu_count()} cores")
    for name, n, t in rows:
        print(f"  {name:32} {n:6d} games  {t * 1000:8.1f} ms  {n / t:10.0f} games/s")
    if have_cli:
        print(f"  {'xqa validate (its own summary)':32} {'':6}        {'':8}    {statistics.median(cli_rates):10.0f} games/s")
    else:
        print(f"  (no CLI at {args.xqa}, so no comparison: `cargo build --release --bin xqa` builds it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
