#!/usr/bin/env python3
"""The CUDA function that runs a GEMM timed N times, from an Nsight Compute CSV export of
gpu__time_duration.sum over the process (ncu --csv --print-units base --metrics
gpu__time_duration.sum ...).

    ncu ... spmma gemm ... --iterations 3 | python3 bench/device/gemm_launch.py

bench/device/ncu_kernel.sh uses it to find a vendor library's GEMM among its launches: the
function launched most often (the timed launches), and of those the one with the most time in
all (a split-k reduction launches as often, in less time). Not the longest launch: cuSPARSELt's
compression of A, launched once, outlasts a 4096^3 GEMM (bench/NOTES.md, "clusters of four, and
the split launch"). Prints the name; exits 1, saying why, when the export holds no launch."""
import csv
import sys
from collections import defaultdict


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def gemm_function(lines):
    rows = list(csv.reader(line for line in lines if line.startswith('"')))
    if not rows or "Kernel Name" not in rows[0] or "Metric Value" not in rows[0]:
        return None
    name, value = rows[0].index("Kernel Name"), rows[0].index("Metric Value")
    launches, total = defaultdict(int), defaultdict(float)
    for r in rows[1:]:
        if len(r) > max(name, value) and number(r[value]) is not None:
            launches[r[name]] += 1
            total[r[name]] += number(r[value])
    if not launches:
        return None
    return max(launches, key=lambda f: (launches[f], total[f]))


def main():
    best = gemm_function(sys.stdin)
    if best is None:
        print("gemm_launch.py: no launch with gpu__time_duration.sum in the input", file=sys.stderr)
        return 1
    print(best)
    return 0


if __name__ == "__main__":
    sys.exit(main())
