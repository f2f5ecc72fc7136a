"""spmma-bench-dram's output (bench/dram/dram_read.cpp) read back: the devices its repetitions name
and their fits of a whole-GPU read's time, t = t0 + bytes / rate. Shared by bench/dram/table.py and
bench/results/decode_section.py. Python standard library only."""
import re
import statistics

FIT = re.compile(r"time = ([0-9.]+) us \+ bytes / ([0-9.]+) TB/s")
DEVICE = re.compile(r"^(.+?): \d+ SMs, SM clock")


def read_probe(path):
    """(the device names, [(t0 s, rate bytes/s)] one per fit line) of the output at path (OSError
    when it cannot be read)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    devices = {m.group(1) for m in (DEVICE.match(line) for line in lines) if m}
    fits = [(float(m.group(1)) * 1e-6, float(m.group(2)) * 1e12) for m in (FIT.search(line) for line in lines) if m]
    return devices, fits


def median_fit(fits):
    """The median t0 and the median rate of fits (not empty)."""
    return statistics.median(f[0] for f in fits), statistics.median(f[1] for f in fits)
