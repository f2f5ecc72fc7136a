// A peer for the sm80 plugin: CUTLASS's Ampere sparse GEMM (cutlass::gemm::device::SparseGemm,
// mma.sp through CUTLASS 2.x) on the standard shapes, f16 x f16 -> f32 accumulate -> f16, three
// tiles, on two operand distributions: uniform random values in [-1, 1) (every mantissa bit in
// play, spmma's default) and small integers in [-2, 2] (what CUTLASS's own examples fill).
// PERF.md's "CUTLASS Ampere sparse" column does not say which data it ran on; this tool times
// both on the same GPU as spmma (bench/NOTES.md, "CUTLASS's Ampere sparse GEMM and spmma's sm80
// kernel, same GPU, same run, both data").
//
// Not part of the build (CUTLASS is not a dependency of spmma): built by hand against a CUTLASS
// checkout's include/ and tools/util/include/ with bench/cutlass/build.sh; bench/sm80/device.sh
// and bench/sm80/ab.sh run it on the GPU machine when bench/device/pack.sh copied it. Each
// timing is the median of 20 event-timed launches after 5 warm-up launches; a sample of 64 D
// elements is checked against a host dot product (uncompressed A row by CUTLASS's own host
// uncompress) before the shape is timed, and a sample beyond tolerance makes the exit status 1.
#include <cutlass/cutlass.h>
#include <cutlass/gemm/device/gemm_sparse.h>
#include <cutlass/util/host_reorder.h>
#include <cutlass/util/host_tensor.h>
#include <cutlass/util/host_uncompress.h>
#include <cutlass/util/reference/host/tensor_fill.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK_CUDA(call)                                                                            \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            std::exit(1);                                                                           \
        }                                                                                           \
    } while (0)

namespace {

using half = cutlass::half_t;
using RowMajor = cutlass::layout::RowMajor;
using ColumnMajor = cutlass::layout::ColumnMajor;
using Epilogue = cutlass::epilogue::thread::LinearCombination<half, 8, float, float>;

template <int BM, int BN, int WM, int WN>
using SparseF16 = cutlass::gemm::device::SparseGemm<
    half, RowMajor, half, ColumnMajor, half, RowMajor, float, cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80,
    cutlass::gemm::GemmShape<BM, BN, 64>, cutlass::gemm::GemmShape<WM, WN, 64>, cutlass::gemm::GemmShape<16, 8, 32>,
    Epilogue, cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<8>, 3>;

// Operand values from a hash of the index: dist 0 uniform in [-1, 1), 1 integers in [-2, 2].
__global__ void fill(half* p, size_t n, uint32_t seed, int dist) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        uint32_t h = uint32_t(i) * 0x9E3779B1u ^ uint32_t(i >> 32) * 0x85EBCA6Bu ^ seed;
        h ^= h >> 15;
        h *= 0x2C1B3C6Du;
        h ^= h >> 12;
        const float v = dist == 0 ? float(h >> 8) * (2.0f / 16777216.0f) - 1.0f : float(int(h % 5u) - 2);
        p[i] = half(v);
    }
}

struct Result {
    double ms = 0;
    double worst_ratio = 0;  // largest |D - reference| / tolerance of the sampled elements
};

template <class Gemm>
Result run(int m, int n, int k, int dist) {
    using ElementE = typename Gemm::ElementE;
    constexpr int kSparse = Gemm::kSparse, kPerE = Gemm::kElementsPerElementE;
    const cutlass::gemm::GemmCoord size(m, n, k);
    half *a = nullptr, *b = nullptr, *d = nullptr;
    CHECK_CUDA(cudaMalloc(&a, size_t(m) * (k / kSparse) * sizeof(half)));
    CHECK_CUDA(cudaMalloc(&b, size_t(k) * n * sizeof(half)));
    CHECK_CUDA(cudaMalloc(&d, size_t(m) * n * sizeof(half)));
    fill<<<1024, 256>>>(a, size_t(m) * (k / kSparse), 1u, dist);
    fill<<<1024, 256>>>(b, size_t(k) * n, 2u, dist);
    CHECK_CUDA(cudaGetLastError());
    // Metadata: CUTLASS's random valid 2:4 indices, reordered into the layout its kernel loads.
    const auto e_extent = cutlass::make_Coord(m, k / kSparse / kPerE);
    cutlass::HostTensor<ElementE, RowMajor> e(e_extent);
    cutlass::HostTensor<ElementE, typename Gemm::LayoutE> e_reordered(e_extent);
    cutlass::reference::host::TensorFillRandomSparseMeta(e.host_view(), 3, Gemm::kMetaSizeInBits);
    cutlass::reorder_meta(e_reordered.host_ref(), e.host_ref(), {m, n, k / kSparse / kPerE});
    e_reordered.sync_device();

    typename Gemm::Arguments args(size, {a, RowMajor(k / kSparse)}, {b, ColumnMajor(k)}, {d, RowMajor(n)},
                                  {d, RowMajor(n)}, e_reordered.device_ref(), {1.0f, 0.0f}, 1);
    Gemm gemm;
    if (gemm.can_implement(args) != cutlass::Status::kSuccess) {
        std::fprintf(stderr, "can_implement failed for %dx%dx%d\n", m, n, k);
        std::exit(1);
    }
    CHECK_CUDA(cudaDeviceSynchronize());
    if (gemm.initialize(args, nullptr) != cutlass::Status::kSuccess || gemm() != cutlass::Status::kSuccess) {
        std::fprintf(stderr, "launch failed\n");
        std::exit(1);
    }
    CHECK_CUDA(cudaDeviceSynchronize());

    // ---- sampled check: 64 elements of D against a host dot product --------------------------------
    Result r;
    std::vector<half> a_row(k / kSparse), a_full(k), b_col(k);
    for (int s = 0; s < 64; ++s) {
        const int i = int((uint64_t(s) * 2654435761u) % uint64_t(m)), j = int((uint64_t(s) * 40503u + 7) % uint64_t(n));
        CHECK_CUDA(cudaMemcpy(a_row.data(), a + size_t(i) * (k / kSparse), a_row.size() * sizeof(half), cudaMemcpyDeviceToHost));
        CHECK_CUDA(cudaMemcpy(b_col.data(), b + size_t(j) * k, b_col.size() * sizeof(half), cudaMemcpyDeviceToHost));
        half got;
        CHECK_CUDA(cudaMemcpy(&got, d + size_t(i) * n + j, sizeof(half), cudaMemcpyDeviceToHost));
        cutlass::uncompress(cutlass::TensorRef<half, RowMajor>(a_full.data(), RowMajor(k)),
                            cutlass::TensorRef<half, RowMajor>(a_row.data(), RowMajor(k / kSparse)),
                            cutlass::TensorRef<ElementE, RowMajor>(e.host_data() + size_t(i) * (k / kSparse / kPerE),
                                                                   RowMajor(k / kSparse / kPerE)),
                            1, k);
        double ref = 0, mag = 0;
        for (int x = 0; x < k; ++x) {
            ref += double(float(a_full[x])) * double(float(b_col[x]));
            mag += std::fabs(double(float(a_full[x])) * double(float(b_col[x])));
        }
        // f16 output: half an ulp of the result plus f32 accumulation error.
        const double tol = std::fabs(ref) * 1e-3 + mag * 1e-6 + 1e-3;
        const double err = std::fabs(double(float(got)) - ref);
        r.worst_ratio = std::max(r.worst_ratio, err / tol);
    }

    // ---- timing: median of 20 launches after 5 -----------------------------------------------------
    cudaEvent_t t0, t1;
    CHECK_CUDA(cudaEventCreate(&t0));
    CHECK_CUDA(cudaEventCreate(&t1));
    for (int w = 0; w < 5; ++w) gemm();
    std::vector<float> times;
    for (int it = 0; it < 20; ++it) {
        CHECK_CUDA(cudaEventRecord(t0));
        gemm();
        CHECK_CUDA(cudaEventRecord(t1));
        CHECK_CUDA(cudaEventSynchronize(t1));
        float ms = 0;
        CHECK_CUDA(cudaEventElapsedTime(&ms, t0, t1));
        times.push_back(ms);
    }
    CHECK_CUDA(cudaGetLastError());
    std::sort(times.begin(), times.end());
    r.ms = times[times.size() / 2];
    CHECK_CUDA(cudaEventDestroy(t0));
    CHECK_CUDA(cudaEventDestroy(t1));
    CHECK_CUDA(cudaFree(a));
    CHECK_CUDA(cudaFree(b));
    CHECK_CUDA(cudaFree(d));
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    struct Shape { int m, n, k; };
    std::vector<Shape> shapes = {{4096, 4096, 4096}, {8192, 8192, 8192}, {16384, 16384, 16384},
                                 {11008, 4096, 4096}, {28672, 4096, 8192}, {8192, 2048, 28672}};
    if (argc > 1) {  // "MxNxK" arguments replace the standard set
        shapes.clear();
        for (int i = 1; i < argc; ++i) {
            Shape s{};
            if (std::sscanf(argv[i], "%dx%dx%d", &s.m, &s.n, &s.k) != 3) {
                std::fprintf(stderr, "bad shape %s (MxNxK)\n", argv[i]);
                return 2;
            }
            shapes.push_back(s);
        }
    }
    cudaDeviceProp prop{};
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    std::printf("%s; CUTLASS SparseGemm f16 x f16 -> f32 acc -> f16, 3 stages; TFLOP/s = 2mnk/t (median of 20)\n", prop.name);
    std::printf("%-18s %-8s %18s %18s %18s   check (max err/tol)\n", "m x n x k", "data", "128x128x64", "128x256x64",
                "256x128x64");
    int failed = 0;
    for (const Shape& s : shapes)
        for (int dist = 0; dist < 2; ++dist) {
            const Result r[3] = {run<SparseF16<128, 128, 64, 64>>(s.m, s.n, s.k, dist),
                                 run<SparseF16<128, 256, 64, 64>>(s.m, s.n, s.k, dist),
                                 run<SparseF16<256, 128, 64, 64>>(s.m, s.n, s.k, dist)};
            const double flop = 2.0 * s.m * s.n * s.k;
            char shape[32];
            std::snprintf(shape, sizeof shape, "%dx%dx%d", s.m, s.n, s.k);
            std::printf("%-18s %-8s", shape, dist == 0 ? "uniform" : "int");
            double worst = 0;
            for (const Result& x : r) {
                std::printf(" %18.0f", flop / (x.ms * 1e-3) / 1e12);
                worst = std::max(worst, x.worst_ratio);
            }
            std::printf("   %.2f%s\n", worst, worst <= 1.0 ? "" : "  FAILED");
            failed += worst > 1.0;
        }
    return failed > 0 ? 1 : 0;
}
