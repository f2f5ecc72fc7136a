#!/usr/bin/env python3
"""bench/RESULTS.md from spmma's records: per plugin, the standard shape set's TFLOP/s per shape
and type, with the date, device and command of the run, and where peers are present the best
peer of each cell and the ratio to it.

    python3 bench/results/make_results.py RECORDS.jsonl [RECORDS.jsonl ...]
        [--peers peers.json|peers.txt] [--command 'THE COMMAND THAT RAN'] [--out bench/RESULTS.md]
        [--shapes configs/llm-shapes.toml] [--peer-plugins cublas,cusparselt]
        [--decode DECODE.jsonl ...] [--decode-shapes configs/decode-shapes.toml] [--subject sm90a]
        [--decode-as SUBJECT DECODE.jsonl ...]

RECORDS: JSON lines written by `spmma run|gemm --json` (core/records/src/record.cpp). A plugin's figure
in a cell is its fastest verified record there (sm80's device script times several kernels per
cell); a cell with records but none verified shows their status instead of a figure.
--peers: bench/baselines/peers.py's peers.json, or its printed table when only that was kept
(whole TFLOP/s). Peers of a plugin: the other --peer-plugins found in the records (the vendor
libraries) and PyTorch's dense and cuSPARSELt columns.
Standard cells: the shapes and types of --shapes (m, n, k as integers or lists) with A and B of
that type, f32 or s32 accumulation, and the file's `dist`; every other record is counted, not
tabulated. % SOL (a column where a section's records carry it): the record's sol.fraction, the
share of its roofline bound reached.
--decode: records of --decode-shapes, rendered after the standard set as one section per card
(decode_section.py): --subject against the --peer-plugins measured on that card.
--decode-as SUBJECT FILE: another plugin's decode records with the peers of the same run, a
section of their own after --decode's (repeatable). Where a decode record file's folder holds
dram.txt (spmma-bench-dram's output), its card's section lists the cells under 1.05x beside the
DRAM read ceiling of their bytes and what bounds each (decode_section.py). Python 3.11+ standard library only
(tomllib). Exit status 2 on bad input, naming the file, line and key."""
import argparse
import ast
import gzip
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from decode_section import DecodeInputError, ceilings_beside, decode_lines, read_layers  # noqa: E402
from record_fields import dig, number  # noqa: E402

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None

WIDE_ACC = ("f32", "s32")  # the accumulators of the standard set (no f16 accumulation)


class InputError(Exception):
    pass


# ---- inputs -------------------------------------------------------------------------------

def read_shapes(path):
    """(shapes in file order as (m, n, k), types, dist) of a workload file of integer sizes."""
    if tomllib is None:
        raise InputError(f"{path}: reading TOML needs Python 3.11 or newer (tomllib)")
    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise InputError(f"{path}: {e}")
    defaults = doc.get("defaults", {})

    def as_list(entry, key, where):
        v = entry.get(key, defaults.get(key))
        if v is None:
            raise InputError(f"{path}: {where}: {key}: missing")
        vs = v if isinstance(v, list) else [v]
        want = str if key == "dtype" else int
        if not vs or not all(isinstance(x, want) and not isinstance(x, bool) for x in vs):
            raise InputError(f"{path}: {where}: {key}: expected {want.__name__} or a list of them "
                             f"(size ranges are not read here), got {v!r}")
        return vs

    shapes, types = [], []
    for table in ("problem", "sweep"):
        for i, entry in enumerate(doc.get(table, [])):
            where = f"[[{table}]] {entry.get('name', i + 1)}"
            for t in as_list(entry, "dtype", where):
                if t not in types:
                    types.append(t)
            for m in as_list(entry, "m", where):
                for n in as_list(entry, "n", where):
                    for k in as_list(entry, "k", where):
                        if (m, n, k) not in shapes:
                            shapes.append((m, n, k))
    if not shapes:
        raise InputError(f"{path}: no [[problem]] or [[sweep]] entries")
    return shapes, types, defaults.get("dist")


def read_records(paths):
    records = []
    for path in paths:
        try:
            # NOTES: a record file kept in the repository may be gzipped (bench/results keeps its
            # bytes down); the launch-time arrays dominate a decode run's records.
            f = gzip.open(path, "rt", encoding="utf-8") if path.endswith(".gz") else open(path, encoding="utf-8")
        except OSError as e:
            raise InputError(f"{path}: {e.strerror}")
        with f:
            for lineno, line in enumerate(f, 1):
                if not line.strip():
                    continue
                where = f"{path}:{lineno}"
                try:
                    r = json.loads(line)
                except json.JSONDecodeError as e:
                    raise InputError(f"{where}: not a JSON record: {e.msg} (column {e.colno})")
                if not isinstance(r, dict):
                    raise InputError(f"{where}: not a JSON object")
                for keys in (("problem", "m"), ("problem", "n"), ("problem", "k"),
                             ("problem", "a_type"), ("plugin", "name"), ("status",)):
                    if dig(r, *keys) is None:
                        raise InputError(f"{where}: key {'.'.join(keys)} is missing")
                for key in ("m", "n", "k"):
                    v = r["problem"][key]
                    if isinstance(v, bool) or not isinstance(v, int):
                        raise InputError(f"{where}: key problem.{key}: expected an integer, got {v!r}")
                r["_where"] = where
                records.append(r)
    return records


PEER_LINE = re.compile(r"^\s*(\d+)x(\d+)x(\d+)\s+(\S+)\s+dense\s+(\S+)\s+cusparselt\s+(\S+)\s+TFLOP/s\s*$")


def read_peers(path):
    """(info, {(m, n, k, dtype): {"dense": x, "cusparselt": y}}, exact) from peers.json or from
    the table peers.py prints (exact = False: whole TFLOP/s)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}")
    if text.lstrip().startswith("{") and not text.lstrip().startswith("{'"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise InputError(f"{path}:{e.lineno}: not JSON: {e.msg}")
        rows = data.get("rows") if isinstance(data, dict) else None
        if not isinstance(rows, list):
            raise InputError(f"{path}: key rows: missing or not a list")
        cells = {}
        for i, row in enumerate(rows):
            try:
                key = (int(row["m"]), int(row["n"]), int(row["k"]), str(row["dtype"]))
            except (KeyError, TypeError, ValueError) as e:
                raise InputError(f"{path}: rows[{i}]: key {e} missing or not a number")
            cells[key] = {"dense": number(row.get("dense")), "cusparselt": number(row.get("cusparselt"))}
        info = data.get("info") if isinstance(data.get("info"), dict) else {}
        return info, cells, True
    info, cells = {}, {}
    for lineno, line in enumerate(text.splitlines(), 1):
        if lineno == 1 and line.startswith("{"):
            try:
                info = ast.literal_eval(line)
            except (ValueError, SyntaxError):
                raise InputError(f"{path}:1: the first line is not peers.py's info dictionary")
            continue
        m = PEER_LINE.match(line)
        if m:
            def val(s):
                try:
                    return number(float(s))
                except ValueError:
                    raise InputError(f"{path}:{lineno}: {s!r} is not a number")
            cells[(int(m[1]), int(m[2]), int(m[3]), m[4])] = {"dense": val(m[5]), "cusparselt": val(m[6])}
    if not cells:
        raise InputError(f"{path}: no peer rows (neither peers.json nor peers.py's printed table)")
    return info, cells, False


# ---- tabulation ---------------------------------------------------------------------------

def cell_type(r):
    a, b = dig(r, "problem", "a_type"), dig(r, "problem", "b_type") or dig(r, "problem", "a_type")
    return a if a == b else f"{a}x{b}"


def standard_key(r, shapes, types, dist):
    p = r["problem"]
    key = (p["m"], p["n"], p["k"], cell_type(r))
    if key[:3] not in shapes or key[3] not in types:
        return None
    if p.get("acc_type", WIDE_ACC[0]) not in WIDE_ACC:
        return None
    if dist is not None and p.get("dist", dist) != dist:
        return None
    return key


def tabulate(records, shapes, types, dist):
    """({plugin: {cell: [records]}}, plugin order, outside count)."""
    by_plugin, order, outside = {}, [], 0
    for r in records:
        key = standard_key(r, shapes, types, dist)
        if key is None:
            outside += 1
            continue
        name = r["plugin"]["name"]
        if name not in by_plugin:
            by_plugin[name] = {}
            order.append(name)
        by_plugin[name].setdefault(key, []).append(r)
    return by_plugin, order, outside


def best(rs):
    """(tflops, record) of the fastest verified record, or (None, None)."""
    ok = [(number(dig(r, "timing", "tflops")), r) for r in rs if r.get("status") == "verified"]
    ok = [(t, r) for t, r in ok if t is not None]
    return max(ok, key=lambda x: x[0]) if ok else (None, None)


PEER_LABEL = {"cublas": "cuBLAS plugin", "cusparselt": "cuSPARSELt plugin"}


def peers_of(plugin, key, by_plugin, peer_plugins, peer_cells):
    out = []
    for p in peer_plugins:
        if p != plugin and p in by_plugin:
            t, _ = best(by_plugin[p].get(key, []))
            if t is not None:
                out.append((t, PEER_LABEL.get(p, f"{p} plugin")))
    row = peer_cells.get(key, {}) if peer_cells else {}
    for col, label in (("dense", "PyTorch dense"), ("cusparselt", "PyTorch cuSPARSELt")):
        if row.get(col) is not None:
            out.append((row[col], label))
    return max(out, key=lambda x: x[0]) if out else None


# ---- output -------------------------------------------------------------------------------

def span(values):
    values = sorted(set(v for v in values if v))
    if not values:
        return "not recorded"
    return values[0] if len(values) == 1 else f"{values[0]} to {values[-1]}"


def plugin_versions(records):
    """Each plugin with the version its records carry (a vendor plugin's names its library's)."""
    seen = {}
    for r in records:
        name, version = dig(r, "plugin", "name"), dig(r, "plugin", "version")
        if isinstance(name, str):
            seen.setdefault(name, set()).add(version if isinstance(version, str) else "version not recorded")
    if not seen:
        return "not recorded"
    return ", ".join(f"{n} {' / '.join(sorted(v))}" for n, v in sorted(seen.items()))


def header(records, args, peer_info, peer_exact, shapes, types, dist, outside):
    stamps = [r.get("timestamp") for r in records if isinstance(r.get("timestamp"), str)]
    dates = span(s[:10] for s in stamps)
    times = span(s[11:16] for s in stamps if len(s) >= 16)
    devices = sorted({f"{dig(r, 'device', 'name')} ({dig(r, 'device', 'arch')}, driver "
                      f"{dig(r, 'device', 'driver')})" for r in records if dig(r, "device", "name")})
    lines = [
        "# Results: the standard shape set",
        "",
        "Generated by `bench/results/make_results.py` from the records named below; do not edit by",
        "hand (bench/results/README.md has the command that regenerates it).",
        "",
        f"- Date: {dates}" + (f" ({times} UTC)" if stamps and times != "not recorded" else ""),
        f"- Device: {'; '.join(devices) if devices else 'not recorded'}",
        f"- Plugins: {plugin_versions(records)}",
        f"- Command: `{args.command}`" if args.command else
        "- Command: not given (each record's `command` field reruns that record)",
        f"- Records: {', '.join(f'`{p}`' for p in args.records)}:\n  {len(records)} records, "
        f"{len(records) - outside} in the standard set, {outside} outside it (not tabulated)",
    ]
    if args.peers:
        what = ", ".join(f"{k} {v}" for k, v in peer_info.items()) if peer_info else "no info line"
        lines.append(f"- Peers: `{args.peers}`\n  (bench/baselines/peers.py: {what})" +
                     ("" if peer_exact else ";\n  its printed table, whole TFLOP/s"))
    lines += [
        f"- Shape set: `{args.shapes}`, {len(shapes)} shapes x {len(types)} types "
        f"({', '.join(types)}),\n  A and B of the type, f32 or s32 accumulation"
        + (f", `dist = \"{dist}\"`" if dist else ""),
        "",
        "TFLOP/s: dense-equivalent, 2·m·n·k / the record's median time. A plugin's figure is its",
        "fastest verified record in the cell. Best peer: the fastest of the vendor-library plugins",
        f"({', '.join(args.peer_plugins)}) other than the plugin itself"
        + (",\nPyTorch's dense and PyTorch's cuSPARSELt" if args.peers else "")
        + "; ratio = plugin / best peer.",
    ]
    return lines


def fmt(t):
    return f"{t:.0f}"


def section(plugin, cells, shapes, types, by_plugin, peer_plugins, peer_cells):
    some = next(r for rs in cells.values() for r in rs)
    kind = dig(some, "plugin", "kind")
    title = f"## {plugin}" + (f" ({kind})" if kind else "")
    with_peers = any(p != plugin and p in by_plugin for p in peer_plugins) or bool(peer_cells)
    with_sol = any(number(dig(r, "sol", "fraction")) is not None for rs in cells.values() for r in rs)
    head = "| shape | type | TFLOP/s |" + (" % SOL |" if with_sol else "") + " kernel |" + (" best peer | peer TFLOP/s | ratio |" if with_peers else "")
    lines = ["", title, "", head, "|" + "---|" * (head.count("|") - 1)]
    counted = ahead = 0
    for m, n, k in shapes:
        for t in types:
            key = (m, n, k, t)
            rs = cells.get(key, [])
            tf, rec = best(rs)
            if tf is not None:
                figure, kernel = fmt(tf), f"`{rec.get('kernel', '')}`"
            elif rs:
                figure, kernel = "/".join(sorted({str(r.get("status")) for r in rs})), "(none verified)"
            else:
                figure, kernel = "-", "(no record)"
            row = f"| {m}x{n}x{k} | {t} | {figure} |"
            if with_sol:
                frac = number(dig(rec, "sol", "fraction")) if rec else None
                row += f" {100 * frac:.1f} |" if frac is not None else " - |"
            row += f" {kernel} |"
            if with_peers:
                peer = peers_of(plugin, key, by_plugin, peer_plugins, peer_cells)
                if peer and tf is not None:
                    counted += 1
                    ahead += tf > peer[0]
                    row += f" {peer[1]} | {fmt(peer[0])} | {tf / peer[0]:.2f} |"
                elif peer:
                    row += f" {peer[1]} | {fmt(peer[0])} | - |"
                else:
                    row += " - | - | - |"
            lines.append(row)
    if with_peers and counted:
        lines += ["", f"Faster than the best peer at {ahead} of {counted} cells."]
    return lines


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="*", help="spmma JSON-lines record files of the standard set")
    ap.add_argument("--peers", help="peers.json (or printed table) of bench/baselines/peers.py")
    ap.add_argument("--command", help="the command that produced the records, stated in the output")
    ap.add_argument("--shapes", default="configs/llm-shapes.toml", help="the standard shape set")
    ap.add_argument("--peer-plugins", default="cublas,cusparselt", help="plugins that count as peers")
    ap.add_argument("--decode", action="append", default=[], help="records of --decode-shapes (repeatable)")
    ap.add_argument("--decode-shapes", default="configs/decode-shapes.toml", help="the decode workload")
    ap.add_argument("--subject", default="sm90a", help="the plugin the decode section compares with the peers")
    ap.add_argument("--decode-as", nargs=2, action="append", default=[], metavar=("SUBJECT", "RECORDS"),
                    help="records of --decode-shapes in a section of their own, SUBJECT against the peers (repeatable)")
    ap.add_argument("--out", help="output file (default: standard output)")
    args = ap.parse_args(argv)
    args.peer_plugins = [p for p in args.peer_plugins.split(",") if p]
    # (subject, record files) of each decode section
    decode_sets = ([(args.subject, args.decode)] if args.decode else []) + [(sub, [f]) for sub, f in args.decode_as]
    if not args.records and not decode_sets:
        print("make_results.py: no records: name standard-set record files, --decode files, or both", file=sys.stderr)
        return 2
    try:
        if args.records:
            shapes, types, dist = read_shapes(args.shapes)
            records = read_records(args.records)
            peer_info, peer_cells, peer_exact = read_peers(args.peers) if args.peers else ({}, {}, True)
        if decode_sets:
            layers, decode_ns, decode_types = read_layers(args.decode_shapes)
            decode_records = [read_records(files) for _, files in decode_sets]
            decode_ceilings = [ceilings_beside(files) for _, files in decode_sets]
    except (InputError, DecodeInputError) as e:
        print(f"make_results.py: {e}", file=sys.stderr)
        return 2
    lines = []
    if args.records:
        by_plugin, order, outside = tabulate(records, shapes, types, dist)
        order.sort(key=lambda p: p in args.peer_plugins)  # spmma's own plugins first, then the peers
        lines = header(records, args, peer_info, peer_exact, shapes, types, dist, outside)
        if not order:
            lines += ["", "No record falls in the standard set."]
        for plugin in order:
            lines += section(plugin, by_plugin[plugin], shapes, types, by_plugin, args.peer_plugins, peer_cells)
    if decode_sets and not lines:
        lines = ["# Results", "", "Generated by `bench/results/make_results.py`; do not edit by hand."]
    for i, ((subject, files), records, ceilings) in enumerate(
            zip(decode_sets, decode_records if decode_sets else [], decode_ceilings if decode_sets else [])):
        lines += ["", f"Decode records: {', '.join(f'`{p}`' for p in files)} ({len(records)} records),",
                  f"workload `{args.decode_shapes}`."]
        title = "Decode" if i == 0 and args.decode else f"Decode on {subject}"
        lines += decode_lines(records, layers, decode_ns, decode_types, subject, args.peer_plugins, title, ceilings)
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
