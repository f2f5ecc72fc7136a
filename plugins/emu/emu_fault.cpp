// SPMMA_EMU_FAULT (emu_fault.hpp).
#include "emu_fault.hpp"

#include <spmma_plugin/boundary.hpp>

#include <cstdlib>
#include <string>

namespace spmma_emu {

Fault fault_from_env() {
    const char* v = std::getenv("SPMMA_EMU_FAULT");
    if (!v || !v[0]) return Fault::None;
    const std::string s(v);
    if (s == "meta") return Fault::Meta;
    spmma_plugin::fail(SPMMA_INVALID_ARGUMENT, "SPMMA_EMU_FAULT='" + s + "': expected meta (or unset)");
}

uint32_t corrupt_meta_word(uint32_t word, bool one_of_two) {
    // (0,1) -> (0,2) -> (0,3) -> (1,2) -> (1,3) -> (2,3) -> (0,1), as nibbles (first | second << 2).
    auto next_pair = [](uint32_t nib) -> uint32_t {
        switch (nib) {
            case 0x4: return 0x8;
            case 0x8: return 0xC;
            case 0xC: return 0x9;
            case 0x9: return 0xD;
            case 0xD: return 0xE;
            default: return 0x4;
        }
    };
    uint32_t out = 0;
    for (int i = 0; i < 8; ++i) {
        const uint32_t nib = (word >> (4 * i)) & 0xFu;
        out |= (one_of_two ? (nib == 0x4 ? 0xEu : 0x4u) : next_pair(nib)) << (4 * i);
    }
    return out;
}

}  // namespace spmma_emu
