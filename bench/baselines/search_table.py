#!/usr/bin/env python3
"""The baselines' plan searches and plan cache, from two runs of the same workload: the first
with an empty cache folder (every plan searched), the second with the folder the first filled
(every plan from the cache). Reads the records' plugin_notes (the plugins' describe()).

    python3 bench/baselines/search_table.py FILL.jsonl HIT.jsonl [--walls FILL_S HIT_S]

One row per (m, n, k, type, plugin): the pick of the first run, its median and TFLOP/s in the
timed runs of both, the search's best and runner-up medians and how far apart they are, the
candidates tried (failed), the search and prepare times of the first run, and how the second run
got its plan (cache, and whether it is the first run's pick). Then the totals and both walls."""
import json
import sys


def load(path):
    rows = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            r = json.loads(line)
            p = r["problem"]
            key = (p["m"], p["n"], p["k"], p["a_type"], r["plugin"]["name"])
            rows[key] = r
    return rows


def num(v, spec):
    return format(v, spec) if isinstance(v, (int, float)) else "-".rjust(int(spec.split(".")[0]))


def cell(r):
    notes = r.get("plugin_notes") or {}
    search = notes.get("search") or {}
    timing = r.get("timing") or {}
    pick = (notes.get("pick") or {}).get("name", r.get("kernel", ""))
    return {
        "status": r.get("status", "?"),
        "pick": pick,
        "median": timing.get("median_ms"),
        "tflops": timing.get("tflops"),
        "plan": notes.get("plan", "-"),
        "best": search.get("best_ms"),
        "runner": search.get("runner_up_ms"),
        "tried": search.get("tried"),
        "failed": search.get("failed"),
        "search_ms": notes.get("search_ms"),
        "prepare_ms": notes.get("prepare_ms"),
        "launches": search.get("launches"),
        "note": notes.get("cache_note", ""),
        "reason": r.get("reason", ""),
    }


def main():
    args = sys.argv[1:]
    walls = None
    if "--walls" in args:
        i = args.index("--walls")
        walls = args[i + 1:i + 3]
        args = args[:i] + args[i + 3:]
    if len(args) != 2:
        sys.exit(__doc__)
    fill, hit = load(args[0]), load(args[1])
    head = (f"{'m x n x k':<19} {'type':5} {'plugin':10} {'pick (searched)':44} {'ms':>8} {'TFLOP/s':>7} "
            f"{'best':>8} {'2nd':>8} {'gap%':>5} {'tried':>7} {'search':>7} {'prep':>7} | {'plan':6} {'same':4} {'ms':>8} {'TFLOP/s':>7} {'prep':>6}")
    print(head)
    print("-" * len(head))
    totals = {"search_ms": 0.0, "launches": 0, "fill_prep": 0.0, "hit_prep": 0.0, "hits": 0, "cells": 0, "same": 0}
    for key in sorted(set(fill) | set(hit)):
        m, n, k, t, plugin = key
        a = cell(fill[key]) if key in fill else None
        b = cell(hit[key]) if key in hit else None
        shape = f"{m}x{n}x{k}"
        line = f"{shape:<19} {t:5} {plugin:10} "
        if a:
            gap = (a["runner"] / a["best"] - 1) * 100 if isinstance(a["runner"], (int, float)) and a["best"] else None
            tried = f"{a['tried']}({a['failed']})" if a["tried"] is not None else "-"
            line += (f"{a['pick'][:44]:44} {num(a['median'], '8.3f')} {num(a['tflops'], '7.0f')} {num(a['best'], '8.3f')} "
                     f"{num(a['runner'], '8.3f')} {num(gap, '5.1f')} {tried:>7} {num(a['search_ms'], '7.0f')} {num(a['prepare_ms'], '7.0f')}")
            totals["search_ms"] += a["search_ms"] or 0
            totals["launches"] += a["launches"] or 0
            totals["fill_prep"] += a["prepare_ms"] or 0
            if a["status"] != "verified":
                line += f" [{a['status']}: {a['reason'][:60]}]"
        else:
            line += f"{'(not in the first run)':44}" + " " * 59
        line += " | "
        if b:
            same = "yes" if a and b["pick"] == a["pick"] else "no"
            line += f"{b['plan']:6} {same:4} {num(b['median'], '8.3f')} {num(b['tflops'], '7.0f')} {num(b['prepare_ms'], '6.0f')}"
            totals["hit_prep"] += b["prepare_ms"] or 0
            totals["cells"] += 1
            totals["hits"] += b["plan"] == "cache"
            totals["same"] += same == "yes"
            if b["status"] != "verified":
                line += f" [{b['status']}: {b['reason'][:60]}]"
        else:
            line += "(not in the second run)"
        print(line)
        for c, which in ((a, "first"), (b, "second")):
            if c and c["note"]:
                print(f"    {which} run's cache note: {c['note']}")
    print()
    print(f"first run: searches {totals['search_ms'] / 1000:.1f} s of GPU+host time in all, {totals['launches']} launches; "
          f"prepare {totals['fill_prep'] / 1000:.1f} s")
    print(f"second run: {totals['hits']} of {totals['cells']} plans from the cache, {totals['same']} the first run's pick; "
          f"prepare {totals['hit_prep'] / 1000:.1f} s")
    if walls:
        print(f"wall: first run {walls[0]} s, second run {walls[1]} s")


if __name__ == "__main__":
    main()
