#!/usr/bin/env python3
"""The table bench/sm90a/ab.sh prints last, from the records under OUT:

    python3 bench/sm90a/ab_table.py OUT "VAR=a" "VAR=b"

1. correctness: per correct_*.jsonl, records verified / failed / other, then the first failures;
2. per shape, type and sm90a kernel of perf_*.jsonl: TFLOP/s (dense-equivalent, 2mnk/t, verified
   records only) under setting A and under B (a record's command starts with the SPMMA_* knobs
   that were set; for "dir:PATH" settings the plugin file's folder tells), B/A, the cuSPARSELt plugin on the same operands, and B's best over it."""
import glob
import json
import os
import sys

from table import records  # bench/sm90a/table.py: one record per JSON line


def main():
    out, a_set, b_set = sys.argv[1], sys.argv[2], sys.argv[3]
    print("correctness (records: verified / failed / other)")
    fails = []
    for path in sorted(glob.glob(os.path.join(out, "correct_*.jsonl"))):
        rs = records(path)
        v = sum(r.get("status") == "verified" for r in rs)
        bad = [r for r in rs if r.get("status") == "failed"]
        fails += bad
        print(f"  {os.path.basename(path)[:-6]:<28} {v:5d} / {len(bad):3d} / {len(rs) - v - len(bad):3d}")
    for r in fails[:10]:
        v = r.get("verification", {})
        print("  FAILED:", r.get("kernel"), r.get("problem", {}).get("label"), "mismatches", v.get("mismatches"),
              "nan", v.get("nan_count"), (v.get("first_mismatches") or [""])[0])

    cells = {}  # (shape, type) -> {kernel: {"A": tflops, "B": tflops}}
    order = []
    for path in sorted(glob.glob(os.path.join(out, "perf_*.jsonl")), key=lambda p: (len(p), p)):
        for r in records(path):
            if r.get("status") != "verified":
                continue
            p = r["problem"]
            key = (f"{p['m']}x{p['n']}x{p['k']}", p["a_type"])
            if key not in cells:
                cells[key] = {}
                order.append(key)
            cmd = r.get("command", "")
            folder = os.path.dirname(r.get("plugin", {}).get("file", ""))

            def is_side(setting):
                if setting.startswith("dir:"):
                    return folder.endswith(os.path.normpath(setting[4:]))
                return cmd.startswith(setting)

            side = "B" if is_side(b_set) else "A" if is_side(a_set) else "-"
            if r["kernel"].startswith("cusparselt"):
                side = "cslt"
            cells[key].setdefault(r["kernel"], {})[side] = r["timing"]["tflops"]
    print(f"\nA: {a_set}   B: {b_set}   (TFLOP/s dense-equivalent, median of the timed launches)")
    print(f"  {'m x n x k':<18} {'type':<5} {'kernel':<40} {'A':>6} {'B':>6} {'B/A':>5} {'cslt':>6} {'B/cslt':>6}")
    for key in order:
        ks = cells[key]
        cslt = max((v.get("cslt", 0) for v in ks.values()), default=0)
        for kernel, v in ks.items():
            if kernel.startswith("cusparselt"):
                continue
            a, b = v.get("A"), v.get("B")
            ratio = f"{b / a:5.2f}" if a and b else "    -"
            vs = f"{b / cslt:6.2f}" if b and cslt else "     -"
            print(f"  {key[0]:<18} {key[1]:<5} {kernel[6:]:<40} {a or 0:6.0f} {b or 0:6.0f} {ratio} {cslt:6.0f} {vs}")


if __name__ == "__main__":
    main()
