// The full reference GEMM: cache-blocked, register-blocked, OpenMP over rows, multiplying only
// the kept elements of A.
//
// NOTES: the shape of the computation. Row i of the compressed A says, for each kept entry e,
// "value a_e at column kk_e"; D[i, j..j+NR) += a_e * B[kk_e, j..j+NR). So a micro-kernel call
// takes one row and one panel of NR = 16 columns of B (packed as [kk][NR] doubles, 16 KiB for
// KC = 128 values of kk: it stays in L1), broadcasts a_e and gathers the panel's row kk_e: NR/4
// vector FMAs per kept entry, with no multiply spent on A's zeros. Blocking: k in blocks of KC
// (B block KC x n packed once per block, shared by all threads); rows in blocks of MC, one
// OpenMP task each, whose compressed rows are decoded once per k block; inside, panels of NC
// columns (the part of the B block a task sweeps while it stays in L2). The abs-sum variant
// adds |a|*|b| in the same loop (the S of the tolerance) for 8 independent FMA chains; the
// plain one splits the entries in two halves' chains for the same reason.
// Dispatch: an AVX2+FMA body (target attribute) chosen at run time, and a baseline body, from
// the same template: the binary runs on any x86-64. Products are exact in double, so both
// bodies give bit-identical sums.
#include "operand_view.hpp"

#include <omp.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace spmma::reference::detail {
namespace {

constexpr int NR = 16;           // columns per micro-kernel call (4 vectors of 4 doubles)
constexpr int64_t KC = 128;      // k per block (multiple of every group, 8)
constexpr int64_t MC = 16;       // rows per task
constexpr int64_t NC = 256;      // columns per L2 sweep
static_assert(KC % 8 == 0, "a k block must hold whole groups of every pattern (2, 4, 8)");
static_assert(NC % NR == 0, "an L2 sweep is whole panels");

typedef double v4 __attribute__((vector_size(32)));
typedef double v4u __attribute__((vector_size(32), aligned(8)));
typedef long long v4i __attribute__((vector_size(32)));

struct FreeDeleter {
    void operator()(void* p) const { std::free(p); }
};
template <class T>
std::unique_ptr<T[], FreeDeleter> aligned_array(size_t count) {
    const size_t bytes = std::max<size_t>(64, (count * sizeof(T) + 63) / 64 * 64);
    auto* p = static_cast<T*>(std::aligned_alloc(64, bytes));
    if (!p) throw std::bad_alloc();
    return std::unique_ptr<T[], FreeDeleter>(p);
}

// One row x one panel: out[0..cols) (+)= sum_e a[e] * panel[off[e]][0..NR).
template <bool ABS>
__attribute__((always_inline)) inline void micro(const double* a, const int32_t* off, int64_t count, const double* panel,
                                                 double* out, double* out_abs, int cols, bool first) {
    v4 acc[4], acc2[4], sacc[4];
    double tmp[NR], tmp_abs[NR];
    for (int q = 0; q < 4; ++q) acc[q] = acc2[q] = sacc[q] = v4{0, 0, 0, 0};
    const v4i mask = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
    if constexpr (ABS) {
        for (int64_t e = 0; e < count; ++e) {
            const double s = a[e];
            const v4 av = {s, s, s, s};
            const v4 aa = (v4)((v4i)av & mask);
            const double* b = panel + off[e];
#pragma GCC unroll 4
            for (int q = 0; q < 4; ++q) {
                const v4 bv = *reinterpret_cast<const v4*>(b + 4 * q);
                acc[q] += av * bv;
                sacc[q] += aa * (v4)((v4i)bv & mask);
            }
        }
    } else {
        const int64_t half = count / 2;
        for (int64_t e = 0; e < half; ++e) {
            const double s0 = a[e], s1 = a[half + e];
            const v4 a0 = {s0, s0, s0, s0}, a1 = {s1, s1, s1, s1};
            const double* b0 = panel + off[e];
            const double* b1 = panel + off[half + e];
#pragma GCC unroll 4
            for (int q = 0; q < 4; ++q) {
                acc[q] += a0 * *reinterpret_cast<const v4*>(b0 + 4 * q);
                acc2[q] += a1 * *reinterpret_cast<const v4*>(b1 + 4 * q);
            }
        }
        for (int64_t e = 2 * half; e < count; ++e) {
            const double s = a[e];
            const v4 av = {s, s, s, s};
            for (int q = 0; q < 4; ++q) acc[q] += av * *reinterpret_cast<const v4*>(panel + off[e] + 4 * q);
        }
        for (int q = 0; q < 4; ++q) acc[q] += acc2[q];
    }
    if (cols == NR && !first) {
        for (int q = 0; q < 4; ++q) {
            *reinterpret_cast<v4u*>(out + 4 * q) += acc[q];
            if constexpr (ABS) *reinterpret_cast<v4u*>(out_abs + 4 * q) += sacc[q];
        }
    } else if (cols == NR) {
        for (int q = 0; q < 4; ++q) {
            *reinterpret_cast<v4u*>(out + 4 * q) = acc[q];
            if constexpr (ABS) *reinterpret_cast<v4u*>(out_abs + 4 * q) = sacc[q];
        }
    } else {
        for (int q = 0; q < 4; ++q) {
            *reinterpret_cast<v4u*>(tmp + 4 * q) = acc[q];
            if constexpr (ABS) *reinterpret_cast<v4u*>(tmp_abs + 4 * q) = sacc[q];
        }
        for (int c = 0; c < cols; ++c) {
            out[c] = first ? tmp[c] : out[c] + tmp[c];
            if constexpr (ABS) out_abs[c] = first ? tmp_abs[c] : out_abs[c] + tmp_abs[c];
        }
    }
}

// One task: rows [i0, i1) of one k block against the packed B block.
struct TaskArgs {
    const double* a;        // rows x count decoded values
    const int32_t* off;     // rows x count offsets into a panel: (kk - kc0) * NR
    int64_t count;          // kept entries per row in this k block
    int64_t rows;
    const double* bblock;   // panels of KC x NR
    int64_t panel_stride;   // doubles per panel
    int64_t n;
    double* acc;            // row i0's first element
    double* abs;            // may be null
    bool first;             // first k block: store instead of add
};

template <bool ABS>
__attribute__((always_inline)) inline void task_body(const TaskArgs& t) {
    for (int64_t j0 = 0; j0 < t.n; j0 += NC) {
        const int64_t j1 = std::min(t.n, j0 + NC);
        for (int64_t j = j0; j < j1; j += NR) {
            const double* panel = t.bblock + (j / NR) * t.panel_stride;
            const int cols = static_cast<int>(std::min<int64_t>(NR, t.n - j));
            for (int64_t r = 0; r < t.rows; ++r)
                micro<ABS>(t.a + r * t.count, t.off + r * t.count, t.count, panel, t.acc + r * t.n + j,
                           ABS ? t.abs + r * t.n + j : nullptr, cols, t.first);
        }
    }
}

__attribute__((target("avx2,fma"))) void task_avx2(const TaskArgs& t, bool abs) {
    if (abs) task_body<true>(t);
    else task_body<false>(t);
}
void task_generic(const TaskArgs& t, bool abs) {
    if (abs) task_body<true>(t);
    else task_body<false>(t);
}

// The AVX2+FMA body where the CPU has both, unless SPMMA_REFERENCE_ISA=baseline asks for the
// baseline body (tests compare the two).
bool use_avx2() {
    static const bool cpu = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    const char* isa = std::getenv("SPMMA_REFERENCE_ISA");
    return cpu && !(isa && std::string(isa) == "baseline");
}

}  // namespace

void accumulate_full(const OperandView& v, double* acc, double* abs, int* row_lsb, int* col_lsb) {
    const int64_t m = v.m, n = v.n, k = v.k;
    const int64_t panels = (n + NR - 1) / NR;
    const int64_t kc_max = std::min(KC, k);
    const int64_t panel_stride = kc_max * NR;
    auto bblock = aligned_array<double>(static_cast<size_t>(panels * panel_stride));
    if (row_lsb) std::fill(row_lsb, row_lsb + m, INT_MAX);
    if (col_lsb) std::fill(col_lsb, col_lsb + n, INT_MAX);
    const bool avx2 = use_avx2();
    const int64_t row_tasks = (m + MC - 1) / MC;

#pragma omp parallel
    {
        std::vector<double> a_buf(static_cast<size_t>(MC * kc_max / 2));
        std::vector<int32_t> off_buf(static_cast<size_t>(MC * kc_max / 2));
        std::vector<int32_t> col_buf(static_cast<size_t>(kc_max / 2));
        for (int64_t kc0 = 0; kc0 < k; kc0 += KC) {
            const int64_t kc1 = std::min(k, kc0 + KC);
            const int64_t kcn = kc1 - kc0;
            // Pack B[kc0..kc1, all columns] into panels, scales applied; zeros past n.
#pragma omp for schedule(static)
            for (int64_t p = 0; p < panels; ++p) {
                double* dst = bblock.get() + p * panel_stride;
                for (int c = 0; c < NR; ++c) {
                    const int64_t j = p * NR + c;
                    int q = INT_MAX;
                    for (int64_t kk = 0; kk < kcn; ++kk) {
                        const double b = j < n ? v.b_value(kc0 + kk, j) : 0.0;
                        dst[kk * NR + c] = b;
                        if (col_lsb) q = std::min(q, lsb_exponent(b));
                    }
                    if (col_lsb && j < n) col_lsb[j] = std::min(col_lsb[j], q);
                }
            }
            // Rows: decode this k block of each row once, then sweep the panels.
#pragma omp for schedule(dynamic, 1)
            for (int64_t task = 0; task < row_tasks; ++task) {
                const int64_t i0 = task * MC, i1 = std::min(m, i0 + MC);
                const int64_t count = kcn / 2;
                for (int64_t i = i0; i < i1; ++i) {
                    double* a = a_buf.data() + (i - i0) * count;
                    int32_t* off = off_buf.data() + (i - i0) * count;
                    v.a_row(i, kc0 / 2, kc1 / 2, a, col_buf.data());
                    int q = INT_MAX;
                    for (int64_t e = 0; e < count; ++e) {
                        off[e] = static_cast<int32_t>((col_buf[e] - kc0) * NR);
                        if (row_lsb) q = std::min(q, lsb_exponent(a[e]));
                    }
                    if (row_lsb) row_lsb[i] = std::min(row_lsb[i], q);
                }
                const TaskArgs t{a_buf.data(), off_buf.data(), count, i1 - i0, bblock.get(), panel_stride, n,
                                 acc + i0 * n, abs ? abs + i0 * n : nullptr, kc0 == 0};
                if (avx2) task_avx2(t, abs != nullptr);
                else task_generic(t, abs != nullptr);
            }
        }
    }
}

RawElement raw_element(const OperandView& v, const double* values, const int32_t* columns, int row_lsb, int64_t j) {
    RawElement r;
    int col_lsb = INT_MAX;
    for (int64_t e = 0; e < v.entries; ++e) {
        const double b = v.b_value(columns[e], j);
        const double p = values[e] * b;
        r.acc += p;
        r.abs += std::fabs(p);
        col_lsb = std::min(col_lsb, lsb_exponent(b));
    }
    r.lsb = (row_lsb == INT_MAX || col_lsb == INT_MAX) ? INT_MAX : row_lsb + col_lsb;
    return r;
}

}  // namespace spmma::reference::detail
