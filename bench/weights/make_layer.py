#!/usr/bin/env python3
"""A realistic linear layer for bench/weights/device.sh: a weight drawn from a normal distribution
with the spread of trained weights (std 0.02 by default), pruned 2:4 by magnitude (the two
largest of each group of four along k kept), written as one .safetensors file with NumPy:

    make_layer.py OUT.safetensors M K [--std 0.02] [--seed 1]

Tensors (m = out features, k = in features):
    f16.weight          F16 [M, K]  the pruned weight
    e4m3.weight         F16 [M, K]  the same weight divided by its per-row scale, as an FP8
                                    checkpoint quantizes it (spmma --dtype e4m3 rounds each value
                                    to e4m3, the codes such a checkpoint holds)
    e4m3.weight_scale   F32 [M, 1]  the per-row scale: the row's largest magnitude / 448
"""
import argparse
import json
import struct

import numpy as np

E4M3_MAX = 448.0


def pruned_normal(m, k, std, seed):
    rng = np.random.default_rng(seed)
    w = rng.standard_normal((m, k), dtype=np.float32)
    w *= np.float32(std)
    groups = w.reshape(m, k // 4, 4)
    # The two largest magnitudes of each group of four stay: the second largest of four is the
    # larger of (the smaller of the two pairs' maxima, the larger of their minima). A min/max
    # network, elementwise: a sort along an axis of four is several times slower at this size.
    a = [np.abs(groups[..., i]) for i in range(4)]
    second = np.maximum(np.minimum(np.maximum(a[0], a[1]), np.maximum(a[2], a[3])),
                        np.maximum(np.minimum(a[0], a[1]), np.minimum(a[2], a[3])))
    keep = np.stack([x >= second for x in a], axis=-1)
    # A tie at the threshold keeps three: those few groups keep their first two of the largest.
    ties = np.nonzero(keep.sum(axis=-1) > 2)
    for r, g in zip(*ties):
        order = np.argsort(-np.abs(groups[r, g]), kind="stable")
        keep[r, g] = False
        keep[r, g, order[:2]] = True
    groups[~keep] = 0.0
    return w


def write_safetensors(path, tensors):
    """tensors: [(name, dtype, array)], written in order, the header padded to 8 bytes."""
    header, offset = {}, 0
    for name, dtype, a in tensors:
        header[name] = {"dtype": dtype, "shape": list(a.shape), "data_offsets": [offset, offset + a.nbytes]}
        offset += a.nbytes
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for _, _, a in tensors:
            f.write(np.ascontiguousarray(a).tobytes())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("m", type=int)
    ap.add_argument("k", type=int)
    ap.add_argument("--std", type=float, default=0.02)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.m < 1 or a.k < 4 or a.k % 4:
        raise SystemExit(f"m = {a.m}, k = {a.k}: m 1 or more, k a positive multiple of 4")
    w = pruned_normal(a.m, a.k, a.std, a.seed)
    amax = np.abs(w).max(axis=1, keepdims=True)
    scale = np.where(amax > 0, amax / E4M3_MAX, 1.0).astype(np.float32)
    write_safetensors(a.out, [("f16.weight", "F16", w.astype(np.float16)),
                              ("e4m3.weight", "F16", (w / scale).astype(np.float16)),
                              ("e4m3.weight_scale", "F32", scale)])
    print(f"{a.out}: {a.m} x {a.k}, normal std {a.std} pruned 2:4, f16 and per-row scaled for e4m3")


if __name__ == "__main__":
    main()
