// The sm100a kernels, emulated: the sm100a plugin's host packing (plugins/sm100a/pack) produces
// the A values and B in each kind's shared-memory format, the metadata chunks and the block-scale
// chunks it uploads, and the instruction descriptor it passes; every tile is rebuilt as the
// kernel runs it -- per k stage, the producer's TMA boxes placed into a modelled shared memory at
// the stage's offsets (tile_config.hpp), the MMA thread's tcgen05.cp of the metadata and scale
// chunks into a modelled tensor memory at the stage's slots, and its two tcgen05.mma.sp with the
// kernel's descriptor, idesc, metadata and scale-address helpers (descriptors.hpp) -- and D is
// read out of the accumulator buffer as the epilogue reads it.
// cta_group::1 kernels only: the instruction model covers cta_group::1 (the 256-row CTA-pair
// kernels' layouts are the same per CTA, their pairing is not modelled).
#include "emu_epilogue.hpp"
#include "emu_fault.hpp"
#include "emu_kernel.hpp"
#include "emu_parallel.hpp"

#if SPMMA_EMU_SM100A
#include <spmma/isa/smem.hpp>
#include <spmma/isa/tcgen05_cp.hpp>
#include <spmma/isa/tcgen05_mma_sp.hpp>
#include <spmma/isa/tma.hpp>
#include <spmma/types.hpp>
#include <spmma_sm100a/descriptors.hpp>
#include <spmma_sm100a/pack.hpp>
#include <spmma_sm100a/problem_check.hpp>
#include <spmma_sm100a/tile_config.hpp>
#endif

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace spmma_emu {

#if SPMMA_EMU_SM100A
namespace {

using namespace spmma_sm100a;
namespace isa = spmma::isa;

struct Entry {
    std::string name;  // the GPU kernel's
    spmma_dtype acc;
    TileConfig cfg;
};

// The cta_group::1 kernels of the plugin's table (include/spmma_sm100a/kernels/*.inc), named as
// its kernel_table.cpp names them.
const std::vector<Entry>& entries() {
    static const std::vector<Entry> all = [] {
        std::vector<Entry> v;
        constexpr spmma_dtype acc_f32 = SPMMA_F32, acc_f16 = SPMMA_F16, acc_s32 = SPMMA_S32;
#define SPMMA_SM100A_KERNEL(TOK, KIND, SV, ACC, BM, BN, BK, CG, S)                                             \
    if (CG == 1)                                                                                              \
        v.push_back(Entry{"sm100a_" #TOK "_" #ACC "_" #BM "x" #BN "x" #BK "_cg" #CG "_s" #S, acc_##ACC,         \
                          TileConfig{Kind::KIND, ScaleVec::SV, CG, BN, S}});
#include <spmma_sm100a/kernels/f16.inc>
#include <spmma_sm100a/kernels/tf32.inc>
#include <spmma_sm100a/kernels/f8f6f4.inc>
#include <spmma_sm100a/kernels/i8.inc>
#include <spmma_sm100a/kernels/mxf8f6f4.inc>
#include <spmma_sm100a/kernels/mxf4.inc>
#include <spmma_sm100a/kernels/mxf4nvf4.inc>
#undef SPMMA_SM100A_KERNEL
        return v;
    }();
    return all;
}

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
    throw std::logic_error("sm100a kind without a model kind");
}

isa::ScaleVec model_scale_vec(ScaleVec v) {
    switch (v) {
        case ScaleVec::X1: return isa::ScaleVec::X1;
        case ScaleVec::X2: return isa::ScaleVec::X2;
        case ScaleVec::X4: return isa::ScaleVec::X4;
        case ScaleVec::None: break;
    }
    return isa::ScaleVec::None;
}

// The tiles the kernel computes and the padded sizes its packing uses (sm100a_gemm.cpp).
struct Grid {
    int64_t kp, k_stages, tiles_m, tiles_n, rows_a, rows_b;
    int64_t tiles() const { return tiles_m * tiles_n; }
};

Grid grid_of(const TileConfig& c, const spmma_problem& p) {
    Grid g;
    g.kp = padded_k(c.kind, p.k);
    g.k_stages = g.kp / c.bk();
    g.tiles_m = (p.m + c.bm() - 1) / c.bm();
    g.tiles_n = (p.n + c.bn - 1) / c.bn;
    g.rows_a = g.tiles_m * c.bm();
    g.rows_b = g.tiles_n * c.bn;
    return g;
}

uint32_t idesc_of(const Entry& e, const spmma_problem& p) {
    return make_idesc(e.cfg.kind, p.a_type, p.b_type, p.acc_type, e.cfg.bm(), e.cfg.bn, p.saturate != 0, p.scale_type);
}

// When no kernel takes p: the plugin's most specific reason (problem_check.hpp), so that every
// emulated kernel names the problem's real obstacle rather than its own kind's.
std::string no_kernel_reason(const spmma_problem& p) {
    std::vector<KernelKind> kinds;
    for (const Entry& e : entries()) kinds.push_back({e.cfg.kind, e.cfg.sv, e.acc});
    return problem_unsupported_reason(kinds, p);
}

std::string reason(const Entry& e, const spmma_problem& p) {
    if (auto r = kernel_mismatch(e.cfg.kind, e.cfg.sv, e.acc, p); !r.empty()) {
        const std::string none = no_kernel_reason(p);
        return none.empty() ? r + " [kernel " + e.name + "]" : none;
    }
    try {
        idesc_of(e, p);
    } catch (const std::invalid_argument& x) {
        return std::string("unsupported: ") + x.what();  // as the plugin's create() says it
    }
    if (auto r = epilogue_reason(p); !r.empty()) return r;
    const Grid g = grid_of(e.cfg, p);
    return size_reason(p, g.tiles() * e.cfg.bm() * e.cfg.bn * (g.kp / 2));
}

// The packed tensors the plugin uploads (sm100a_gemm.cpp upload), as its tensor maps describe
// them: A and B as bytes, metadata and scales as rows of 16 bytes.
struct Packed {
    std::vector<uint8_t> a, b, meta, sfa, sfb;
    isa::TmaTensor ta, tb, te, tsfa, tsfb;
    uint32_t idesc;
};

isa::TmaTensor rows16(const std::vector<uint8_t>& buf) { return {buf.data(), 16, static_cast<int64_t>(buf.size() / 16), 1}; }

Packed pack(const Entry& e, const spmma_problem& p, const Canonical& in, const Grid& g) {
    const TileConfig& c = e.cfg;
    const Kind kind = c.kind;
    Packed k;
    k.a.resize(packed_a_bytes(kind, p.m, g.kp));
    k.b.resize(packed_b_bytes(kind, p.n, g.kp));
    k.meta.resize(packed_meta_bytes(kind, g.rows_a, g.kp));
    pack_a_values(kind, p.a_type, in.a_values.data(), p.m, p.k, g.kp, k.a.data());
    pack_b(kind, p.b_type, in.b.data(), p.n, p.k, g.kp, k.b.data());
    pack_metadata(kind, in.a_indices.data(), p.m, p.k, g.rows_a, g.kp, k.meta.data());
    if (fault_from_env() == Fault::Meta) {
        uint32_t w;
        std::memcpy(&w, k.meta.data(), 4);
        w = corrupt_meta_word(w, kind == Kind::TF32);
        std::memcpy(k.meta.data(), &w, 4);
    }
    if (is_block_scaled(kind)) {
        k.sfa.resize(packed_scale_bytes(kind, c.sv, g.rows_a, g.kp, 1));
        k.sfb.resize(packed_scale_bytes(kind, c.sv, g.rows_b, g.kp, c.n_groups()));
        pack_scales(kind, c.sv, p.scale_type, in.scale_a.data(), p.m, p.k, p.scale_block, g.rows_a, g.kp, 1, k.sfa.data());
        pack_scales(kind, c.sv, p.scale_type, in.scale_b.data(), p.n, p.k, p.scale_block, g.rows_b, g.kp, c.n_groups(),
                    k.sfb.data());
    }
    const int64_t bits = traits(kind).elem_bits;
    k.ta = {k.a.data(), g.kp / 2 * bits / 8, p.m, 1};
    k.tb = {k.b.data(), g.kp * bits / 8, p.n, 1};
    k.te = rows16(k.meta);
    k.tsfa = rows16(k.sfa);
    k.tsfb = rows16(k.sfb);
    k.idesc = idesc_of(e, p);
    return k;
}

std::string where(const Entry& e, int64_t tm, int64_t tn, int64_t kt) {
    return "emu_" + e.name + ": tile (" + std::to_string(tm) + ", " + std::to_string(tn) + "), k stage " +
           std::to_string(kt) + ": ";
}

// Shared- and tensor-memory addresses of ring stage s (the kernel's a_stage ... sfb_stage, base 0).
struct Stage {
    uint32_t a, b, meta, sfa, sfb;
};
Stage stage_of(const TileConfig& c, int s) {
    return {static_cast<uint32_t>(c.a_offset() + s * c.a_stage_bytes()), static_cast<uint32_t>(c.b_offset() + s * c.b_stage_bytes()),
            static_cast<uint32_t>(c.meta_offset() + s * c.meta_stage_bytes()),
            static_cast<uint32_t>(c.sfa_offset() + s * c.sfa_stage_bytes()),
            static_cast<uint32_t>(c.sfb_offset() + s * c.sfb_stage_bytes())};
}

void append(std::vector<std::string>& to, std::vector<std::string> from) { to.insert(to.end(), from.begin(), from.end()); }

// The producer's boxes for k stage kt of tile (tm, tn) (rank 0 of a cta_group::1 kernel).
std::vector<std::string> load_stage(const TileConfig& c, const Packed& k, const Grid& g, isa::SharedMemory& smem,
                                    const Stage& st, int64_t tm, int64_t tn, int64_t kt) {
    std::vector<std::string> u;
    append(u, isa::tma_load_2d(smem, st.a, k.ta, kStageARowBytes, kRowsPerCta, kt * kStageARowBytes, tm * kRowsPerCta,
                               isa::Swizzle::B64));
    append(u, isa::tma_load_2d(smem, st.b, k.tb, kStageBRowBytes, c.bn_cta(), kt * kStageBRowBytes, tn * c.bn,
                               isa::Swizzle::B128));
    append(u, isa::tma_load_2d(smem, st.meta, k.te, 16, kRowsPerCta, 0, (tm * g.k_stages + kt) * kRowsPerCta,
                               isa::Swizzle::None));
    if (is_block_scaled(c.kind)) {
        append(u, isa::tma_load_2d(smem, st.sfa, k.tsfa, 16, c.sfa_tiles() * kScaleTileRows, 0,
                                   (tm * g.k_stages + kt) * c.sfa_tiles() * kScaleTileRows, isa::Swizzle::None));
        append(u, isa::tma_load_2d(smem, st.sfb, k.tsfb, 16, c.sfb_tiles() * kScaleTileRows, 0,
                                   (tn * g.k_stages + kt) * c.sfb_tiles() * kScaleTileRows, isa::Swizzle::None));
    }
    return u;
}

// The MMA thread's work for ring stage s: tcgen05.cp of its metadata and scales, then its
// instructions into accumulator buffer `buf`.
std::vector<std::string> mma_stage(const TileConfig& c, const Packed& k, isa::SharedMemory& smem, isa::TensorMemory& tmem,
                                   const Stage& st, int s, int buf, bool first) {
    using isa::Tcgen05CpShape;
    std::vector<std::string> u;
    append(u, isa::tcgen05_cp(tmem, smem, tmem_addr(0, static_cast<uint32_t>(c.meta_column(s))), rows16_desc(st.meta),
                              Tcgen05CpShape::R128x128b));
    if (is_block_scaled(c.kind)) {
        for (int i = 0; i < c.sfa_tiles(); ++i)
            append(u, isa::tcgen05_cp(tmem, smem, tmem_addr(0, static_cast<uint32_t>(c.sfa_column(s) + kScaleColsPerTile * i)),
                                      rows16_desc(st.sfa + kScaleTileBytes * i), Tcgen05CpShape::R32x128b_Warpx4));
        for (int i = 0; i < c.sfb_tiles(); ++i)
            append(u, isa::tcgen05_cp(tmem, smem, tmem_addr(0, static_cast<uint32_t>(c.sfb_column(s) + kScaleColsPerTile * i)),
                                      rows16_desc(st.sfb + kScaleTileBytes * i), Tcgen05CpShape::R32x128b_Warpx4));
    }
    if (!u.empty()) return {"tcgen05.cp: " + u.front()};
    for (int step = 0; step < kStepsPerStage; ++step) {
        const MetaOperand meta = meta_operand(c.kind, static_cast<uint32_t>(c.meta_column(s)), step);
        uint32_t idesc = idesc_with_selector(k.idesc, meta.selector);
        uint32_t sfa = 0, sfb = 0;
        if (is_block_scaled(c.kind)) {
            const int id = scale_id_of_step(c.sv, step), tile = scale_tile_of_step(c.sv, step);
            idesc = idesc_with_scale_ids(idesc, id, id);
            sfa = tmem_addr(0, static_cast<uint32_t>(c.sfa_column(s) + kScaleColsPerTile * tile));
            sfb = tmem_addr(0, static_cast<uint32_t>(c.sfb_column(s) + kScaleColsPerTile * c.n_groups() * tile));
        }
        isa::Tcgen05MmaSp op;
        op.kind = model_kind(c.kind);
        op.scale_vec = model_scale_vec(c.sv);
        op.enable_input_d = !first || step > 0;
        const auto r = isa::tcgen05_mma_sp(op, smem, tmem, tmem_addr(0, static_cast<uint32_t>(c.acc_column(buf))),
                                           a_desc(st.a, step), b_desc(st.b, step), tmem_addr(0, meta.column), idesc, sfa, sfb);
        if (!r.empty()) return {"the tcgen05.mma.sp of step " + std::to_string(step) + " gets an undefined input: " + r.front()};
    }
    return {};
}

// One tile: every k stage, then its part of D into `acc` (as the epilogue's tcgen05.ld reads
// the accumulator buffer: row r in lane r, column c).
std::string run_tile(const Entry& e, const spmma_problem& p, const Grid& g, const Packed& k, int64_t tile,
                     std::vector<double>& acc) {
    const TileConfig& c = e.cfg;
    const int64_t tm = tile / g.tiles_n, tn = tile % g.tiles_n;
    // The buffer and ring stages this tile takes when one CTA runs the tiles in order.
    const int buf = static_cast<int>(tile % c.acc_buffers());
    isa::SharedMemory smem;
    isa::TensorMemory tmem;
    std::fill(tmem.cells.begin(), tmem.cells.end(), 0xFFFFFFFFu);  // garbage until written
    for (int64_t kt = 0; kt < g.k_stages; ++kt) {
        const int s = static_cast<int>((tile * g.k_stages + kt) % c.stages);
        const Stage st = stage_of(c, s);
        if (auto u = load_stage(c, k, g, smem, st, tm, tn, kt); !u.empty()) return where(e, tm, tn, kt) + "TMA: " + u.front();
        if (auto u = mma_stage(c, k, smem, tmem, st, s, buf, kt == 0); !u.empty()) return where(e, tm, tn, kt) + u.front();
    }
    const auto dt = static_cast<spmma::DType>(e.acc);
    for (int r = 0; r < kRowsPerCta; ++r)
        for (int col = 0; col < c.bn; ++col) {
            const int64_t row = tm * c.bm() + r, n = tn * c.bn + col;
            if (row >= p.m || n >= p.n) continue;
            const isa::TmemCell cell = isa::tcgen05_d_cell(c.bm(), r, col);
            const uint32_t bits = tmem.at(cell.lane, c.acc_column(buf) + cell.column);
            double v;
            if (dt == spmma::DType::F16) v = spmma::decode(dt, bits & 0xFFFFu);  // bits 15..0 (not packed)
            else if (dt == spmma::DType::S32) v = static_cast<double>(static_cast<int32_t>(bits));
            else v = spmma::decode(dt, bits);
            acc[static_cast<size_t>(row * p.n + n)] = v;
        }
    return {};
}

std::vector<double> accumulate(const Entry& e, const spmma_problem& p, const Canonical& in) {
    const Grid g = grid_of(e.cfg, p);
    const Packed k = pack(e, p, in, g);
    std::vector<double> acc(static_cast<size_t>(p.m * p.n), 0.0);
    for_each_piece(g.tiles(), [&](int64_t tile) { return run_tile(e, p, g, k, tile, acc); });
    return acc;
}

std::string instruction_of(const TileConfig& c) {
    std::string s = std::string("tcgen05.mma.sp.cta_group::1.kind::") + kind_name(c.kind);
    if (is_block_scaled(c.kind)) s += std::string(".block_scale.scale_vec::") + std::to_string(static_cast<int>(c.sv)) + "X";
    return s + ", M 128, N " + std::to_string(c.bn);
}

}  // namespace

void add_sm100a_kernels(std::vector<EmuKernel>& out) {
    for (const Entry& e : entries()) {
        EmuKernel k;
        k.name = "emu_" + e.name;
        k.description = "sm100a kernel " + e.name + " on the CPU: its host packing, TMA boxes, tcgen05.cp of metadata" +
                        (is_block_scaled(e.cfg.kind) ? " and scales" : "") +
                        ", descriptors and idesc through the tcgen05 models (" + instruction_of(e.cfg) + ")";
        k.reason = [&e](const spmma_problem& p) { return reason(e, p); };
        k.accumulate = [&e](const spmma_problem& p, const Canonical& in) { return accumulate(e, p, in); };
        out.push_back(std::move(k));
    }
}
#else
void add_sm100a_kernels(std::vector<EmuKernel>&) {}  // the sm100a packing library is not built here
#endif

}  // namespace spmma_emu
