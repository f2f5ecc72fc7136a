"""Peer figures on the GPU spmma measures: dense cuBLAS and 2:4-sparse cuSPARSELt, both through
the PyTorch installed there, on the same shapes and types as spmma's standard shape set. The
peer columns of bench/RESULTS.md (peers.json under bench/results/) come from it.

    python3 bench/baselines/peers.py [--shapes 8192x8192x8192,...] [--dtypes f16,bf16,e4m3,s8]
    python3 bench/baselines/peers.py --decode [--dtypes f16,e4m3]   # configs/decode-shapes.toml, L2 flushed

Prints one row per shape and type (dense-equivalent TFLOP/s = 2*m*n*k / time, and the median time)
and writes peers.json under $OUT (or the current folder).  Sparse operand: A (m x k, 2:4 along k).
cuSPARSELt needs B column-major for e4m3 and s8; its algorithm is chosen by its own search.
--flush-l2 (implied by --decode) reads a buffer twice L2's size before each timed launch, as
spmma's --flush-l2 does, so a weight that would fit in L2 is streamed from DRAM as in a model."""
import argparse, json, os, re
import torch

STANDARD = "4096x4096x4096,8192x8192x8192,16384x16384x16384,11008x4096x4096,28672x4096x8192,8192x2048x28672"

DECODE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "configs", "decode-shapes.toml")

def decode_shapes(path=DECODE):
    """m x n x k of every layer (m, k of each [[sweep]]) times every n of the file's defaults."""
    text = open(path).read()
    ns = [int(v) for v in re.search(r"^n\s*=\s*\[([^\]]*)\]", text, re.M).group(1).split(",")]
    layers = re.findall(r"^m\s*=\s*(\d+)\s*\nk\s*=\s*(\d+)", text, re.M)
    return ",".join(f"{m}x{n}x{k}" for m, k in layers for n in ns)

def l2_flusher(dev):
    """A read of twice L2's bytes: evicts what the last launch left in L2 without leaving dirty lines."""
    buf = torch.ones(2 * torch.cuda.get_device_properties(dev).L2_cache_size // 4, device=dev)
    return lambda: buf.sum()

def median_ms(fn, reps=20, flush=None, min_time_s=0.0):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    while len(times) < reps or sum(times) < 1e3 * min_time_s:
        if flush:
            flush()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    return sorted(times)[len(times) // 2]

def prune_2_4(a):
    m, k = a.shape
    g = a.view(m, k // 4, 4)
    keep = g.abs().float().topk(2, dim=-1).indices
    return (g * torch.zeros_like(g, dtype=torch.bool).scatter_(-1, keep, True)).view(m, k)

def operands(dt, m, n, k, dev):
    if dt in ("f16", "bf16"):
        t = torch.float16 if dt == "f16" else torch.bfloat16
        return prune_2_4(torch.randn(m, k, device=dev, dtype=t)), torch.randn(k, n, device=dev, dtype=t), t
    if dt == "e4m3":
        a = prune_2_4(torch.randn(m, k, device=dev)).to(torch.float8_e4m3fn)
        return a, torch.randn(k, n, device=dev).to(torch.float8_e4m3fn), torch.bfloat16
    a = prune_2_4(torch.randint(-8, 8, (m, k), device=dev, dtype=torch.int8))
    return a, torch.randint(-8, 8, (k, n), device=dev, dtype=torch.int8), torch.int32

def dense(dt, a, b, out):
    if dt in ("f16", "bf16"):
        return lambda: torch.mm(a, b)
    bc = b.t().contiguous().t()
    if dt == "e4m3":
        one = torch.tensor(1.0, device=a.device)
        return lambda: torch._scaled_mm(a, bc, scale_a=one, scale_b=one, out_dtype=out)
    return lambda: torch._int_mm(a, bc)

def sparse(dt, a, b, out):
    bb = b if dt in ("f16", "bf16") else b.t().contiguous().t()
    ac = torch._cslt_compress(a)
    kw = {} if dt in ("f16", "bf16") else {"out_dtype": out}
    alg = torch._cslt_sparse_mm_search(ac, bb, **kw)
    return lambda: torch._cslt_sparse_mm(ac, bb, alg_id=alg, **kw)

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shapes", default=STANDARD)
    p.add_argument("--dtypes", default="f16,bf16,e4m3,s8")
    p.add_argument("--decode", action="store_true", help="the shapes of configs/decode-shapes.toml, L2 flushed")
    p.add_argument("--flush-l2", action="store_true", help="read 2x L2 before each timed launch")
    p.add_argument("--min-time", type=float, default=0.0, help="at least this many seconds of timed launches")
    args = p.parse_args()
    if args.decode:
        args.shapes, args.flush_l2 = decode_shapes(), True
    dev = torch.device("cuda")
    flush = l2_flusher(dev) if args.flush_l2 else None
    info = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
            "cusparselt": torch.backends.cusparselt.version(), "flush_l2": args.flush_l2, "min_time_s": args.min_time}
    print(info)
    rows = []
    for shape in args.shapes.split(","):
        m, n, k = map(int, shape.split("x"))
        for dt in args.dtypes.split(","):
            a, b, out = operands(dt, m, n, k, dev)
            row = {"m": m, "n": n, "k": k, "dtype": dt}
            for name, make in (("dense", dense), ("cusparselt", sparse)):
                try:
                    ms = median_ms(make(dt, a, b, out), flush=flush, min_time_s=args.min_time)
                    row[name] = 2.0 * m * n * k / (ms * 1e-3) / 1e12
                    row[name + "_us"] = 1e3 * ms
                except Exception as e:  # report, keep going
                    row[name + "_error"] = repr(e)[:200]
            rows.append(row)
            print(f"{m}x{n}x{k:<8} {dt:5} dense {row.get('dense', float('nan')):7.1f}  "
                  f"cusparselt {row.get('cusparselt', float('nan')):7.1f}  TFLOP/s", flush=True)
            del a, b
            torch.cuda.empty_cache()
    with open(os.path.join(os.environ.get("OUT", "."), "peers.json"), "w") as f:
        json.dump({"info": info, "rows": rows}, f, indent=1)

if __name__ == "__main__":
    main()
