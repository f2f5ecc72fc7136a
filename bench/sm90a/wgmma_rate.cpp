// spmma-bench-sm90a-wgmma: how fast the tensor cores of a Hopper GPU take wgmma.mma_async.sp
// (and the dense form, for comparison) with operands in shared memory and no TMA or epilogue:
// per variant, dense-equivalent flops per clock per SM, the share of the datasheet rate,
// TFLOP/s over the whole GPU, the shared-memory operand bytes the tensor cores read per clock,
// and for the variants with a streaming warpgroup the bytes per clock it loaded meanwhile
// (global memory: "ldg", shared memory: "lds"); "areg" variants take A from registers, and
// "areg_own" ones load it there themselves from L2, two stages ahead ("_na": no L1 line; "_deep":
// no L1 line, six stages ahead; "_lds": from shared memory with ordinary loads); "_tma" variants
// add a warpgroup that writes shared memory with bulk copies from L2, as a GEMM's stage fills do. The
// ceiling of any sm90a GEMM mainloop of that tile width, and the test of the shared-memory
// bandwidth model of plugins/sm90a/NOTES.md.
//   spmma-bench-sm90a-wgmma [iterations]      (default 8192 k stages per warpgroup; a multiple of 8)
// With --sustained S, the sparse and dense f16 and e4m3 n256 variants (f16 also with A in
// registers, loaded or not) run back to back for at least S seconds each, on the pattern operands
// and on random ones, with the SM clock, board power and throttle reasons sampled through NVML: what the bare
// instruction sustains under the power cap, and whether fewer bytes per flop raise the clock.
//   spmma-bench-sm90a-wgmma --sustained 2
#include <spmma/core/clocks.hpp>
#include <spmma_plugin/cuda_driver.hpp>
#include <spmma_plugin/cuda_gemm.hpp>

#include "../common/probe_gpu.hpp"
#include "random_operands.hpp"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>
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
    int stream;  // 0 none, 1 global loads, 2 shared loads, 7 bulk copies into shared memory (a warpgroup of their
                 // own); 3-6 A loaded by the wgmma warpgroups
    int threads() const { return 128 * (wg + (stream == 1 || stream == 2 || stream == 7 ? 1 : 0)); }
};

std::vector<Variant> variants() {
    std::vector<Variant> v;
#define SPMMA_RATE_KERNEL(NAME, SPARSE, F8, N, WG, AREG, STREAM) v.push_back({#NAME, SPARSE, F8, N, WG, AREG, STREAM});
#include "sm90a_wgmma_rate.inc"
#undef SPMMA_RATE_KERNEL
    return v;
}

// Dense-equivalent flops of one launch: every warpgroup of every CTA runs `iters` k stages
// (2 * 64 * N * k each).
double launch_flops(const Variant& v, int iters, int sms) {
    return 2.0 * 64 * v.n * (v.f8 ? 128 : 64) * static_cast<double>(iters) * v.wg * sms;
}

double peak_per_clk(const Variant& v) { return (v.f8 ? 8192.0 : 4096.0) * (v.sparse ? 2 : 1); }  // datasheet flop/clk/SM

// One variant's kernel with its arguments: `iters` k stages per warpgroup, operands drawn from
// `seed` (0: the pattern), one CTA per SM; `cycles` gets two counters per CTA (the kernel's
// cycles[2 * cta] and cycles[2 * cta + 1]).
struct ProbeLaunch {
    ProbeLaunch(const Variant& v, const cu::Module& mod, int sms_, unsigned smem, int iters_, uint32_t seed_,
                const cu::DeviceBuffer& buf, uint32_t buf_vecs_)
        : f(mod.function(v.name.c_str())), sms(sms_), threads(v.threads()), iters(iters_), seed(seed_), buf_vecs(buf_vecs_),
          sink(static_cast<size_t>(sms_) * v.threads() * 4), cycles(static_cast<size_t>(sms_) * 16), pb(buf.get()), ps(sink.get()),
          pc(cycles.get()) {
        cu::set_max_dynamic_smem(f, smem);
        shape.grid[0] = static_cast<unsigned>(sms);
        shape.block[0] = static_cast<unsigned>(threads);
        shape.smem_bytes = smem;
        cycles.fill(0);
    }
    ProbeLaunch(const ProbeLaunch&) = delete;  // args point into it
    ProbeLaunch& operator=(const ProbeLaunch&) = delete;

    double median_ms(const cu::Stream& stream, int warmup, int reps) {
        return spmma_bench::median_launch_ms(stream, f, sms, threads, shape.smem_bytes, args, warmup, reps);
    }
    void launch(const cu::Stream& stream) { cu::launch(f, shape, stream.get(), args); }

    CUfunction f;
    int sms, threads, iters;
    uint32_t seed, buf_vecs;
    cu::DeviceBuffer sink, cycles;
    CUdeviceptr pb, ps, pc;
    void* args[6] = {&iters, &seed, &pb, &buf_vecs, &ps, &pc};
    cu::LaunchShape shape;
};

constexpr uint32_t kRandomSeed = 0x5EED1234u;
constexpr int kSustainedIters = 8192;

// One variant on one kind of data for at least `seconds`: TFLOP/s over all launches, with the
// clock and power NVML saw meanwhile.
void sustained_row(const Variant& v, uint32_t seed, double seconds, const cu::DeviceProperties& props, const cu::Module& mod,
                   const cu::Stream& stream, const cu::DeviceBuffer& buf, uint32_t buf_vecs, unsigned smem) {
    const int sms = props.sm_count;
    ProbeLaunch probe(v, mod, sms, smem, kSustainedIters, seed, buf, buf_vecs);
    const double first_ms = probe.median_ms(stream, 1, 3);
    const int launches = std::max(3, static_cast<int>(std::ceil(seconds * 1e3 / first_ms)));
    std::vector<float> times(static_cast<size_t>(launches));
    spmma::ClockSampler sampler(props.uuid);
    sampler.start();
    cu::timed_runs(stream, 0, launches, times.data(), [] {}, [&] { probe.launch(stream); });
    const nlohmann::json clocks = sampler.stop().to_json();
    const double total_ms = std::accumulate(times.begin(), times.end(), 0.0);
    const double tflops = launch_flops(v, kSustainedIters, sms) * launches / (total_ms * 1e-3) / 1e12;
    if (!clocks.contains("sm_mhz")) {
        std::printf("%-34s %-7s %7d %8.2f %9.0f   (no clock samples: %s)\n", v.name.c_str(), seed ? "random" : "pattern", launches,
                    total_ms * 1e-3, tflops, clocks.value("error", std::string("?")).c_str());
        return;
    }
    const double mhz = clocks["sm_mhz"]["median"];
    const double per_clk = tflops * 1e12 / (sms * mhz * 1e6);
    std::string reasons;
    for (const auto& r : clocks["throttle"]["reasons"]) {
        if (!reasons.empty()) reasons += ',';
        reasons += r.get<std::string>();
    }
    std::printf("%-34s %-7s %7d %8.2f %9.0f %8.0f %8.0f %8.0f %7.1f%%  %s\n", v.name.c_str(), seed ? "random" : "pattern", launches,
                total_ms * 1e-3, tflops, mhz, static_cast<double>(clocks["power_w"]["median"]),
                static_cast<double>(clocks["power_w"]["max"]), 100.0 * per_clk / peak_per_clk(v), reasons.empty() ? "-" : reasons.c_str());
}

// Random f16 pairs (random_operands.hpp) for the A fragments the own-load variants read from
// global memory on random data.
std::vector<uint32_t> random_f16_words(size_t n, uint32_t seed) {
    std::vector<uint32_t> w(n);
    uint64_t x = seed;
    for (auto& v : w) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        v = spmma_rate::f16x2_from_bits(static_cast<uint32_t>(x >> 32));
    }
    return w;
}

int sustained(double seconds, const cu::DeviceProperties& props, const cu::Module& mod, const cu::Stream& stream,
              cu::DeviceBuffer& buf, uint32_t buf_vecs, unsigned smem) {
    std::printf("%s, %d SMs; each variant launched back to back for at least %g s (%d k stages per warpgroup per launch)\n",
                props.name.c_str(), props.sm_count, seconds, kSustainedIters);
    std::printf("%-34s %-7s %7s %8s %9s %8s %8s %8s %8s  %s\n", "variant", "data", "launches", "timed s", "TFLOP/s", "SM MHz",
                "power W", "max W", "of peak", "throttle reasons (any sample)");
    const char* names[] = {"rate_sp_f16_n256_wg2", "rate_sp_f16_n256_wg2_areg", "rate_sp_f16_n256_wg2_areg_own",
                           "rate_sp_f16_n256_wg2_areg_own_na", "rate_sp_f16_n256_wg2_areg_own_deep",
                           "rate_sp_f16_n256_wg2_areg_own_lds", "rate_sp_f16_n256_wg2_tma", "rate_dense_f16_n256_wg2",
                           "rate_sp_e4m3_n256_wg2", "rate_sp_e4m3_n256_wg2_tma", "rate_dense_e4m3_n256_wg2"};
    for (uint32_t seed : {0u, kRandomSeed}) {
        if (seed) {
            const auto words = random_f16_words(static_cast<size_t>(buf_vecs) * 4, seed);
            buf.upload(words.data(), words.size() * 4);
        } else {
            buf.fill(0x3C);
        }
        for (const char* name : names)
            for (const Variant& v : variants())
                if (v.name == name) sustained_row(v, seed, seconds, props, mod, stream, buf, buf_vecs, smem);
    }
    std::printf("TFLOP/s: dense-equivalent, all launches' flops over their summed event times; SM MHz and power: medians of\n"
                "NVML samples every 10 ms while they ran; of peak: flop/clk/SM at that median clock against the datasheet rate\n"
                "(NVML's clock reads about 10 %% above the one the kernels see: the clock64 table's share is the kernels' own).\n");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const bool is_sustained = argc > 2 && std::strcmp(argv[1], "--sustained") == 0;
    // The kernels run stages in rings of 2, 4 or 8 (register sets taken in turn).
    const int iters = !is_sustained && argc > 1 ? std::atoi(argv[1]) & ~7 : 8192;
    if (iters <= 0 || (is_sustained && std::atof(argv[2]) <= 0)) {
        std::fprintf(stderr, "usage: spmma-bench-sm90a-wgmma [iterations (a multiple of 8, > 0)] | --sustained SECONDS\n");
        return 2;
    }
    const auto gpu = spmma_bench::probe_gpu([](const cu::DeviceProperties& p) { return p.major == 9 && p.minor == 0; },
                                            "sm_90");
    if (!gpu) return 3;
    const cu::DeviceProperties& props = *gpu;
    cu::Context ctx(0);
    cu::Module mod(SPMMA_FATBIN(sm90a_wgmma_rate));
    cu::Stream stream;
    const int sms = props.sm_count;
    const unsigned smem = 200 * 1024;  // one CTA per SM whatever the variant
    // The streaming warpgroups read a 16 MiB buffer (L2 holds it) round and round.
    const uint32_t buf_vecs = 1u << 20;
    cu::DeviceBuffer buf(static_cast<size_t>(buf_vecs) * 16);
    buf.fill(0x3C);
    if (is_sustained) return sustained(std::atof(argv[2]), props, mod, stream, buf, buf_vecs, smem);
    std::printf("%s, %d SMs; %d k stages (64 f16 / 128 fp8 of k) per warpgroup, one group in flight\n",
                props.name.c_str(), sms, iters);
    std::printf("%-34s %12s %8s %9s %13s %13s\n", "variant", "flop/clk/SM", "of peak", "TFLOP/s", "smem B/clk/SM",
                "stream B/clk");
    for (const Variant& v : variants()) {
        ProbeLaunch probe(v, mod, sms, smem, iters, 0, buf, buf_vecs);
        const double ms = probe.median_ms(stream, 2, 5);
        std::vector<long long> cyc(static_cast<size_t>(sms) * 2);
        probe.cycles.download(cyc.data(), cyc.size() * 8);
        std::vector<double> wg_cycles, stream_rate;
        for (int c = 0; c < sms; ++c) {
            wg_cycles.push_back(static_cast<double>(cyc[2 * c]));
            if (v.stream) stream_rate.push_back(static_cast<double>(cyc[2 * c + 1]) / static_cast<double>(cyc[2 * c]));
        }
        std::sort(wg_cycles.begin(), wg_cycles.end());
        std::sort(stream_rate.begin(), stream_rate.end());
        const double med_cycles = wg_cycles[wg_cycles.size() / 2];
        const double per_clk = launch_flops(v, iters, sms) / sms / med_cycles;
        const double peak = peak_per_clk(v);
        const double tflops = launch_flops(v, iters, sms) / (ms * 1e-3) / 1e12;
        // Shared memory the instructions read per k stage: B (N rows x 128 B) and A (64 rows x
        // 64 B sparse, 128 B dense; none from registers) per warpgroup.
        const double a_bytes = v.areg ? 0.0 : 64.0 * (v.sparse ? 64 : 128);
        const double bytes_clk = (v.n * 128.0 + a_bytes) * iters * v.wg / med_cycles;
        char streamed[32] = "-";
        if (v.stream) std::snprintf(streamed, sizeof streamed, "%.1f", stream_rate[stream_rate.size() / 2]);
        std::printf("%-34s %12.0f %7.1f%% %9.0f %13.1f %13s\n", v.name.c_str(), per_clk, 100.0 * per_clk / peak, tflops,
                    bytes_clk, streamed);
    }
    return 0;
}
