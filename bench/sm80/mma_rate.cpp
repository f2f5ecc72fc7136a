// spmma-bench-sm80-mma: how fast one GPU takes the sm_80 warp-level mma.sp (and the dense mma,
// for comparison), bare and inside the sm80 plugin's GEMM loop taken apart
// (sm80_mma_rate.inc): per variant, dense-equivalent flops per clock per SM (the slowest warp's
// clock64 cycles), the SM clock the run held (cycles / event time) and TFLOP/s over the GPU.
// The bare rate is the ceiling of any mma.sp GEMM on that GPU; the loop modes show what each
// part of the loop costs of it.
//   spmma-bench-sm80-mma [iterations]      (default 4096 stages of two k steps per warp)
#include <spmma_plugin/cuda_driver.hpp>
#include <spmma_plugin/cuda_gemm.hpp>

#include "../common/probe_gpu.hpp"
#include "mma_rate_data.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

SPMMA_DECLARE_FATBIN(sm80_mma_rate)

namespace cu = spmma_plugin::cuda;

namespace {

struct Variant {
    std::string name;
    int form, warps, mi, nj, mode, data;
};

std::vector<Variant> variants() {
    std::vector<Variant> v;
#define SPMMA_MMA_RATE_KERNEL(NAME, FORM, WARPS, MI, NJ, MODE, DATA) \
    v.push_back({#NAME, FORM, WARPS, MI, NJ, MODE, DATA});
#include "sm80_mma_rate.inc"
#undef SPMMA_MMA_RATE_KERNEL
    return v;
}

const char* mode_name(int mode) {
    switch (mode) {
        case 0: return "registers only";
        case 1: return "+ shared loads";
        case 2: return "+ barrier/stage";
        case 3: return "+ cp.async refill";
        default: return "+ bulk-copy refill";
    }
}

}  // namespace

int main(int argc, char** argv) {
    const int iters = argc > 1 ? std::atoi(argv[1]) : 4096;
    const auto gpu = spmma_bench::probe_gpu([](const cu::DeviceProperties& p) { return p.major >= 8; }, "sm_80 or newer");
    if (!gpu) return 3;
    const cu::DeviceProperties& props = *gpu;
    cu::Context ctx(0);
    cu::Module mod(SPMMA_FATBIN(sm80_mma_rate));
    cu::Stream stream;
    const int sms = props.sm_count;
    const unsigned smem = 4 * 34 * 1024;  // four stages of the 256x128 GEMM: one CTA per SM
    std::printf("%s, %d SMs; %d stages of two k steps per warp; one CTA per SM\n", props.name.c_str(), sms, iters);
    std::printf("%-48s %-18s %-7s %12s %8s %9s\n", "variant", "loop", "data", "flop/clk/SM", "MHz", "TFLOP/s");
    // The cp.async variants stream a 16 MiB operand area (L2-resident) behind 2 KB of metadata,
    // one buffer per data kind (mma_rate_data.hpp).
    const uint32_t buf_vecs = 1u << 20;
    std::vector<cu::DeviceBuffer> bufs;
    for (int data = 0; data < 2; ++data) {
        std::vector<uint32_t> words((kMetaVecs + buf_vecs) * 4);
        for (size_t i = 0; i < words.size(); ++i)
            words[i] = i < kMetaVecs * 4 ? kMetaWord : operand_word(static_cast<uint32_t>(i), data);
        bufs.emplace_back(words.size() * 4);
        bufs.back().upload(words.data(), words.size() * 4);
    }
    for (const Variant& v : variants()) {
        if (v.mode == 4 && props.major < 9) {
            std::printf("%-48s skipped: cp.async.bulk needs sm_90 or newer\n", v.name.c_str());
            continue;
        }
        CUfunction f = mod.function(v.name.c_str());
        cu::set_max_dynamic_smem(f, smem);
        const int threads = 32 * v.warps;
        cu::DeviceBuffer sink(static_cast<size_t>(sms) * threads * 4), cycles(static_cast<size_t>(sms) * 8);
        cycles.fill(0);
        CUdeviceptr pb = bufs[static_cast<size_t>(v.data)].get(), ps = sink.get(), pc = cycles.get();
        int it = iters;
        uint32_t nv = buf_vecs;
        void* args[] = {&it, &pb, &nv, &ps, &pc};
        const double ms = spmma_bench::median_launch_ms(stream, f, sms, threads, smem, args, 2, 7);
        std::vector<long long> cyc(static_cast<size_t>(sms));
        cycles.download(cyc.data(), cyc.size() * 8);
        std::sort(cyc.begin(), cyc.end());
        const double med_cycles = static_cast<double>(cyc[cyc.size() / 2]);
        // Dense-equivalent flops of one instruction: sparse m16n8k32 2*16*8*32, dense m16n8k16 half that.
        const double per_instr = v.form == 2 ? 4096.0 : 8192.0;
        const double flops_cta = per_instr * 2.0 * v.mi * v.nj * v.warps * iters;
        const double per_clk = flops_cta / med_cycles;
        const double mhz = med_cycles / (ms * 1e-3) / 1e6;  // the launch's overhead makes this a lower bound
        const double tflops = flops_cta * sms / (ms * 1e-3) / 1e12;
        std::printf("%-48s %-18s %-7s %12.0f %8.0f %9.0f\n", v.name.c_str(), mode_name(v.mode), v.data ? "random" : "const",
                    per_clk, mhz, tflops);
    }
    return 0;
}
