#!/usr/bin/env python3
"""The cuSPARSELt tf32 discrepancy (bench/NOTES.md, 2026-11-22, H200, "cuSPARSELt tf32"): reads the operands
spmma saved next to this file and compares cuSPARSELt's D with A@B in float64 and with simple
models of lost precision (inputs rounded to 7-10 mantissa bits, an accumulator rounded every 8 k)."""
import glob
import os

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
stem = glob.glob(os.path.join(here, "*.A.npy"))[0][:-6]
A, B, D = (np.load(stem + s).astype(np.float64) for s in (".A.npy", ".B.npy", ".D.npy"))


def bits(x):
    return np.ascontiguousarray(x.astype(np.float32)).view(np.uint32)


def rnd(x, mbits):  # round to nearest even to mbits mantissa bits
    b = bits(x).astype(np.uint64)
    drop = 23 - mbits
    b = (b + (1 << (drop - 1)) - 1 + ((b >> drop) & 1)) >> drop << drop
    return b.astype(np.uint32).view(np.float32).reshape(x.shape).astype(np.float64)


print("inputs tf32-exact (low 13 bits zero):", ((bits(A) & 0x1FFF) == 0).all() and ((bits(B) & 0x1FFF) == 0).all())
E = D - A @ B
print(f"max |D - A@B| {np.abs(E).max():.4g}, relative rms {np.sqrt((E**2).mean() / (D**2).mean()):.3g}")
for name, X in [("A, B to 7 bits (bf16)", rnd(A, 7) @ rnd(B, 7)), ("A to 8 bits", rnd(A, 8) @ B),
                ("B to 8 bits", A @ rnd(B, 8)), ("A, B to 9 bits", rnd(A, 9) @ rnd(B, 9)),
                ("A, B to 10 bits", rnd(A, 10) @ rnd(B, 10))]:
    print(f"{name:24} max |D - model| {np.abs(D - X).max():.4g}")
for m in (10, 12, 14, 16):
    X = np.zeros_like(D)
    for k0 in range(0, A.shape[1], 8):
        X = rnd(X + A[:, k0:k0 + 8] @ B[k0:k0 + 8, :], m)
    print(f"accumulator to {m} bits every 8 k: max |D - model| {np.abs(D - X).max():.4g}")
