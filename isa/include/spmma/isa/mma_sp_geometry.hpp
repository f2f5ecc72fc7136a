// The per-form numbers behind the mma.sp layouts (mma_sp.hpp), computed and validated once, and
// layout functions that take them: what the model's inner loops (and callers that map many
// positions, such as the emulator) use instead of re-validating the form at every position.
#pragma once

#include <spmma/isa/mma_sp.hpp>

namespace spmma::isa {

struct MmaSpGeometry {
    int k;                 // logical k of the instruction
    int a_per_reg;         // A elements per register: 1 (tf32), 2 (16-bit), 4 (8-bit), 8 (4-bit)
    int b_per_reg;
    int a_regs, b_regs, c_regs;
    int chunk_width;       // logical columns per metadata nibble: 2, 4 or 8
    int chunks;            // metadata chunks per row: 4, 8 or 16
    int selector_count;    // 4, 2 or 1
    bool sixteen_bit_metadata;  // f16/bf16/tf32 layout (rows g and g+8 in one lane) vs 8-bit (one row a lane)
    bool f16_acc;
};

// Throws std::invalid_argument for a form that is not an instruction.
MmaSpGeometry mma_sp_geometry(const MmaSp& form);

ASlot a_slot(const MmaSpGeometry& g, int lane, int reg, int elem);
MatPos b_position(const MmaSpGeometry& g, int lane, int reg, int elem);
MatPos cd_position(const MmaSpGeometry& g, int lane, int reg, int elem);
MetaPos metadata_position(const MmaSpGeometry& g, int selector, int row, int chunk);
int kept_column(const MmaSpGeometry& g, int chunk, int slot, uint32_t nibble);

}  // namespace spmma::isa
