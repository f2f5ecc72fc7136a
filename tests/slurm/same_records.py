#!/usr/bin/env python3
"""same_records.py A.jsonl B.jsonl: exit 0 when the two record files hold the same runs with the
same results, times aside: for each (job, plugin, kernel) the problem, the kernel, the status and
the whole verification (verdict, errors, first mismatches). Otherwise prints each difference and exits 1."""
import json
import sys


def essence(r):
    """What a record says apart from its times, its host and when it ran."""
    return {
        "problem": r["problem"],
        "plugin": r["plugin"]["name"],
        "kernel": r.get("kernel"),
        "status": r.get("status"),
        "job": r["sweep"]["job"],
        "verification": r.get("verification"),
    }


def load(path):
    out = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            e = essence(json.loads(line))
            key = (e["job"], e["plugin"], json.dumps(e["kernel"], sort_keys=True))
            if key in out:
                sys.exit(f"{path}:{n}: a second record of job {key[0]} on {key[1]}")
            out[key] = e
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = load(sys.argv[1]), load(sys.argv[2])
    differences = [f"only in {sys.argv[1]}: job {k[0]} on {k[1]}" for k in sorted(a.keys() - b.keys())]
    differences += [f"only in {sys.argv[2]}: job {k[0]} on {k[1]}" for k in sorted(b.keys() - a.keys())]
    for k in sorted(a.keys() & b.keys()):
        if a[k] != b[k]:
            differences.append(f"job {k[0]} on {k[1]} differs:\n  {json.dumps(a[k], sort_keys=True)}\n  {json.dumps(b[k], sort_keys=True)}")
    for d in differences:
        print(d)
    if not a:
        print(f"{sys.argv[1]} holds no records")
        return 1
    print(f"{len(a)} records compared: {'the same' if not differences else f'{len(differences)} differences'}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
