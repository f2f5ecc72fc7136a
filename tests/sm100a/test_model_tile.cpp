// The sm100a plugin's host packing and descriptor helpers, run through the tcgen05.mma.sp
// instruction model exactly as one CTA of the kernel would use them (cta_group::1, M = 128):
//   random canonical operands (abi/include/spmma/plugin.h layouts)
//   -> the plugin's pack library (A values, B, metadata chunks, scale chunks)
//   -> bytes placed in a modelled shared memory as the kernel's TMA boxes would place them
//      (64-byte swizzle for A, 128-byte for B, plain 16-byte rows for metadata and scales;
//      emulated here from the TMA swizzle rule, rows past the tensor zero-filled)
//   -> tcgen05.cp emulated into a modelled tensor memory (128x128b for metadata, 32x128b.warpx4
//      for scales), the source rows read through the kernel's own descriptor
//   -> two tcgen05.mma.sp per stage with the kernel's idesc / smem-descriptor / metadata /
//      scale-address helpers and its tensor-memory layout (TileConfig)
//   -> D read from the modelled tensor memory, compared bit for bit with a reference product
//      computed here in double from the canonical operands (data chosen so that sums are exact).
// Every kind, with tails in m, n and k (padding rows and stages must carry valid metadata).
#include <catch2/catch.hpp>

#include <spmma/isa/smem.hpp>
#include <spmma/isa/tcgen05_mma_sp.hpp>
#include <spmma/types.hpp>
#include <spmma_sm100a/descriptors.hpp>
#include <spmma_sm100a/pack.hpp>
#include <spmma_sm100a/tile_config.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace spmma_sm100a;
namespace isa = spmma::isa;
using spmma::DType;

DType dt(spmma_dtype t) { return static_cast<DType>(t); }

isa::Tcgen05Kind model_kind(Kind k) {
    switch (k) {
        case Kind::F16: return isa::Tcgen05Kind::F16;
        case Kind::TF32: return isa::Tcgen05Kind::TF32;
        case Kind::F8F6F4: return isa::Tcgen05Kind::F8F6F4;
        case Kind::I8: return isa::Tcgen05Kind::I8;
        case Kind::MXF8F6F4: return isa::Tcgen05Kind::MXF8F6F4;
        case Kind::MXF4: return isa::Tcgen05Kind::MXF4;
        case Kind::MXF4NVF4: return isa::Tcgen05Kind::MXF4NVF4;
    }
    return isa::Tcgen05Kind::F16;
}

isa::ScaleVec model_sv(ScaleVec v) {
    return v == ScaleVec::X1 ? isa::ScaleVec::X1 : v == ScaleVec::X2 ? isa::ScaleVec::X2 : v == ScaleVec::X4 ? isa::ScaleVec::X4 : isa::ScaleVec::None;
}

struct Case {
    Kind kind;
    ScaleVec sv;
    spmma_dtype a, b, acc, scale;
    bool saturate = false;
};

std::string describe(const Case& c) {
    std::ostringstream s;
    s << "kind::" << kind_name(c.kind) << (c.sv != ScaleVec::None ? std::string(" scale_vec::") + scale_vec_name(c.sv) : "")
      << " " << spmma_dtype_name(c.a) << " x " << spmma_dtype_name(c.b) << " -> " << spmma_dtype_name(c.acc)
      << (c.scale != SPMMA_DTYPE_NONE ? std::string(" scales ") + spmma_dtype_name(c.scale) : "")
      << (c.saturate ? " satfinite" : "");
    return s.str();
}

// A random code of type t whose value keeps every sum of the test exact in double: floats with
// magnitude in [2^-4, 2^5] (or zero), integers anywhere.
uint32_t random_code(DType t, std::mt19937& rng) {
    const int bits = spmma::info(t).bits;
    std::uniform_int_distribution<uint32_t> any(0, (bits >= 32 ? 0xffffffffu : (1u << bits) - 1u));
    if (spmma::is_integer(t)) return any(rng);
    if (t == DType::F32 || t == DType::TF32 || t == DType::F16 || t == DType::BF16) {
        // i / 8 with |i| <= 32: representable in f16, bf16 and tf32
        std::uniform_int_distribution<int> i(-32, 32);
        return spmma::encode(t, i(rng) / 8.0);
    }
    for (;;) {
        const uint32_t c = any(rng);
        const double v = spmma::decode(t, c);
        if (!std::isfinite(v)) continue;
        const double a = std::fabs(v);
        if (a == 0.0 || (a >= 1.0 / 16 && a <= 32.0)) return c;
    }
}

uint8_t random_scale(DType t, std::mt19937& rng) {
    for (;;) {
        const uint32_t c = std::uniform_int_distribution<uint32_t>(0, 255)(rng);
        const double v = spmma::decode(t, c);
        if (std::isfinite(v) && v >= 0.25 && v <= 8.0) return static_cast<uint8_t>(c);
    }
}

// Canonical operands of an m x n x k problem and its dense logical A.
struct Problem {
    int m, n, k, block;
    std::vector<uint8_t> a_values, a_indices, b, scale_a, scale_b;
    std::vector<double> a_dense;  // m x k
};

Problem make_problem(const Case& c, int m, int n, int k, std::mt19937& rng) {
    Problem p{m, n, k, c.scale != SPMMA_DTYPE_NONE ? scale_block(c.kind, c.sv) : 0, {}, {}, {}, {}, {}, {}};
    const spmma_pattern pat = pattern_of(c.kind);
    const int g = spmma_pattern_group(pat);
    const DType at = dt(c.a), bt = dt(c.b);
    p.a_values.assign(spmma::storage_bytes(at, int64_t(m) * (k / 2)), 0);
    p.a_indices.assign(size_t(m) * (k / g), 0);
    p.a_dense.assign(size_t(m) * k, 0.0);
    int64_t vi = 0;
    for (int r = 0; r < m; ++r)
        for (int grp = 0; grp < k / g; ++grp) {
            std::vector<int> cols;
            uint8_t idx;
            if (pat == SPMMA_PATTERN_1_2) {
                const int pos = std::uniform_int_distribution<int>(0, 1)(rng);
                idx = static_cast<uint8_t>(pos);
                cols = {pos};
            } else {
                int p0 = std::uniform_int_distribution<int>(0, 3)(rng), p1;
                do p1 = std::uniform_int_distribution<int>(0, 3)(rng); while (p1 == p0);
                if (p1 < p0) std::swap(p0, p1);
                idx = static_cast<uint8_t>(p0 | (p1 << 2));
                if (pat == SPMMA_PATTERN_2_4) cols = {p0, p1};
                else cols = {2 * p0, 2 * p0 + 1, 2 * p1, 2 * p1 + 1};  // pairwise 4:8
            }
            p.a_indices[size_t(r) * (k / g) + grp] = idx;
            for (int col : cols) {
                const uint32_t code = random_code(at, rng);
                spmma::store_code(at, p.a_values.data(), vi++, code);
                p.a_dense[size_t(r) * k + grp * g + col] = spmma::decode(at, code);
            }
        }
    p.b.assign(spmma::storage_bytes(bt, int64_t(n) * k), 0);
    for (int64_t i = 0; i < int64_t(n) * k; ++i) spmma::store_code(bt, p.b.data(), i, random_code(bt, rng));
    if (p.block) {
        p.scale_a.resize(size_t(m) * (k / p.block));
        p.scale_b.resize(size_t(n) * (k / p.block));
        for (auto& s : p.scale_a) s = random_scale(dt(c.scale), rng);
        for (auto& s : p.scale_b) s = random_scale(dt(c.scale), rng);
    }
    return p;
}

// What the tcgen05 accumulator cell should hold for D(i, j), computed from the canonical operands:
// each instruction adds its exact partial sum (mma_k logical k) to the accumulator and rounds
// once to the accumulator type, in k order (the data keep every partial sum exact in double).
uint32_t reference_cell(const Case& c, const Problem& p, int i, int j) {
    const bool integer = c.kind == Kind::I8;
    const int mk = traits(c.kind).mma_k;
    double acc = 0.0;
    int64_t iacc = 0;
    for (int k0 = 0; k0 < p.k; k0 += mk) {
        double sum = acc;
        for (int kk = k0; kk < std::min(p.k, k0 + mk); ++kk) {
            const double av = p.a_dense[size_t(i) * p.k + kk];
            if (av == 0.0) continue;
            const double bv = spmma::decode(dt(c.b), spmma::load_code(dt(c.b), p.b.data(), int64_t(j) * p.k + kk));
            if (integer) {
                iacc += static_cast<int64_t>(av) * static_cast<int64_t>(bv);
                continue;
            }
            double s = 1.0;
            if (p.block) {
                const int blk = kk / p.block, nb = p.k / p.block;
                s = spmma::decode(dt(c.scale), p.scale_a[size_t(i) * nb + blk]) *
                    spmma::decode(dt(c.scale), p.scale_b[size_t(j) * nb + blk]);
            }
            sum += av * bv * s;
        }
        if (integer) {
            if (c.saturate) iacc = std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, iacc));
            else iacc = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(iacc)));
        } else {
            acc = c.acc == SPMMA_F16 ? spmma::decode(DType::F16, spmma::encode(DType::F16, sum)) : static_cast<double>(static_cast<float>(sum));
        }
    }
    if (integer) return static_cast<uint32_t>(static_cast<uint64_t>(iacc));
    if (c.acc == SPMMA_F16) return spmma::encode(DType::F16, acc);
    return spmma::f32_bits(static_cast<float>(acc));
}

// TMA's 2-D tile load with a swizzle of `sw` bytes (0, 64 or 128): box row r's byte b of a
// tensor of `rows` rows of `row_bytes` (rows past the tensor read as zero) lands in the 16-byte
// chunk (b / 16) XOR (r % (sw / 16)) ... of row r, i.e. the CUDA tensor-map swizzle patterns
// for a destination aligned to the pattern (8 rows x sw bytes).
void tma_box(isa::SharedMemory& smem, uint32_t dst, const uint8_t* tensor, int64_t rows, int64_t row_bytes,
             int64_t col_byte, int64_t row0, int box_bytes, int box_rows, int sw) {
    for (int r = 0; r < box_rows; ++r)
        for (int b = 0; b < box_bytes; ++b) {
            const int64_t gr = row0 + r, gc = col_byte + b;
            const uint8_t v = gr < rows && gc < row_bytes ? tensor[gr * row_bytes + gc] : 0;
            int chunk = b / 16;
            if (sw == 64) chunk ^= (r / 2) % 4;  // 64B: 16-byte chunk index bits ^= row bits 2..1 (8 rows x 64 B = 512 B pattern)
            if (sw == 128) chunk ^= r % 8;       // 128B: 16-byte chunk index ^= row % 8 (1024 B pattern)
            smem.store8(dst + static_cast<uint32_t>(r * box_bytes + chunk * 16 + b % 16), v);
        }
}

// tcgen05.cp emulation: `rows` source rows of 16 bytes read through the matrix descriptor `src`
// (as the model decodes it) into tensor-memory lanes (lane0 + r), 4 columns from `col`;
// warpx4 repeats them in all four 32-lane quarters.
void tcgen05_cp(isa::TensorMemory& tmem, const isa::SharedMemory& smem, uint64_t src, int rows, int col, bool warpx4) {
    std::vector<std::string> problems;
    const isa::UmmaDescriptor d = isa::UmmaDescriptor::decode(src, &problems);
    REQUIRE(problems.empty());
    const isa::OperandLayout l = isa::OperandLayout::from(d, isa::Major::K, 8);
    for (int r = 0; r < rows; ++r)
        for (int byte = 0; byte < 16; ++byte) {
            const uint32_t v = smem.load8(isa::element_address(l, r, byte));
            for (int q = 0; q < (warpx4 ? 4 : 1); ++q) {
                uint32_t& cell = tmem.at(r + 32 * q, col + byte / 4);
                cell = (cell & ~(0xffu << (8 * (byte % 4)))) | (v << (8 * (byte % 4)));
            }
        }
}

// One CTA tile (rows 0..127, columns 0..bn-1) of the problem through the model; returns the
// model's complaints (must be none) and fills `d` with the accumulator cells.
std::vector<std::string> run_tile(const Case& c, const Problem& p, int bn, std::vector<uint32_t>& d, bool corrupt_meta = false) {
    const TileConfig cfg{c.kind, c.sv, 1, bn, 2};
    REQUIRE(cfg.valid());
    const int64_t kp = padded_k(c.kind, p.k), k_stages = kp / cfg.bk();
    const int64_t rows_a = padded_rows(p.m, 128), rows_b = padded_rows(p.n, bn);

    std::vector<uint8_t> a(packed_a_bytes(c.kind, p.m, kp)), b(packed_b_bytes(c.kind, p.n, kp)),
        e(packed_meta_bytes(c.kind, rows_a, kp)), sfa, sfb;
    pack_a_values(c.kind, c.a, p.a_values.data(), p.m, p.k, kp, a.data());
    pack_b(c.kind, c.b, p.b.data(), p.n, p.k, kp, b.data());
    pack_metadata(c.kind, p.a_indices.data(), p.m, p.k, rows_a, kp, e.data());
    if (corrupt_meta)  // exchange lanes 0 and 8 of every chunk (for f16: rows 0/8's two k halves)
        for (size_t ch = 0; ch < e.size(); ch += kMetaChunkBytes)
            for (int i = 0; i < 16; ++i) std::swap(e[ch + i], e[ch + 8 * 16 + i]);
    if (p.block) {
        sfa.resize(packed_scale_bytes(c.kind, c.sv, rows_a, kp, 1));
        sfb.resize(packed_scale_bytes(c.kind, c.sv, rows_b, kp, cfg.n_groups()));
        pack_scales(c.kind, c.sv, c.scale, p.scale_a.data(), p.m, p.k, p.block, rows_a, kp, 1, sfa.data());
        pack_scales(c.kind, c.sv, c.scale, p.scale_b.data(), p.n, p.k, p.block, rows_b, kp, cfg.n_groups(), sfb.data());
    }
    const int64_t a_row_bytes = kp / 2 * traits(c.kind).elem_bits / 8, b_row_bytes = kp * traits(c.kind).elem_bits / 8;

    isa::SharedMemory smem;
    isa::TensorMemory tmem;
    std::vector<std::string> out;
    const uint32_t base = 0;  // the kernel's 1024-byte aligned dynamic base
    const uint32_t idesc0 = make_idesc(c.kind, c.a, c.b, c.acc, cfg.bm(), cfg.bn, c.saturate, c.scale);
    for (int64_t kt = 0; kt < k_stages; ++kt) {
        const int s = static_cast<int>(kt % cfg.stages);
        const uint32_t a_st = base + cfg.a_offset() + s * cfg.a_stage_bytes();
        const uint32_t b_st = base + cfg.b_offset() + s * cfg.b_stage_bytes();
        const uint32_t e_st = base + cfg.meta_offset() + s * cfg.meta_stage_bytes();
        const uint32_t sfa_st = base + cfg.sfa_offset() + s * cfg.sfa_stage_bytes();
        const uint32_t sfb_st = base + cfg.sfb_offset() + s * cfg.sfb_stage_bytes();
        // producer: the kernel's TMA boxes (tile 0, rank 0)
        tma_box(smem, a_st, a.data(), p.m, a_row_bytes, kt * kStageARowBytes, 0, kStageARowBytes, kRowsPerCta, 64);
        tma_box(smem, b_st, b.data(), p.n, b_row_bytes, kt * kStageBRowBytes, 0, kStageBRowBytes, cfg.bn_cta(), 128);
        tma_box(smem, e_st, e.data(), int64_t(e.size() / 16), 16, 0, kt * kRowsPerCta, 16, kRowsPerCta, 0);
        if (p.block) {
            tma_box(smem, sfa_st, sfa.data(), int64_t(sfa.size() / 16), 16, 0, kt * cfg.sfa_tiles() * kScaleTileRows, 16,
                    cfg.sfa_tiles() * kScaleTileRows, 0);
            tma_box(smem, sfb_st, sfb.data(), int64_t(sfb.size() / 16), 16, 0, kt * cfg.sfb_tiles() * kScaleTileRows, 16,
                    cfg.sfb_tiles() * kScaleTileRows, 0);
        }
        // MMA thread: tcgen05.cp of metadata and scales, then the stage's instructions
        tcgen05_cp(tmem, smem, rows16_desc(e_st), kRowsPerCta, cfg.meta_column(s), false);
        if (p.block) {
            for (int i = 0; i < cfg.sfa_tiles(); ++i)
                tcgen05_cp(tmem, smem, rows16_desc(sfa_st + kScaleTileBytes * i), kScaleTileRows,
                           cfg.sfa_column(s) + kScaleColsPerTile * i, true);
            for (int i = 0; i < cfg.sfb_tiles(); ++i)
                tcgen05_cp(tmem, smem, rows16_desc(sfb_st + kScaleTileBytes * i), kScaleTileRows,
                           cfg.sfb_column(s) + kScaleColsPerTile * i, true);
        }
        for (int step = 0; step < kStepsPerStage; ++step) {
            const MetaOperand meta = meta_operand(c.kind, static_cast<uint32_t>(cfg.meta_column(s)), step);
            uint32_t idesc = idesc_with_selector(idesc0, meta.selector);
            uint32_t sfa_t = 0, sfb_t = 0;
            if (p.block) {
                const int id = scale_id_of_step(c.sv, step), tile = scale_tile_of_step(c.sv, step);
                idesc = idesc_with_scale_ids(idesc, id, id);
                sfa_t = tmem_addr(0, static_cast<uint32_t>(cfg.sfa_column(s) + kScaleColsPerTile * tile));
                sfb_t = tmem_addr(0, static_cast<uint32_t>(cfg.sfb_column(s) + kScaleColsPerTile * cfg.n_groups() * tile));
            }
            isa::Tcgen05MmaSp op;
            op.kind = model_kind(c.kind);
            op.scale_vec = model_sv(c.sv);
            op.enable_input_d = kt > 0 || step > 0;
            const auto u = isa::tcgen05_mma_sp(op, smem, tmem, tmem_addr(0, cfg.acc_column(0)), a_desc(a_st, step),
                                               b_desc(b_st, step), tmem_addr(0, meta.column), idesc, sfa_t, sfb_t);
            for (const auto& x : u) out.push_back("stage " + std::to_string(kt) + " step " + std::to_string(step) + ": " + x);
        }
    }
    d.assign(size_t(128) * bn, 0);
    for (int i = 0; i < 128; ++i)
        for (int j = 0; j < bn; ++j) {
            const isa::TmemCell cell = isa::tcgen05_d_cell(128, i, j);
            d[size_t(i) * bn + j] = tmem.at(cell.lane, cfg.acc_column(0) + cell.column);
        }
    return out;
}

// D cells of the tile that differ from the reference (reported, at most 5), after checking that
// the model found every input defined.
int mismatches(const Case& c, uint32_t seed, bool corrupt_meta, int bn = 128) {
    std::mt19937 rng(seed);
    // Tails: m < 128 rows, n < the instruction's N, k one and a half stages (rounded to the
    // scale block): the kernel's padding must hold valid metadata and neutral scales.
    const int m = 100, n = bn - 8;
    int k = stage_k(c.kind) * 3 / 2;
    if (c.sv != ScaleVec::None) k = (k + scale_block(c.kind, c.sv) - 1) / scale_block(c.kind, c.sv) * scale_block(c.kind, c.sv);
    const Problem p = make_problem(c, m, n, k, rng);
    std::vector<uint32_t> d;
    const auto problems = run_tile(c, p, bn, d, corrupt_meta);
    for (const auto& x : problems) UNSCOPED_INFO(x);
    CHECK(problems.empty());
    int bad = 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            uint32_t got = d[size_t(i) * bn + j];
            if (c.acc == SPMMA_F16) got &= 0xffffu;
            const uint32_t want = reference_cell(c, p, i, j);
            if (got != want && ++bad <= 5)
                UNSCOPED_INFO("D(" << i << ", " << j << "): model 0x" << std::hex << got << ", reference 0x" << want << std::dec);
        }
    return bad;
}

void check_case(const Case& c, uint32_t seed, int bn = 128) {
    INFO(describe(c) << ", N = " << bn);
    CHECK(mismatches(c, seed, false, bn) == 0);
}

const spmma_dtype kF8f6f4Types[] = {SPMMA_E4M3, SPMMA_E5M2, SPMMA_E3M2, SPMMA_E2M3, SPMMA_E2M1};

}  // namespace

TEST_CASE("sm100a packing through the tcgen05 model: kind::f16 (f16, bf16, f32 and f16 accumulation)", "[sm100a][model]") {
    check_case({Kind::F16, ScaleVec::None, SPMMA_F16, SPMMA_F16, SPMMA_F32, SPMMA_DTYPE_NONE}, 1);
    check_case({Kind::F16, ScaleVec::None, SPMMA_BF16, SPMMA_BF16, SPMMA_F32, SPMMA_DTYPE_NONE}, 2);
    check_case({Kind::F16, ScaleVec::None, SPMMA_F16, SPMMA_F16, SPMMA_F16, SPMMA_DTYPE_NONE}, 3);
}

TEST_CASE("sm100a packing through the tcgen05 model: kind::tf32 (1:2)", "[sm100a][model]") {
    check_case({Kind::TF32, ScaleVec::None, SPMMA_TF32, SPMMA_TF32, SPMMA_F32, SPMMA_DTYPE_NONE}, 4);
}

TEST_CASE("sm100a packing through the tcgen05 model: kind::f8f6f4, all 25 type pairs (4/6-bit padded format)",
          "[sm100a][model]") {
    uint32_t seed = 100;
    for (spmma_dtype a : kF8f6f4Types)
        for (spmma_dtype b : kF8f6f4Types) check_case({Kind::F8F6F4, ScaleVec::None, a, b, SPMMA_F32, SPMMA_DTYPE_NONE}, seed++);
    check_case({Kind::F8F6F4, ScaleVec::None, SPMMA_E4M3, SPMMA_E2M1, SPMMA_F16, SPMMA_DTYPE_NONE}, seed++);
}

TEST_CASE("sm100a packing through the tcgen05 model: kind::i8 (s8/u8 pairs, wrap and satfinite)", "[sm100a][model]") {
    uint32_t seed = 200;
    for (spmma_dtype a : {SPMMA_S8, SPMMA_U8})
        for (spmma_dtype b : {SPMMA_S8, SPMMA_U8})
            for (bool sat : {false, true}) {
                Case c{Kind::I8, ScaleVec::None, a, b, SPMMA_S32, SPMMA_DTYPE_NONE};
                c.saturate = sat;
                check_case(c, seed++);
            }
}

TEST_CASE("sm100a packing through the tcgen05 model: kind::mxf8f6f4 (scale_vec::1X, ue8m0 per 64 k)", "[sm100a][model]") {
    uint32_t seed = 300;
    for (spmma_dtype a : kF8f6f4Types)
        for (spmma_dtype b : kF8f6f4Types) check_case({Kind::MXF8F6F4, ScaleVec::X1, a, b, SPMMA_F32, SPMMA_UE8M0}, seed++);
}

TEST_CASE("sm100a packing through the tcgen05 model: kind::mxf4 (scale_vec::2X, ue8m0 per 64 k, pairwise 4:8)",
          "[sm100a][model]") {
    check_case({Kind::MXF4, ScaleVec::X2, SPMMA_E2M1, SPMMA_E2M1, SPMMA_F32, SPMMA_UE8M0}, 400);
}

TEST_CASE("sm100a packing through the tcgen05 model: kind::mxf4nvf4 (4X ue8m0 and ue4m3 per 32 k, 2X ue8m0 per 64 k)",
          "[sm100a][model]") {
    check_case({Kind::MXF4NVF4, ScaleVec::X4, SPMMA_E2M1, SPMMA_E2M1, SPMMA_F32, SPMMA_UE8M0}, 500);
    check_case({Kind::MXF4NVF4, ScaleVec::X4, SPMMA_E2M1, SPMMA_E2M1, SPMMA_F32, SPMMA_UE4M3}, 501);
    check_case({Kind::MXF4NVF4, ScaleVec::X2, SPMMA_E2M1, SPMMA_E2M1, SPMMA_F32, SPMMA_UE8M0}, 502);
}

TEST_CASE("sm100a packing through the tcgen05 model: N = 256 (the 128x256 kernels, scale B in two 128-column groups)",
          "[sm100a][model]") {
    check_case({Kind::F16, ScaleVec::None, SPMMA_BF16, SPMMA_BF16, SPMMA_F32, SPMMA_DTYPE_NONE}, 600, 256);
    check_case({Kind::I8, ScaleVec::None, SPMMA_S8, SPMMA_S8, SPMMA_S32, SPMMA_DTYPE_NONE}, 601, 256);
    check_case({Kind::MXF8F6F4, ScaleVec::X1, SPMMA_E4M3, SPMMA_E2M1, SPMMA_F32, SPMMA_UE8M0}, 602, 256);
    check_case({Kind::MXF4, ScaleVec::X2, SPMMA_E2M1, SPMMA_E2M1, SPMMA_F32, SPMMA_UE8M0}, 603, 256);
    check_case({Kind::MXF4NVF4, ScaleVec::X4, SPMMA_E2M1, SPMMA_E2M1, SPMMA_F32, SPMMA_UE4M3}, 604, 256);
}

TEST_CASE("sm100a packing through the tcgen05 model: a wrong metadata layout is caught (the test can fail)",
          "[sm100a][model]") {
    const Case c{Kind::F16, ScaleVec::None, SPMMA_F16, SPMMA_F16, SPMMA_F32, SPMMA_DTYPE_NONE};
    CHECK(mismatches(c, 1, true) > 0);
}
