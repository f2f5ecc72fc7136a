#!/usr/bin/env python3
"""The table of bench/weights/device.sh: for each problem (m x n x k, type) and plugin in the records
under OUT, the run on uniform data (A drawn from the seed) beside the run on the realistic weight
(A read from a file: the record's operand_sources): TFLOP/s, the median SM clock and power over the
timed launches (the record's clocks; '-' where the plugin runs on no GPU), and weight / uniform.

    python3 bench/weights/table.py OUT
"""
import glob
import json
import os
import sys


def records(root):
    for path in sorted(glob.glob(os.path.join(root, "**", "*.jsonl"), recursive=True)):
        with open(path) as f:
            for line in f:
                if line.strip():
                    yield json.loads(line)


def median(r, key):
    v = (r.get("clocks") or {}).get(key, {})
    return v.get("median") if isinstance(v, dict) else None


def cell(r):
    if r is None:
        return ["", "", ""]
    if r.get("status") != "verified":
        return [r.get("status", "?"), "", ""]
    mhz, watts = median(r, "sm_mhz"), median(r, "power_w")
    tflops = r["timing"]["tflops"]
    return [f"{tflops:.1f}" if tflops >= 10 else f"{tflops:.3g}", f"{mhz:.0f}" if mhz else "-", f"{watts:.0f}" if watts else "-"]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    rows = {}  # (type, m, n, k, plugin) -> {"uniform": record, "weight": record}
    bad = []
    for r in records(root):
        p = r["problem"]
        key = (p["a_type"], p["m"], p["n"], p["k"], r["plugin"]["name"])
        kind = "weight" if r.get("operand_sources") or p.get("operand_files") else "uniform"
        rows.setdefault(key, {})[kind] = r
        if r.get("status") != "verified":
            bad.append(f"{r.get('status')}: {r.get('reason', '')} {r.get('command', '')}")
    head = ["type", "m x n x k", "plugin", "uniform TFLOP/s", "MHz", "W", "weight TFLOP/s", "MHz", "W", "weight/uniform"]
    table = [head]
    for key in sorted(rows, key=lambda k: (k[0], k[1], k[3], k[2], k[4])):
        t, m, n, k, plugin = key
        u, w = rows[key].get("uniform"), rows[key].get("weight")
        ratio = ""
        if u and w and u.get("timing") and w.get("timing") and u["timing"]["tflops"] > 0:
            ratio = f"{w['timing']['tflops'] / u['timing']['tflops']:.3f}"
        table.append([t, f"{m}x{n}x{k}", plugin] + cell(u) + cell(w) + [ratio])
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    for row in table:
        print("  ".join(c.rjust(widths[i]) if i >= 3 else c.ljust(widths[i]) for i, c in enumerate(row)).rstrip())
    for w in rows.values():
        src = (w.get("weight") or {}).get("operand_sources", {}).get("a")
        if src:
            print(f"weight: {src['file']}:{src['tensor']} sha256 {src['sha256'][:16]}..., {src['reading']}, "
                  f"{src['values_rounded']} values rounded, pruned here: {src['pruned']}")
            break
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
