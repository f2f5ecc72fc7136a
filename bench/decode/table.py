#!/usr/bin/env python3
"""The decode table of bench/decode/device.sh: for every problem (m x n x k, type) in the records
under OUT, the subject plugin's (sm90a unless named) heuristic pick, its best kernel named, and
the cusparselt and cublas plugins: microseconds, TFLOP/s and the DRAM bytes per second each
reached, the subject against the best peer, and the subject's share of the DRAM roofline (bytes /
peak DRAM bandwidth).

    python3 bench/decode/table.py OUT [SUBJECT]

Bytes: compressed A (half the values) + 4-bit metadata per group of four, B and D for the sparse
plugins; dense A, B and D for cublas. The peak DRAM bandwidth is 2 x memory clock x bus width
(the bus width of the GPUs measured: H100 5120 bits, H200 6144 bits), with the record's memory
clock. Records that carry a speed of light (`sol`, spmma's own computation from the device's
peaks) give both: its bytes and its peak DRAM bandwidth."""
import glob, json, os, sys
from collections import defaultdict

BUS_BITS = {"H100": 5120, "H200": 6144}
ELEM = {"f16": 2, "bf16": 2, "tf32": 4, "e4m3": 1, "e5m2": 1, "s8": 1, "u8": 1}
OUT_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "s32": 4}


def records(root):
    for path in sorted(glob.glob(os.path.join(root, "**", "*.jsonl"), recursive=True)):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line:
                    yield json.loads(line)


def bytes_of(p, dense, r=None):
    if isinstance((r or {}).get("sol", {}).get("bytes"), int):
        return r["sol"]["bytes"]
    m, n, k = p["m"], p["n"], p["k"]
    ea, eb, eo = ELEM[p["a_type"]], ELEM[p["b_type"]], OUT_BYTES[p["d_type"]]
    a = m * k * ea if dense else m * k // 2 * ea + m * k // 8
    return a + n * k * eb + m * n * eo


def peak_bytes_per_s(r):
    if r.get("sol", {}).get("peak_dram_bytes_per_s"):
        return r["sol"]["peak_dram_bytes_per_s"]
    name = r.get("device", {}).get("name", "")
    bus = next((b for key, b in BUS_BITS.items() if key in name), None)
    mem = r.get("clocks", {}).get("mem_mhz", {}).get("max")
    return 2 * mem * 1e6 * bus / 8 if bus and mem else None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    subject = sys.argv[2] if len(sys.argv) > 2 else "sm90a"
    cells = defaultdict(dict)  # (m, n, k, type) -> column -> (us, tflops, TB/s, record)
    failures = []
    for r in records(root):
        p = r.get("problem", {})
        if r.get("status") != "verified":
            if r.get("status") != "skipped":
                failures.append(f"{r.get('status')}: {r.get('command', '')}")
            continue
        t = r.get("timing", {})
        if not r.get("run", {}).get("flush_l2") or not t.get("median_ms") or r.get("command", "").startswith("SPMMA_"):
            continue  # (records of an A/B knob: ab_table.py)
        plugin = r["plugin"]["name"]
        col = plugin
        if plugin == subject:
            col = subject if not r.get("kernel_request") else subject + " " + r["kernel"].split("_", 3)[3]
        elif plugin not in ("cusparselt", "cublas"):
            continue
        key = (p["m"], p["n"], p["k"], p["a_type"])
        s = t["median_ms"] * 1e-3
        cells[key][col] = (s * 1e6, t["tflops"], bytes_of(p, plugin == "cublas", r) / s / 1e12, r)
    print(f"{'m x n x k':>20} {'type':>5} | {subject + ' us':>8} {'TF/s':>6} {'TB/s':>5} {'%DRAM':>5} | {'best named kernel':>26} {'us':>7} | "
          f"{'cuSPARSELt':>10} {'TB/s':>5} | {'cuBLAS':>7} {'TB/s':>5} | {'vs best':>7} {'vs dense':>8}")
    for key in sorted(cells, key=lambda c: (c[3], c[0] * c[2], c[1])):
        c = cells[key]
        m, n, k, ty = key
        pick = c.get(subject)
        named = min(((v[0], col) for col, v in c.items() if col.startswith(subject + " ")), default=None)
        sl, cb = c.get("cusparselt"), c.get("cublas")
        peers = [v[0] for v in (sl, cb) if v]
        best_peer = min(peers) if peers else None
        peak = peak_bytes_per_s(pick[3]) if pick else None
        row = f"{f'{m}x{n}x{k}':>20} {ty:>5} | "
        row += f"{pick[0]:8.1f} {pick[1]:6.1f} {pick[2]:5.2f} {100 * pick[2] * 1e12 / peak if peak else 0:5.1f} | " if pick else f"{'-':>29} | "
        row += f"{named[1]:>26} {named[0]:7.1f} | " if named else f"{'-':>34} | "
        row += f"{sl[0]:10.1f} {sl[2]:5.2f} | " if sl else f"{'-':>16} | "
        row += f"{cb[0]:7.1f} {cb[2]:5.2f} | " if cb else f"{'-':>13} | "
        row += f"{best_peer / pick[0]:7.2f} " if pick and best_peer else f"{'-':>7} "
        row += f"{cb[0] / pick[0]:8.2f}" if pick and cb else f"{'-':>8}"
        print(row)
    if failures:
        print(f"\n{len(failures)} runs not verified:")
        for f in failures[:40]:
            print("  " + f)


if __name__ == "__main__":
    main()
