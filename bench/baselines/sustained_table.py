#!/usr/bin/env python3
"""One line per record of a sustained run (bench/baselines/sustained.sh): problem, plugin, type,
TFLOP/s, timed launches and seconds, the SM clock's median, TFLOP/s per GHz of that clock, power
median and maximum, throttle reasons.

    python3 bench/baselines/sustained_table.py sustained.jsonl

NOTES: under the power cap each record runs at the clock its own power draw leaves it, so two
kernels' TFLOP/s mix what they do per clock with the clock they get; the per-GHz column separates
the two (a median of NVML's samples over the timed loop, so only as good as that loop is long)."""
import json
import sys


def line(r):
    p, t, c = r.get("problem", {}), r.get("timing", {}), r.get("clocks", {})
    shape = f"{p.get('m')}x{p.get('n')}x{p.get('k')}"
    head = f"{shape:18} {r.get('plugin', {}).get('name', '?'):11} {p.get('a_type', '?'):5}"
    if not t.get("tflops"):
        return f"{head} {r.get('status', '?')}: {str(r.get('reason', ''))[:80]}"
    timed = t.get("median_ms", 0) * t.get("iterations", 0) / 1e3
    mhz = c.get("sm_mhz", {}).get("median", 0) or 0
    per_ghz = f"{t['tflops'] / (mhz / 1e3):8.0f}" if mhz else f"{'-':>8}"
    power = c.get("power_w", {})
    reasons = ",".join(c.get("throttle", {}).get("reasons", [])) or "-"
    return (f"{head} {t['tflops']:8.0f} {t.get('iterations', 0):6d} {timed:8.2f} {mhz:8.0f} {per_ghz} "
            f"{power.get('median', 0):6.0f} {power.get('max', 0):6.0f}  {reasons}")


def main(argv):
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    try:
        f = open(argv[1])
    except OSError as e:
        print(f"{argv[1]}: {e.strerror}", file=sys.stderr)
        return 2
    with f:
        print(f"{'m x n x k':18} {'plugin':11} {'type':5} {'TFLOP/s':>8} {'iters':>6} {'timed s':>8} {'SM MHz':>8} "
              f"{'TF/GHz':>8} {'W med':>6} {'W max':>6}  throttle")
        for n, text in enumerate(f, 1):
            if not text.strip():
                continue
            try:
                print(line(json.loads(text)))
            except (json.JSONDecodeError, AttributeError, TypeError) as e:
                print(f"{argv[1]}:{n}: not a record: {e}", file=sys.stderr)
                return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
