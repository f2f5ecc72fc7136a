// The sm90a kernels, emulated: the sm90a plugin's host packing (plugins/sm90a/pack) produces the
// padded A values, B and metadata words it uploads; each CTA of every cluster tile is rebuilt as
// the kernel runs it -- per k-tile, the producer's TMA boxes (its own slices and its cluster
// peers' multicast ones; A in stage order by one bulk copy for the kernels that take it so,
// TileConfig::a_in_stage_order) placed into a modelled shared memory at the stage's offsets
// (tile_config.hpp), then each consumer warpgroup's metadata words, sparsity selectors and matrix
// descriptors (layout.hpp) handed to the wgmma.mma_async.sp model, the accumulators carried from
// one instruction to the next -- and D is read out through the epilogue's fragment mapping.
// Whole tiles only (the plugin's default; its stream-K split is not emulated).
#include "emu_epilogue.hpp"
#include "emu_fault.hpp"
#include "emu_kernel.hpp"
#include "emu_parallel.hpp"

#if SPMMA_EMU_SM90A
#include <spmma/isa/bulk_copy.hpp>
#include <spmma/isa/smem.hpp>
#include <spmma/isa/tma.hpp>
#include <spmma/isa/wgmma_sp.hpp>
#include <spmma/types.hpp>
#include <spmma_sm90a/layout.hpp>
#include <spmma_sm90a/pack.hpp>
#include <spmma_sm90a/problem_check.hpp>
#include <spmma_sm90a/tile_config.hpp>
#endif

#include <string>
#include <vector>

namespace spmma_emu {

#if SPMMA_EMU_SM90A
namespace {

using namespace spmma_sm90a;
namespace isa = spmma::isa;

struct Entry {
    std::string name;  // the GPU kernel's
    spmma_dtype a, b, acc;
    bool satfinite;
    TileConfig cfg;
};

// Every kernel of the plugin's table (include/spmma_sm90a/kernels/*.inc), as its kernel_table.cpp
// lists them.
const std::vector<Entry>& entries() {
    static const std::vector<Entry> all = [] {
        std::vector<Entry> v;
        constexpr spmma_dtype dt_f16 = SPMMA_F16, dt_bf16 = SPMMA_BF16, dt_tf32 = SPMMA_TF32, dt_e4m3 = SPMMA_E4M3,
                              dt_e5m2 = SPMMA_E5M2, dt_s8 = SPMMA_S8, dt_u8 = SPMMA_U8;
        constexpr spmma_dtype acc_f32 = SPMMA_F32, acc_f16 = SPMMA_F16, acc_s32 = SPMMA_S32, acc_s32sat = SPMMA_S32;
        constexpr bool sat_f32 = false, sat_f16 = false, sat_s32 = false, sat_s32sat = true;
#define SPMMA_SM90A_KERNEL(A, B, ACC, BM, BN, BK, CM, CN, S)                                                  \
    v.push_back(Entry{"sm90a_" #A #B "_" #ACC "_" #BM "x" #BN "x" #BK "_c" #CM "x" #CN "_s" #S, dt_##A, dt_##B, \
                      acc_##ACC, sat_##ACC, TileConfig{*family_of(dt_##A, dt_##B), BM, BN, CM, CN, S}});
#include <spmma_sm90a/kernels/all.inc>
#undef SPMMA_SM90A_KERNEL
        return v;
    }();
    return all;
}

// The CTAs the kernel runs for a problem: every CTA of every cluster tile (those past m or n
// included: they read zero-filled boxes and padded metadata, and store nothing).
struct Grid {
    int64_t kp, meta_rows, k_tiles, tiles_m, tiles_n;
    int64_t ctas() const { return tiles_m * tiles_n; }
};

Grid grid_of(const TileConfig& c, const spmma_problem& p) {
    Grid g;
    g.kp = padded_k(c.family, p.k);
    g.meta_rows = padded_rows(p.m, static_cast<int64_t>(c.bm) * c.cm);
    g.k_tiles = g.kp / c.bk();
    g.tiles_m = ((p.m + c.bm - 1) / c.bm + c.cm - 1) / c.cm * c.cm;
    g.tiles_n = ((p.n + c.bn - 1) / c.bn + c.cn - 1) / c.cn * c.cn;
    return g;
}

std::string reason(const Entry& e, const spmma_problem& p) {
    if (auto r = problem_unsupported_reason(p); !r.empty()) return r;
    if (auto r = kernel_types_reason(e.name, e.a, e.b, e.acc, e.satfinite, p); !r.empty()) return r;
    if (auto r = epilogue_reason(p); !r.empty()) return r;
    const Grid g = grid_of(e.cfg, p);
    return size_reason(p, g.ctas() * e.cfg.bm * e.cfg.bn * (g.kp / 2));
}

isa::WgmmaSp op_of(const Entry& e) {
    isa::WgmmaSp op;
    op.n = e.cfg.bn;
    op.a = static_cast<spmma::DType>(e.a);
    op.b = static_cast<spmma::DType>(e.b);
    op.d = static_cast<spmma::DType>(e.acc);
    op.satfinite = e.satfinite;
    return op;
}

// The packed tensors the plugin uploads (sm90a_gemm.cpp upload), as its tensor maps describe them.
struct Packed {
    std::vector<uint8_t> a, b;  // A row-major, or in stage order (TileConfig::a_in_stage_order)
    std::vector<uint32_t> meta;
    isa::TmaTensor ta, tb, te;
    int64_t k_tiles = 0;
};

Packed pack(const Entry& e, const spmma_problem& p, const Canonical& in, const Grid& g) {
    const Family f = e.cfg.family;
    const int eb = traits(f).elem_bytes;
    Packed k;
    k.b.resize(packed_b_bytes(f, p.n, g.kp));
    k.meta.resize(packed_meta_words(f, g.meta_rows, g.kp));
    if (e.cfg.a_in_stage_order()) {
        k.a.resize(packed_a_stages_bytes(f, p.m, g.kp, e.cfg.a_slice_rows()));
        pack_a_stages(f, in.a_values.data(), p.m, p.k, g.kp, e.cfg.a_slice_rows(), k.a.data());
    } else {
        k.a.resize(packed_a_bytes(f, p.m, g.kp));
        pack_a_values(f, in.a_values.data(), p.m, p.k, g.kp, k.a.data());
    }
    k.k_tiles = g.k_tiles;
    pack_b(f, in.b.data(), p.n, p.k, g.kp, k.b.data());
    pack_metadata(f, in.a_indices.data(), p.m, p.k, g.meta_rows, g.kp, k.meta.data());
    if (fault_from_env() == Fault::Meta) k.meta[0] = corrupt_meta_word(k.meta[0], f == Family::B32);
    k.ta = {k.a.data(), g.kp / 2, p.m, eb};
    k.tb = {k.b.data(), g.kp, p.n, eb};
    k.te = {reinterpret_cast<const uint8_t*>(k.meta.data()), g.kp / traits(f).unit_k * 32, g.meta_rows / kMetaRowsPerUnit, 4};
    return k;
}

std::string where(const Entry& e, int64_t tile_m, int64_t tile_n, int64_t kt) {
    return "emu_" + e.name + ": CTA tile (" + std::to_string(tile_m) + ", " + std::to_string(tile_n) + "), k-tile " +
           std::to_string(kt) + ": ";
}

// Stage kt of CTA (tile_m, tile_n): what its producer and its cluster peers' producers load
// (their slices of A and metadata along the cluster row, of B along the cluster column).
std::string load_stage(const TileConfig& c, const Packed& k, isa::SharedMemory& smem, int s, int64_t tile_m,
                       int64_t tile_n, int kt) {
    const uint32_t a_st = static_cast<uint32_t>(c.a_offset() + s * c.a_stage_bytes());
    const uint32_t b_st = static_cast<uint32_t>(c.b_offset() + s * c.b_stage_bytes());
    const uint32_t e_st = static_cast<uint32_t>(c.e_offset() + s * c.e_stage_bytes());
    std::vector<std::string> u;
    auto add = [&u](std::vector<std::string> v) { u.insert(u.end(), v.begin(), v.end()); };
    for (int j = 0; j < c.cn; ++j) {
        const int tm = static_cast<int>(tile_m);
        if (c.a_in_stage_order()) {
            const size_t block = static_cast<size_t>(a_stage_block_offset(tile_m, k.k_tiles, kt, c.a_slice_rows()));
            add(isa::bulk_load_1d(smem, a_st, k.a.data() + block, static_cast<size_t>(c.a_stage_bytes())));
        } else {
            add(isa::tma_load_2d(smem, a_st + c.a_slice_offset(j), k.ta, c.bk() / 2, c.a_slice_rows(), c.a_col(kt),
                                 c.a_row(tm, j), isa::Swizzle::B64));
        }
        add(isa::tma_load_2d(smem, e_st + c.e_slice_offset(j), k.te, c.units() * 32, c.e_slice_blocks(), c.e_col(kt),
                             c.e_row(tm, j), isa::Swizzle::None));
    }
    for (int i = 0; i < c.cm; ++i)
        add(isa::tma_load_2d(smem, b_st + c.b_slice_offset(i), k.tb, c.bk(), c.b_slice_rows(), c.b_col(kt),
                             c.b_row(static_cast<int>(tile_n), i), isa::Swizzle::B128));
    return u.empty() ? std::string() : "copy: " + u.front();
}

// One CTA: every k-tile's stage and wgmmas, then its part of D into `acc`.
std::string run_cta(const Entry& e, const spmma_problem& p, const Grid& g, const Packed& k, int64_t cta,
                    std::vector<double>& acc) {
    const TileConfig& c = e.cfg;
    const Family f = c.family;
    const int64_t tile_m = cta / g.tiles_n, tile_n = cta % g.tiles_n;
    isa::WgmmaSp op = op_of(e);
    // The accumulators of each consumer's m64 blocks; garbage until the first wgmma (scale-d 0).
    std::vector<isa::WgmmaSpWarpgroup> wgs(static_cast<size_t>(c.consumers() * c.m_blocks()));
    for (auto& w : wgs)
        for (auto& d : w.d) d.assign(static_cast<size_t>(isa::wgmma_d_registers(op)), 0xFFFFFFFFu);
    isa::SharedMemory smem;
    for (int kt = 0; kt < g.k_tiles; ++kt) {
        // The ring stage this k-tile takes when one CTA runs the tiles in order.
        const int s = static_cast<int>((cta * g.k_tiles + kt) % c.stages);
        if (auto r = load_stage(c, k, smem, s, tile_m, tile_n, kt); !r.empty()) return where(e, tile_m, tile_n, kt) + r;
        const uint32_t a_st = static_cast<uint32_t>(c.a_offset() + s * c.a_stage_bytes());
        const uint32_t b_st = static_cast<uint32_t>(c.b_offset() + s * c.b_stage_bytes());
        const uint32_t e_st = static_cast<uint32_t>(c.e_offset() + s * c.e_stage_bytes());
        for (int step = 0; step < kStepsPerStage; ++step)
            for (int consumer = 0; consumer < c.consumers(); ++consumer)
                for (int j = 0; j < c.m_blocks(); ++j) {
                    isa::WgmmaSpWarpgroup& w = wgs[static_cast<size_t>(consumer * c.m_blocks() + j)];
                    for (int t = 0; t < 128; ++t)
                        w.meta[static_cast<size_t>(t)] = smem.load(
                            e_st + meta_word_offset(c.units(), c.consumer_meta_block(consumer, j, t / 32),
                                                    meta_unit_of_step(f, step), t % 32),
                            4);
                    w.selector = meta_selector(f, step);
                    w.a_desc = kmajor_desc(a_st, kStageARowBytes, c.consumer_a_row(consumer, j), step * kInstrARowBytes);
                    w.b_desc = kmajor_desc(b_st, kStageBRowBytes, 0, step * kInstrBRowBytes);
                    op.scale_d = kt > 0 || step > 0;
                    isa::WgmmaSpResult r = isa::wgmma_sp(op, smem, w);
                    if (!r.undefined.empty())
                        return where(e, tile_m, tile_n, kt) + "the wgmma of consumer " + std::to_string(consumer) +
                               ", m64 block " + std::to_string(j) + ", step " + std::to_string(step) +
                               " gets an undefined input: " + r.undefined.front();
                    w.d = std::move(r.d);
                }
    }
    // D fragments (layout.hpp acc_row / acc_col / acc_reg*): thread t of consumer c, block j,
    // 8-column block i, row half h, element x of the pair.
    const auto dt = static_cast<spmma::DType>(e.acc);
    for (int consumer = 0; consumer < c.consumers(); ++consumer)
        for (int j = 0; j < c.m_blocks(); ++j)
            for (int t = 0; t < 128; ++t) {
                const isa::WgmmaSpWarpgroup& w = wgs[static_cast<size_t>(consumer * c.m_blocks() + j)];
                const std::vector<uint32_t>& regs = w.d[static_cast<size_t>(t)];
                for (int i = 0; i < c.bn / 8; ++i)
                    for (int h = 0; h < 2; ++h)
                        for (int x = 0; x < 2; ++x) {
                            const int64_t row = tile_m * c.bm + consumer * c.wg_m() + 64 * j + acc_row(t / 32, t % 32, h);
                            const int64_t col = tile_n * c.bn + acc_col(t % 32, i) + x;
                            if (row >= p.m || col >= p.n) continue;
                            double v;
                            if (dt == spmma::DType::F16) {
                                v = spmma::decode(dt, (regs[static_cast<size_t>(acc_reg16(i, h))] >> (16 * x)) & 0xFFFFu);
                            } else {
                                const uint32_t bits = regs[static_cast<size_t>(acc_reg32(i, h) + x)];
                                v = dt == spmma::DType::S32 ? static_cast<double>(static_cast<int32_t>(bits))
                                                            : spmma::decode(dt, bits);
                            }
                            acc[static_cast<size_t>(row * p.n + col)] = v;
                        }
            }
    return {};
}

std::vector<double> accumulate(const Entry& e, const spmma_problem& p, const Canonical& in) {
    const Grid g = grid_of(e.cfg, p);
    const Packed k = pack(e, p, in, g);
    std::vector<double> acc(static_cast<size_t>(p.m * p.n), 0.0);
    for_each_piece(g.ctas(), [&](int64_t cta) { return run_cta(e, p, g, k, cta, acc); });
    return acc;
}

}  // namespace

void add_sm90a_kernels(std::vector<EmuKernel>& out) {
    for (const Entry& e : entries()) {
        EmuKernel k;
        k.name = "emu_" + e.name;
        k.description = "sm90a kernel " + e.name + " on the CPU: its host packing, TMA boxes, metadata words and "
                        "descriptors through the wgmma.mma_async.sp model (m64n" + std::to_string(e.cfg.bn) + "k" +
                        std::to_string(traits(e.cfg.family).instr_k) + ", whole tiles)";
        k.reason = [&e](const spmma_problem& p) { return reason(e, p); };
        k.accumulate = [&e](const spmma_problem& p, const Canonical& in) { return accumulate(e, p, in); };
        out.push_back(std::move(k));
    }
}
#else
void add_sm90a_kernels(std::vector<EmuKernel>&) {}  // the sm90a packing library is not built here
#endif

}  // namespace spmma_emu
