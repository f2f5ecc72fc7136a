#!/usr/bin/env python3
"""Where a kernel's warps wait: the SASS instructions that hold the most warp-state samples.

    python3 bench/device/stall_table.py stalls_<kernel>_<size>.csv [--top 25]

Reads the source page that bench/device/ncu_stalls.sh exports (one row per SASS instruction) and
prints the samples summed by opcode (HGMMA, the mbarrier waits SYNCS.PHASECHK, the wgmma waits
WARPGROUP.DEPBAR, ...) and the instructions that hold the most, with their share of all samples.
"""
import argparse
import csv
import re
import sys
from collections import defaultdict


def number(text):
    text = (text or "").replace(",", "").strip()
    try:
        return float(text)
    except ValueError:
        return 0.0


def opcode(sass):
    # "@!P2 SYNCS.PHASECHK.TRANS64.TRYWAIT P2, [...]" -> "SYNCS.PHASECHK.TRANS64.TRYWAIT"
    words = sass.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0].rstrip(";") if words else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    with open(args.csv, newline="") as f:
        lines = f.readlines()
    # ncu prints the kernel's name and notes before the table; the table starts at "Address".
    start = next((i for i, line in enumerate(lines) if line.startswith('"Address"')), None)
    if start is None:
        sys.exit(f"{args.csv}: no table")
    rows = list(csv.DictReader(lines[start:]))
    if not rows:
        sys.exit(f"{args.csv}: no table")
    cols = list(rows[0].keys())
    reasons = [c for c in cols if c.startswith("stall_") and "Not Issued" not in c]
    src = next((c for c in cols if c.strip() == "Source"), None)
    addr = next((c for c in cols if "Address" in c), None)
    total_col = next((c for c in cols if c.startswith("Warp Stall Sampling (All")), None)
    idle_col = next((c for c in cols if c.startswith("Warp Stall Sampling (Not")), None)
    if not (src and total_col):
        sys.exit(f"{args.csv}: no Source / warp-stall columns (have: {', '.join(cols)})")
    total = sum(number(r[total_col]) for r in rows) or 1.0
    by_op = defaultdict(lambda: [0.0, 0.0, 0])
    for r in rows:
        o = by_op[opcode(r[src])]
        o[0] += number(r[total_col])
        o[1] += number(r[idle_col]) if idle_col else 0.0
        o[2] += 1
    print(f"{args.csv}: {int(total)} samples over {len(rows)} instructions")
    print("\n| opcode | samples | share | not issued | instructions |\n|---|---|---|---|---|")
    for op, (s, ni, n) in sorted(by_op.items(), key=lambda kv: -kv[1][0])[: args.top]:
        if s:
            print(f"| {op} | {int(s)} | {100 * s / total:.1f} % | {int(ni)} | {n} |")
    print("\n| address | instruction | samples | share | leading reasons |\n|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: -number(r[total_col]))[: args.top]:
        s = number(r[total_col])
        if s:
            text = re.sub(r"\s+", " ", r[src]).strip()[:72]
            lead = sorted(((number(r[c]), c[6:]) for c in reasons), reverse=True)[:2]
            why = ", ".join(f"{name} {int(n)}" for n, name in lead if n)
            print(f"| {r[addr] if addr else ''} | `{text}` | {int(s)} | {100 * s / total:.1f} % | {why} |")


if __name__ == "__main__":
    main()
