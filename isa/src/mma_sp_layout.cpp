// mma.sp fragment layouts: where each element of A, B, C/D, the metadata and the block scales
// lives in the lanes' registers. PTX ISA 9.7.14.6.2 (sparse A and metadata), 9.7.14.5.x (B, C,
// D; the sparse shapes reuse the dense layouts, B with twice the registers), 9.7.14.3 (scales).
#include <spmma/isa/mma_sp_geometry.hpp>

#include <stdexcept>
#include <string>

namespace spmma::isa {
namespace {

void check_lane(int lane) {
    if (lane < 0 || lane > 31) throw std::out_of_range("lane " + std::to_string(lane));
}

}  // namespace

// NOTES: the metadata layout follows the byte width of a chunk's data, not the element type:
// tf32 1:2 is f16 2:4 on 16-bit halves (0b0100 keeps halves 0,1 = element 0; 0b1110 keeps
// halves 2,3 = element 1), and 4-bit 4:8 pairwise is 8-bit 2:4 on bytes. So there are two
// metadata families: "16-bit" (f16, bf16, tf32), whose metadata lane holds rows g and g+8 in its
// low and high 16 bits, and "8-bit" (8-bit and 4-bit types), whose metadata lane holds one row
// (g for even lanes of a pair, g+8 for odd) across 32 bits. The 16-bit family was checked on
// hardware for m16n8k16 by a published register-level test; both families agree with the
// metadata layouts CUTLASS gives for the same instructions (mma.sp k64, wgmma.sp 64xK).
MmaSpGeometry mma_sp_geometry(const MmaSp& f) {
    if (auto why = invalid_reason(f)) throw std::invalid_argument("not an mma.sp form: " + *why);
    MmaSpGeometry g{};
    g.k = f.k;
    g.a_per_reg = elements_per_register(f.a, f.kind);
    g.b_per_reg = elements_per_register(f.b, f.kind);
    // A (compressed, k/2 per row) and B (k per column) hold the same bits per lane: 16 rows *
    // k/2 elements = 8 columns * k elements, over 32 lanes of 32-bit registers.
    g.a_regs = f.k / (4 * g.a_per_reg);
    g.b_regs = f.k / (4 * g.b_per_reg);
    g.c_regs = f.c == DType::F16 ? 2 : 4;
    g.chunk_width = f.a == DType::TF32 ? 2 : g.a_per_reg == 8 ? 8 : 4;
    g.chunks = f.k / g.chunk_width;
    g.selector_count = g.chunks == 4 ? 4 : g.chunks == 8 ? 2 : 1;
    g.sixteen_bit_metadata = f.a == DType::F16 || f.a == DType::BF16 || f.a == DType::TF32;
    g.f16_acc = f.c == DType::F16;
    return g;
}

ASlot a_slot(const MmaSpGeometry& geo, int lane, int reg, int elem) {
    check_lane(lane);
    if (reg < 0 || reg >= geo.a_regs || elem < 0 || elem >= geo.a_per_reg)
        throw std::out_of_range("a_slot: register " + std::to_string(reg) + " element " + std::to_string(elem));
    const int g = lane >> 2, t = lane & 3;
    const int row = g + 8 * (reg & 1);
    switch (geo.a_per_reg) {
        case 2: return {row, t + 4 * (reg >> 1), elem};      // 16-bit: 2 kept of a 4-wide chunk
        case 1: return {row, t + 4 * (reg >> 1), 0};         // tf32: 1 kept of a 2-wide chunk
        case 4: return {row, 2 * t + 8 * (reg >> 1) + elem / 2, elem % 2};  // 8-bit: two chunks
        case 8: return {row, 2 * t + 8 * (reg >> 1) + elem / 4, elem % 4};  // 4-bit: two 8-wide chunks
    }
    throw std::logic_error("a_slot: element width");
}

MatPos b_position(const MmaSpGeometry& geo, int lane, int reg, int elem) {
    check_lane(lane);
    if (reg < 0 || reg >= geo.b_regs || elem < 0 || elem >= geo.b_per_reg)
        throw std::out_of_range("b_position: register " + std::to_string(reg) + " element " + std::to_string(elem));
    const int g = lane >> 2, t = lane & 3;
    switch (geo.b_per_reg) {
        case 2: return {8 * reg + 2 * t + elem, g};
        case 1: return {4 * reg + t, g};
        case 4: return {16 * reg + 4 * t + elem, g};
        case 8: return {32 * reg + 8 * t + elem, g};
    }
    throw std::logic_error("b_position: element width");
}

MatPos cd_position(const MmaSpGeometry& geo, int lane, int reg, int elem) {
    check_lane(lane);
    const int g = lane >> 2, t = lane & 3;
    if (geo.f16_acc) {
        if (reg < 0 || reg > 1 || elem < 0 || elem > 1) throw std::out_of_range("cd_position: f16 register/half");
        return {g + 8 * reg, 2 * t + elem};
    }
    if (reg < 0 || reg > 3 || elem != 0) throw std::out_of_range("cd_position: 32-bit register");
    return {g + 8 * (reg >> 1), 2 * t + (reg & 1)};
}

MetaPos metadata_position(const MmaSpGeometry& geo, int selector, int row, int chunk) {
    if (row < 0 || row > 15 || chunk < 0 || chunk >= geo.chunks) throw std::out_of_range("metadata_position: row/chunk");
    const int sel = selector & (geo.selector_count - 1);  // an invalid selector is reported by the caller
    const int g = row & 7, hi = row >> 3;
    const int base = geo.chunks == 4 ? sel : geo.chunks == 8 ? 2 * sel : 0;
    if (geo.sixteen_bit_metadata) return {4 * g + base + chunk / 4, chunk % 4 + 4 * hi};
    return {4 * g + base + hi + 2 * (chunk / 8), chunk % 8};
}

int kept_column(const MmaSpGeometry& geo, int chunk, int slot, uint32_t nibble) {
    const int i0 = nibble & 3, i1 = (nibble >> 2) & 3;
    switch (geo.chunk_width) {
        case 4: return 4 * chunk + (slot == 0 ? i0 : i1);
        case 2: return 2 * chunk + (i0 >> 1);  // 0b0100 -> element 0, 0b1110 -> element 1
        case 8: return 8 * chunk + 2 * (slot < 2 ? i0 : i1) + (slot & 1);
    }
    throw std::logic_error("kept_column: chunk width");
}

ASlot a_slot(const MmaSp& f, int lane, int reg, int elem) { return a_slot(mma_sp_geometry(f), lane, reg, elem); }
MatPos b_position(const MmaSp& f, int lane, int reg, int elem) { return b_position(mma_sp_geometry(f), lane, reg, elem); }
MatPos cd_position(const MmaSp& f, int lane, int reg, int elem) { return cd_position(mma_sp_geometry(f), lane, reg, elem); }
MetaPos metadata_position(const MmaSp& f, int selector, int row, int chunk) {
    return metadata_position(mma_sp_geometry(f), selector, row, chunk);
}
int kept_column(const MmaSp& f, int chunk, int slot, uint32_t nibble) {
    return kept_column(mma_sp_geometry(f), chunk, slot, nibble);
}

ScalePos scale_a_position(const MmaSp& f, const MmaSpWarp& w, int row, int block) {
    if (!is_block_scaled(f) || row < 0 || row > 15 || block < 0 || block >= f.scale_vec)
        throw std::out_of_range("scale_a_position");
    return {4 * (row & 7) + 2 * (w.thread_id_a & 1) + (row >> 3), (w.byte_id_a + block) & 3};
}

ScalePos scale_b_position(const MmaSp& f, const MmaSpWarp& w, int col, int block) {
    if (!is_block_scaled(f) || col < 0 || col > 7 || block < 0 || block >= f.scale_vec)
        throw std::out_of_range("scale_b_position");
    return {4 * col + (w.thread_id_b & 3), (w.byte_id_b + block) & 3};
}

double operand_value(const MmaSp& f, DType t, uint32_t bits) {
    if (f.kind == MmaSp::Kind::F8F6F4 || f.kind == MmaSp::Kind::MXF8F6F4)
        return decode(t, from_f8f6f4_container(t, static_cast<uint8_t>(bits)));
    return decode(t, bits);  // decode masks to the type's bits; tf32 drops the low 13
}

}  // namespace spmma::isa
