#!/usr/bin/env python3
"""The per-tier table of a Nine Men's Morris tier directory, in Markdown.

    python3 bench/morris_table.py DIR LOG > table.md

DIR is the directory `retrograde game nine-mens-morris 0.9-0.9 --tiers DIR`
writes; LOG is that run's standard error (its lines `tier T: N positions,
longest L plies, S s`). The counts come from `retrograde analyze DIR --json`
(the binary is taken from $RETROGRADE, else target/release/retrograde), the
database sizes from the manifest, the times from the log (the last line a
tier was solved on; a tier taken from an earlier run has no time of its own).
"""
import json
import os
import re
import subprocess
import sys


def main():
    directory, log = sys.argv[1], sys.argv[2]
    binary = os.environ.get("RETROGRADE", "target/release/retrograde")
    analyzed = json.loads(
        subprocess.run([binary, "analyze", directory, "--json"],
                       check=True, capture_output=True, text=True).stdout)
    manifest = json.load(open(os.path.join(directory, "tiers.json")))
    size = {t["name"]: t["bytes"] for t in manifest["tiers"]}
    seconds = {}
    line = re.compile(r"^tier (\S+): (\d+) positions, longest (\d+) plies, ([\d.]+) s$")
    for text in open(log, errors="replace"):
        m = line.match(text.strip())
        if m:
            seconds[m.group(1)] = float(m.group(4))
    print("| tier | positions | win | lose | draw | longest win / loss | time | database |")
    print("|---|---|---|---|---|---|---|---|")
    total = {"positions": 0, "win": 0, "lose": 0, "draw": 0, "bytes": 0, "time": 0.0}
    for t in analyzed["tiers"]:
        name = t["tier"]
        c = t["counts"]
        time = seconds.get(name)
        lw, ll = t.get("longest_win"), t.get("longest_loss")
        print(f"| {name} | {t['positions']:,} | {c['win']:,} | {c['lose']:,} | {c['draw']:,} "
              f"| {lw if lw is not None else '-'} / {ll if ll is not None else '-'} "
              f"| {f'{time:,.1f} s' if time is not None else '-'} | {size.get(name, 0):,} B |")
        total["positions"] += t["positions"]
        for k in ("win", "lose", "draw"):
            total[k] += c[k]
        total["bytes"] += size.get(name, 0)
        total["time"] += time or 0
    print(f"| **{len(analyzed['tiers'])} tiers** | {total['positions']:,} | {total['win']:,} "
          f"| {total['lose']:,} | {total['draw']:,} | | {total['time']:,.0f} s | {total['bytes']:,} B |")


if __name__ == "__main__":
    main()
