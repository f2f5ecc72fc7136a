#!/usr/bin/env python3
"""The checks and the summary table of bench/devices/two_gpu.sh, from the manifest it writes and
the files its steps wrote.

    python3 bench/devices/two_gpu_summary.py WORKDIR [--vendor cublas,cusparselt] [--bar 0.6]

WORKDIR/runs.tsv has one line per step, tab-separated: KIND NAME DEVICES EXIT WALL_S FILE [SUBJECT]
(FILE relative to WORKDIR unless absolute; EXIT "skipped" when the step had no time left).
Kinds: `devices` (the listing of `spmma devices`), `fill` and `standard` (records of the standard
set; DEVICES is the --devices value, "0" or "all"), `fault` (records of a run beside SUBJECT, a
plugin that crashes in run on device 1), `report` (the HTML page), `slurm-task` (a sweep.sbatch
task's exit) and `slurm-merge` (the merged records). --vendor names the plugins whose plan notes
(searched or from the cache) are checked; WORKDIR/plan-cache holds their cache files.
Prints the table; exits 0 when every check passed, 1 when one failed (each named in a FAIL line),
2 when the manifest cannot be read."""
import argparse
import json
import os
import re
import sys
from collections import Counter, defaultdict

DEVICE_LINE = re.compile(r"^device (\d+): (.+)$", re.M)
CRASH = "crashed: SIGSEGV in run"


class Checks:
    def __init__(self):
        self.passed, self.failed = 0, []

    def __call__(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed.append(what)
        return ok


def read_records(path, checks):
    """The records of a JSON-lines file; a missing file or a line that is not JSON fails a check."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        checks(False, f"{path}: {e.strerror}")
        return []
    out = []
    for n, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            out.append(json.loads(text))
        except json.JSONDecodeError as e:
            checks(False, f"{path}:{n}: not a record: {e}")
    return out


def device_of(r):
    d = r.get("device") or {}
    return d.get("index") if isinstance(d.get("index"), int) else None


def named(r):
    """Does the record name its device by index, name and UUID?"""
    d = r.get("device") or {}
    return device_of(r) is not None and bool(d.get("name")) and bool(d.get("uuid"))


def job_of(r):
    s = r.get("sweep") or {}
    return s.get("job") if isinstance(s.get("job"), int) else (r.get("problem") or {}).get("label")


def plugin_of(r):
    return (r.get("plugin") or {}).get("name", "?")


def per_device(recs, test=lambda r: True):
    n = Counter(device_of(r) for r in recs if test(r))
    return " / ".join(str(n.get(d, 0)) for d in (0, 1))


def check_jobs(recs, what, checks):
    """Every job of the run has exactly one record of each plugin that ran."""
    jobs = {job_of(r) for r in recs}
    n = Counter((plugin_of(r), job_of(r)) for r in recs)
    wrong = [f"{p} job {j}: {n[(p, j)]} records" for p in sorted({plugin_of(r) for r in recs}) for j in jobs if n[(p, j)] != 1]
    checks(not wrong and recs, f"{what}: every job one record per plugin ({'; '.join(wrong[:4]) or 'no records'})")


def plans(recs, vendor):
    """Counter of (how, device) over the vendor plugins' records; how is the plan note ("searched", "cache", "none")."""
    return Counter(((r.get("plugin_notes") or {}).get("plan", "none"), device_of(r)) for r in recs if plugin_of(r) in vendor)


def plan_text(p):
    return "  ".join(f"{how} {p[(how, 0)] + p[(how, 1)]} ({p[(how, 0)]} / {p[(how, 1)]})" for how in sorted({h for h, _ in p}))


def standard_row(row, recs, vendor, checks):
    kind, name, devices, code = row["kind"], row["name"], row["devices"], row["exit"]
    checks(code == "0", f"{name}: exit {code}, expected 0")
    bad = [r for r in recs if r.get("status") != "verified"]
    checks(recs and not bad, f"{name}: every record verified ({len(bad)} not: " +
           "; ".join(f"{plugin_of(r)} {(r.get('problem') or {}).get('label')}: {r.get('status')} {r.get('reason', '')}"[:160] for r in bad[:3]) + ")")
    checks(all(named(r) for r in recs), f"{name}: every record names its device (index, name, UUID)")
    want = {0, 1} if devices == "all" else {int(devices)}
    used = {device_of(r) for r in recs}
    checks(used == want, f"{name}: ran on devices {sorted(used, key=str)}, expected {sorted(want)}")
    check_jobs(recs, name, checks)
    p = plans(recs, vendor)
    if vendor:
        checks(p and not p[("none", 0)] + p[("none", 1)], f"{name}: every {','.join(sorted(vendor))} record says how its plan was found")
        if kind == "standard":
            checks(not p[("searched", 0)] + p[("searched", 1)], f"{name}: no search after the cache-filling run (every plan from the cache)")
            for d in sorted(want):
                checks(p[("cache", d)] > 0, f"{name}: device {d}'s workers took plans from the cache")
    return (f"{name:8} {devices:>7} {code:>5} {row['wall']:>8} {len(recs):>8} {per_device(recs, lambda r: r.get('status') == 'verified'):>14} "
            f"{len(bad):>6} {sum(named(r) for r in recs):>6}  {plan_text(p) if vendor else '-'}")


def wall_ratio(rows):
    def walls(devices):
        return [float(r["wall"]) for r in rows if r["kind"] == "standard" and r["devices"] == devices and r["exit"] == "0"]
    zero, both = walls("0"), walls("all")
    if not zero or not both:
        return None, "wall all / 0: not measured (a run failed or was skipped)"
    ratio = (sum(both) / len(both)) / (sum(zero) / len(zero))
    pairs = ", ".join(f"{b / z:.2f}" for z, b in zip(zero, both))
    return ratio, f"wall all / 0: mean {sum(both) / len(both):.2f} s / {sum(zero) / len(zero):.2f} s = {ratio:.2f} (pairs in order: {pairs})"


def cache_lines(workdir, fill_recs, vendor, checks):
    """The plans each cache file holds: one per search of the cache-filling run."""
    out = []
    for v in sorted(vendor):
        path = os.path.join(workdir, "plan-cache", f"{v}-plans.json")
        searched = sum(1 for r in fill_recs if plugin_of(r) == v and (r.get("plugin_notes") or {}).get("plan") == "searched")
        try:
            with open(path) as f:
                stored = len(json.load(f).get("plans", {}))
        except (OSError, ValueError) as e:
            stored = f"unreadable ({e})"
        checks(stored == searched, f"plan cache {v}: {stored} plans stored, {searched} searched in the cache-filling run")
        out.append(f"plan cache {v}-plans.json: {stored} plans, {searched} searches in the cache-filling run")
    return out


def fault_lines(row, recs, checks):
    subject = row.get("subject", "")
    checks(row["exit"] == "1", f"fault: exit {row['exit']}, expected 1 (a failure is never hidden)")
    check_jobs(recs, "fault", checks)
    checks(all(named(r) for r in recs), "fault: every record names its device (index, name, UUID)")
    mine = [r for r in recs if plugin_of(r) == subject]
    zero = [r for r in mine if device_of(r) == 0]
    one = [r for r in mine if device_of(r) == 1]
    checks(zero and all(r.get("status") == "verified" for r in zero), f"fault: {subject} on device 0 verified ({len(zero)} records)")
    crashed = [r for r in one if r.get("status") == "error" and r.get("stage") == "run" and CRASH in r.get("reason", "")]
    checks(len(one) >= 2 and len(crashed) == len(one),
           f"fault: {subject} on device 1: {len(crashed)} of {len(one)} records '{CRASH}' (two or more: its worker started again)")
    out = [f"fault   exit {row['exit']} (1 expected), wall {row['wall']} s, {len(recs)} records",
           f"  {subject}: device 0 {sum(r.get('status') == 'verified' for r in zero)}/{len(zero)} verified; "
           f"device 1 {len(crashed)}/{len(one)} '{CRASH}', the worker started again for each after the first"]
    for p in sorted({plugin_of(r) for r in recs} - {subject}):
        theirs = [r for r in recs if plugin_of(r) == p]
        ok = [r for r in theirs if r.get("status") == "verified"]
        checks(len(ok) == len(theirs), f"fault: {p} verified beside the fault ({len(ok)} of {len(theirs)})")
        out.append(f"  {p}: {len(ok)}/{len(theirs)} verified (device 0 / 1: {per_device(ok)})")
    return out


def report_line(row, path, devices, checks):
    try:
        with open(path) as f:
            html = f.read()
    except OSError as e:
        html = ""
        checks(False, f"report: {path}: {e.strerror}")
    checks(row["exit"] == "0", f"report: exit {row['exit']}, expected 0")
    names = [f"device {d}, {u}" for d, u in sorted(devices)]
    missing = [n for n in names if n not in html]
    checks(len(names) >= 2 and not missing,
           f"report: the page names both GPUs (missing: {'; '.join(missing) or 'none'}; {len(names)} seen in the records)")
    return f"report  exit {row['exit']}: the page names {'; '.join(n for n in names if n in html) or 'no device'}"


def slurm_lines(rows, workdir, checks):
    tasks = [r for r in rows if r["kind"] == "slurm-task"]
    merge = [r for r in rows if r["kind"] == "slurm-merge"]
    for t in tasks:
        checks(t["exit"] == "0", f"slurm {t['name']}: exit {t['exit']}, expected 0")
    out = ["slurm stand-in: " + ", ".join(f"{t['name']} exit {t['exit']} ({t['wall']} s)" for t in tasks)]
    if not checks(len(tasks) >= 1 and len(merge) == 1, "slurm: array tasks and one merge ran"):
        return out
    m = merge[0]
    recs = read_records(os.path.join(workdir, m["file"]), checks)
    checks(m["exit"] == "0", f"slurm merge: exit {m['exit']}, expected 0")
    ok = [r for r in recs if r.get("status") == "verified"]
    checks(recs and len(ok) == len(recs), f"slurm merge: every record verified ({len(ok)} of {len(recs)})")
    checks({device_of(r) for r in recs} == {0, 1} and all(named(r) for r in recs), "slurm merge: records on both GPUs, each naming its device")
    out.append(f"  merge exit {m['exit']}: {len(recs)} records, {len(ok)} verified (device 0 / 1: {per_device(ok)})")
    return out


def read_manifest(workdir):
    keys = ["kind", "name", "devices", "exit", "wall", "file", "subject"]
    with open(os.path.join(workdir, "runs.tsv")) as f:
        return [dict(zip(keys, line.rstrip("\n").split("\t"))) for line in f if line.strip()]


def summary(workdir, vendor, bar):
    checks = Checks()
    rows = read_manifest(workdir)
    out, records = [], {}
    for row in rows:
        if row["kind"] in ("fill", "standard", "fault"):
            records[row["name"]] = read_records(os.path.join(workdir, row["file"]), checks) if row["exit"] != "skipped" else []
    listed = []
    for row in (r for r in rows if r["kind"] == "devices"):
        try:
            with open(os.path.join(workdir, row["file"])) as f:
                listed = DEVICE_LINE.findall(f.read())
        except OSError as e:
            checks(False, f"spmma devices: {row['file']}: {e.strerror}")
        checks(row["exit"] == "0" and {"0", "1"} <= {i for i, _ in listed}, f"spmma devices: exit {row['exit']}, lists devices 0 and 1")
        out += ["spmma devices:"] + [f"  device {i}: {text}" for i, text in listed] + [""]
    out.append(f"{'run':8} {'devices':>7} {'exit':>5} {'wall s':>8} {'records':>8} {'verified 0 / 1':>14} {'other':>6} {'named':>6}  "
               f"plans (how, all (device 0 / 1))")
    seen = set()
    for row in (r for r in rows if r["kind"] in ("fill", "standard")):
        out.append(standard_row(row, records[row["name"]], vendor, checks))
        if row["devices"] == "all" and row["kind"] == "standard":
            seen |= {(device_of(r), (r.get("device") or {}).get("uuid", "")) for r in records[row["name"]] if named(r)}
    for d, uuid in sorted(seen):
        checks(any(i == str(d) and uuid in text for i, text in listed), f"spmma devices lists device {d} ({uuid}), as the records name it")
    ratio, text = wall_ratio(rows)
    out.append(text + ("" if ratio is None else f"; the bar is <= {bar}: {'met' if ratio <= bar else 'missed'}"))
    fill = [records[r["name"]] for r in rows if r["kind"] == "fill"]
    if vendor and fill:
        out += cache_lines(workdir, fill[0], vendor, checks)
    for row in (r for r in rows if r["kind"] == "fault"):
        out += [""] + fault_lines(row, records[row["name"]], checks)
    for row in (r for r in rows if r["kind"] == "report"):
        out += ["", report_line(row, os.path.join(workdir, row["file"]), seen, checks)]
    if any(r["kind"].startswith("slurm") for r in rows):
        out += [""] + slurm_lines(rows, workdir, checks)
    skipped = [r["name"] for r in rows if r["exit"] == "skipped"]
    checks(not skipped, f"steps skipped for lack of time: {', '.join(skipped)}")
    out += ["", f"checks: {checks.passed} passed, {len(checks.failed)} failed"] + [f"FAIL {f}" for f in checks.failed]
    return "\n".join(out), not checks.failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("workdir")
    ap.add_argument("--vendor", default="", help="plugins whose plan cache use is checked (comma-separated)")
    ap.add_argument("--bar", type=float, default=0.6, help="the wall-time ratio --devices all / --devices 0 to meet")
    a = ap.parse_args()
    try:
        text, ok = summary(a.workdir, {v for v in a.vendor.split(",") if v}, a.bar)
    except (OSError, KeyError) as e:
        print(f"{a.workdir}: cannot read the manifest: {e}", file=sys.stderr)
        return 2
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
