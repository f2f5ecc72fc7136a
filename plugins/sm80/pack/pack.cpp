#include <spmma_sm80/pack.hpp>

#include <spmma_plugin/host_pack.hpp>

#include <cstring>
#include <stdexcept>

namespace spmma_sm80 {

using spmma_plugin::host::ceil_div;
using spmma_plugin::host::parallel_for;

PackedShape packed_shape(const Family& f, const Tile& t, int64_t m, int64_t n, int64_t k) {
    if (m <= 0 || n <= 0 || k <= 0) throw std::invalid_argument("packed_shape: sizes must be positive");
    if (k % f.chunk != 0) throw std::invalid_argument("packed_shape: k is not a multiple of the pattern group");
    const int64_t k_stages = ceil_div(k * f.bits, int64_t(kStageKBytes) * 8);
    return spmma_plugin::host::staged_shape(m, n, k, t.bm, t.bn, k_stages,
                                            {f.stage_k(), kStageKBytes, a_stage_bytes(t.bm), e_stage_words(f, t.bm)});
}

int64_t canonical_a_values_bytes(const Family& f, int64_t m, int64_t k) { return m * (k / 2) * f.bits / 8; }
int64_t canonical_a_indices_bytes(const Family& f, int64_t m, int64_t k) { return m * (k / f.chunk); }
int64_t canonical_b_bytes(const Family& f, int64_t n, int64_t k) { return n * k * f.bits / 8; }

void pack_a(const Family& f, const PackedShape& s, int bm, const uint8_t* values, const uint8_t* indices,
            uint8_t* a_out, uint32_t* e_out, int threads) {
    const int64_t row_bytes = s.k * f.bits / 16;  // compressed bytes of one canonical row
    const int64_t groups = s.k / f.chunk;         // index bytes of one canonical row
    const int64_t tiles_m = s.m_pad / bm;
    const int atoms = bm / kAtomRows;
    const int64_t a_block = a_stage_bytes(bm), e_block = e_stage_words(f, bm);
    const int chunks = f.chunks_per_step();
    const spmma_plugin::host::IndexNibbles nibble{pattern_of(f), indices, s.m, groups};

    spmma_plugin::host::for_each_stage_block(tiles_m, s.k_stages, a_block, e_block, a_out, e_out, threads,
                                             [&](int64_t mt, int64_t ks, uint8_t* a_blk, uint32_t* e_blk) {
        for (int atom = 0; atom < atoms; ++atom) {
            const int64_t row0 = mt * bm + int64_t(atom) * kAtomRows;
            for (int step = 0; step < kStepsPerStage; ++step) {
                // A values: 4 bytes per lane and register, straight from the row.
                const int64_t byte0 = (ks * kStageKBytes + int64_t(step) * kStepBytes) / 2;
                for (int lane = 0; lane < 32; ++lane)
                    for (int reg = 0; reg < 4; ++reg) {
                        const int64_t row = row0 + a_frag_row(lane, reg);
                        const int64_t b0 = byte0 + a_frag_byte(lane, reg);
                        uint8_t* dst = a_blk + a_stage_offset(atom, step, lane) + 4 * reg;
                        for (int i = 0; i < 4; ++i)
                            dst[i] = (row < s.m && b0 + i < row_bytes) ? values[row * row_bytes + b0 + i] : 0;
                    }
                // Metadata: one nibble per (row, chunk) where the instruction wants it.
                const int64_t kelem0 = ks * f.stage_k() + int64_t(step) * f.mma_k();
                const int sel = f.selector_of_step(step), word = f.e_word_of_step(step);
                for (int r = 0; r < kAtomRows; ++r) {
                    const int64_t row = row0 + r;
                    for (int c = 0; c < chunks; ++c) {
                        const int64_t group = (kelem0 + int64_t(c) * f.chunk) / f.chunk;
                        const MetaPos pos = meta_position(f, sel, r, c);
                        e_blk[e_stage_offset(f, atom, word, pos.lane)] |= nibble(row, group) << (4 * pos.nibble);
                    }
                }
            }
        }
    });
}

void pack_b(const Family& f, const PackedShape& s, const uint8_t* b, uint8_t* out, int threads) {
    const auto col_bytes = static_cast<size_t>(s.k * f.bits / 8);
    spmma_plugin::host::pad_rows(b, s.n, col_bytes, s.n_pad, static_cast<size_t>(s.ldb), out, threads);
}

std::string check_indices(const Family& f, int64_t m, int64_t k, const uint8_t* indices) {
    return spmma_plugin::host::first_undefined_index(f.chunk, m, k, indices,
                                                     "the kept positions must be two different, increasing 2-bit indices");
}

}  // namespace spmma_sm80
