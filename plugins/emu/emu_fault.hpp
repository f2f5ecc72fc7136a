// A deliberate packing error the emulator can inject (SPMMA_EMU_FAULT), to show that a wrong
// layout does not go unnoticed: the emulated kernel computes with it and the host's verification
// fails. NOTES: the corrupted nibbles stay valid metadata (another pair of kept positions), so the
// instruction model computes a wrong D instead of reporting an undefined input: what is shown is
// the end-to-end check against the reference, not the model's input checks.
#pragma once

#include <cstdint>

namespace spmma_emu {

enum class Fault {
    None,
    Meta,  // SPMMA_EMU_FAULT=meta: the first word of the packed metadata names other kept positions
};

// The fault SPMMA_EMU_FAULT asks for ("" or unset: none). Fails with SPMMA_INVALID_ARGUMENT,
// naming the variable and the values it takes, for anything else.
Fault fault_from_env();

// Every 4-bit group index of `word` replaced by another valid one: for 2:4 and 4:8 indices the
// next pair of increasing positions ((0,1) -> (0,2) -> ... -> (2,3) -> (0,1)); for 1:2 (tf32,
// `one_of_two`) 0b0100 <-> 0b1110.
uint32_t corrupt_meta_word(uint32_t word, bool one_of_two);

}  // namespace spmma_emu
