#!/usr/bin/env python3
"""The short table bench/sm90a/device.sh prints last, from the records under OUT:

    python3 bench/sm90a/table.py OUT

1. correctness: per record file correct_*.jsonl, records verified / failed / other, and the
   first failures (kernel, shape, reason or first mismatch);
2. performance: per (m, n, k, type) of perf_*.jsonl, the best verified sm90a kernel, the
   heuristic's pick (perf_standard), the peers from peers*.json or peers*.txt (dense cuBLAS,
   cuSPARSELt) and
   the ratios best/dense and best/cuSPARSELt (dense-equivalent TFLOP/s, 2mnk/t)."""
import glob
import json
import os
import re
import sys


def records(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError:
                    pass
    return out


def shape(r):
    p = r["problem"]
    return f"{p['m']}x{p['n']}x{p['k']}"


def tflops(r):
    t = r.get("timing", {}).get("tflops")
    return t if isinstance(t, (int, float)) else None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    print("correctness (records: verified / failed / other)")
    bad = []
    for path in sorted(glob.glob(os.path.join(out, "correct_*.jsonl"))):
        rs = records(path)
        v = sum(r["status"] == "verified" for r in rs)
        f = sum(r["status"] == "failed" for r in rs)
        print(f"  {os.path.basename(path)[8:-6]:<22} {v:4d} / {f:3d} / {len(rs) - v - f:3d}")
        bad += [r for r in rs if r["status"] != "verified"]
    for r in bad[:12]:
        ver = r.get("verification", {})
        first = (ver.get("first_mismatches") or [{}])[0]
        print(f"  ! {r['status']:<10} {r.get('kernel', '')} {shape(r)} {r['problem']['a_type']}x{r['problem']['b_type']}"
              f" {r.get('reason', '')[:120]} {('mismatch ' + json.dumps(first)) if first else ''}")

    # Peers: peers.json files, or the lines peers.py printed when it was cut before writing one.
    peers = {}
    for txt in ("peers_main.txt", "peers.txt"):
        path = os.path.join(out, txt)
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    mt = re.match(r"^(\d+x\d+x\d+)\s+(\w+)\s+dense\s+(\S+)\s+cusparselt\s+(\S+)", line)
                    if mt:
                        num = lambda v: float(v) if v.replace(".", "", 1).isdigit() else None
                        peers[(mt.group(1), mt.group(2))] = {"dense": num(mt.group(3)), "cusparselt": num(mt.group(4))}
    for pj in (os.path.join(out, "peers_main", "peers.json"), os.path.join(out, "peers.json")):
        if os.path.exists(pj):
            with open(pj) as f:
                for row in json.load(f)["rows"]:
                    peers[(f"{row['m']}x{row['n']}x{row['k']}", row["dtype"])] = row
    best, pick = {}, {}
    for path in sorted(glob.glob(os.path.join(out, "perf_*.jsonl"))):
        for r in records(path):
            key = (shape(r), r["problem"]["a_type"])
            t = tflops(r)
            if r["status"] != "verified" or t is None:
                continue
            if key not in best or t > best[key][0]:
                best[key] = (t, r.get("kernel", ""))
            if os.path.basename(path) == "perf_standard.jsonl":
                pick[key] = (t, r.get("kernel", ""))
    if not best:
        print("no verified timing records")
        return
    print("\nperformance (TFLOP/s dense-equivalent; verified records only)")
    print(f"  {'m x n x k':<18} {'type':5} {'best':>6} {'heuristic':>9} {'dense':>6} {'cslt':>6} {'/dense':>6} {'/cslt':>6}  best kernel")
    keys = sorted(best, key=lambda k: (eval(k[0].replace('x', '*')), k))
    for key in keys:
        t, kern = best[key]
        h = pick.get(key, (None, ""))[0]
        pr = peers.get(key, {})
        d, c = pr.get("dense"), pr.get("cusparselt")
        f = lambda v, w=6: f"{v:{w}.0f}" if isinstance(v, (int, float)) else "-".rjust(w)
        r = lambda a, b: f"{a / b:6.2f}" if a and b else "     -"
        print(f"  {key[0]:<18} {key[1]:5} {f(t)} {f(h, 9)} {f(d)} {f(c)} {r(t, d)} {r(t, c)}  {kern}")


if __name__ == "__main__":
    main()
