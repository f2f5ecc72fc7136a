#!/usr/bin/env python3
"""Two record files of the same sweep side by side: each record's median kernel time and its
phases, and the totals, so the cost of running plugins in worker processes can be read off.
Usage: pair.py A.jsonl B.jsonl"""
import json
import sys


def load(path):
    out = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            key = (r["problem"]["label"], r["plugin"]["name"], r.get("kernel", ""))
            out[key] = r
    return out


def main():
    a, b = load(sys.argv[1]), load(sys.argv[2])
    print(f"{'problem':<44} {'plugin':<11} {'A ms':>9} {'B ms':>9} {'B/A':>6}  {'A total':>8} {'B total':>8}")
    sums = [0.0, 0.0, 0.0, 0.0]
    for key in sorted(set(a) & set(b)):
        ra, rb = a[key], b[key]
        ma = ra.get("timing", {}).get("median_ms")
        mb = rb.get("timing", {}).get("median_ms")
        ta = ra.get("phases_ms", {}).get("total", 0.0)
        tb = rb.get("phases_ms", {}).get("total", 0.0)
        if isinstance(ma, (int, float)) and isinstance(mb, (int, float)):
            sums[0] += ma
            sums[1] += mb
            ratio = f"{mb / ma:6.3f}" if ma else "     -"
            print(f"{key[0]:<44} {key[1]:<11} {ma:9.4f} {mb:9.4f} {ratio}  {ta:8.1f} {tb:8.1f}")
        sums[2] += ta
        sums[3] += tb
    print(f"sum of medians {sums[0]:.3f} / {sums[1]:.3f} ms; sum of record wall {sums[2] / 1e3:.2f} / {sums[3] / 1e3:.2f} s")


if __name__ == "__main__":
    main()
