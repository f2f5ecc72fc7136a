// spmma-bench-sm90a-wgmma: how fast the tensor cores of a Hopper GPU take wgmma.mma_async.sp
// (and the dense form, for comparison) with operands in shared memory and no TMA or epilogue:
// per variant, dense-equivalent flops per clock per SM, the share of the datasheet rate,
// TFLOP/s over the whole GPU, the shared-memory operand bytes the tensor cores read per clock,
// and for the variants with a streaming warpgroup the bytes per clock it loaded meanwhile
// (global memory: "ldg", shared memory: "lds"); "areg" variants take A from registers. The
// ceiling of any sm90a GEMM mainloop of that tile width, and the test of the shared-memory
// bandwidth model of plugins/sm90a/NOTES.md.
//   spmma-bench-sm90a-wgmma [iterations]      (default 8192 k stages per warpgroup)
#include <spmma_plugin/cuda_driver.hpp>
#include <spmma_plugin/cuda_gemm.hpp>

#include "../common/probe_gpu.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

SPMMA_DECLARE_FATBIN(sm90a_wgmma_rate)

namespace cu = spmma_plugin::cuda;

namespace {

struct Variant {
    std::string name;
    bool sparse, f8;
    int n, wg;
    bool areg;
    int stream;  // 0 none, 1 global loads, 2 shared loads
};

std::vector<Variant> variants() {
    std::vector<Variant> v;
#define SPMMA_RATE_KERNEL(NAME, SPARSE, F8, N, WG, AREG, STREAM) v.push_back({#NAME, SPARSE, F8, N, WG, AREG, STREAM});
#include "sm90a_wgmma_rate.inc"
#undef SPMMA_RATE_KERNEL
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    const int iters = argc > 1 ? std::atoi(argv[1]) : 8192;
    const auto gpu = spmma_bench::probe_gpu([](const cu::DeviceProperties& p) { return p.major == 9 && p.minor == 0; },
                                            "sm_90");
    if (!gpu) return 3;
    const cu::DeviceProperties& props = *gpu;
    cu::Context ctx(0);
    cu::Module mod(SPMMA_FATBIN(sm90a_wgmma_rate));
    cu::Stream stream;
    const int sms = props.sm_count;
    const unsigned smem = 200 * 1024;  // one CTA per SM whatever the variant
    std::printf("%s, %d SMs; %d k stages (64 f16 / 128 fp8 of k) per warpgroup, one group in flight\n",
                props.name.c_str(), sms, iters);
    std::printf("%-30s %12s %8s %9s %13s %13s\n", "variant", "flop/clk/SM", "of peak", "TFLOP/s", "smem B/clk/SM",
                "stream B/clk");
    // The streaming warpgroups read a 16 MiB buffer (L2 holds it) round and round.
    const uint32_t buf_vecs = 1u << 20;
    cu::DeviceBuffer buf(static_cast<size_t>(buf_vecs) * 16);
    buf.fill(0x3C);
    for (const Variant& v : variants()) {
        CUfunction f = mod.function(v.name.c_str());
        cu::set_max_dynamic_smem(f, smem);
        const int threads = 128 * (v.wg + (v.stream ? 1 : 0));
        cu::DeviceBuffer sink(static_cast<size_t>(sms) * threads * 4), cycles(static_cast<size_t>(sms) * 16);
        cycles.fill(0);
        CUdeviceptr pb = buf.get(), ps = sink.get(), pc = cycles.get();
        int it = iters;
        uint32_t nv = buf_vecs;
        void* args[] = {&it, &pb, &nv, &ps, &pc};
        const double ms = spmma_bench::median_launch_ms(stream, f, sms, threads, smem, args, 2, 5);
        std::vector<long long> cyc(static_cast<size_t>(sms) * 2);
        cycles.download(cyc.data(), cyc.size() * 8);
        std::vector<double> wg_cycles, stream_rate;
        for (int c = 0; c < sms; ++c) {
            wg_cycles.push_back(static_cast<double>(cyc[2 * c]));
            if (v.stream) stream_rate.push_back(static_cast<double>(cyc[2 * c + 1]) / static_cast<double>(cyc[2 * c]));
        }
        std::sort(wg_cycles.begin(), wg_cycles.end());
        std::sort(stream_rate.begin(), stream_rate.end());
        const double med_cycles = wg_cycles[wg_cycles.size() / 2];
        // Dense-equivalent flops of one k stage of one warpgroup: 2 * 64 * N * k.
        const double k_stage = v.f8 ? 128 : 64;
        const double flops_wg = 2.0 * 64 * v.n * k_stage * iters;
        const double per_clk = flops_wg * v.wg / med_cycles;
        const double peak = (v.f8 ? 8192.0 : 4096.0) * (v.sparse ? 2 : 1);  // datasheet flop/clk/SM
        const double tflops = flops_wg * v.wg * sms / (ms * 1e-3) / 1e12;
        // Shared memory the instructions read per k stage: B (N rows x 128 B) and A (64 rows x
        // 64 B sparse, 128 B dense; none from registers) per warpgroup.
        const double a_bytes = v.areg ? 0.0 : 64.0 * (v.sparse ? 64 : 128);
        const double bytes_clk = (v.n * 128.0 + a_bytes) * iters * v.wg / med_cycles;
        char streamed[32] = "-";
        if (v.stream) std::snprintf(streamed, sizeof streamed, "%.1f", stream_rate[stream_rate.size() / 2]);
        std::printf("%-30s %12.0f %7.1f%% %9.0f %13.1f %13s\n", v.name.c_str(), per_clk, 100.0 * per_clk / peak, tflops,
                    bytes_clk, streamed);
    }
    return 0;
}
