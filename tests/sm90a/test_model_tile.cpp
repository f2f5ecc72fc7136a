// The proof that the sm90a layouts are right before any GPU run: for every kernel the plugin
// builds, one output tile is computed the way the kernel computes it -- the host packing
// (pack.hpp), TMA placing the packed boxes into shared memory with the tensor maps' swizzle at
// the producer's coordinates (A in stage order by one bulk copy a stage, for the kernels that
// take it so), the consumers' metadata words and matrix descriptors (layout.hpp,
// tile_config.hpp) -- with the bit-level wgmma.mma_async.sp model (isa/) in place of
// the tensor cores, and the accumulators read back through the epilogue's fragment mapping.
// The result must equal the exact product of the canonical operands.
#include <catch2/catch.hpp>

#include <spmma/isa/bulk_copy.hpp>
#include <spmma/isa/smem.hpp>
#include <spmma/isa/wgmma_sp.hpp>
#include <spmma/types.hpp>
#include <spmma_sm90a/layout.hpp>
#include <spmma_sm90a/pack.hpp>
#include <spmma_sm90a/tile_config.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace spmma_sm90a;
using spmma::DType;
namespace isa = spmma::isa;

namespace {

struct KernelCase {
    std::string name;
    DType a, b, acc;
    bool sat;
    TileConfig cfg;
};

std::vector<KernelCase> plugin_kernels() {
    std::vector<KernelCase> v;
    constexpr DType dt_f16 = DType::F16, dt_bf16 = DType::BF16, dt_tf32 = DType::TF32, dt_e4m3 = DType::E4M3,
                    dt_e5m2 = DType::E5M2, dt_s8 = DType::S8, dt_u8 = DType::U8;
    constexpr DType acc_f32 = DType::F32, acc_f16 = DType::F16, acc_s32 = DType::S32, acc_s32sat = DType::S32;
    constexpr bool sat_f32 = false, sat_f16 = false, sat_s32 = false, sat_s32sat = true;
    auto fam = [](DType a) { return a == DType::F16 || a == DType::BF16 ? Family::B16 : a == DType::TF32 ? Family::B32 : Family::B8; };
#define SPMMA_SM90A_KERNEL(A, B, ACC, BM, BN, BK, CM, CN, S)                                                 \
    v.push_back({"sm90a_" #A #B "_" #ACC "_" #BM "x" #BN "x" #BK "_c" #CM "x" #CN "_s" #S, dt_##A, dt_##B, \
                 acc_##ACC, sat_##ACC, TileConfig{fam(dt_##A), BM, BN, CM, CN, S}});
#include <spmma_sm90a/kernels/all.inc>
#undef SPMMA_SM90A_KERNEL
    return v;
}

// A row-major 2-D tensor in host memory, as a tensor map describes it.
struct HostTensor {
    const uint8_t* data;
    int64_t cols, rows;
    int elem_bytes;
};

// cp.async.bulk.tensor with a tiled tensor map: the box of box_cols x box_rows elements at
// (c0, r0) lands at `dst` row after row (box_cols * elem_bytes bytes each); elements outside the
// tensor are zeros; with an S-byte swizzle (CU_TENSOR_MAP_SWIZZLE_<S>B) the 16-byte chunk of each
// shared-memory byte address (bits 4..) is XORed with its bits 7.. (the row in the 8-row pattern).
void tma_load(isa::SharedMemory& smem, uint32_t dst, const HostTensor& t, int box_cols, int box_rows, int64_t c0,
              int64_t r0, int swizzle_bytes) {
    const int eb = t.elem_bytes;
    for (int r = 0; r < box_rows; ++r)
        for (int c = 0; c < box_cols; ++c) {
            const int64_t gr = r0 + r, gc = c0 + c;
            const bool in = gr < t.rows && gc < t.cols;
            for (int b = 0; b < eb; ++b) {
                uint32_t addr = dst + static_cast<uint32_t>((r * box_cols + c) * eb + b);
                if (swizzle_bytes >= 32) addr ^= ((addr >> 7) & static_cast<uint32_t>(swizzle_bytes / 16 - 1)) << 4;
                smem.store8(addr, in ? t.data[(gr * t.cols + gc) * eb + b] : uint8_t{0});
            }
        }
}

int eb_of(DType t) { return spmma::info(t).storage_bits / 8; }

// Small nonzero integers every type holds exactly (sums stay exact in f16).
uint32_t small_code(DType t, std::mt19937& rng) {
    int v = static_cast<int>(rng() % 3) + 1;
    if (t != DType::U8 && (rng() & 1u)) v = -v;
    return spmma::encode(t, v);
}

void store_code(std::vector<uint8_t>& buf, int64_t index, int eb, uint32_t code) {
    for (int b = 0; b < eb; ++b) buf[static_cast<size_t>(index * eb + b)] = static_cast<uint8_t>(code >> (8 * b));
}

double acc_value(DType acc, const std::vector<uint32_t>& regs, int i, int h, int e) {
    if (acc == DType::F16) return spmma::decode(DType::F16, (regs.at(acc_reg16(i, h)) >> (16 * e)) & 0xFFFFu);
    const uint32_t bits = regs.at(acc_reg32(i, h) + e);
    if (acc == DType::S32) return static_cast<int32_t>(bits);
    return spmma::decode(DType::F32, bits);
}

// Runs one cluster tile of kernel `kc` on a problem with m, n and k tails through the model;
// returns mismatches (0 when the layouts are right).
int run_tile(const KernelCase& kc, int64_t& checked) {
    const TileConfig& cfg = kc.cfg;
    const Family f = cfg.family;
    const FamilyTraits tr = traits(f);
    const int eb = eb_of(kc.a), g = tr.group;
    std::mt19937 rng(static_cast<uint32_t>(std::hash<std::string>{}(kc.name)));

    // Problem: two cluster tiles along m and n, the second one cut by the tails; k one stage
    // and a few groups (a k tail inside the second stage).
    const int64_t m = static_cast<int64_t>(cfg.bm) * cfg.cm + 37, n = static_cast<int64_t>(cfg.bn) * cfg.cn + 11;
    const int64_t k = cfg.bk() + 3 * g;
    const int64_t kp = padded_k(f, k), meta_rows = padded_rows(m, static_cast<int64_t>(cfg.bm) * cfg.cm);

    // Canonical operands: compressed A (m x k/2), index bytes, B column-major (n rows of k).
    std::vector<uint8_t> a(static_cast<size_t>(m * k / 2 * eb)), b(static_cast<size_t>(n * k * eb));
    std::vector<uint8_t> idx(static_cast<size_t>(m * (k / g)));
    static const uint8_t pairs[6] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};
    for (auto& x : idx) x = g == 2 ? static_cast<uint8_t>(rng() & 1u) : pairs[rng() % 6];
    for (int64_t i = 0; i < m * k / 2; ++i) store_code(a, i, eb, small_code(kc.a, rng));
    for (int64_t i = 0; i < n * k; ++i) store_code(b, i, eb, small_code(kc.b, rng));

    // Exact reference, D = A * B.
    auto a_at = [&](int64_t r, int64_t i) {
        uint32_t code = 0;
        for (int byte = 0; byte < eb; ++byte) code |= uint32_t(a[static_cast<size_t>((r * k / 2 + i) * eb + byte)]) << (8 * byte);
        return spmma::decode(kc.a, code);
    };
    auto b_at = [&](int64_t c, int64_t kk) {
        uint32_t code = 0;
        for (int byte = 0; byte < eb; ++byte) code |= uint32_t(b[static_cast<size_t>((c * k + kk) * eb + byte)]) << (8 * byte);
        return spmma::decode(kc.b, code);
    };
    auto ref = [&](int64_t r, int64_t c) {
        double s = 0;
        for (int64_t grp = 0; grp < k / g; ++grp) {
            const uint8_t ib = idx[static_cast<size_t>(r * (k / g) + grp)];
            if (g == 2) {
                s += a_at(r, grp) * b_at(c, 2 * grp + (ib & 1));
            } else {
                s += a_at(r, 2 * grp) * b_at(c, 4 * grp + (ib & 3));
                s += a_at(r, 2 * grp + 1) * b_at(c, 4 * grp + (ib >> 2));
            }
        }
        return s;
    };

    // Host packing, as upload() does it.
    std::vector<uint8_t> pa(packed_a_bytes(f, m, kp)), pb(packed_b_bytes(f, n, kp));
    std::vector<uint32_t> pe(packed_meta_words(f, meta_rows, kp));
    pack_a_values(f, a.data(), m, k, kp, pa.data());
    std::vector<uint8_t> pa_stages;  // A in stage order, for the kernels that copy it so
    if (cfg.a_in_stage_order()) {
        pa_stages.resize(packed_a_stages_bytes(f, m, kp, cfg.a_slice_rows()));
        pack_a_stages(f, a.data(), m, k, kp, cfg.a_slice_rows(), pa_stages.data());
    }
    pack_b(f, b.data(), n, k, kp, pb.data());
    pack_metadata(f, idx.data(), m, k, meta_rows, kp, pe.data());
    const HostTensor ta{pa.data(), kp / 2, m, eb};
    const HostTensor tb{pb.data(), kp, n, eb};
    const HostTensor te{reinterpret_cast<const uint8_t*>(pe.data()), kp / tr.unit_k * 32, meta_rows / 16, 4};

    const int k_tiles = static_cast<int>(kp / cfg.bk());
    const int cluster_m = static_cast<int>((m + cfg.bm - 1) / cfg.bm + cfg.cm - 1) / cfg.cm - 1;  // last cluster tile
    const int cluster_n = static_cast<int>((n + cfg.bn - 1) / cfg.bn + cfg.cn - 1) / cfg.cn - 1;

    isa::WgmmaSp op;
    op.n = cfg.bn;
    op.a = kc.a;
    op.b = kc.b;
    op.d = kc.acc;
    op.satfinite = kc.sat;
    int mismatches = 0;
    for (int cta_m = 0; cta_m < cfg.cm; ++cta_m)
        for (int cta_n = 0; cta_n < cfg.cn; ++cta_n) {
            const int tile_m = cluster_m * cfg.cm + cta_m, tile_n = cluster_n * cfg.cn + cta_n;
            // accumulators of every consumer warpgroup and m64 block
            std::vector<isa::WgmmaSpWarpgroup> wgs(static_cast<size_t>(cfg.consumers() * cfg.m_blocks()));
            for (auto& w : wgs)
                for (auto& d : w.d) d.assign(static_cast<size_t>(isa::wgmma_d_registers(op)), 0xFFFFFFFFu);
            for (int kt = 0; kt < k_tiles; ++kt) {
                const int s = (kt + 1) % cfg.stages;  // a stage other than 0 first
                const uint32_t a_st = static_cast<uint32_t>(cfg.a_offset() + s * cfg.a_stage_bytes());
                const uint32_t b_st = static_cast<uint32_t>(cfg.b_offset() + s * cfg.b_stage_bytes());
                const uint32_t e_st = static_cast<uint32_t>(cfg.e_offset() + s * cfg.e_stage_bytes());
                isa::SharedMemory smem;
                // This CTA's stage: the slices of its cluster row (A, metadata) and column (B).
                for (int j = 0; j < cfg.cn; ++j) {
                    if (cfg.a_in_stage_order()) {
                        // One bulk copy of the block of (tile row, stage), as the producer issues it.
                        const size_t block = static_cast<size_t>(a_stage_block_offset(tile_m, k_tiles, kt, cfg.a_slice_rows()));
                        const auto bulk = isa::bulk_load_1d(smem, a_st, pa_stages.data() + block, cfg.a_stage_bytes());
                        if (!bulk.empty()) {
                            UNSCOPED_INFO(kc.name << ": " << bulk.front());
                            return -1;
                        }
                    } else {
                        tma_load(smem, a_st + cfg.a_slice_offset(j), ta, cfg.bk() / 2, cfg.a_slice_rows(), cfg.a_col(kt),
                                 cfg.a_row(tile_m, j), kStageARowBytes);
                    }
                    tma_load(smem, e_st + cfg.e_slice_offset(j), te, cfg.units() * 32, cfg.e_slice_blocks(), cfg.e_col(kt),
                             cfg.e_row(tile_m, j), 0);
                }
                for (int i = 0; i < cfg.cm; ++i)
                    tma_load(smem, b_st + cfg.b_slice_offset(i), tb, cfg.bk(), cfg.b_slice_rows(), cfg.b_col(kt),
                             cfg.b_row(tile_n, i), kStageBRowBytes);
                for (int step = 0; step < kStepsPerStage; ++step)
                    for (int c = 0; c < cfg.consumers(); ++c)
                        for (int j = 0; j < cfg.m_blocks(); ++j) {
                            isa::WgmmaSpWarpgroup& w = wgs[static_cast<size_t>(c * cfg.m_blocks() + j)];
                            for (int t = 0; t < 128; ++t)
                                w.meta[static_cast<size_t>(t)] = smem.load(
                                    e_st + meta_word_offset(cfg.units(), cfg.consumer_meta_block(c, j, t / 32),
                                                            meta_unit_of_step(f, step), t % 32),
                                    4);
                            w.selector = meta_selector(f, step);
                            w.a_desc = kmajor_desc(a_st, kStageARowBytes, cfg.consumer_a_row(c, j), step * kInstrARowBytes);
                            w.b_desc = kmajor_desc(b_st, kStageBRowBytes, 0, step * kInstrBRowBytes);
                            op.scale_d = kt > 0 || step > 0;
                            isa::WgmmaSpResult res = isa::wgmma_sp(op, smem, w);
                            if (!res.undefined.empty()) {
                                UNSCOPED_INFO(kc.name << ": model reports: " << res.undefined.front());
                                return -1;
                            }
                            w.d = std::move(res.d);
                        }
            }
            // Epilogue mapping: thread t of consumer c, block j, 8-column block i, row half h.
            for (int c = 0; c < cfg.consumers(); ++c)
                for (int j = 0; j < cfg.m_blocks(); ++j)
                    for (int t = 0; t < 128; ++t)
                        for (int i = 0; i < cfg.bn / 8; ++i)
                            for (int h = 0; h < 2; ++h)
                                for (int e = 0; e < 2; ++e) {
                                    const int64_t row = int64_t(tile_m) * cfg.bm + c * cfg.wg_m() + 64 * j + acc_row(t / 32, t % 32, h);
                                    const int64_t col = int64_t(tile_n) * cfg.bn + acc_col(t % 32, i) + e;
                                    if (row >= m || col >= n) continue;
                                    const double got = acc_value(kc.acc, wgs[static_cast<size_t>(c * cfg.m_blocks() + j)].d[static_cast<size_t>(t)], i, h, e);
                                    const double want = ref(row, col);
                                    ++checked;
                                    if (got != want) {
                                        if (mismatches < 5)
                                            UNSCOPED_INFO(kc.name << ": D(" << row << ", " << col << ") = " << got << ", exact " << want);
                                        ++mismatches;
                                    }
                                }
        }
    return mismatches;
}

}  // namespace

TEST_CASE("sm90a every plugin kernel's packing, TMA placement, metadata and descriptors give the exact tile through the wgmma.mma_async.sp model",
          "[sm90a][model]") {
    const auto kernels = plugin_kernels();
    REQUIRE(kernels.size() > 20);
    for (const KernelCase& kc : kernels) {
        int64_t checked = 0;
        const int bad = run_tile(kc, checked);
        INFO(kc.name);
        CHECK(bad == 0);
        CHECK(checked > 0);
    }
}

// The epilogue's TMA-store path (sm90a_spgemm.cuh store_tile_tma): every consumer thread writes
// its D fragment pairs of one chunk (64 rows x epi_row_bytes) at epi_offset_of(); a tma store with
// the D tensor map's swizzle then reads box element (r, c) at the address tma_load above places it.
// For every kernel configuration and D element size: the box element (r, c) must be the pair
// element the wgmma D fragment holds for row r, column c of the chunk, every byte written once,
// and each warp's store of one block must take the minimum number of shared-memory wavefronts;
// each consumer's one or two buffers must not overlap anything else.
TEST_CASE("sm90a epilogue buffers: disjoint and aligned, and every D fragment element reaches its place in the tma store box, once, without bank conflicts",
          "[sm90a][model]") {
    std::set<std::pair<int, int>> seen;
    for (const KernelCase& kc : plugin_kernels()) {
        const int rb = kc.cfg.epi_row_bytes();
        INFO(kc.name << " epilogue rows of " << rb << " bytes");
        CHECK(kc.cfg.tma_store() == (rb > 0));
        // Every kernel of the table but the narrow decode tiles has buffers (8-bit 256x192 runs 4
        // stages to make room: with 5 it stored D directly and measured 3-27 % slower); those
        // store their few KB of D directly.
        CHECK((rb > 0) == (kc.cfg.bn >= 64));
        if (rb == 0) continue;
        REQUIRE((rb == 128 || rb == 64));
        CHECK(kc.cfg.epi_offset() % 1024 == 0);
        CHECK(kc.cfg.epi_offset() >= kc.cfg.e_offset() + kc.cfg.stages * kc.cfg.e_stage_bytes());
        CHECK(kc.cfg.smem_bytes() <= kMaxSmemPerCta);
        // Each consumer's one or two buffers: disjoint, between the stage ring and the barriers,
        // aligned as the swizzle of their width requires (128-byte rows: 1024, 64-byte rows: 512).
        const int nbuf = kc.cfg.epi_buffers();
        CHECK((nbuf == 1 || nbuf == 2));
        std::vector<std::pair<int, int>> spans;
        for (int c = 0; c < kc.cfg.consumers(); ++c)
            for (int b = 0; b < nbuf; ++b) {
                const int off = kc.cfg.epi_buffer_offset(c, b);
                CHECK(off % (rb == 128 ? 1024 : 512) == 0);
                CHECK(off >= kc.cfg.epi_offset());
                CHECK(off + kc.cfg.epi_buffer_bytes() <= kc.cfg.barrier_offset());
                for (const auto& [lo, hi] : spans) CHECK((off + kc.cfg.epi_buffer_bytes() <= lo || off >= hi));
                spans.push_back({off, off + kc.cfg.epi_buffer_bytes()});
            }
        // Block b's offset from block 0's by one XOR (layout.hpp epi_block_offset, what the
        // kernel computes) for every row, lane, block and element size.
        for (const int eb : {2, 4}) {
            int wrong = 0;
            for (int row = 0; row < 64; ++row)
                for (int lane = 0; lane < 4; ++lane)
                    for (int b = 0; b < rb / eb / 8; ++b)
                        wrong += epi_block_offset(epi_offset_of(row, acc_col(lane, 0) * eb, rb), b, eb) !=
                                 epi_offset_of(row, acc_col(lane, b) * eb, rb);
            CHECK(wrong == 0);
        }
        for (const int eb : {2, 4}) {
            if (!seen.insert({rb, eb}).second) continue;
            const int cols = rb / eb, blocks = cols / 8;
            // owner[byte] = (row, col, byte of element) + 1 as one number, 0 = unwritten
            std::vector<int> owner(static_cast<size_t>(64 * rb), 0);
            int max_wavefronts = 0;
            for (int w4 = 0; w4 < 4; ++w4)
                for (int h = 0; h < 2; ++h)
                    for (int b = 0; b < blocks; ++b) {
                        std::map<int, std::set<int>> words_per_bank;  // one warp store instruction
                        for (int lane = 0; lane < 32; ++lane) {
                            const int row = acc_row(w4, lane, h);
                            const uint32_t off = epi_offset_of(row, acc_col(lane, b) * eb, rb);
                            for (int e = 0; e < 2; ++e)
                                for (int x = 0; x < eb; ++x) {
                                    const uint32_t a = off + static_cast<uint32_t>(e * eb + x);
                                    REQUIRE(a < owner.size());
                                    CHECK(owner[a] == 0);
                                    owner[a] = ((row * cols + acc_col(lane, b) + e) * eb + x) + 1;
                                    words_per_bank[static_cast<int>(a / 4) % 32].insert(static_cast<int>(a / 4));
                                }
                        }
                        for (const auto& [bank, words] : words_per_bank)
                            max_wavefronts = std::max(max_wavefronts, static_cast<int>(words.size()));
                    }
            int wrong = 0;
            for (int r = 0; r < 64; ++r)
                for (int c = 0; c < cols; ++c)
                    for (int x = 0; x < eb; ++x) {
                        uint32_t addr = static_cast<uint32_t>((r * cols + c) * eb + x);
                        addr ^= ((addr >> 7) & static_cast<uint32_t>(rb / 16 - 1)) << 4;  // as tma_load
                        if (owner[addr] != (r * cols + c) * eb + x + 1) ++wrong;
                    }
            INFO("element bytes " << eb);
            CHECK(wrong == 0);
            CHECK(max_wavefronts == 64 * eb / 128);  // 32 lanes x 2 elements: 1 (16-bit) or 2 (32-bit) wavefronts
        }
    }
    CHECK(seen.size() == 4);  // both widths occur in the plugin's table
    int single_buffered = 0, double_buffered = 0;
    for (const KernelCase& kc : plugin_kernels()) {
        single_buffered += kc.cfg.epi_buffers() == 1;
        double_buffered += kc.cfg.epi_buffers() == 2;
        // Two buffers alternate across tiles only with an even number of 16-bit chunks per tile.
        if (kc.cfg.epi_buffers() == 2) CHECK(kc.cfg.epi_chunks16(kc.cfg.epi_row_bytes()) % 2 == 0);
    }
    CHECK(double_buffered > 0);  // and both buffer counts
    CHECK(single_buffered > 0);
}

// The epilogue terms of the narrow tiles (TileConfig::stages_terms, read by TileTerms in
// sm90a_spgemm.cuh): one region per consumer warp, after the epilogue buffers and before the
// barriers, disjoint, 8-byte aligned for cp.async's column pairs, inside the CTA's shared memory;
// the wider tiles keep none.
TEST_CASE("sm90a epilogue terms: every narrow tile has a region per consumer warp between the epilogue buffers and the barriers, the wider tiles none",
          "[sm90a][model]") {
    int staged = 0;
    for (const KernelCase& kc : plugin_kernels()) {
        const TileConfig& c = kc.cfg;
        INFO(kc.name);
        CHECK(c.stages_terms() == (c.bn <= 64));
        if (!c.stages_terms()) {
            CHECK(c.terms_bytes() == 0);
            continue;
        }
        ++staged;
        CHECK(c.terms_warp_bytes() == c.m_blocks() * 16 * 8 + 32 * 16);  // rows: scale, bias; lanes: two pairs
        CHECK(c.terms_bytes() == c.consumers() * 4 * c.terms_warp_bytes());
        const int buffers_end = c.epi_buffer_offset(c.consumers() - 1, c.epi_buffers() - 1) + c.epi_buffer_bytes();  // past the last buffer
        std::vector<std::pair<int, int>> spans;
        for (int consumer = 0; consumer < c.consumers(); ++consumer)
            for (int w4 = 0; w4 < 4; ++w4) {
                const int off = c.terms_offset(consumer, w4);
                CHECK(off % 8 == 0);
                CHECK(off >= buffers_end);
                CHECK(off + c.terms_warp_bytes() <= c.barrier_offset());
                for (const auto& [lo, hi] : spans) CHECK((off + c.terms_warp_bytes() <= lo || off >= hi));
                spans.push_back({off, off + c.terms_warp_bytes()});
            }
        CHECK(c.barrier_offset() % 8 == 0);
        CHECK(c.smem_bytes() <= kMaxSmemPerCta);
    }
    CHECK(staged > 0);
}

// The epilogue terms of the wide tiles (TileConfig::stages_wide_terms, TileTerms::kWide in
// sm90a_spgemm.cuh): one region per consumer after the barriers, its rows (8 bytes each) then the
// tile's column pairs (16 bytes each), 16-byte aligned for the pairs' reads, disjoint, inside the
// CTA's shared memory with the slack that aligns its base; among them the serving op's 8-bit
// 128x256 kernels.
TEST_CASE("sm90a epilogue terms: the wide tiles with room keep a region per consumer past the barriers, 8-bit 128x256 among them",
          "[sm90a][model]") {
    int wide = 0;
    for (const KernelCase& kc : plugin_kernels()) {
        const TileConfig& c = kc.cfg;
        INFO(kc.name);
        if (c.bn <= 64 || c.acc_regs(false) <= 64) CHECK_FALSE(c.stages_wide_terms());
        if (c.family == Family::B8 && c.bm == 128 && c.bn == 256) CHECK(c.stages_wide_terms());
        if (!c.stages_wide_terms()) {
            CHECK(c.smem_bytes() == (c.exchanges_in_cluster() ? c.exchange_end(c.exchange_ranges()) : c.barriers_end()) + 1024);
            continue;
        }
        CHECK_FALSE(c.exchanges_in_cluster());
        ++wide;
        CHECK(c.wide_terms_consumer_bytes() == c.wg_m() * 8 + c.bn / 2 * 16);
        for (int consumer = 0; consumer < c.consumers(); ++consumer) {
            const int off = c.wide_terms_offset(consumer);
            CHECK(off % 16 == 0);
            CHECK(off >= c.barriers_end());
            if (consumer > 0) CHECK(off >= c.wide_terms_offset(consumer - 1) + c.wide_terms_consumer_bytes());
        }
        CHECK(c.wide_terms_offset(c.consumers() - 1) + c.wide_terms_consumer_bytes() + 1024 <= c.smem_bytes());
        CHECK(c.smem_bytes() <= kMaxSmemPerCta);
    }
    CHECK(wide > 0);
}

// The partials a split tile's earlier ranges hand to their owner in one cluster
// (TileConfig::exchange_ranges, send_partial_to_owner in sm90a_spgemm.cuh): per earlier range and
// consumer a slot of 128 threads x its f32 accumulator registers, 16-byte aligned and apart, then
// one mbarrier per consumer, all past the barriers and inside the CTA's shared memory, for as
// many ranges (2 to 8) as the room allows; the decode tiles of every family but 8-bit 128x64
// (whose stage ring leaves 25 KB of the 32 one slot per consumer needs) and 16-bit 128x32 (whose
// whole tiles ran slower with the exchange's code), no kernel with a cluster of its own and no
// tile wider than 64. Only 8-bit 128x16 takes more than two (eight at twelve stages: 1280x8192's
// plans); the others keep one slot (16-bit 128x16's whole tiles ran slower with seven).
TEST_CASE("sm90a ranges in one cluster: the narrow tiles keep a slot per earlier range and consumer and a barrier past the barriers",
          "[sm90a][model]") {
    int exchanging = 0;
    for (const KernelCase& kc : plugin_kernels()) {
        const TileConfig& c = kc.cfg;
        INFO(kc.name);
        if (c.bn > 64 || c.cluster_size() > 1) CHECK(c.exchange_ranges() == 0);
        // (the decode tiles at the stages they run: 128x16 and 128x32 with 12, 64x64 with 14,
        // 128x64 with 10; the 20-stage 128x16 kept for stage sweeps fills its shared memory)
        const bool decode_tile = (c.bn == 16 && c.stages == 12) || (c.bn == 32 && c.family != Family::B16) ||
                                 (c.bn == 64 && (c.bm == 64 || c.family == Family::B16));
        if (c.cluster_size() == 1 && c.family != Family::B32 && decode_tile) CHECK(c.exchanges_in_cluster());
        if (c.cluster_size() == 1 && c.family == Family::B8 && c.bn == 16 && c.stages == 12) CHECK(c.exchange_ranges() == 8);
        if (!(c.family == Family::B8 && c.bm == 128 && c.bn == 16)) CHECK(c.exchange_ranges() <= 2);
        if (c.family == Family::B8 && c.bm == 128 && c.bn == 64) CHECK_FALSE(c.exchanges_in_cluster());
        if (c.family == Family::B16 && c.bm == 128 && c.bn == 32) CHECK_FALSE(c.exchanges_in_cluster());
        if (!c.exchanges_in_cluster()) continue;
        ++exchanging;
        CHECK(c.exchange_ranges() <= 8);
        CHECK(c.exchange_slot_bytes() == 128 * c.acc_regs(false) * 4);
        CHECK(c.exchange_offset() % 128 == 0);
        CHECK(c.exchange_offset() >= c.barriers_end());
        const int slots = c.exchange_ranges() - 1;
        for (int consumer = 0; consumer < c.consumers(); ++consumer) {
            for (int slot = 0; slot < slots; ++slot) {
                CHECK(c.exchange_slot_offset(consumer, slot) % 16 == 0);
                CHECK(c.exchange_slot_offset(consumer, slot) >= c.exchange_offset());
                if (slot > 0) CHECK(c.exchange_slot_offset(consumer, slot) >= c.exchange_slot_offset(consumer, slot - 1) + c.exchange_slot_bytes());
                // (the owner walks a consumer's slots by the stride)
                CHECK(c.exchange_slot_offset(consumer, slot) == c.exchange_slot_offset(consumer, 0) + slot * c.exchange_slot_stride());
            }
            CHECK(c.exchange_barrier_offset(consumer) % 8 == 0);
            CHECK(c.exchange_barrier_offset(consumer) >= c.exchange_slot_offset(c.consumers() - 1, slots - 1) + c.exchange_slot_bytes());
        }
        CHECK(c.exchange_barrier_offset(c.consumers()) == c.exchange_end(c.exchange_ranges()));
        CHECK(c.exchange_end(c.exchange_ranges()) + 1024 == c.smem_bytes());
        CHECK(c.smem_bytes() <= kMaxSmemPerCta);
        // (8-bit 128x16: one range more would not fit, unless eight is the most)
        if (c.family == Family::B8 && c.bn == 16 && c.exchange_ranges() < 8)
            CHECK(c.exchange_end(c.exchange_ranges() + 1) + 1024 > kMaxSmemPerCta);
    }
    CHECK(exchanging > 0);
}

// The borrowed epilogue buffers (TileConfig::epi_borrows, sm90a_spgemm.cuh): consumer c writes
// chunks into its own buffer and into two buffers at b_offset + s * b_stage_bytes + c * 2 *
// epi_buffer_bytes of the tile's last stage s. For every kernel that borrows and every stage:
// the borrowed buffers lie inside that stage's B rows, never overlap each other or the stage's
// A, metadata or the consumers' own buffers, and keep the alignment of the swizzle of their width.
// The heuristic's 128x256 kernels borrow (16- and 8-bit); none with 192 accumulator registers.
TEST_CASE("sm90a borrowed epilogue buffers: inside the last stage's B rows, disjoint, aligned, and where the tiles borrow",
          "[sm90a][model]") {
    int borrowing = 0;
    for (const KernelCase& kc : plugin_kernels()) {
        const TileConfig& c = kc.cfg;
        INFO(kc.name);
        if (c.m_blocks() * c.bn > 320) CHECK(!c.epi_borrows());
        if (c.bm == 128 && c.bn == 256 && c.family != Family::B32) CHECK(c.epi_borrows());
        if (!c.epi_borrows()) continue;
        ++borrowing;
        CHECK(c.epi_buffers() == 1);
        const int bytes = c.epi_buffer_bytes(), align = c.epi_row_bytes() == 128 ? 1024 : 512;
        for (int s = 0; s < c.stages; ++s) {
            const int b_lo = c.b_offset() + s * c.b_stage_bytes(), b_hi = b_lo + c.b_stage_bytes();
            std::vector<std::pair<int, int>> spans;
            for (int k = 0; k < c.consumers(); ++k) spans.push_back({c.epi_buffer_offset(k, 0), c.epi_buffer_offset(k, 0) + bytes});
            for (int k = 0; k < c.consumers(); ++k)
                for (int i = 0; i < 2; ++i) {
                    const int off = b_lo + (k * 2 + i) * bytes;
                    CHECK(off % align == 0);
                    CHECK(off >= b_lo);
                    CHECK(off + bytes <= b_hi);
                    for (const auto& [lo, hi] : spans) CHECK((off + bytes <= lo || off >= hi));
                    spans.push_back({off, off + bytes});
                }
        }
    }
    CHECK(borrowing > 0);
}
