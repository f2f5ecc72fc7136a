// mma.sp fragment layouts: where each element of A, B, C/D, the metadata and the block scales
// lives in the lanes' registers. PTX ISA 9.7.14.6.2 (sparse A and metadata), 9.7.14.5.x (B, C,
// D; the sparse shapes reuse the dense layouts, B with twice the registers), 9.7.14.3 (scales).
#include <spmma/isa/mma_sp.hpp>

#include <stdexcept>
#include <string>

namespace spmma::isa {
namespace {

void check_lane(int lane) {
    if (lane < 0 || lane > 31) throw std::out_of_range("lane " + std::to_string(lane));
}

// Which element family the A operand belongs to, for the metadata layout.
// NOTES: the metadata layout follows the byte width of a chunk's data, not the element type:
// tf32 1:2 is f16 2:4 on 16-bit halves (0b0100 keeps halves 0,1 = element 0; 0b1110 keeps
// halves 2,3 = element 1), and 4-bit 4:8 pairwise is 8-bit 2:4 on bytes. So there are two
// metadata families: "16-bit" (f16, bf16, tf32), whose metadata lane holds rows g and g+8 in its
// low and high 16 bits, and "8-bit" (8-bit and 4-bit types), whose metadata lane holds one row
// (g for even lanes of a pair, g+8 for odd) across 32 bits. The 16-bit family was checked on
// hardware for m16n8k16 by a published register-level test, both families agree with the
// metadata layouts CUTLASS gives for the same instructions (mma.sp k64, wgmma.sp 64xK).
bool sixteen_bit_family(const MmaSp& f) { return f.a == DType::F16 || f.a == DType::BF16 || f.a == DType::TF32; }

}  // namespace

ASlot a_slot(const MmaSp& f, int lane, int reg, int elem) {
    check_lane(lane);
    const int per_reg = elements_per_register(f.a, f.kind);
    if (reg < 0 || reg >= a_registers(f) || elem < 0 || elem >= per_reg)
        throw std::out_of_range("a_slot: register " + std::to_string(reg) + " element " + std::to_string(elem));
    const int g = lane >> 2, t = lane & 3;
    const int row = g + 8 * (reg & 1);
    switch (per_reg) {
        case 2: return {row, t + 4 * (reg >> 1), elem};      // 16-bit: 2 kept of a 4-wide chunk
        case 1: return {row, t + 4 * (reg >> 1), 0};         // tf32: 1 kept of a 2-wide chunk
        case 4: return {row, 2 * t + 8 * (reg >> 1) + elem / 2, elem % 2};  // 8-bit: two chunks
        case 8: return {row, 2 * t + 8 * (reg >> 1) + elem / 4, elem % 4};  // 4-bit: two 8-wide chunks
    }
    throw std::logic_error("a_slot: element width");
}

MatPos b_position(const MmaSp& f, int lane, int reg, int elem) {
    check_lane(lane);
    const int per_reg = elements_per_register(f.b, f.kind);
    if (reg < 0 || reg >= b_registers(f) || elem < 0 || elem >= per_reg)
        throw std::out_of_range("b_position: register " + std::to_string(reg) + " element " + std::to_string(elem));
    const int g = lane >> 2, t = lane & 3;
    switch (per_reg) {
        case 2: return {8 * reg + 2 * t + elem, g};
        case 1: return {4 * reg + t, g};
        case 4: return {16 * reg + 4 * t + elem, g};
        case 8: return {32 * reg + 8 * t + elem, g};
    }
    throw std::logic_error("b_position: element width");
}

MatPos cd_position(const MmaSp& f, int lane, int reg, int elem) {
    check_lane(lane);
    const int g = lane >> 2, t = lane & 3;
    if (f.c == DType::F16) {
        if (reg < 0 || reg > 1 || elem < 0 || elem > 1) throw std::out_of_range("cd_position: f16 register/half");
        return {g + 8 * reg, 2 * t + elem};
    }
    if (reg < 0 || reg > 3 || elem != 0) throw std::out_of_range("cd_position: 32-bit register");
    return {g + 8 * (reg >> 1), 2 * t + (reg & 1)};
}

MetaPos metadata_position(const MmaSp& f, int selector, int row, int chunk) {
    const int chunks = f.k / chunk_width(f);
    if (row < 0 || row > 15 || chunk < 0 || chunk >= chunks) throw std::out_of_range("metadata_position: row/chunk");
    const int sel = selector & (selector_count(f) - 1);  // an invalid selector is reported by the caller
    const int g = row & 7, hi = row >> 3;
    const int base = chunks == 4 ? sel : chunks == 8 ? 2 * sel : 0;
    if (sixteen_bit_family(f)) return {4 * g + base + chunk / 4, chunk % 4 + 4 * hi};
    return {4 * g + base + hi + 2 * (chunk / 8), chunk % 8};
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

int kept_column(const MmaSp& f, int chunk, int slot, uint32_t nibble) {
    const int i0 = nibble & 3, i1 = (nibble >> 2) & 3;
    switch (chunk_width(f)) {
        case 4: return 4 * chunk + (slot == 0 ? i0 : i1);
        case 2: return 2 * chunk + (i0 >> 1);  // 0b0100 -> element 0, 0b1110 -> element 1
        case 8: return 8 * chunk + 2 * (slot < 2 ? i0 : i1) + (slot & 1);
    }
    throw std::logic_error("kept_column: chunk width");
}

double operand_value(const MmaSp& f, DType t, uint32_t bits) {
    if (f.kind == MmaSp::Kind::F8F6F4 || f.kind == MmaSp::Kind::MXF8F6F4)
        return decode(t, from_f8f6f4_container(t, static_cast<uint8_t>(bits)));
    return decode(t, bits);  // decode masks to the type's bits; tf32 drops the low 13
}

}  // namespace spmma::isa
