"""Peer figures on the GPU spmma measures: dense cuBLAS and 2:4-sparse cuSPARSELt, both through
the PyTorch installed there, on the same shapes and types as spmma's standard shape set. The
peer columns of bench/RESULTS.md (peers.json under bench/results/) come from it.

    python3 bench/baselines/peers.py [--shapes 8192x8192x8192,...] [--dtypes f16,bf16,e4m3,s8]

Prints one row per shape and type (dense-equivalent TFLOP/s = 2*m*n*k / time) and writes
peers.json under $OUT (or the current folder).  Sparse operand: A (m x k, 2:4 along k).
cuSPARSELt needs B column-major for e4m3 and s8; its algorithm is chosen by its own search."""
import argparse, json, os
import torch

STANDARD = "4096x4096x4096,8192x8192x8192,16384x16384x16384,11008x4096x4096,28672x4096x8192,8192x2048x28672"

def median_ms(fn, reps=20):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    return sorted(times)[reps // 2]

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
    args = p.parse_args()
    dev = torch.device("cuda")
    info = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
            "cusparselt": torch.backends.cusparselt.version()}
    print(info)
    rows = []
    for shape in args.shapes.split(","):
        m, n, k = map(int, shape.split("x"))
        for dt in args.dtypes.split(","):
            a, b, out = operands(dt, m, n, k, dev)
            row = {"m": m, "n": n, "k": k, "dtype": dt}
            for name, make in (("dense", dense), ("cusparselt", sparse)):
                try:
                    row[name] = 2.0 * m * n * k / (median_ms(make(dt, a, b, out)) * 1e-3) / 1e12
                except Exception as e:  # report, keep going
                    row[name + "_error"] = repr(e)[:200]
            rows.append(row)
            print(f"{m}x{n}x{k:<8} {dt:5} dense {row.get('dense', float('nan')):7.0f}  "
                  f"cusparselt {row.get('cusparselt', float('nan')):7.0f}  TFLOP/s", flush=True)
            del a, b
            torch.cuda.empty_cache()
    with open(os.path.join(os.environ.get("OUT", "."), "peers.json"), "w") as f:
        json.dump({"info": info, "rows": rows}, f, indent=1)

if __name__ == "__main__":
    main()
