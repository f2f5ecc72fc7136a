#!/usr/bin/env python3
"""The table of bench/epilogue/device.sh: for each problem (m x n x k) and plugin in the records
under OUT, the plain GEMM (no epilogue) beside the same GEMM with each epilogue the records carry
(named by its parts: rs, cs, bias, the activation): median time in µs, % of the run's speed of
light where the record states it, the median SM clock sampled during its timed launches (MHz:
a power-capped run's time follows its clock, so a ratio between runs at different clocks is
partly the clock's), and epilogue / plain time. A plugin that did not run an
epilogue shows its status and reason under the table; where a run took another kernel than the
plain one, a line under the table names both. Then, per plugin and epilogue, at how many shapes the
epilogue takes at most WITHIN of the plain GEMM's time, and the shapes over it. Exit 1 when a record
that ran did not verify.

    python3 bench/epilogue/table.py OUT     (OUT's *.jsonl and *.jsonl.gz)
"""
import glob
import gzip
import json
import os
import sys

EPILOGUE_KEYS = ("row_scale", "col_scale", "bias", "activation")
# The most an epilogue may add to the plain GEMM's time for the summary to count it as fused at no
# real cost (the serving op's bar: 2 %).
WITHIN = 1.02


def records(root):
    paths = glob.glob(os.path.join(root, "**", "*.jsonl"), recursive=True) + glob.glob(os.path.join(root, "**", "*.jsonl.gz"), recursive=True)
    for path in sorted(paths):
        with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
            for line in f:
                if line.strip():
                    yield json.loads(line)


def epilogue_label(problem):
    """'plain', or the epilogue's parts joined by '+': rs, cs, bias, the activation."""
    present = lambda k: problem.get(k) not in (None, "none", "")
    parts = [short for key, short in (("row_scale", "rs"), ("col_scale", "cs"), ("bias", "bias")) if present(key)]
    if present("activation"):
        parts.append(str(problem["activation"]))
    return "+".join(parts) or "plain"


def time_us(r):
    t = (r or {}).get("timing") or {}
    return t.get("median_ms", 0) * 1e3 if r and r.get("status") == "verified" else None


def sol(r):
    f = ((r or {}).get("sol") or {}).get("fraction")
    return f"{100 * f:.1f}" if f else "-"


def mhz(r):
    m = (((r or {}).get("clocks") or {}).get("sm_mhz") or {}).get("median")
    return f"{m:.0f}" if m else "-"


def cell(r):
    if r is None:
        return ["", "", ""]
    us = time_us(r)
    if us is None:
        return [r.get("status", "?"), "", ""]
    return [f"{us:.1f}", sol(r), mhz(r)]


def within_lines(rows, kinds):
    """Per plugin and epilogue kind with both times somewhere: the shapes within WITHIN of the
    plain GEMM's time, and those over it with their ratio."""
    out = []
    for plugin in sorted({key[3] for key in rows}):
        for kind in kinds:
            ratios = []
            for key in sorted(k for k in rows if k[3] == plugin):
                tp, te = time_us(rows[key].get("plain")), time_us(rows[key].get(kind))
                if tp and te:
                    ratios.append((f"{key[0]}x{key[1]}x{key[2]}", te / tp))
            if not ratios:
                continue
            over = [f"{shape} {r:.3f}" for shape, r in ratios if r > WITHIN]
            within = len(ratios) - len(over)
            out.append(f"{plugin} {kind}: within {100 * (WITHIN - 1):.0f} % of the plain GEMM at {within} of "
                       f"{len(ratios)} shapes" + (f"; over: {', '.join(over)}" if over else ""))
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    rows = {}  # (m, n, k, plugin) -> {label: record}
    labels = set()
    bad, refused = [], {}
    for r in records(root):
        p = r["problem"]
        key = (p["m"], p["n"], p["k"], r["plugin"]["name"])
        kind = epilogue_label(p)
        labels.add(kind)
        rows.setdefault(key, {})[kind] = r
        status = r.get("status")
        if status in ("unsupported", "skipped"):
            refused.setdefault((r["plugin"]["name"], kind), r.get("reason", ""))
        elif status != "verified":
            bad.append(f"{status}: {r.get('reason', '')} {r.get('command', '')}")
    kinds = sorted(labels - {"plain"})
    head = ["m x n x k", "plugin", "plain µs", "% SOL", "MHz"]
    for kind in kinds:
        head += [f"{kind} µs", "% SOL", "MHz", f"{kind}/plain"]
    table = [head]
    for key in sorted(rows, key=lambda k: (k[0] * k[2], k[0], k[2], k[1], k[3])):
        m, n, k, plugin = key
        plain = rows[key].get("plain")
        line = [f"{m}x{n}x{k}", plugin] + cell(plain)
        for kind in kinds:
            r = rows[key].get(kind)
            tp, te = time_us(plain), time_us(r)
            line += cell(r) + [f"{te / tp:.3f}" if tp and te else ""]
        table.append(line)
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    for row in table:
        print("  ".join(c.rjust(widths[i]) if i >= 2 else c.ljust(widths[i]) for i, c in enumerate(row)).rstrip())
    for key in sorted(rows):
        plain = rows[key].get("plain")
        for kind in kinds:
            r = rows[key].get(kind)
            kp, ke = (plain or {}).get("kernel"), (r or {}).get("kernel")
            if time_us(plain) and time_us(r) and kp and ke and kp != ke:
                print(f"{key[0]}x{key[1]}x{key[2]} {key[3]}: plain on {kp}, {kind} on {ke}")
    for line in within_lines(rows, kinds):
        print(line)
    for (plugin, kind), reason in sorted(refused.items()):
        print(f"{plugin} did not run the {kind} problems: {reason}")
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
