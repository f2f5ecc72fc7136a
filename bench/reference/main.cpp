// spmma-bench-reference: how fast the CPU reference is. For each size and type it times
//   gemm_full            the blocked sparse reference (values only)
//   expected full        compute_expected in full mode (values, |a*b| sums, tolerances)
//   expected sampled     compute_expected in sampled mode (default sample counts)
//   triple loop          a plain i-j-k loop over the dense decompressed A (decoded to double,
//                        OpenMP over rows): timed on a slice of rows, scaled to all rows
// and prints seconds and dense-equivalent GFLOP/s (2*m*n*k / time; the sparse reference does
// half the multiplies). Operands are random codes with random valid index bytes.
//
//   spmma-bench-reference [--sizes 2048,4096] [--types f16,s8,e2m1] [--threads N] [--slice ROWS]
#include <spmma/reference/gemm.hpp>
#include <spmma/reference/verify.hpp>
#include <spmma/types.hpp>

#include <omp.h>

#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace spmma;

namespace {

uint64_t hash(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

struct Problem {
    spmma_problem p{};
    std::vector<uint8_t> a_values, a_indices, b, scale_a, scale_b;
    reference::GemmInput input() const {
        reference::GemmInput in;
        in.problem = p;
        in.operands.struct_size = sizeof in.operands;
        in.operands.a_values = a_values.data();
        in.operands.a_values_bytes = a_values.size();
        in.operands.a_indices = a_indices.data();
        in.operands.a_indices_bytes = a_indices.size();
        in.operands.b = b.data();
        in.operands.b_bytes = b.size();
        if (!scale_a.empty()) {
            in.operands.scale_a = scale_a.data();
            in.operands.scale_a_bytes = scale_a.size();
            in.operands.scale_b = scale_b.data();
            in.operands.scale_b_bytes = scale_b.size();
        }
        return in;
    }
};

void fill(DType t, std::vector<uint8_t>& buf, int64_t count, uint64_t stream) {
    buf.assign(storage_bytes(t, count), 0);
    const bool nibbles = info(t).storage_bits == 4;
#pragma omp parallel for schedule(static)
    for (int64_t x0 = 0; x0 < count; x0 += 2)
        for (int64_t x = x0; x < std::min(count, x0 + 2); ++x) {
            const double u = static_cast<double>(hash(stream * 0x100000000ull + static_cast<uint64_t>(x)) >> 11) * 0x1p-53;
            double v = is_integer(t) ? std::floor(u * 16) - (info(t).is_signed ? 8 : 0) : 2 * u - 1;
            if (t == DType::E2M1) v *= 6;
            store_code(t, buf.data(), x, encode(t, v));
            if (!nibbles) break;
        }
}

Problem make(DType t, int64_t size) {
    Problem pr;
    spmma_problem& p = pr.p;
    p.struct_size = sizeof p;
    p.m = p.n = p.k = size;
    p.a_type = p.b_type = static_cast<spmma_dtype>(t);
    const bool integer = is_integer(t);
    p.acc_type = integer ? SPMMA_S32 : SPMMA_F32;
    p.c_type = p.d_type = integer ? SPMMA_S32 : SPMMA_BF16;
    p.pattern = (t == DType::E2M1) ? SPMMA_PATTERN_4_8_PAIRWISE : SPMMA_PATTERN_2_4;
    p.alpha = 1;
    p.beta = 0;
    if (t == DType::E2M1) {
        p.scale_type = SPMMA_UE8M0;
        p.scale_block = 32;
        pr.scale_a.resize(static_cast<size_t>(size * size / 32));
        pr.scale_b.resize(pr.scale_a.size());
        for (size_t x = 0; x < pr.scale_a.size(); ++x) {
            pr.scale_a[x] = static_cast<uint8_t>(125 + hash(x) % 5);
            pr.scale_b[x] = static_cast<uint8_t>(125 + hash(x + 7) % 5);
        }
    }
    fill(t, pr.a_values, size * size / 2, 1);
    fill(t, pr.b, size * size, 2);
    const int g = spmma_pattern_group(p.pattern);
    pr.a_indices.resize(static_cast<size_t>(size * (size / g)));
    static const uint8_t pairs[6] = {0x4, 0x8, 0xc, 0x9, 0xd, 0xe};
    for (size_t x = 0; x < pr.a_indices.size(); ++x) pr.a_indices[x] = pairs[hash(x + 99) % 6];
    return pr;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// CPU seconds of the whole process (all threads): with other jobs on the machine, wall time
// overstates the cost; cpu / threads is what an idle machine's wall time would be.
double cpu_seconds() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// The plain triple loop over rows [0, rows) of the dense decompressed A (decoded to double,
// row-major) and B (decoded, column-major): D[i][j] = sum_kk A[i][kk] * B[kk][j].
double triple_loop_seconds(const Problem& pr, int64_t rows) {
    const auto& p = pr.p;
    const int64_t n = p.n, k = p.k;
    const DType t = static_cast<DType>(p.a_type);
    const int g = spmma_pattern_group(p.pattern);
    std::vector<double> a(static_cast<size_t>(rows * k), 0.0), b(static_cast<size_t>(k * n)), d(static_cast<size_t>(rows * n));
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t grp = 0; grp < k / g; ++grp) {
            const uint8_t idx = pr.a_indices[static_cast<size_t>(i * (k / g) + grp)];
            const int lo = idx & 3, hi = (idx >> 2) & 3;
            const int pos[4] = {g == 8 ? 2 * lo : lo, g == 8 ? 2 * lo + 1 : hi, 2 * hi, 2 * hi + 1};
            for (int r = 0; r < g / 2; ++r)
                a[static_cast<size_t>(i * k + grp * g + pos[r])] = decode(t, load_code(t, pr.a_values.data(), i * (k / 2) + grp * (g / 2) + r));
        }
    for (int64_t x = 0; x < k * n; ++x) b[static_cast<size_t>(x)] = decode(t, load_code(t, pr.b.data(), x));
    const auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < n; ++j) {
            double s = 0;
            for (int64_t kk = 0; kk < k; ++kk) s += a[static_cast<size_t>(i * k + kk)] * b[static_cast<size_t>(j * k + kk)];
            d[static_cast<size_t>(i * n + j)] = s;
        }
    const double sec = seconds_since(t0);
    volatile double sink = d[0];
    (void)sink;
    return sec;
}

std::vector<std::string> split(const char* s) {
    std::vector<std::string> out;
    std::string cur;
    for (; *s; ++s) {
        if (*s == ',') {
            out.push_back(cur);
            cur.clear();
        } else {
            cur.push_back(*s);
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int64_t> sizes = {2048, 4096};
    std::vector<DType> types = {DType::F16};
    int64_t slice = 64;
    for (int x = 1; x < argc; ++x) {
        const std::string arg = argv[x];
        if (arg == "--sizes" && x + 1 < argc) {
            sizes.clear();
            for (auto& s : split(argv[++x])) sizes.push_back(std::stoll(s));
        } else if (arg == "--types" && x + 1 < argc) {
            types.clear();
            for (auto& s : split(argv[++x])) {
                auto t = parse_dtype(s);
                if (!t || !(t == DType::F16 || t == DType::BF16 || t == DType::E4M3 || t == DType::E2M1 || t == DType::S8 || t == DType::U8)) {
                    std::fprintf(stderr, "unsupported type %s (f16, bf16, e4m3, e2m1 (scaled 4:8), s8, u8)\n", s.c_str());
                    return 2;
                }
                types.push_back(*t);
            }
        } else if (arg == "--threads" && x + 1 < argc) {
            omp_set_num_threads(std::atoi(argv[++x]));
        } else if (arg == "--slice" && x + 1 < argc) {
            slice = std::atoll(argv[++x]);
        } else {
            std::fprintf(stderr, "usage: %s [--sizes 2048,4096] [--types f16,s8,e2m1] [--threads N] [--slice ROWS]\n", argv[0]);
            return 2;
        }
    }
    const int threads = omp_get_max_threads();
    std::printf("spmma-bench-reference: %d threads; GFLOP/s = dense-equivalent 2*m*n*k / wall seconds;\n"
                "cpu/thr = process CPU seconds / threads (the wall time of an otherwise idle machine)\n",
                threads);
    std::printf("%-6s %-7s %-17s %9s %9s %9s  %s\n", "type", "m=n=k", "what", "wall s", "cpu/thr s", "GFLOP/s", "note");
    for (DType t : types)
        for (int64_t size : sizes) {
            const Problem pr = make(t, size);
            const auto in = pr.input();
            const double flops = 2.0 * static_cast<double>(size) * static_cast<double>(size) * static_cast<double>(size);
            const auto row = [&](const char* what, double wall, double cpu, const std::string& note) {
                std::printf("%-6s %-7lld %-17s %9.3f %9.3f %9.2f  %s\n", name(t), static_cast<long long>(size), what, wall, cpu / threads,
                            flops / wall * 1e-9, note.c_str());
                std::fflush(stdout);
            };
            auto t0 = std::chrono::steady_clock::now();
            double c0 = cpu_seconds();
            auto v = reference::gemm_full(in);
            row("gemm_full", seconds_since(t0), cpu_seconds() - c0, "sparse: k/2 multiplies per element");
            v = {};
            reference::VerifyOptions o;
            o.mode = reference::VerifyMode::Full;
            t0 = std::chrono::steady_clock::now();
            c0 = cpu_seconds();
            auto ex = reference::compute_expected(in, o);
            row("expected full", seconds_since(t0), cpu_seconds() - c0, "values, sums of |a*b|, tolerances");
            ex = {};
            o.mode = reference::VerifyMode::Sampled;
            t0 = std::chrono::steady_clock::now();
            c0 = cpu_seconds();
            ex = reference::compute_expected(in, o);
            row("expected sampled", seconds_since(t0), cpu_seconds() - c0, std::to_string(ex.index.size()) + " elements");
            ex = {};
            const int64_t rows = std::min<int64_t>(slice, size);
            c0 = cpu_seconds();
            const double part = triple_loop_seconds(pr, rows);
            const double cpu_part = cpu_seconds() - c0;  // includes the decoding before the loop
            const double scale = static_cast<double>(size) / static_cast<double>(rows);
            row("triple loop", part * scale, cpu_part * scale,
                "dense k multiplies; " + std::to_string(rows) + " rows timed, scaled to " + std::to_string(size));
        }
    return 0;
}
