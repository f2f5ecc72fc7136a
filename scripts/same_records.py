#!/usr/bin/env python3
"""Whether two runs wrote the same records, field for field, times aside.

    same_records.py BEFORE.jsonl AFTER.jsonl [BEFORE.csv AFTER.csv]

JSON lines (--json) are compared record by record, in order; CSV files (--csv) row by row, by
column name. What a clock decides is left out: the timestamp, the timed launches and what is
derived from them (medians, TFLOP/s, noise, speedups), the wall time of each phase and of operand
generation. Prints every difference and exits 1 when there is one, 0 when the runs agree.
"""
import csv
import json
import sys

# Paths into a JSON record ("a.b": member b of object a) whose values come from a clock.
TIMED_JSON = {
    "timestamp", "phases_ms", "sweep.generate_ms", "clocks",
    "timing.times_ms", "timing.median_ms", "timing.min_ms", "timing.mean_ms",
    "timing.tflops", "timing.tflops_best", "timing.noise",
    "baseline.median_ms", "baseline.speedup",
    "sol.achieved_bytes_per_s", "sol.achieved_flops_per_s", "sol.fraction",
}
TIMED_CSV = {"median_ms", "min_ms", "tflops", "bytes_per_s", "sol_pct", "speedup", "timestamp", "times_ms"}


def json_differences(before, after, path=""):
    if path in TIMED_JSON:
        return []
    if isinstance(before, dict) and isinstance(after, dict):
        out = []
        for key in sorted(set(before) | set(after)):
            sub = f"{path}.{key}" if path else key
            if sub in TIMED_JSON:
                continue
            if key not in before or key not in after:
                out.append(f"{sub}: only in {'after' if key not in before else 'before'}")
            else:
                out += json_differences(before[key], after[key], sub)
        return out
    if before != after or type(before) is not type(after):
        return [f"{path}: {json.dumps(before)} != {json.dumps(after)}"]
    return []


def read_lines(name):
    with open(name) as f:
        return [json.loads(line) for line in f if line.strip()]


def compare_json(before_name, after_name):
    before, after = read_lines(before_name), read_lines(after_name)
    out = [] if len(before) == len(after) else [f"{len(before)} records before, {len(after)} after"]
    for i, (b, a) in enumerate(zip(before, after), 1):
        out += [f"record {i}: {d}" for d in json_differences(b, a)]
    return out, len(before)


def compare_csv(before_name, after_name):
    with open(before_name, newline="") as fb, open(after_name, newline="") as fa:
        rb, ra = csv.reader(fb), csv.reader(fa)
        hb, ha = next(rb), next(ra)
        out = [] if hb == ha else [f"columns differ: {hb} != {ha}"]
        rows_b, rows_a = list(rb), list(ra)
    out += [] if len(rows_b) == len(rows_a) else [f"{len(rows_b)} rows before, {len(rows_a)} after"]
    for i, (b, a) in enumerate(zip(rows_b, rows_a), 2):
        for col, vb, va in zip(hb, b, a):
            if col not in TIMED_CSV and vb != va:
                out.append(f"line {i}: {col}: {vb!r} != {va!r}")
    return out, len(rows_b)


def main(argv):
    if len(argv) not in (3, 5):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    differences, count = compare_json(argv[1], argv[2])
    summary = f"{count} records"
    if len(argv) == 5:
        csv_differences, rows = compare_csv(argv[3], argv[4])
        differences += csv_differences
        summary += f", {rows} CSV rows"
    for d in differences:
        print(d)
    print(f"{summary}: {'the same, times aside' if not differences else f'{len(differences)} differences'}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
