#!/usr/bin/env python3
"""The table of bench/decode/twins.sh: per layer M x K, type, tokens and range count s, the split
launch's median microseconds (every tile in s k-ranges), its whole-tile twin's (s*M x K/s on the
same kernel: the same A bytes and k-tiles a CTA, no partials), and their difference, what the
ranges' exchange costs.

    python3 bench/decode/twins_table.py OUT"""
import os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from table import records  # noqa: E402


def pairs(recs):
    """{(type, m, k, n, s): {"split": us, "kernel": name}, ("twin", type, m, k, n): {"us": us}} from the records."""
    out = {}
    for r in recs:
        if r.get("status") != "verified" or not r.get("timing", {}).get("median_ms"):
            continue
        sm = re.search(r"SPMMA_SM90A_SK_SPLITS=(\d+)", r.get("command", ""))
        if not sm:
            continue
        s = int(sm.group(1))
        p, us = r["problem"], r["timing"]["median_ms"] * 1e3
        if s == 1:  # a whole-tile twin s*M x K/s, matched to its split cell in main
            out[("twin", p["a_type"], p["m"], p["k"], p["n"])] = {"us": us}
            continue
        out[(p["a_type"], p["m"], p["k"], p["n"], s)] = {"split": us, "kernel": r["kernel"]}
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    got = pairs(records(root))
    print(f"{'type':>5} {'layer (m x n x k)':>20} {'s':>2} {'split us':>9} {'twin us':>8} {'split - twin':>12}  kernel")
    for key in sorted(k for k in got if k[0] != "twin"):
        ty, m, k, n, s = key
        split = got[key].get("split")
        twin = got.get(("twin", ty, m * s, k // s, n), {}).get("us")
        if split is None or twin is None:
            continue
        print(f"{ty:>5} {f'{m}x{n}x{k}':>20} {s:>2} {split:9.2f} {twin:8.2f} {split - twin:12.2f}  {got[key]['kernel']}")


if __name__ == "__main__":
    main()
