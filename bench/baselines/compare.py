#!/usr/bin/env python3
"""Side by side: spmma's records (JSON lines from `spmma run ... --json`) and the PyTorch peers
(peers.json from bench/baselines/peers.py), per shape and type, in dense-equivalent TFLOP/s.

    python3 bench/baselines/compare.py RECORDS.jsonl PEERS.json

One row per (m, n, k, type): each spmma plugin's TFLOP/s and verdict, its speedup over the
baseline plugin where the records have one, the peers' dense (cuBLAS through torch) and
cuSPARSELt figures, and the ratios cublas/peer-dense and cusparselt/peer-cusparselt (1.00 means
the plugin measured what PyTorch measured on the same GPU).

    python3 bench/baselines/compare.py RECORDS.jsonl PEERS.json --subject sm90a

adds, per row, the best of every other column (the other plugins, cublas included, and both
PyTorch peers) and the subject's lead over it in percent, then a summary: cells where the subject
leads by at least --lead percent (default 5), the smallest and the median lead. PEERS.json may be
'-' when there are no PyTorch figures."""
import argparse
import json
import statistics


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
    if path == "-":
        return {}, {}
    with open(path) as f:
        data = json.load(f)
    return data.get("info", {}), {(r["m"], r["n"], r["k"], r["dtype"]): r for r in data["rows"]}


def fmt(v, spec="7.0f"):
    return format(v, spec) if isinstance(v, (int, float)) else "-".rjust(int(spec.split(".")[0]))


def best_peer(cells, peer, subject):
    """The best figure among every column but the subject's, and the column it came from."""
    candidates = [(c.get("tflops"), p) for p, c in cells.items()
                  if p != subject and c.get("status") == "verified"]
    candidates += [(peer.get("dense"), "pt-dense"), (peer.get("cusparselt"), "pt-cslt")]
    candidates = [(v, name) for v, name in candidates if isinstance(v, (int, float))]
    return max(candidates) if candidates else (None, None)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records")
    ap.add_argument("peers")
    ap.add_argument("--subject", help="plugin whose lead over the best other column is shown")
    ap.add_argument("--lead", type=float, default=5.0, help="lead in percent a cell must reach")
    args = ap.parse_args()
    rows, plugins, baseline = load_records(args.records)
    info, peers = load_peers(args.peers)
    leads = []
    print(f"peers: {info}")
    print(f"spmma plugins: {', '.join(plugins)}; baseline: {baseline or 'none'}")
    head = f"{'m x n x k':<22} {'type':5}"
    for p in plugins:
        head += f" {p[:10]:>10}" + (f" {'x' + baseline[:6]:>8}" if baseline and p != baseline else "")
    head += f" {'pt-dense':>8} {'pt-cslt':>8} {'cublas/pt':>9} {'cslt/pt':>8}"
    if args.subject:
        head += f" {'best other':>20} {'lead':>7}"
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
        if args.subject:
            best, source = best_peer(cells, peer, args.subject)
            mine = cells.get(args.subject, {})
            lead = None
            if best and mine.get("status") == "verified" and mine.get("tflops"):
                lead = 100.0 * (mine["tflops"] / best - 1.0)
                leads.append((lead, key))
            line += f" {fmt(best, '7.0f')} {source or '':>12} {fmt(lead, '+6.1f')}%"
        print(line)
    if args.subject:
        print_lead_summary(args.subject, args.lead, leads, len(rows))
    bad = [(key, p, c) for key, cells in rows.items() for p, c in cells.items() if c["status"] != "verified"]
    if bad:
        print("\nnot verified ('!' above):")
        for key, p, c in bad:
            print(f"  {key} {p} {c['kernel']}: {c['status']} {c['reason'][:200]}")


def print_lead_summary(subject, bar, leads, cells):
    if not leads:
        print(f"\n{subject}: no cell with both a verified figure and a peer figure")
        return
    ahead = sum(1 for lead, _ in leads if lead >= bar)
    low, low_key = min(leads)
    print(f"\n{subject} ahead of the best other column by >= {bar:g} % at {ahead} of {len(leads)} cells "
          f"({cells} rows); median lead {statistics.median(l for l, _ in leads):+.1f} %, "
          f"smallest {low:+.1f} % at {low_key[0]}x{low_key[1]}x{low_key[2]} {low_key[3]}")


if __name__ == "__main__":
    main()
