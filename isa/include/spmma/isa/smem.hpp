// Shared memory as the tensor-core instructions see it: a byte-addressed model of one CTA's
// shared memory, the two 64-bit matrix-descriptor formats (wgmma, PTX ISA 9.7.15.5.1.2.2;
// tcgen05, PTX ISA 9.7.16.4.1) and the canonical operand layouts with their swizzles
// (PTX ISA 9.7.15.5.1.2 "Shared Memory Matrix Layout", 9.7.16.3 "Major-ness supported by Strides").
//
// The layout functions answer "which byte of shared memory holds element (mn, k) of this
// operand?" for a descriptor as the hardware decodes it; the instruction models read their
// operands through them, and packers may use them to check what they wrote.
#pragma once

#include <spmma/types.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace spmma::isa {

// ---- shared memory -------------------------------------------------------------------------

// One CTA's shared memory (228 KiB on sm_90 / sm_100), byte addressed from 0. Reads and writes
// outside it throw std::out_of_range (the models check addresses first and report them).
struct SharedMemory {
    static constexpr uint32_t kBytes = 228 * 1024;
    std::vector<uint8_t> bytes = std::vector<uint8_t>(kBytes, 0);

    uint8_t load8(uint32_t addr) const;
    void store8(uint32_t addr, uint8_t v);
    // Little-endian multi-byte access (what a 16/32-bit element in shared memory is).
    uint32_t load(uint32_t addr, int nbytes) const;
    void store(uint32_t addr, int nbytes, uint32_t v);
    // Copy a host image in at `addr` (e.g. what a packer produced for one stage).
    void write(uint32_t addr, const void* src, size_t n);
};

// ---- swizzle modes and majorness -------------------------------------------------------------

enum class Swizzle {
    None,          // "interleave": 8 rows x 16 B core matrices, placed by LBO/SBO
    B32,           // 32-byte swizzle:  address bit 4 ^= bit 7
    B64,           // 64-byte swizzle:  address bits 5..4 ^= bits 8..7
    B128,          // 128-byte swizzle: address bits 6..4 ^= bits 9..7
    B128_Atom32,   // tcgen05 only: 128-byte swizzle with 32-byte atomicity (bits 6..5 ^= bits 8..7)
};
const char* name(Swizzle s);
// Row width of the swizzle pattern in bytes: 16 (None), 32, 64, 128, 128.
int swizzle_row_bytes(Swizzle s);

// The XOR the hardware applies to a shared-memory byte address for a swizzle mode. The pattern
// is taken from the absolute address (so a swizzle atom must start at a multiple of 8 rows,
// i.e. 256/512/1024 bytes, for base_offset 0 -- Table "Starting address of the repeating
// pattern"). `base_offset` is the descriptor's 3-bit field; see NOTES in smem.cpp.
uint32_t swizzle_address(Swizzle s, uint32_t addr, int base_offset = 0);

// K-major: the K index is contiguous (16-byte chunks along K); MN-major: M (or N) contiguous.
// wgmma: imm-trans-a/b = 0 -> K-major, 1 -> MN-major. tcgen05: idesc transpose bits likewise.
enum class Major { K, MN };

// ---- wgmma matrix descriptor (PTX ISA 9.7.15.5.1.2.2) -----------------------------------------
//   bits 13..0  : (start address & 0x3FFFF) >> 4
//   bits 29..16 : (leading dimension byte offset & 0x3FFFF) >> 4
//   bits 45..32 : (stride dimension byte offset & 0x3FFFF) >> 4
//   bits 51..49 : matrix base offset (swizzled modes only)
//   bits 63..62 : swizzle: 0 none, 1 128B, 2 64B, 3 32B
// Byte values here (multiples of 16); encode() drops the low 4 bits.
struct WgmmaDescriptor {
    uint32_t start_address = 0;
    uint32_t leading_byte_offset = 0;
    uint32_t stride_byte_offset = 0;
    int base_offset = 0;
    Swizzle swizzle = Swizzle::None;  // None, B32, B64, B128

    uint64_t encode() const;  // throws std::invalid_argument on a value the fields cannot hold
    // Decodes every field; bits outside the fields are appended to `problems` if given.
    static WgmmaDescriptor decode(uint64_t desc, std::vector<std::string>* problems = nullptr);
};

// ---- tcgen05 shared memory descriptor (PTX ISA 9.7.16.4.1, Table "Shared memory descriptor layout")
//   bits 13..0  : (start address & 0x3FFFF) >> 4          bits 15..14: reserved
//   bits 29..16 : leading dimension byte offset >> 4 (or absolute address >> 4, mode 1)
//   bits 31..30 : reserved
//   bits 45..32 : stride dimension byte offset >> 4
//   bits 48..46 : fixed 0b001 (descriptor version)
//   bits 51..49 : matrix base offset
//   bit  52     : leading dimension stride mode: 0 relative offset, 1 absolute address (sm_103a)
//   bits 60..53 : fixed 0
//   bits 63..61 : swizzle: 0 none, 1 128B with 32B atom, 2 128B, 4 64B, 6 32B (3, 5, 7 invalid)
struct UmmaDescriptor {
    uint32_t start_address = 0;
    uint32_t leading_byte_offset = 0;   // relative offset, or absolute address when lbo_absolute
    uint32_t stride_byte_offset = 0;
    int base_offset = 0;
    bool lbo_absolute = false;
    Swizzle swizzle = Swizzle::None;
    int version = 1;                    // bits 48..46; must be 1

    uint64_t encode() const;
    static UmmaDescriptor decode(uint64_t desc, std::vector<std::string>* problems = nullptr);
};

// ---- canonical operand layout --------------------------------------------------------------

// One operand as a descriptor describes it: the matrix is (mn x k) elements of elem_bits each,
// stored K-major or MN-major in the canonical layout of its swizzle mode (PTX 9.7.15.5.1.2.1.3 /
// 9.7.16.3.3 "Canonical Layouts"). In units of 16-byte chunks ("128-bit elements"; T elements per
// chunk):
//   K-major,  None:   chunk(mn, kc) at  (mn%8)*16 + (mn/8)*SBO + kc*LBO
//   K-major,  swizzled (row R = 32/64/128 B):  (mn%8)*R + (mn/8)*SBO + kc*16   (LBO unused)
//   MN-major, None:   chunk(mc, k)  at  (k%8)*16 + (k/8)*LBO + mc*SBO
//   MN-major, swizzled (W = R/16 chunks per row):
//                      (mc%W)*16 + (k%8)*R + (mc/W)*LBO + (k/8)*SBO
// where kc = k / T and mc = mn / T; the byte address start + offset is then swizzled
// (swizzle_address), and element e = (k % T or mn % T) of the chunk starts at bit e*elem_bits.
// elem_bits 4, 8, 16, 32: T = 128 / elem_bits (4-bit: two per byte, lower index in bits 3..0).
// padded16 (tcgen05 .kind::f8f6f4 / mxf8f6f4 with 4- or 6-bit types, PTX 9.7.16.10.4.4): T = 16,
// the 16 elements bit-packed little-endian in the first 8 (4-bit) or 12 (6-bit) bytes of the
// chunk, the rest padding -- the shared-memory image TMA writes for CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B
// / 16U6_ALIGN16B.
struct OperandLayout {
    uint32_t start_address = 0;
    uint32_t leading_byte_offset = 0;
    uint32_t stride_byte_offset = 0;
    int base_offset = 0;
    Swizzle swizzle = Swizzle::None;
    Major major = Major::K;
    int elem_bits = 16;
    bool padded16 = false;

    int per_chunk() const { return padded16 ? 16 : 128 / elem_bits; }
    static OperandLayout from(const WgmmaDescriptor& d, Major major, int elem_bits, bool padded16 = false);
    static OperandLayout from(const UmmaDescriptor& d, Major major, int elem_bits, bool padded16 = false);
};

// Address of the first bit of element (mn, k): byte address * 8 + bit within that byte.
// Throws std::invalid_argument for B128_Atom32 (not modelled).
uint64_t element_bit_address(const OperandLayout& l, int mn, int k);
// Byte address of element (mn, k) (the byte holding its first bit; `nibble` gets 0/1 for the
// low/high half of that byte when elem_bits is 4).
uint32_t element_address(const OperandLayout& l, int mn, int k, int* nibble = nullptr);

// Read / write the code of element (mn, k) (low elem_bits bits).
uint32_t load_element(const SharedMemory& smem, const OperandLayout& l, int mn, int k);
void store_element(SharedMemory& smem, const OperandLayout& l, int mn, int k, uint32_t code);

// Problems with reading an (mn_extent x k_extent) operand through this layout: bytes past the
// end of shared memory, reserved/unmodelled modes. Empty when the read is well defined.
std::vector<std::string> check_operand(const OperandLayout& l, int mn_extent, int k_extent, const char* what);

}  // namespace spmma::isa
