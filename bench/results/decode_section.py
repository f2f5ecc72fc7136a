"""The decode section of bench/RESULTS.md (make_results.py --decode): the records of
configs/decode-shapes.toml, one table per card (the records' device name), the subject plugin
(sm90a) against the peer plugins measured on that card: microseconds, TFLOP/s, % SOL (the
record's sol.fraction: the share of the roofline bound min(peak tensor rate, bytes / peak DRAM
bandwidth) reached, core/records/src/speed_of_light.cpp), the best peer and the ratio to it, and
the ratio to dense cuBLAS (the cublas plugin). A plugin's figure in a cell is its fastest verified
record there. Where a record file's folder holds dram.txt (spmma-bench-dram's output: the stage
`ceiling` of bench/decode/device.sh), the card it names gets a second table: the cells where the
subject is under 1.05x the best peer, each with its % SOL, SM clock and the DRAM read ceiling of its
bytes (the probe's fit t0 + bytes / rate: what a kernel that only reads them takes after the same L2
flush), and what bounds it. Python 3.11+ standard library only."""

import os
import sys

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None


from record_fields import dig, number

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dram"))
from dram_fit import median_fit, read_probe  # noqa: E402


class DecodeInputError(Exception):
    pass


def read_layers(path):
    """([(layer name, m, k)] in file order, [n], [types]) of a decode workload file."""
    if tomllib is None:
        raise DecodeInputError(f"{path}: reading TOML needs Python 3.11 or newer (tomllib)")
    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise DecodeInputError(f"{path}: {e}")
    defaults = doc.get("defaults", {})

    def ints_or_strs(entry, key, where, want):
        v = entry.get(key, defaults.get(key))
        vs = v if isinstance(v, list) else [v]
        if v is None or not vs or not all(isinstance(x, want) and not isinstance(x, bool) for x in vs):
            raise DecodeInputError(f"{path}: {where}: {key}: expected {want.__name__} or a list of them, got {v!r}")
        return vs

    layers, ns, types = [], [], []
    for i, entry in enumerate(doc.get("sweep", []) + doc.get("problem", [])):
        where = f"{entry.get('name', i + 1)}"
        for m in ints_or_strs(entry, "m", where, int):
            for k in ints_or_strs(entry, "k", where, int):
                layers.append((entry.get("name", f"{m}x{k}"), m, k))
        ns += [n for n in ints_or_strs(entry, "n", where, int) if n not in ns]
        types += [t for t in ints_or_strs(entry, "dtype", where, str) if t not in types]
    if not layers:
        raise DecodeInputError(f"{path}: no [[sweep]] or [[problem]] entries")
    return layers, sorted(ns), types


CEILING_FILE = "dram.txt"
# Under this ratio to the best peer a cell is listed with what bounds it; DRAM bounds it where that
# ratio would take the subject under the read ceiling.
WANTED_RATIO = 1.05


def read_ceiling(path):
    """{device: (t0 s, rate bytes/s, fits, path)} of spmma-bench-dram's output: the median of its fits."""
    try:
        devices, fits = read_probe(path)
    except OSError as e:
        raise DecodeInputError(f"{path}: {e}")
    if len(devices) != 1 or not fits:
        raise DecodeInputError(f"{path}: expected spmma-bench-dram's output of one device (its device line and "
                               f"'time = T us + bytes / R TB/s' fit lines), found {len(devices)} devices and {len(fits)} fits")
    t0, rate = median_fit(fits)
    if not (t0 >= 0 and rate > 0):
        raise DecodeInputError(f"{path}: the fit needs t0 >= 0 and a positive rate, got {t0 * 1e6} us and {rate / 1e12} TB/s")
    return {devices.pop(): (t0, rate, len(fits), path)}


def ceilings_beside(files):
    """The read ceilings of the folders of `files` (read_ceiling of each CEILING_FILE there), by card."""
    out = {}
    for folder in dict.fromkeys(os.path.dirname(f) or "." for f in files):
        path = os.path.join(folder, CEILING_FILE)
        if os.path.exists(path):
            out.update(read_ceiling(path))
    return out


def _cell_type(r):
    a, b = dig(r, "problem", "a_type"), dig(r, "problem", "b_type") or dig(r, "problem", "a_type")
    return a if a == b else f"{a}x{b}"


def _fastest(rs):
    """The fastest verified record of rs (by median time), or None."""
    ok = [(number(dig(r, "timing", "median_ms")), r) for r in rs if r.get("status") == "verified"]
    ok = [(t, r) for t, r in ok if t]
    return min(ok, key=lambda x: x[0])[1] if ok else None


def _us(r):
    return number(dig(r, "timing", "median_ms")) * 1e3


def _sol(r):
    f = number(dig(r, "sol", "fraction"))
    return f"{100 * f:.1f}" if f is not None else "-"


PEER_LABEL = {"cublas": "cuBLAS", "cusparselt": "cuSPARSELt"}


def _card_lines(card, records, layers, ns, types, subject, peers, title, ceiling=None):
    cells = {}
    for r in records:
        p = r["problem"]
        cells.setdefault((p["m"], p["k"], p["n"], _cell_type(r), r["plugin"]["name"]), []).append(r)
    stamps = sorted(r["timestamp"] for r in records if isinstance(r.get("timestamp"), str))
    peaks = next((dig(r, "device", "peaks") for r in records if isinstance(dig(r, "device", "peaks"), dict)), None)
    dram = next((number(dig(r, "sol", "peak_dram_bytes_per_s")) for r in records
                 if number(dig(r, "sol", "peak_dram_bytes_per_s"))), None)
    lines = ["", f"## {title}: {card}", ""]
    lines.append(f"- Records: {len(records)}" + (f", {stamps[0]} to {stamps[-1]}" if stamps else ""))
    if peaks:
        lines.append(f"- Peaks (the device's, as its plugin states them): {peaks.get('sm_count')} SMs at "
                     f"{peaks.get('sm_clock_khz', 0) / 1e3:.0f} MHz; memory {peaks.get('mem_clock_khz', 0) / 1e3:.0f} MHz "
                     f"on {peaks.get('mem_bus_bits')} bits" + (f" = {dram / 1e12:.2f} TB/s" if dram else ""))
    else:
        lines.append("- Peaks: not in the records (% SOL unknown)")
    lines += ["", f"| layer | m x k | n | type | {subject} µs | TFLOP/s | % SOL | best peer | peer µs | peer % SOL | ratio | vs dense cuBLAS |",
              "|" + "---|" * 12]
    counted = ahead = ahead_5 = 0
    misses = []  # (layer, m, k, n, type, the subject's record, the best peer's, ratio) under WANTED_RATIO
    for name, m, k in layers:
        for t in types:
            for n in ns:
                mine = _fastest(cells.get((m, k, n, t, subject), []))
                theirs = [(r, p) for p in peers if p != subject for r in [_fastest(cells.get((m, k, n, t, p), []))] if r]
                if not mine and not theirs:
                    continue
                best = min(theirs, key=lambda x: _us(x[0])) if theirs else None
                dense = _fastest(cells.get((m, k, n, t, "cublas"), []))
                row = f"| {name} | {m}x{k} | {n} | {t} | "
                if mine:
                    row += f"{_us(mine):.1f} | {number(dig(mine, 'timing', 'tflops')) or 0:.1f} | {_sol(mine)} | "
                else:
                    statuses = sorted({str(r.get("status")) for r in cells.get((m, k, n, t, subject), [])})
                    row += f"{'/'.join(statuses) or '(no record)'} | - | - | "
                if best:
                    row += f"{PEER_LABEL.get(best[1], best[1])} | {_us(best[0]):.1f} | {_sol(best[0])} | "
                    if mine:
                        ratio = _us(best[0]) / _us(mine)
                        counted += 1
                        ahead += ratio > 1
                        ahead_5 += ratio >= WANTED_RATIO
                        if ratio < WANTED_RATIO:
                            misses.append((name, m, k, n, t, mine, best, ratio))
                        row += f"{ratio:.2f} | "
                    else:
                        row += "- | "
                else:
                    row += "- | - | - | - | "
                row += f"{_us(dense) / _us(mine):.2f} |" if mine and dense else "- |"
                lines.append(row)
    if counted:
        lines += ["", f"{subject} faster than the best peer at {ahead} of {counted} cells, at least 1.05x at {ahead_5}."]
    if ceiling and misses:
        lines += _bound_lines(card, misses, ceiling, subject, title)
    return lines


def _bound_lines(card, misses, ceiling, subject, title):
    """The cells under WANTED_RATIO beside the DRAM read ceiling of their bytes, and what bounds each."""
    t0, rate, fits, path = ceiling
    lines = ["", f"### {title}: {card}, the cells under {WANTED_RATIO:.2f}x and what bounds them", "",
             f"Read ceiling: {t0 * 1e6:.2f} µs + bytes / {rate / 1e12:.2f} TB/s (`{path}`, the median of {fits} fits of "
             f"spmma-bench-dram): what a kernel that only reads a cell's bytes ({subject}'s `sol.bytes`) takes after the "
             f"same L2 flush; ceiling % SOL: the roofline bound over that time. {WANTED_RATIO:.2f}x needs: the best "
             f"peer's time / {WANTED_RATIO:.2f}, over the ceiling. Bound: DRAM where that is under 1 (no kernel that "
             f"reads the bytes gets there), else {subject}'s kernel (its time over the ceiling against what is needed).",
             "", f"| layer | m x k | n | type | ratio | % SOL | SM MHz | ceiling µs | ceiling % SOL | {subject} / ceiling | "
             f"{WANTED_RATIO:.2f}x needs / ceiling | bound |", "|" + "---|" * 12]
    dram_bound = 0
    for name, m, k, n, t, mine, best, ratio in misses:
        nbytes, bound_ms = number(dig(mine, "sol", "bytes")), number(dig(mine, "sol", "bound_ms"))
        mhz = number(dig(mine, "clocks", "sm_mhz", "median"))
        row = f"| {name} | {m}x{k} | {n} | {t} | {ratio:.3f} | {_sol(mine)} | {f'{mhz:.0f}' if mhz else '-'} | "
        if nbytes is None:
            lines.append(row + "- | - | - | - | (no sol.bytes) |")
            continue
        c_us = (t0 + nbytes / rate) * 1e6
        needs = _us(best[0]) / WANTED_RATIO / c_us
        dram_bound += needs < 1
        row += f"{c_us:.1f} | {f'{100 * bound_ms * 1e3 / c_us:.1f}' if bound_ms else '-'} | {_us(mine) / c_us:.2f} | "
        row += f"{needs:.2f} | {'DRAM' if needs < 1 else 'kernel'} |"
        lines.append(row)
    lines += ["", f"Bound by DRAM: {dram_bound} of the {len(misses)} cells under {WANTED_RATIO:.2f}x."]
    return lines


def decode_lines(records, layers, ns, types, subject, peers, title="Decode", ceilings=None):
    """The decode sections, one per card, in the order the cards first appear, under `# {title}`
    (and `## {title}: card`); `ceilings` (ceilings_beside) by card."""
    cards = []
    for r in records:
        card = dig(r, "device", "name") or "device not recorded"
        if card not in cards:
            cards.append(card)
    lines = ["", f"# {title}: a weight times 1 to 128 tokens",
             "",
             f"Ratio: the best peer's time / {subject}'s (above 1: {subject} faster); vs dense cuBLAS: the cublas",
             f"plugin's time / {subject}'s. % SOL: the share of the record's roofline bound reached (its `sol`).",
             f"Peers: {', '.join(p for p in peers if p != subject)}, measured on the same card."]
    if not cards:
        lines += ["", "No decode records."]
    for card in cards:
        lines += _card_lines(card, [r for r in records if (dig(r, "device", "name") or "device not recorded") == card],
                             layers, ns, types, subject, peers, title, (ceilings or {}).get(card))
    return lines
