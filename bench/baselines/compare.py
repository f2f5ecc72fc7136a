#!/usr/bin/env python3
"""Side by side: spmma's records (JSON lines from `spmma run ... --json`) and the PyTorch peers
(peers.json from shared/bench/peers.py), per shape and type, in dense-equivalent TFLOP/s.

    python3 bench/baselines/compare.py RECORDS.jsonl PEERS.json

One row per (m, n, k, type): each spmma plugin's TFLOP/s and verdict, its speedup over the
baseline plugin where the records have one, the peers' dense (cuBLAS through torch) and
cuSPARSELt figures, and the ratios cublas/peer-dense and cusparselt/peer-cusparselt (1.00 means
the plugin measured what PyTorch measured on the same GPU)."""
import json
import sys


def load_records(path):
    rows = {}
    plugins = []
    baseline = None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            r = json.loads(line)
            p = r["problem"]
            key = (p["m"], p["n"], p["k"], p["a_type"])
            name = r["plugin"]["name"]
            if name not in plugins:
                plugins.append(name)
            t = r.get("timing", {}).get("tflops")
            cell = {"tflops": t if isinstance(t, (int, float)) else None, "status": r["status"],
                    "kernel": r.get("kernel", ""), "reason": r.get("reason", "")}
            if "baseline" in r:
                baseline = r["baseline"]["plugin"]
                cell["speedup"] = r["baseline"]["speedup"]
            rows.setdefault(key, {})[name] = cell
    return rows, plugins, baseline


def load_peers(path):
    with open(path) as f:
        data = json.load(f)
    return data.get("info", {}), {(r["m"], r["n"], r["k"], r["dtype"]): r for r in data["rows"]}


def fmt(v, spec="7.0f"):
    return format(v, spec) if isinstance(v, (int, float)) else "-".rjust(int(spec.split(".")[0]))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows, plugins, baseline = load_records(sys.argv[1])
    info, peers = load_peers(sys.argv[2])
    print(f"peers: {info}")
    print(f"spmma plugins: {', '.join(plugins)}; baseline: {baseline or 'none'}")
    head = f"{'m x n x k':<22} {'type':5}"
    for p in plugins:
        head += f" {p[:10]:>10}" + (f" {'x' + baseline[:6]:>8}" if baseline and p != baseline else "")
    head += f" {'pt-dense':>8} {'pt-cslt':>8} {'cublas/pt':>9} {'cslt/pt':>8}"
    print(head)
    for key in sorted(rows, key=lambda k: (k[0] * k[1] * k[2], k)):
        m, n, k, t = key
        cells = rows[key]
        line = f"{f'{m}x{n}x{k}':<22} {t:5}"
        for p in plugins:
            c = cells.get(p, {})
            mark = "" if c.get("status") in ("verified", None) else "!"
            line += f" {fmt(c.get('tflops')):>9}{mark or ' '}"
            if baseline and p != baseline:
                line += f" {fmt(c.get('speedup'), '7.2f')}x"
        peer = peers.get(key, {})
        line += f" {fmt(peer.get('dense'), '8.0f')} {fmt(peer.get('cusparselt'), '8.0f')}"
        cb, cs = cells.get("cublas", {}).get("tflops"), cells.get("cusparselt", {}).get("tflops")
        pd, pc = peer.get("dense"), peer.get("cusparselt")
        line += f" {fmt(cb / pd if cb and pd else None, '9.2f')} {fmt(cs / pc if cs and pc else None, '8.2f')}"
        print(line)
    bad = [(key, p, c) for key, cells in rows.items() for p, c in cells.items() if c["status"] != "verified"]
    if bad:
        print("\nnot verified ('!' above):")
        for key, p, c in bad:
            print(f"  {key} {p} {c['kernel']}: {c['status']} {c['reason'][:200]}")


if __name__ == "__main__":
    main()
