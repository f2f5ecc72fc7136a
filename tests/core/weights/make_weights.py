#!/usr/bin/env python3
"""Writes the small weight files tests/core/weights reads, and checks each against an
independent reader: PyPI's safetensors (its Rust parser: safetensors.deserialize for every file,
safetensors.numpy.load_file where numpy has the dtype) and numpy.load for the .npy files.

    make_weights.py OUTDIR      # exit 0: written and checked; 1: a check failed

Values come from small formulas whose results every stored type holds exactly, so the C++ tests
recompute them (value(i, j) below names each; test_weights_files.cpp has the same formulas):

    dense_f16.safetensors        model.layers.0.mlp.up_proj.weight  F16 [64, 128]   dense(i, j)
                                 model.layers.0.mlp.up_proj.bias    F16 [64]
                                 model.embed_tokens.weight          F16 [16, 64]    dense(i, j)
    sparse24_bf16.safetensors    model.layers.0.self_attn.q_proj.weight  BF16 [32, 64], 2:4,
                                 with -0.0 written where sparse24_negzero(i, g) says
    e4m3.safetensors             model.layers.0.mlp.gate_proj.weight  F8_E4M3 [16, 32]  fp8(i, j)
                                 model.layers.0.mlp.gate_proj.weight_scale  F32 [16, 1]  (i + 1) / 16
    ct_fp8/model.safetensors     compressed-tensors sparse-24-bitmask, m 32, k 64:
                                 model.layers.0.mlp.down_proj.{compressed F8_E4M3, bitmask U8, shape I64,
                                   weight_scale F32 [32, 1] = (i + 1) / 64}
                                 model.layers.1.mlp.down_proj.{compressed I8 (the int8 view),
                                   bitmask, shape, weight_scale BF16 [1] = 0.5}
    ct_fp8/config.json           quantization_config: 8-bit float weights, sparse-24-bitmask
    ct_fp8_dense.safetensors     the same two weights dense (F8_E4M3 [32, 64]), for the round trip
    sharded/                     model.safetensors.index.json and two shards, tensors written in
                                 reverse name order (offsets not sorted by name)
    layer_io.safetensors         a layer with its input and residual, for A, B and C together:
                                 model.layers.0.mlp.up_proj.weight  F16 [16, 32]  dense(i, j)  (A: m 16, k 32)
                                 activations                        F16 [8, 32]   fp8(i, j)    (B: n 8 x k)
                                 residual                           F16 [16, 8]   dense(i, j)  (C: m x n)
    npy/                         f2 f4 i1 u1 (v1.0), bf16 as ml_dtypes writes it (<V2) and as
                                 older numpy does (|V2), bf16 bits as <u2, e4m3 as <V1, version
                                 2.0 and 3.0 headers, and refused ones: fortran order, big-endian
"""
import json
import os
import struct
import sys

import numpy as np

PAIRS = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]


def dense(i, j):
    return ((i * 7 + j * 3) % 23 - 11) / 8


def fp8(i, j):
    return ((i * 3 + j * 5) % 15 - 7) / 4


def sparse24_pair(i, g):
    return PAIRS[(i + g) % 6]


def sparse24_values(i, g):
    return ((i * 5 + g * 3) % 13 + 1) / 8, -((i * 3 + g * 7) % 11 + 1) / 8


def sparse24_negzero(i, g):
    """Where -0.0 goes in group g of row i: 'none', 'free' (the lowest zero column) or 'kept'
    (it replaces the second kept value, so the group keeps one non-zero and the -0.0)."""
    return "kept" if (i * g) % 5 == 4 else "free" if (i + g) % 3 == 0 else "none"


def bitmask_values(layer, i, g):
    a = ((i * 5 + g * 3 + layer) % 7 + 1) / 4
    b = -((i * 3 + g + layer) % 7 + 1) / 4
    return a, b


def bitmask_pair(layer, i, g):
    return PAIRS[(i * 2 + g + layer) % 6]


# ---- codecs (exact values only: every value written is representable) ----

def bf16_bits(values):
    f = np.asarray(values, dtype=np.float32)
    bits = f.view(np.uint32)
    assert np.all(bits & 0xFFFF == 0), "a bf16 value is not exact"
    return (bits >> 16).astype(np.uint16)


def e4m3_code(v):
    if v == 0:
        return 0x80 if np.signbit(v) else 0
    s = 0x80 if v < 0 else 0
    a = abs(v)
    e = int(np.floor(np.log2(a)))
    m = a / 2.0**e - 1
    assert -6 <= e <= 8 and m * 8 == int(m * 8), f"{v} is not an exact e4m3 normal"
    return s | (e + 7) << 3 | int(m * 8)


def e4m3_bytes(values):
    return np.array([e4m3_code(float(v)) for v in np.asarray(values).ravel()], dtype=np.uint8).reshape(np.shape(values))


# ---- the writer: our own bytes, checked by safetensors' parser ----

def write_safetensors(path, tensors, metadata=None, reverse=False):
    """tensors: [(name, dtype, shape, raw bytes)]; data in that order, or reversed."""
    order = list(reversed(tensors)) if reverse else tensors
    header, data, offset = {}, b"", 0
    if metadata:
        header["__metadata__"] = metadata
    for name, dtype, shape, raw in order:
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + len(raw)]}
        data += raw
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)  # padded as safetensors pads
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)
    check_safetensors(path, tensors)


NUMPY_TYPES = {"F16": np.float16, "F32": np.float32, "I8": np.int8, "U8": np.uint8, "I64": np.int64}


def check_safetensors(path, tensors):
    import safetensors
    import safetensors.numpy

    with open(path, "rb") as f:
        parsed = dict(safetensors.deserialize(f.read()))
    if sorted(parsed) != sorted(t[0] for t in tensors):
        raise SystemExit(f"{path}: safetensors reads {sorted(parsed)}")
    for name, dtype, shape, raw in tensors:
        got = parsed[name]
        if got["dtype"] != dtype or list(got["shape"]) != list(shape) or bytes(got["data"]) != raw:
            raise SystemExit(f"{path}: {name}: safetensors reads {got['dtype']} {got['shape']}, other bytes")
    if all(t[1] in NUMPY_TYPES for t in tensors):
        arrays = safetensors.numpy.load_file(path)
        for name, dtype, shape, raw in tensors:
            want = np.frombuffer(raw, dtype=NUMPY_TYPES[dtype]).reshape(shape)
            if arrays[name].dtype != want.dtype or not np.array_equal(arrays[name], want):
                raise SystemExit(f"{path}: {name}: safetensors.numpy.load_file reads other values")


def grid(rows, cols, f):
    return np.array([[f(i, j) for j in range(cols)] for i in range(rows)], dtype=np.float64)


def entry(name, array, dtype):
    return (name, dtype, array.shape, np.ascontiguousarray(array).tobytes())


# ---- the files ----

def dense_f16(out):
    w = grid(64, 128, dense).astype(np.float16)
    bias = np.arange(64, dtype=np.float16) / 64
    emb = grid(16, 64, dense).astype(np.float16)
    write_safetensors(os.path.join(out, "dense_f16.safetensors"),
                      [entry("model.layers.0.mlp.up_proj.weight", w, "F16"), entry("model.layers.0.mlp.up_proj.bias", bias, "F16"),
                       entry("model.embed_tokens.weight", emb, "F16")], metadata={"format": "pt"})


def sparse24_bf16(out):
    m, k = 32, 64
    w = np.zeros((m, k), dtype=np.float32)
    for i in range(m):
        for g in range(k // 4):
            (p0, p1), (a, b) = sparse24_pair(i, g), sparse24_values(i, g)
            w[i, 4 * g + p0], w[i, 4 * g + p1] = a, b
            where = sparse24_negzero(i, g)
            if where == "kept":
                w[i, 4 * g + p1] = -0.0
            elif where == "free":
                free = [c for c in range(4) if c not in (p0, p1)][0]
                w[i, 4 * g + free] = -0.0
    write_safetensors(os.path.join(out, "sparse24_bf16.safetensors"),
                      [entry("model.layers.0.self_attn.q_proj.weight", bf16_bits(w), "BF16")])


def e4m3(out):
    w = e4m3_bytes(grid(16, 32, fp8))
    scale = (np.arange(16, dtype=np.float32).reshape(16, 1) + 1) / 16
    write_safetensors(os.path.join(out, "e4m3.safetensors"),
                      [entry("model.layers.0.mlp.gate_proj.weight", w, "F8_E4M3"),
                       entry("model.layers.0.mlp.gate_proj.weight_scale", scale, "F32")])


def bitmask_layer(layer, m, k):
    """(dense e4m3 bytes m x k, compressed m x k/2, packed mask m x k/8)."""
    dense_codes = np.zeros((m, k), dtype=np.uint8)
    mask = np.zeros((m, k), dtype=bool)
    for i in range(m):
        for g in range(k // 4):
            (p0, p1), (a, b) = bitmask_pair(layer, i, g), bitmask_values(layer, i, g)
            dense_codes[i, 4 * g + p0], dense_codes[i, 4 * g + p1] = e4m3_code(a), e4m3_code(b)
            mask[i, 4 * g + p0] = mask[i, 4 * g + p1] = True
    compressed = dense_codes[mask].reshape(m, k // 2)
    packed = np.packbits(mask, axis=-1, bitorder="little")
    return dense_codes, compressed, packed


def compressed_tensors(out):
    m, k = 32, 64
    folder = os.path.join(out, "ct_fp8")
    os.makedirs(folder, exist_ok=True)
    tensors, dense_tensors = [], []
    for layer, view in ((0, "F8_E4M3"), (1, "I8")):
        prefix = f"model.layers.{layer}.mlp.down_proj"
        dense_codes, compressed, packed = bitmask_layer(layer, m, k)
        values = compressed if view == "F8_E4M3" else compressed.view(np.int8)
        tensors += [entry(prefix + ".compressed", values, view), entry(prefix + ".bitmask", packed, "U8"),
                    entry(prefix + ".shape", np.array([[m], [k]], dtype=np.int64), "I64")]
        if layer == 0:
            tensors.append(entry(prefix + ".weight_scale", (np.arange(m, dtype=np.float32).reshape(m, 1) + 1) / 64, "F32"))
        else:
            tensors.append(entry(prefix + ".weight_scale", bf16_bits([0.5]), "BF16"))
        dense_tensors.append(entry(prefix + ".weight", dense_codes, "F8_E4M3"))
    write_safetensors(os.path.join(folder, "model.safetensors"), tensors, metadata={"format": "pt"})
    write_safetensors(os.path.join(out, "ct_fp8_dense.safetensors"), dense_tensors)
    config = {"architectures": ["LlamaForCausalLM"],
              "quantization_config": {"quant_method": "compressed-tensors", "format": "float-quantized",
                                      "config_groups": {"group_0": {"targets": ["Linear"],
                                                                    "weights": {"num_bits": 8, "type": "float", "strategy": "channel"}}},
                                      "sparsity_config": {"format": "sparse-24-bitmask", "sparsity_structure": "2:4"}}}
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=2)


def layer_io(out):
    write_safetensors(os.path.join(out, "layer_io.safetensors"),
                      [entry("model.layers.0.mlp.up_proj.weight", grid(16, 32, dense).astype(np.float16), "F16"),
                       entry("activations", grid(8, 32, fp8).astype(np.float16), "F16"),
                       entry("residual", grid(16, 8, dense).astype(np.float16), "F16")])


def sharded(out):
    folder = os.path.join(out, "sharded")
    os.makedirs(folder, exist_ok=True)
    shards = {
        "model-00001-of-00002.safetensors": [entry("model.layers.0.mlp.up_proj.weight", grid(64, 128, dense).astype(np.float16), "F16"),
                                             entry("model.norm.weight", np.ones(64, dtype=np.float16), "F16")],
        "model-00002-of-00002.safetensors": [entry("model.layers.1.mlp.up_proj.weight", grid(64, 128, dense).astype(np.float16), "F16"),
                                             entry("lm_head.weight", grid(32, 64, dense).astype(np.float16), "F16")],
    }
    weight_map, total = {}, 0
    for file, tensors in shards.items():
        write_safetensors(os.path.join(folder, file), tensors, reverse=True)
        for t in tensors:
            weight_map[t[0]] = file
            total += len(t[3])
    with open(os.path.join(folder, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=2)


def raw_npy(path, descr, shape, raw):
    """A version 1.0 .npy with a descr numpy itself would not write here (ml_dtypes' <V2)."""
    text = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, ", ".join(map(str, shape)) + ("," if len(shape) == 1 else ""))
    pad = (64 - (10 + len(text) + 1) % 64) % 64
    text = (text + " " * pad + "\n").encode()
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text + raw)
    a = np.load(path)  # numpy reads it back as void: the header is a real .npy header
    assert a.shape == tuple(shape) and a.tobytes() == raw, path


def npy(out):
    folder = os.path.join(out, "npy")
    os.makedirs(folder, exist_ok=True)
    f16 = grid(8, 16, dense).astype(np.float16)
    arrays = {
        "f2.npy": f16,
        "f4.npy": (grid(8, 16, dense) / 3).astype(np.float32),
        "i1.npy": np.array([[(i * 7 + j) % 255 - 127 for j in range(16)] for i in range(8)], dtype=np.int8),
        "u1.npy": np.array([[i * 16 + j for j in range(16)] for i in range(8)], dtype=np.uint8),
        "bf16_u2.npy": bf16_bits(grid(8, 16, dense)),
        "bf16_void.npy": bf16_bits(grid(8, 16, dense)).view(np.dtype("V2")),  # numpy writes |V2
        "fortran.npy": np.asfortranarray(f16),
        "big_endian.npy": f16.astype(">f2"),
    }
    for name, a in arrays.items():
        np.save(os.path.join(folder, name), a)
    for version in ((2, 0), (3, 0)):
        path = os.path.join(folder, f"f2_v{version[0]}.npy")
        with open(path, "wb") as f:
            np.lib.format.write_array(f, f16, version=version)
    raw_npy(os.path.join(folder, "bf16_ml_dtypes.npy"), "<V2", (8, 16), bf16_bits(grid(8, 16, dense)).tobytes())
    raw_npy(os.path.join(folder, "e4m3_ml_dtypes.npy"), "<V1", (8, 16), e4m3_bytes(grid(8, 16, fp8)).tobytes())
    for name in list(arrays) + ["f2_v2.npy", "f2_v3.npy"]:
        a = np.load(os.path.join(folder, name))
        want = arrays.get(name, f16)
        if a.dtype != want.dtype or a.tobytes(order="A") != want.tobytes(order="A"):
            raise SystemExit(f"{name}: numpy.load reads it back otherwise")


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for make in (dense_f16, sparse24_bf16, e4m3, compressed_tensors, layer_io, sharded, npy):
        make(out)
    print(f"weights test files written to {out} and read back by safetensors and numpy")


if __name__ == "__main__":
    main()
