// The sm80 host packing, run through the bit-level mma.sp model: random canonical operands
// (odd m, k not a multiple of the stage, so padding is exercised) are packed by the plugin's
// packer; each mma the kernel issues is rebuilt from the packed buffers exactly as the kernel's
// lanes load them (layout.hpp), run through spmma::isa::mma_sp with the accumulator chained
// across k, and the result must equal a naive GEMM over the decompressed canonical A.
#include <catch2/catch.hpp>

#include <spmma/isa/mma_sp.hpp>
#include <spmma/types.hpp>
#include <spmma_sm80/layout.hpp>
#include <spmma_sm80/op_tags.hpp>
#include <spmma_sm80/pack.hpp>

#include <cstring>
#include <random>
#include <vector>

namespace {

using namespace spmma_sm80;
using spmma::DType;

DType dt(spmma_dtype t) { return static_cast<DType>(t); }

spmma::isa::MmaSp form_of(const OpInfo& op, bool ordered) {
    spmma::isa::MmaSp f;
    f.k = op.family.mma_k();
    f.a = dt(op.a);
    f.b = dt(op.b);
    f.c = f.d = dt(op.acc);
    f.ordered_metadata = ordered;
    f.satfinite = op.satfinite;
    return f;
}

// A random element code: small integers for floats (exact products and sums), the full range
// for integers.
uint32_t random_code(DType t, std::mt19937& rng) {
    if (spmma::is_integer(t)) {
        const auto& ti = spmma::info(t);
        const int lo = ti.is_signed ? -(1 << (ti.bits - 1)) : 0;
        const int hi = ti.is_signed ? (1 << (ti.bits - 1)) - 1 : (1 << ti.bits) - 1;
        return spmma::encode(t, std::uniform_int_distribution<int>(lo, hi)(rng));
    }
    return spmma::encode(t, std::uniform_int_distribution<int>(-4, 4)(rng));
}

// Canonical operands of one problem (plugin.h layouts).
struct Canonical {
    int64_t m, n, k;
    std::vector<uint8_t> values, indices, b;
};

Canonical make_canonical(const OpInfo& op, int64_t m, int64_t n, int64_t k, std::mt19937& rng) {
    const Family& f = op.family;
    Canonical c{m, n, k, {}, {}, {}};
    c.values.assign(static_cast<size_t>(canonical_a_values_bytes(f, m, k)), 0);
    c.indices.assign(static_cast<size_t>(canonical_a_indices_bytes(f, m, k)), 0);
    c.b.assign(static_cast<size_t>(canonical_b_bytes(f, n, k)), 0);
    for (int64_t i = 0; i < m * (k / 2); ++i) spmma::store_code(dt(op.a), c.values.data(), i, random_code(dt(op.a), rng));
    for (int64_t i = 0; i < n * k; ++i) spmma::store_code(dt(op.b), c.b.data(), i, random_code(dt(op.b), rng));
    for (auto& idx : c.indices) {
        if (f.chunk == 2) {
            idx = static_cast<uint8_t>(rng() & 1);
        } else {
            int first = static_cast<int>(rng() % 4), second = static_cast<int>(rng() % 4);
            while (second == first) second = static_cast<int>(rng() % 4);
            if (first > second) std::swap(first, second);
            idx = static_cast<uint8_t>(first | (second << 2));
        }
    }
    return c;
}

// Naive D = A * B over the decompressed canonical A, exact in double.
std::vector<double> naive_gemm(const OpInfo& op, const Canonical& c) {
    const Family& f = op.family;
    const int64_t groups = c.k / f.chunk, kept = f.chunk / 2;
    std::vector<double> d(static_cast<size_t>(c.m * c.n), 0.0);
    for (int64_t i = 0; i < c.m; ++i)
        for (int64_t g = 0; g < groups; ++g) {
            const uint8_t idx = c.indices[static_cast<size_t>(i * groups + g)];
            for (int64_t s = 0; s < kept; ++s) {
                int64_t col;
                if (f.chunk == 2) col = 2 * g + (idx & 1);
                else if (f.chunk == 4) col = 4 * g + (s == 0 ? (idx & 3) : ((idx >> 2) & 3));
                else col = 8 * g + 2 * (s < 2 ? (idx & 3) : ((idx >> 2) & 3)) + (s & 1);
                const double a = spmma::decode(dt(op.a), spmma::load_code(dt(op.a), c.values.data(), i * (c.k / 2) + g * kept + s));
                for (int64_t j = 0; j < c.n; ++j)
                    d[static_cast<size_t>(i * c.n + j)] +=
                        a * spmma::decode(dt(op.b), spmma::load_code(dt(op.b), c.b.data(), j * c.k + col));
            }
        }
    return d;
}

uint32_t word_at(const uint8_t* p) {
    uint32_t w;
    std::memcpy(&w, p, 4);
    return w;
}

double acc_value(DType acc, uint32_t bits) {
    if (acc == DType::S32) return static_cast<double>(static_cast<int32_t>(bits));
    return spmma::decode(acc, bits);
}

// Packs `c` for CTA rows bm (and a CTA width of 8, one B atom), then runs every mma of every
// 16x8 output atom through the model and compares with the naive GEMM.
void check_through_model(const OpInfo& op, bool ordered, const Canonical& c, int bm) {
    const Family& f = op.family;
    const Tile tile{bm, 8, 16, 8, 2};
    const PackedShape s = packed_shape(f, tile, c.m, c.n, c.k);
    std::vector<uint8_t> a(static_cast<size_t>(s.a_bytes)), b(static_cast<size_t>(s.b_bytes));
    std::vector<uint32_t> e(static_cast<size_t>(s.e_words));
    pack_a(f, s, bm, c.values.data(), c.indices.data(), a.data(), e.data(), 2);
    pack_b(f, s, c.b.data(), b.data(), 2);
    const std::vector<double> want = naive_gemm(op, c);
    const auto form = form_of(op, ordered);
    const bool f16_acc = op.acc == SPMMA_F16;

    int64_t mismatches = 0;
    for (int64_t row0 = 0; row0 < s.m_pad; row0 += kAtomRows)
        for (int64_t col0 = 0; col0 < s.n_pad; col0 += kAtomCols) {
            const int64_t mt = row0 / bm;
            const int atom = static_cast<int>((row0 % bm) / kAtomRows);
            spmma::isa::MmaSpWarp w{};
            for (int64_t ks = 0; ks < s.k_stages; ++ks)
                for (int step = 0; step < kStepsPerStage; ++step) {
                    const uint8_t* a_blk = a.data() + (mt * s.k_stages + ks) * a_stage_bytes(bm);
                    const uint32_t* e_blk = e.data() + (mt * s.k_stages + ks) * e_stage_words(f, bm);
                    for (int lane = 0; lane < 32; ++lane) {
                        for (int r = 0; r < 4; ++r) {
                            w.a[lane][r] = word_at(a_blk + a_stage_offset(atom, step, lane) + 4 * r);
                            const int64_t col = col0 + b_frag_col(lane);
                            w.b[lane][r] = word_at(b.data() + col * s.ldb + ks * kStageKBytes + step * kStepBytes + b_frag_byte(lane, r));
                        }
                        w.e[lane] = e_blk[e_stage_offset(f, atom, f.e_word_of_step(step), lane)];
                    }
                    w.selector = f.selector_of_step(step);
                    const auto res = spmma::isa::mma_sp(form, w);
                    INFO("ks " << ks << " step " << step << ": " << (res.undefined.empty() ? "" : res.undefined.front()));
                    REQUIRE(res.undefined.empty());
                    w.c = res.d;  // chain the accumulator along k
                }
            for (int lane = 0; lane < 32; ++lane)
                for (int r = 0; r < (f16_acc ? 2 : 4); ++r)
                    for (int h = 0; h < (f16_acc ? 2 : 1); ++h) {
                        const int64_t row = row0 + cd_row(lane, r, f16_acc), col = col0 + cd_col(lane, r, h, f16_acc);
                        if (row >= c.m || col >= c.n) continue;
                        const uint32_t bits = f16_acc ? (w.c[lane][r] >> (16 * h)) & 0xFFFFu : w.c[lane][r];
                        const double got = acc_value(dt(op.acc), bits);
                        const double expect = want[static_cast<size_t>(row * c.n + col)];
                        if (got != expect && ++mismatches <= 5)
                            UNSCOPED_INFO("D(" << row << ", " << col << ") = " << got << ", expected " << expect);
                    }
        }
    CHECK(mismatches == 0);
}

const OpInfo* const kOps[] = {
    &tags::F16F16_F32, &tags::F16F16_F16, &tags::BF16BF16_F32, &tags::TF32TF32_F32,
    &tags::S8S8_S32, &tags::S8U8_S32, &tags::U8S8_S32, &tags::U8U8_S32, &tags::S8S8_S32_SAT,
    &tags::S4S4_S32, &tags::S4U4_S32, &tags::U4S4_S32, &tags::U4U4_S32, &tags::U4U4_S32_SAT,
    &tags::E4M3E4M3_F32, &tags::E4M3E5M2_F32, &tags::E5M2E4M3_F32, &tags::E5M2E5M2_F32,
};

}  // namespace

TEST_CASE("sm80 packing through the mma.sp model equals a naive GEMM, every type, both metadata variants",
          "[sm80][pack][model]") {
    std::mt19937 rng(20261122);
    for (const OpInfo* op : kOps)
        for (bool ordered : {true, false}) {
            const Family& f = op->family;
            // m: two atoms and a ragged third; n: a ragged second atom; k: a stage and a half.
            const int64_t m = 37, n = 13, k = f.stage_k() + f.stage_k() / 2 + f.chunk;
            INFO(op->label << (ordered ? " ordered_metadata" : " sp") << " m=" << m << " n=" << n << " k=" << k);
            const Canonical c = make_canonical(*op, m, n, k, rng);
            check_through_model(*op, ordered, c, 32);
        }
}

TEST_CASE("sm80 packing pads rows and k with zero values and valid metadata", "[sm80][pack]") {
    std::mt19937 rng(7);
    for (const OpInfo* op : {&tags::F16F16_F32, &tags::TF32TF32_F32, &tags::S8S8_S32, &tags::S4S4_S32}) {
        const Family& f = op->family;
        const Canonical c = make_canonical(*op, 5, 3, f.chunk, rng);
        const PackedShape s = packed_shape(f, Tile{64, 64, 64, 64, 2}, c.m, c.n, c.k);
        INFO(op->label);
        CHECK(s.m_pad == 64);
        CHECK(s.n_pad == 64);
        CHECK(s.k_stages == 1);
        CHECK(s.k_pad == f.stage_k());
        std::vector<uint8_t> a(static_cast<size_t>(s.a_bytes), 0xAB);
        std::vector<uint32_t> e(static_cast<size_t>(s.e_words), 0xDEADBEEF);
        pack_a(f, s, 64, c.values.data(), c.indices.data(), a.data(), e.data());
        // Rows 5.. hold zeros only; every metadata nibble is valid (two different indices).
        int64_t nonzero_padding = 0;
        for (int atom = 0; atom < 4; ++atom)
            for (int step = 0; step < 2; ++step)
                for (int lane = 0; lane < 32; ++lane)
                    for (int r = 0; r < 4; ++r) {
                        const int row = atom * 16 + a_frag_row(lane, r);
                        for (int i = 0; i < 4; ++i)
                            if (row >= 5 && a[static_cast<size_t>(a_stage_offset(atom, step, lane) + 4 * r + i)] != 0) ++nonzero_padding;
                    }
        CHECK(nonzero_padding == 0);
        for (uint32_t w : e)
            for (int nib = 0; nib < 8; ++nib) {
                const uint32_t v = (w >> (4 * nib)) & 0xF;
                if (f.chunk == 2) CHECK((v == 0x4 || v == 0xE));
                else CHECK((v & 3) < ((v >> 2) & 3));
            }
        // Padded B columns and k are zero.
        std::vector<uint8_t> b(static_cast<size_t>(s.b_bytes), 0xCD);
        pack_b(f, s, c.b.data(), b.data());
        const int64_t col_bytes = c.k * f.bits / 8;
        int64_t nonzero_b = 0;
        for (int64_t col = 0; col < s.n_pad; ++col)
            for (int64_t i = (col < c.n ? col_bytes : 0); i < s.ldb; ++i) nonzero_b += b[static_cast<size_t>(col * s.ldb + i)] != 0;
        CHECK(nonzero_b == 0);
    }
}

TEST_CASE("sm80 index check names the first undefined metadata", "[sm80][pack]") {
    std::vector<uint8_t> idx = {0x4, 0x9, 0x5, 0xE};  // 0x5: both indices 1
    const std::string why = check_indices(kFamilyF16, 1, 16, idx.data());
    CHECK(why.find("group 2") != std::string::npos);
    CHECK(why.find("0x05") != std::string::npos);
    idx[2] = 0x1;  // decreasing: first 1, second 0
    CHECK_FALSE(check_indices(kFamilyF16, 1, 16, idx.data()).empty());
    idx[2] = 0xD;
    CHECK(check_indices(kFamilyF16, 1, 16, idx.data()).empty());
    const std::vector<uint8_t> tf32 = {0, 1, 1, 0};
    CHECK(check_indices(kFamilyTF32, 1, 8, tf32.data()).empty());
}
