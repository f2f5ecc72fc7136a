#!/usr/bin/env python3
"""Runs a command with its output (stdout and stderr, line-buffered) going to a file and prints
`EXIT WALL_S TAIL_S`: its exit code, its wall time, and how long it took to end after its last
line of output (for spmma, the phase table: what is left is its exit, the workers' included).
A command still running after LIMIT seconds is killed (exit 124).
Usage: timed.py LIMIT OUTFILE COMMAND..."""
import subprocess
import sys
import threading
import time


def main():
    limit, outfile, cmd = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
    t0 = time.monotonic()
    last = [t0]
    with open(outfile, "w") as out:
        p = subprocess.Popen(["stdbuf", "-oL", "-eL"] + cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

        def copy():
            for line in p.stdout:
                last[0] = time.monotonic()
                out.write(line)

        reader = threading.Thread(target=copy)
        reader.start()
        try:
            rc = p.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            rc = 124
        end = time.monotonic()
        reader.join()
    print(f"{rc} {end - t0:.2f} {end - last[0]:.2f}")


if __name__ == "__main__":
    main()
