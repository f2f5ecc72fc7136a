// spmma-bench-dram: how fast a GPU's DRAM can be read at all, with the L2 flush and event timing
// of a GEMM record (the kit's flush kernel before each timed launch, one event pair around it).
// Two tables:
//   sizes    the whole GPU (one CTA an SM) reading 8-512 MiB with 16-byte loads and with 1-D bulk
//            copies: time, bytes/s, the share of the DRAM peak the plugins' % SOL divides by, and
//            a fit time = t0 + bytes / rate over the sizes of 64 MiB and more: the launch's fixed
//            cost and the rate a long read sustains;
//   per CTA  1 to all SMs, one CTA each, every CTA reading its own 4 MiB: with loads (1024 and 256
//            threads) and bulk copies (one thread issuing and waiting, or the GEMM kernels'
//            producer / consumer barriers: "split"); then tensor copies of 128-row boxes 64 and
//            128 bytes wide by the pitch of the matrix's rows (64: each box one contiguous run;
//            the decode layers' compressed rows of 4096-28672 bytes), the ring's depth, the
//            element type, the number of tensor maps and the barrier form: what one SM takes in,
//            and from how many SMs on DRAM is the limit.
// Device 0 must be sm_90 or newer (bulk and tensor copies); exits 3 without one.
//   spmma-bench-dram [iterations]   (default 30 timed launches a figure, after 3 warm-up ones)
#include <spmma_plugin/cuda_driver.hpp>
#include <spmma_plugin/cuda_gemm.hpp>
#include <spmma_plugin/l2_flush.hpp>
#include <spmma_plugin/tensor_map.hpp>

#include "../common/probe_gpu.hpp"
#include "dram_read.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

SPMMA_DECLARE_FATBIN(dram_read)

namespace cu = spmma_plugin::cuda;
using spmma_bench::ring_smem_bytes;
using spmma_bench::TensorMaps;

namespace {

constexpr size_t kMiB = size_t(1) << 20;
constexpr size_t kPerCta = 4 * kMiB;
constexpr unsigned kChunk = 16 * 1024;  // a bulk copy
constexpr unsigned kBulkStages = 8;
constexpr unsigned kBandRows = 128;     // a tensor-copy band: the decode tiles' 128 rows

// The median of `iterations` timed launches, each after the kit's L2 flush (what a record with
// --flush-l2 times).
class Timer {
public:
    Timer(const cu::DeviceProperties& props, int iterations)
        : flush_mod_(cu::L2Flush::image()), flush_(props, flush_mod_), iterations_(iterations) {}
    template <class Launch>
    double median_ms(Launch&& launch) {
        std::vector<float> t(static_cast<size_t>(iterations_));
        cu::timed_runs(stream_, 3, iterations_, t.data(), [&] { flush_.enqueue(stream_.get()); },
                       [&] { launch(stream_.get()); });
        std::sort(t.begin(), t.end());
        return t[t.size() / 2];
    }

private:
    cu::Stream stream_;
    cu::Module flush_mod_;
    cu::L2Flush flush_;
    int iterations_;
};

struct Kernels {
    explicit Kernels(const cu::Module& m)
        : ld(m.function("dram_read_ld")), bulk(m.function("dram_read_bulk")), tma(m.function("dram_read_tma")) {}
    CUfunction ld, bulk, tma;
};

// A read of `bytes` from `buf` on `ctas` CTAs by one of the three kernels; returns its median ms.
struct Reader {
    Timer& timer;
    const Kernels& k;
    CUdeviceptr buf, sink;

    double loads(size_t bytes, unsigned ctas, unsigned threads) {
        unsigned long long vecs = bytes / 16;
        void* args[] = {&buf, &vecs, &sink};
        cu::LaunchShape s;
        s.grid[0] = ctas;
        s.block[0] = threads;
        return timer.median_ms([&](CUstream st) { cu::launch(k.ld, s, st, args); });
    }
    double bulk(size_t bytes, unsigned ctas, bool split = false) {
        unsigned long long b = bytes;
        unsigned chunk = kChunk, stages = kBulkStages, sp = split;
        void* args[] = {&buf, &b, &chunk, &stages, &sp};
        cu::LaunchShape s;
        s.grid[0] = ctas;
        s.block[0] = 64;
        s.smem_bytes = ring_smem_bytes(kChunk, kBulkStages);
        return timer.median_ms([&](CUstream st) { cu::launch(k.bulk, s, st, args); });
    }
    // Tensor copies of boxes kBandRows rows by box_cols bytes from a row-major matrix whose rows
    // are `pitch` bytes (a weight's compressed rows: k bytes for 16-bit types, k / 2 for 8-bit),
    // every CTA reading bands of kBandRows rows (about kPerCta bytes a CTA); returns the median ms
    // and the bytes read.
    std::pair<double, size_t> tensor(unsigned ctas, uint64_t pitch, unsigned box_cols, unsigned stages,
                                     CUtensorMapSwizzle swizzle, CUtensorMapDataType dtype = CU_TENSOR_MAP_DATA_TYPE_UINT8,
                                     unsigned maps = 1, bool split = false) {
        const uint64_t band_bytes = pitch * kBandRows;
        const unsigned eb = static_cast<unsigned>(cu::tensor_map_elem_bytes(dtype));
        unsigned bands = ctas * static_cast<unsigned>(std::max<uint64_t>(1, kPerCta / band_bytes));
        TensorMaps tm{};
        tm.count = maps;
        for (unsigned i = 0; i < maps; ++i)
            tm.map[i] = cu::encode_tensor_map(cu::row_major_map("probe", dtype, buf, pitch / eb, uint64_t(bands) * kBandRows,
                                                                box_cols / eb, kBandRows, swizzle));
        unsigned boxes = static_cast<unsigned>(pitch / box_cols), bc = box_cols / eb, br = kBandRows,
                 box_bytes = box_cols * kBandRows, st = stages, sp = split;
        void* args[] = {&tm, &bands, &boxes, &bc, &br, &box_bytes, &st, &sp};
        cu::LaunchShape s;
        s.grid[0] = ctas;
        s.block[0] = 64;
        s.smem_bytes = ring_smem_bytes(box_bytes, stages);
        const double ms = timer.median_ms([&](CUstream stm) { cu::launch(k.tma, s, stm, args); });
        return {ms, size_t(bands) * band_bytes};
    }
};

double tb_per_s(size_t bytes, double ms) { return double(bytes) / (ms * 1e-3) / 1e12; }

void sizes_table(Reader& r, const cu::DeviceProperties& p) {
    const double peak = p.dram_bytes_per_s() / 1e12;
    std::printf("\nsizes: the whole GPU (%d CTAs, one an SM) reading a buffer once\n", p.sm_count);
    std::printf("%8s | %9s %7s %6s | %9s %7s %6s\n", "MiB", "loads us", "TB/s", "% peak", "bulk us", "TB/s", "% peak");
    std::vector<double> xs, ys;
    for (size_t mib : {8, 16, 32, 64, 128, 256, 512}) {
        const size_t bytes = mib * kMiB;
        const double ld = r.loads(bytes, static_cast<unsigned>(p.sm_count), 1024);
        const double bk = r.bulk(bytes, static_cast<unsigned>(p.sm_count));
        std::printf("%8zu | %9.2f %7.3f %6.1f | %9.2f %7.3f %6.1f\n", mib, ld * 1e3, tb_per_s(bytes, ld),
                    100 * tb_per_s(bytes, ld) / peak, bk * 1e3, tb_per_s(bytes, bk), 100 * tb_per_s(bytes, bk) / peak);
        if (mib >= 64) {
            xs.push_back(double(bytes));
            ys.push_back(ld * 1e-3);
        }
    }
    // Least squares t = t0 + bytes / rate over the long reads.
    const double n = double(xs.size());
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
        sx += xs[i];
        sy += ys[i];
        sxx += xs[i] * xs[i];
        sxy += xs[i] * ys[i];
    }
    const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx), t0 = (sy - slope * sx) / n;
    std::printf("fit over 64-512 MiB (loads): time = %.2f us + bytes / %.3f TB/s (%.1f %% of the peak %.3f TB/s)\n",
                t0 * 1e6, 1 / slope / 1e12, 100 / slope / 1e12 / peak, peak);
}

// The CTA counts of the per-CTA tables: 1 to 96, then every SM.
std::vector<unsigned> cta_counts(const cu::DeviceProperties& p) {
    std::vector<unsigned> counts;
    for (unsigned c : {1, 2, 4, 8, 16, 32, 48, 64, 96})
        if (c < unsigned(p.sm_count)) counts.push_back(c);
    counts.push_back(static_cast<unsigned>(p.sm_count));
    return counts;
}

void per_cta_table(Reader& r, const cu::DeviceProperties& p) {
    std::printf("\nper CTA: each of N CTAs (one an SM) reads its own %zu MiB; GB/s a CTA, TB/s in all\n", kPerCta / kMiB);
    std::printf("%5s | %-13s | %-13s | %-13s | %-13s\n", "CTAs", "loads x1024", "loads x256", "bulk 16K s8",
                "bulk split");
    for (unsigned c : cta_counts(p)) {
        const size_t bytes = kPerCta * c;
        const double t[] = {r.loads(bytes, c, 1024), r.loads(bytes, c, 256), r.bulk(bytes, c), r.bulk(bytes, c, true)};
        std::printf("%5u", c);
        for (double ms : t) std::printf(" | %6.1f %6.3f", 1e3 * tb_per_s(kPerCta, ms), tb_per_s(bytes, ms));
        std::printf("\n");
    }
}

void tensor_copy_table(Reader& r, const cu::DeviceProperties& p) {
    // The tensor copies by the matrix's row pitch: 64 (each box one contiguous run), the pitches
    // of the decode layers' compressed rows, and 32768; 12 stages of 64-byte boxes (the decode
    // kernels' A), 8 of 128-byte ones.
    struct Form {
        uint64_t pitch;
        unsigned box_cols, stages;  // box_cols in bytes
        CUtensorMapSwizzle swizzle;
        CUtensorMapDataType dtype = CU_TENSOR_MAP_DATA_TYPE_UINT8;
        unsigned maps = 1;
        bool split = false;
    };
    const Form forms[] = {{64, 64, 12, CU_TENSOR_MAP_SWIZZLE_64B},      {4096, 64, 12, CU_TENSOR_MAP_SWIZZLE_64B},
                          {8192, 64, 12, CU_TENSOR_MAP_SWIZZLE_64B},    {14336, 64, 12, CU_TENSOR_MAP_SWIZZLE_64B},
                          {28672, 64, 12, CU_TENSOR_MAP_SWIZZLE_64B},   {32768, 64, 12, CU_TENSOR_MAP_SWIZZLE_64B},
                          {28672, 64, 24, CU_TENSOR_MAP_SWIZZLE_64B},   {28672, 128, 8, CU_TENSOR_MAP_SWIZZLE_128B},
                          {8192, 128, 8, CU_TENSOR_MAP_SWIZZLE_128B},
                          {28672, 64, 12, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_DATA_TYPE_UINT16},
                          {28672, 64, 12, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_DATA_TYPE_UINT32},
                          {28672, 64, 12, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2},
                          {28672, 64, 12, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_DATA_TYPE_UINT8, 4},
                          {28672, 64, 12, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, true},
                          {28672, 128, 8, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, true}};
    std::printf("\ntensor copies of %u-row boxes, by the rows' pitch (bytes) and the box's width; GB/s a CTA, TB/s in all\n",
                kBandRows);
    std::printf("%5s", "CTAs");
    for (const Form& f : forms)
        std::printf(" | p%-5llu %3uB s%-2u%s%s%s", (unsigned long long)f.pitch, f.box_cols, f.stages,
                    f.dtype == CU_TENSOR_MAP_DATA_TYPE_UINT8 ? "" : f.dtype == CU_TENSOR_MAP_DATA_TYPE_UINT16 ? "u16" : "u32",
                    f.maps == 1 ? "" : f.maps == 2 ? "m2" : "m4", f.split ? " split" : "");
    std::printf("\n");
    for (unsigned c : cta_counts(p)) {
        std::printf("%5u", c);
        for (const Form& f : forms) {
            const auto [ms, bytes] = r.tensor(c, f.pitch, f.box_cols, f.stages, f.swizzle, f.dtype, f.maps, f.split);
            std::printf(" | %6.1f %6.3f", 1e3 * tb_per_s(bytes / c, ms), tb_per_s(bytes, ms));
        }
        std::printf("\n");
    }
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const int iterations = argc > 1 ? std::atoi(argv[1]) : 30;
        if (iterations < 1) {
            std::fprintf(stderr, "usage: spmma-bench-dram [iterations >= 1]\n");
            return 2;
        }
        auto props = spmma_bench::probe_gpu([](const cu::DeviceProperties& p) { return p.major >= 9; }, "sm_90 or newer");
        if (!props) return 3;
        cu::Context ctx(0);
        std::printf("%s: %d SMs, SM clock %d MHz, memory %d MHz x %d bits = %.3f TB/s, L2 %d MiB\n", props->name.c_str(),
                    props->sm_count, props->sm_clock_khz / 1000, props->mem_clock_khz / 1000, props->mem_bus_bits,
                    props->dram_bytes_per_s() / 1e12, props->l2_bytes >> 20);
        cu::Module mod(SPMMA_FATBIN(dram_read));
        Kernels k(mod);
        cu::set_max_dynamic_smem(k.bulk, ring_smem_bytes(kChunk, kBulkStages));
        cu::set_max_dynamic_smem(k.tma, ring_smem_bytes(64 * kBandRows, 24));
        const size_t bytes = std::max<size_t>(512 * kMiB, kPerCta * size_t(props->sm_count));
        cu::DeviceBuffer buf(bytes), sink(sizeof(unsigned));
        buf.fill(0);
        Timer timer(*props, iterations);
        Reader r{timer, k, buf.get(), sink.get()};
        sizes_table(r, *props);
        per_cta_table(r, *props);
        tensor_copy_table(r, *props);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "spmma-bench-dram: %s\n", e.what());
        return 1;
    }
}
