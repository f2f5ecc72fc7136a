#!/usr/bin/env python3
"""The A/B table of bench/decode/device.sh's `ab` and `flush` stages: records whose command carries
an SPMMA_* knob, grouped by problem and by plugin (and kernel, where one was named); the median
microseconds of each pass under each setting, and B over A (the mean of the passes' medians).

    python3 bench/decode/ab_table.py OUT"""
import os, re, sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from table import records  # noqa: E402


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    rows = defaultdict(lambda: defaultdict(list))  # (knob, cell, column) -> setting -> [us]
    order = {}
    for r in records(root):
        cmd = r.get("command", "")
        knob = re.match(r"((?:SPMMA_\w+=\S+ )+)", cmd)
        if not knob or r.get("status") != "verified" or not r.get("timing", {}).get("median_ms"):
            continue
        settings = knob.group(1).split()
        var = settings[0].split("=")[0]
        p = r["problem"]
        cell = (p["a_type"], p["m"], p["k"], p["n"])
        col = r["plugin"]["name"] + ("" if not r.get("kernel_request") else " " + r["kernel"].split("_", 3)[3])
        rows[(var, cell, col)][settings[0]].append(r["timing"]["median_ms"] * 1e3)
        order.setdefault(var, [])
        if settings[0] not in order[var]:
            order[var].append(settings[0])
    for var, sets in order.items():
        if len(sets) < 2:
            continue
        a, b = sets[0], sets[1]
        print(f"\n{var}: A = {a}, B = {b} (us, each pass; B/A)")
        ratios = []
        for key in sorted(k for k in rows if k[0] == var):
            _, (ty, m, k, n), col = key
            ta, tb = rows[key].get(a, []), rows[key].get(b, [])
            if not ta or not tb:
                continue
            ratio = (sum(tb) / len(tb)) / (sum(ta) / len(ta))
            ratios.append(ratio)
            fa = " ".join(f"{x:.1f}" for x in ta)
            fb = " ".join(f"{x:.1f}" for x in tb)
            print(f"  {ty:>5} {m}x{n}x{k:<6} {col:>28} | A {fa:>14} | B {fb:>14} | {ratio:5.3f}")
        if ratios:
            ratios.sort()
            print(f"  B/A: median {ratios[len(ratios) // 2]:.3f}, range {ratios[0]:.3f}-{ratios[-1]:.3f}, {len(ratios)} pairs")


if __name__ == "__main__":
    main()
