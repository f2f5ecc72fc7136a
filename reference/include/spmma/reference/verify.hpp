// Verification of a plugin's D against the CPU reference: full or sampled, per-type tolerances
// (tolerance.hpp).
#pragma once

#include <spmma/plugin.h>

#include <cstdint>
#include <string>
#include <vector>

namespace spmma::reference {

// A problem and its operands exactly as they cross the ABI (canonical layouts of plugin.h).
struct GemmInput {
    spmma_problem problem{};
    spmma_operands operands{};
};

enum class VerifyMode { Full, Sampled, Auto, None };
const char* to_string(VerifyMode m);
bool parse_verify_mode(const std::string& s, VerifyMode& out);

struct VerifyOptions {
    VerifyMode mode = VerifyMode::Auto;
    int64_t samples = 4096;       // sampled: about this many elements, a grid of rows x columns
    uint64_t seed = 1;            // which elements are sampled
    double full_max_macs = 2.0e9; // auto: full when the sparse multiply-adds (m*n*k/2) are at most this
};

// The reference values of the checked elements, computed once per problem and reused for every
// plugin's D.
struct Expected {
    VerifyMode mode = VerifyMode::Full; // Full or Sampled (Auto resolved)
    int64_t m = 0, n = 0;
    std::vector<int64_t> index;         // sampled: flat indices i*n+j checked, increasing; full: empty (all)
    // Floating problems: the exact alpha*A*B + beta*C before conversion to d_type.
    // Integer problems: the s32 result itself (wrapped, or clamped with saturate).
    std::vector<double> value;
    std::vector<double> tolerance;      // allowed |D - value| for that element (0: bit-exact)
    std::string tolerance_rule;         // human-readable, from the one tolerance table
};

struct Mismatch {
    int64_t i = 0, j = 0;
    double got = 0, expected = 0, tolerance = 0;
};

struct Verdict {
    bool passed = false;
    std::string mode;            // "full" or "sampled"
    int64_t checked = 0;
    int64_t mismatches = 0;      // elements outside their tolerance, NaNs included
    int64_t nan_count = 0;       // NaN in D (always a failure)
    double max_abs_error = 0;    // over the checked elements with finite D and reference
    double max_rel_error = 0;    // |D - ref| / |ref| over those with ref != 0
    std::vector<Mismatch> first; // the first mismatches, in index order
    std::string tolerance_rule;
    double max_tolerance_ratio = 0; // max |D - ref| / tolerance (finite, tolerance > 0): the headroom
};

// Auto resolved by size (full up to full_max_macs sparse multiply-adds); None stays None.
VerifyMode resolve_mode(const VerifyOptions& options, int64_t m, int64_t n, int64_t k);

// The flat indices (i * n + j) a sampled check reads, increasing, without duplicates: every
// element where one of R rows meets one of C columns, R x C about `samples` (R and C near its
// square root, fewer when m or n is smaller). The first and last row and column are always among
// them (the tiles at the edges, where tails are handled), the rest are random: a function of m, n
// and the seed. So the reference reads only R rows of A and C columns of B, and a plugin's
// download_elements only R x C elements of D.
struct SampleGrid {
    std::vector<int64_t> rows, cols;  // increasing
};
SampleGrid sample_grid(int64_t m, int64_t n, const VerifyOptions& options);
std::vector<int64_t> sample_indices(int64_t m, int64_t n, const VerifyOptions& options);

// The reference for `input` under `options` (the expensive part; OpenMP-parallel). Throws
// std::invalid_argument for operands that do not match the problem (sizes, index bytes).
Expected compute_expected(const GemmInput& input, const VerifyOptions& options);

// Checks a canonical D buffer (d_type, row-major m x n) against `expected`.
// A floating element passes when |D - value| <= tolerance; when value overflows d_type
// (|value| - tolerance past the rounding threshold to infinity), an infinity of value's sign
// passes too; a NaN in D never passes, nor does any D where value is NaN; an infinite value
// needs the same infinity.
// With `compact`, d holds only the checked elements, in the order of expected.index (what a
// plugin's download_elements returns for a sampled check).
Verdict check(const GemmInput& input, const Expected& expected, const void* d, int max_report = 8, bool compact = false);

}  // namespace spmma::reference
