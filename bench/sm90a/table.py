#!/usr/bin/env python3
"""The short table bench/sm90a/device.sh prints last, from the records under OUT:

    python3 bench/sm90a/table.py OUT

1. correctness: per record file correct_*.jsonl (and serial_*.jsonl, the diagnostic re-runs with
   no wgmma in flight), records verified / failed / other, then the first failures;
2. the throughput probe (rate.txt) as it printed;
3. per shape and type of the standard set: the heuristic's kernel (heuristic.jsonl), the best
   sm90a kernel of the sweep (perf_*.jsonl), the cuBLAS and cuSPARSELt plugins on the same
   operands, PyTorch's dense and cuSPARSELt (peers.json / peers.txt), and the ratios of the
   heuristic and of the best kernel to the fastest peer (dense-equivalent TFLOP/s, 2mnk/t;
   verified records only);
4. the bar of issue 8 at 16384^3 (f16/bf16 >= 1300, e4m3/s8 >= 2200);
5. per type, every sm90a configuration at every shape (the tuning data)."""
import glob
import json
import os
import re
import sys

SHAPES = ["4096x4096x4096", "8192x8192x8192", "16384x16384x16384", "11008x4096x4096", "28672x4096x8192",
          "8192x2048x28672"]
TYPES = ["f16", "bf16", "e4m3", "s8"]
LABEL = {"4096x4096x4096": "4096^3", "8192x8192x8192": "8192^3", "16384x16384x16384": "16384^3",
         "11008x4096x4096": "11008x4096x4096", "28672x4096x8192": "28672x4096x8192", "8192x2048x28672": "8192x2048x28672"}
BAR = {"f16": 1300, "bf16": 1300, "e4m3": 2200, "s8": 2200}


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
    return t if isinstance(t, (int, float)) and r.get("status") == "verified" else None


def plugin(r):
    p = r.get("plugin", {})
    return p.get("name", "") if isinstance(p, dict) else str(p)


def config(kernel):
    m = re.search(r"_(\d+x\d+)x\d+_(c\dx\d)_(s\d+)$", kernel or "")
    return f"{m.group(1)}_{m.group(2)}_{m.group(3)}" if m else (kernel or "?")


def fmt(v, w=6):
    return f"{v:{w}.0f}" if isinstance(v, (int, float)) else "-".rjust(w)


def ratio(a, b):
    return f"{a / b:5.2f}" if a and b else "    -"


def correctness(out):
    print("correctness (records: verified / failed / other)")
    bad = []
    for pattern in ("correct_*.jsonl", "serial_*.jsonl"):
        for path in sorted(glob.glob(os.path.join(out, pattern))):
            rs = records(path)
            v = sum(r["status"] == "verified" for r in rs)
            f = sum(r["status"] == "failed" for r in rs)
            print(f"  {os.path.basename(path)[:-6]:<30} {v:4d} / {f:3d} / {len(rs) - v - f:3d}")
            if pattern.startswith("correct"):
                bad += [r for r in rs if r["status"] != "verified"]
    for r in bad[:10]:
        ver = r.get("verification", {})
        first = (ver.get("first_mismatches") or [{}])[0]
        where = (f" first ({first.get('i')},{first.get('j')}): {first.get('got')} vs {first.get('expected'):.6g}"
                 if isinstance(first.get("expected"), (int, float)) else "")
        print(f"  ! {r['status']:<8} {r.get('kernel', '')} {shape(r)} {r.get('reason', '')[:60]}{where}")
    if len(bad) > 10:
        print(f"  ! ... {len(bad) - 10} more")


def peers_of(out):
    peers = {}
    path = os.path.join(out, "peers.txt")
    if os.path.exists(path):  # the lines peers.py printed, in case it was cut before peers.json
        with open(path) as f:
            for line in f:
                mt = re.match(r"^(\d+x\d+x\d+)\s+(\w+)\s+dense\s+(\S+)\s+cusparselt\s+(\S+)", line)
                if mt:
                    num = lambda v: float(v) if v.replace(".", "", 1).isdigit() else None
                    peers[(mt.group(1), mt.group(2))] = {"dense": num(mt.group(3)), "cusparselt": num(mt.group(4))}
    pj = os.path.join(out, "peers.json")
    if os.path.exists(pj):
        with open(pj) as f:
            for row in json.load(f)["rows"]:
                peers[(f"{row['m']}x{row['n']}x{row['k']}", row["dtype"])] = row
    return peers


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    correctness(out)

    rate = os.path.join(out, "rate.txt")
    if os.path.exists(rate):
        print("\nwgmma throughput from shared memory (spmma-bench-sm90a-wgmma)")
        with open(rate) as f:
            for line in f:
                print("  " + line.rstrip())

    sweep = {}     # (shape, type) -> {config: tflops}
    vendor = {}    # (shape, type) -> {"cublas": t, "cusparselt": t}
    for path in sorted(glob.glob(os.path.join(out, "perf_*.jsonl"))):
        for r in records(path):
            key = (shape(r), r["problem"]["a_type"])
            t = tflops(r)
            if t is None:
                continue
            if plugin(r) == "sm90a":
                sweep.setdefault(key, {})[config(r.get("kernel"))] = t
            else:
                vendor.setdefault(key, {})[plugin(r)] = t
    heur = {}
    hpath = os.path.join(out, "heuristic.jsonl")
    if os.path.exists(hpath):
        for r in records(hpath):
            t = tflops(r)
            if t is not None:
                heur[(shape(r), r["problem"]["a_type"])] = (t, config(r.get("kernel")))
    peers = peers_of(out)
    if not (sweep or heur):
        print("\nno verified timing records")
        return

    print("\nstandard shape set (TFLOP/s dense-equivalent; verified records; peers: cuBLAS / cuSPARSELt plugins"
          " on the same operands, PyTorch dense / cuSPARSELt)")
    print(f"  {'m x n x k':<18} {'type':5} {'heur':>6} {'best':>6} {'cublas':>6} {'cslt':>6} {'pt-dn':>6} {'pt-sp':>6}"
          f" {'h/peer':>6} {'b/peer':>6}  heuristic kernel / best kernel")
    for s in SHAPES:
        for dt in TYPES:
            key = (s, dt)
            if key not in sweep and key not in heur:
                continue
            h, hk = heur.get(key, (None, ""))
            bk, b = max(sweep.get(key, {}).items(), key=lambda kv: kv[1], default=("", None))
            v = vendor.get(key, {})
            pr = peers.get(key, {})
            peer_vals = [x for x in (v.get("cublas"), v.get("cusparselt"), pr.get("dense"), pr.get("cusparselt"))
                         if isinstance(x, (int, float))]
            top = max(peer_vals) if peer_vals else None
            print(f"  {s:<18} {dt:5} {fmt(h)} {fmt(b)} {fmt(v.get('cublas'))} {fmt(v.get('cusparselt'))}"
                  f" {fmt(pr.get('dense'))} {fmt(pr.get('cusparselt'))}  {ratio(h, top)}  {ratio(b, top)}  {hk} / {bk}")

    print("\nbar at 16384^3 (issue 8): f16/bf16 >= 1300, e4m3/s8 >= 2200")
    s = "16384x16384x16384"
    for dt in TYPES:
        h = heur.get((s, dt), (None, ""))[0]
        b = max(sweep.get((s, dt), {}).values(), default=None)
        got = h if h is not None else b
        if got is None:
            print(f"  {dt:5} no record")
            continue
        verdict = "met" if got >= BAR[dt] else f"short by {100 * (1 - got / BAR[dt]):.0f}%"
        print(f"  {dt:5} heuristic {fmt(h)}  best {fmt(b)}  bar {BAR[dt]}: {verdict}")

    print("\nevery configuration (sweep), TFLOP/s")
    for dt in TYPES:
        cfgs = sorted({c for (s, t), d in sweep.items() if t == dt for c in d},
                      key=lambda c: [int(x) for x in re.findall(r"\d+", c)])
        if not cfgs:
            continue
        print(f"  {dt:<16} " + " ".join(f"{LABEL[s]:>15}" for s in SHAPES))
        for c in cfgs:
            print(f"  {c:<16} " + " ".join(f"{fmt(sweep.get((s, dt), {}).get(c), 15)}" for s in SHAPES))


if __name__ == "__main__":
    main()
