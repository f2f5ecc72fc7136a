#!/usr/bin/env python3
"""Recompute D from operands saved by `spmma ... --save-operands DIR` and check it.

Usage: check_npy.py DIR [STEM ...]

For every <stem>.json sidecar in DIR (or the stems given), loads A (m x k, dense, zeros in
place), B (k x n), C, the block scales, D and D_ref (.npy), recomputes alpha*A@B + beta*C (with the epilogue: act(alpha*rs*cs*A@B + beta*C + bias)) with
NumPy (float64 for floating types, int64 for integers, wrapped to 32 bits or clamped with
saturate) and checks
  * D_ref: the recomputation rounded to d_type (within half an ulp; integers exactly);
  * D:     within the tolerance of the sidecar's rule (reference/README.md), the bound's general
           form (never the tighter exact-regime one); integers exactly; a NaN is always wrong.
Prints one line per file set and the first mismatches with their (row, column); exits 1 when
any check fails, 2 on unreadable input.
"""
import json
import math
import sys
from pathlib import Path

import numpy as np

FLOAT_FORMATS = {  # d_type: (fraction bits, smallest normal exponent, largest finite)
    "f32": (23, -126, float(np.finfo(np.float32).max)),
    "f16": (10, -14, 65504.0),
    "bf16": (7, -126, float.fromhex("0x1.fep127")),
}


ACTIVATIONS = {
    "none": lambda x: x,
    "relu": lambda x: np.maximum(x, 0.0),
    "gelu-tanh": lambda x: 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3))),
    "silu": lambda x: silu(x),
}


def silu(x):
    with np.errstate(over="ignore"):  # exp(-x) is inf for x far below 0: x / inf = -0, as in C
        return x / (1.0 + np.exp(-x))


def ulp(d_type, x):
    """Spacing of d_type's values at magnitude |x| (subnormal spacing below the smallest normal,
    the top binade's at and past the largest finite)."""
    frac, emin, top = FLOAT_FORMATS[d_type]
    a = np.minimum(np.abs(x), top)
    _, e = np.frexp(a)  # a = f * 2^e, f in [0.5, 1): binade e - 1
    binade = np.maximum(np.where(a > 0, e - 1, emin), emin)
    return np.ldexp(1.0, (binade - frac).astype(np.int32))


def load(directory, name):
    return np.load(directory / name) if name else None


def report(label, bad, got, want, tol, n):
    idx = np.flatnonzero(bad)
    lines = [f"{label}: {idx.size} mismatches"]
    for x in idx[:8]:
        i, j = divmod(int(x), n)
        t = tol.flat[x] if np.ndim(tol) else tol
        lines.append(f"  ({i}, {j}): got {got.flat[x].item()!r}, want {want.flat[x].item()!r}, tolerance {float(t)!r}")
    return lines


def check(directory, stem):
    meta = json.loads((directory / f"{stem}.json").read_text())
    p, files, rule = meta["problem"], meta["files"], meta["tolerance"]
    m, n, k = p["m"], p["n"], p["k"]
    alpha, beta = p["alpha"], p["beta"]
    A, B = load(directory, files["A"]), load(directory, files["B"])
    C = load(directory, files.get("C"))
    D, D_ref = load(directory, files.get("D")), load(directory, files.get("D_ref"))
    assert A.shape == (m, k) and B.shape == (k, n), f"{stem}: A {A.shape}, B {B.shape} do not match {m}x{n}x{k}"
    failures = []

    if p["d_type"] == "s32":
        acc = A.astype(np.int64) @ B.astype(np.int64)
        r = int(alpha) * acc + (int(beta) * C.astype(np.int64) if C is not None and beta != 0 else 0)
        if p["saturate"]:
            want = np.clip(r, -(2**31), 2**31 - 1)
        else:
            want = ((r + 2**31) % 2**32) - 2**31
        for label, got in (("D", D), ("D_ref", D_ref)):
            if got is None:
                continue
            bad = got.astype(np.int64) != want
            if bad.any():
                failures += report(f"{stem} {label}", bad, got, want, 0, n)
        return failures

    a = A.astype(np.float64)
    b = B.astype(np.float64)
    if p["scale_type"] != "none":
        blk = p["scale_block"]
        a = a * np.repeat(load(directory, files["scale_A"]).astype(np.float64), blk, axis=1)
        b = b * np.repeat(load(directory, files["scale_B"]).astype(np.float64), blk, axis=1).T
    acc = a @ b
    S = np.abs(a) @ np.abs(b)
    beta_c = beta * C.astype(np.float64) if C is not None and beta != 0 else np.zeros((m, n))
    # The epilogue (ABI 1.2): alpha*rs*cs*acc + beta*C + bias, then the activation.
    rs = load(directory, files.get("row_scale"))
    cs = load(directory, files.get("col_scale"))
    bias_v = load(directory, files.get("bias"))
    scale = alpha * (rs.astype(np.float64)[:, None] if rs is not None else 1.0) * (cs.astype(np.float64)[None, :] if cs is not None else 1.0)
    scale = np.broadcast_to(scale, (m, n))
    bias = np.zeros((m, n))
    if bias_v is not None:
        bias = np.broadcast_to(bias_v.astype(np.float64)[:, None] if p["bias"] == "row" else bias_v.astype(np.float64)[None, :], (m, n))
    pre = scale * acc + beta_c + bias
    act = p.get("activation", "none")
    want = ACTIVATIONS[act](pre)

    d_type = p["d_type"]
    terms = rule["terms"]
    s_tot = np.abs(scale) * S + np.abs(beta_c)
    x = np.abs(pre)
    v = np.abs(want)
    e_acc = rule["acc_epsilon"] * np.minimum(terms * s_tot, rule["statistical_factor"] * math.sqrt(terms) * s_tot + terms * x / 2)
    products = 1 + (rs is not None) + (cs is not None)
    additions = 2 if bias_v is not None else 1
    prod = np.abs(scale * acc)
    e_epi = rule["epilogue_epsilon"] / 2 * (products * prod + np.abs(beta_c) + additions * (prod + np.abs(beta_c) + np.abs(bias)))
    e = e_acc + e_epi
    if act != "none":
        e = rule["activation_lipschitz"] * e + rule["activation_epsilon"] * x
    tol = e + 0.5 * ulp(d_type, v + e)
    frac, _, top = FLOAT_FORMATS[d_type]
    overflow = top + 0.5 * ulp(d_type, top)
    slack = 1e-12 * s_tot  # NumPy's float64 sums in another order

    checks = []
    if D_ref is not None:
        checks.append(("D_ref", D_ref, 0.5 * ulp(d_type, v) * (1 + 1e-9) + slack))
    if D is not None:
        checks.append(("D", D, tol + slack))
    for label, got, bound in checks:
        g = got.astype(np.float64)
        with np.errstate(invalid="ignore"):
            ok = np.abs(g - want) <= bound
            ok |= np.isinf(g) & (np.sign(g) == np.sign(want)) & (v + bound >= overflow)
        ok &= ~np.isnan(g)
        if not ok.all():
            failures += report(f"{stem} {label}", ~ok, g, want, bound, n)
    return failures


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    directory = Path(argv[1])
    stems = argv[2:] or sorted(f.name[: -len(".json")] for f in directory.glob("*.json"))
    if not stems:
        print(f"no .json sidecars in {directory}")
        return 2
    failed = False
    for stem in stems:
        try:
            failures = check(directory, stem)
        except (OSError, KeyError, AssertionError, ValueError) as err:
            print(f"{stem}: cannot check: {err}")
            return 2
        if failures:
            failed = True
            print("\n".join(failures))
        else:
            print(f"{stem}: ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
