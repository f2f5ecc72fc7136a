#!/usr/bin/env python3
"""The decode cells of bench/dram/device.sh beside the DRAM read ceiling of their bytes.

    bench/dram/table.py OUT

OUT holds dram.txt (spmma-bench-dram's output, one or more repetitions) and cells_*.jsonl (the
GEMM records). The ceiling of a launch that must read B bytes is the probe's fit t0 + B / rate
(the median of the repetitions' fits): what a kernel that does nothing but read them takes, with
the same L2 flush and timing. Per cell and plugin: the record's time and % SOL (the roofline of
the device's peaks), the ceiling's time and its share of that roofline, and the record's time
over the ceiling's (1.00: the kernel reads as fast as DRAM can be read).
"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dram_fit import median_fit, read_probe  # noqa: E402


def read_fit(path):
    """The median t0 (s) and rate (bytes/s) over the repetitions' fit lines."""
    _, fits = read_probe(path)
    if not fits:
        raise SystemExit(f"{path}: no fit line (did spmma-bench-dram run?)")
    return (*median_fit(fits), len(fits))


def read_records(out):
    recs = []
    for path in sorted(glob.glob(os.path.join(out, "cells_*.jsonl"))):
        for line in open(path):
            line = line.strip()
            if line:
                recs.append(json.loads(line))
    return recs


def rows(recs, t0, rate):
    """One row per verified record: (m, k, n, type, plugin, us, % SOL, ceiling us, ceiling %, ratio)."""
    out = []
    for r in recs:
        if r.get("status") != "verified" or "sol" not in r:
            continue
        p, sol = r["problem"], r["sol"]
        t = r["timing"]["median_ms"] * 1e-3
        ceiling = t0 + sol["bytes"] / rate
        bound = sol["bound_ms"] * 1e-3
        out.append((p["m"], p["k"], p["n"], p["a_type"], r["plugin"]["name"], t * 1e6, 100 * sol["fraction"],
                    ceiling * 1e6, 100 * bound / ceiling, t / ceiling))
    return sorted(out, key=lambda x: (-x[0] * x[1], x[3], x[2], x[4]))


def main(argv):
    if len(argv) != 2:
        raise SystemExit(__doc__)
    out = argv[1]
    t0, rate, n = read_fit(os.path.join(out, "dram.txt"))
    recs = read_records(out)
    print(f"ceiling: t0 {t0 * 1e6:.2f} us + bytes / {rate / 1e12:.3f} TB/s (median of {n} fits)")
    print(f"records: {len(recs)}, verified {sum(r.get('status') == 'verified' for r in recs)}")
    print("| m x k | type | n | plugin | µs | % SOL | ceiling µs | ceiling % SOL | time / ceiling |")
    print("|---|---|---|---|---|---|---|---|---|")
    for m, k, nn, ty, plugin, us, frac, cus, cfrac, ratio in rows(recs, t0, rate):
        print(f"| {m}x{k} | {ty} | {nn} | {plugin} | {us:.1f} | {frac:.1f} | {cus:.1f} | {cfrac:.1f} | {ratio:.2f} |")


if __name__ == "__main__":
    main(sys.argv)
