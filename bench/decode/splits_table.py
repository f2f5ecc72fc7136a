#!/usr/bin/env python3
"""The table of bench/decode/splits.sh: per problem, each sm90a kernel's median microseconds under
each SPMMA_SM90A_SK_SPLITS value (the heuristic's kernel as "pick"), the best of them, and the
peers measured beside them.

    python3 bench/decode/splits_table.py OUT"""
import os, re, sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from table import records  # noqa: E402


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    cells = defaultdict(lambda: defaultdict(dict))  # cell -> column -> splits -> us
    splits = set()
    for r in records(root):
        if r.get("status") != "verified" or not r.get("timing", {}).get("median_ms"):
            continue
        p = r["problem"]
        cell = (p["a_type"], p["m"], p["k"], p["n"])
        us = r["timing"]["median_ms"] * 1e3
        name = r["plugin"]["name"]
        if name != "sm90a":
            cells[cell][name][0] = us
            continue
        m = re.search(r"SPMMA_SM90A_SK_SPLITS=(\d+)", r.get("command", ""))
        if not m:
            continue
        s = int(m.group(1))
        splits.add(s)
        col = "pick " + r["kernel"].split("_", 3)[3] if not r.get("kernel_request") else r["kernel"].split("_", 3)[3]
        cells[cell][col][s] = us
    order = sorted(splits)
    print("us per SPMMA_SM90A_SK_SPLITS value (" + " / ".join(map(str, order)) + "); best sm90a against the best peer")
    for cell in sorted(cells):
        ty, m, k, n = cell
        cols = cells[cell]
        peers = {c: v[0] for c, v in cols.items() if 0 in v and not c.startswith("pick") and c in ("cusparselt", "cublas")}
        best = min(((us, c, s) for c, v in cols.items() if c not in peers for s, us in v.items()), default=None)
        bp = min(((us, c) for c, us in peers.items()), default=None)
        head = f"{ty:>5} {m}x{n}x{k}"
        if best and bp:
            head += f": best {best[1]} s={best[2]} {best[0]:.1f} us, {bp[1]} {bp[0]:.1f} us, ratio {bp[0] / best[0]:.2f}"
        print(head)
        for c in sorted(c for c in cols if c not in peers):
            print(f"    {c:>28} | " + " ".join(f"{cols[c][s]:6.1f}" if s in cols[c] else "     -" for s in order))


if __name__ == "__main__":
    main()
