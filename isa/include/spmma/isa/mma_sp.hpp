// Bit-level CPU model of the warp-level sparse MMA, PTX ISA 9.7.14.6 (mma.sp /
// mma.sp::ordered_metadata), every shape and type of its syntax section, block-scale forms
// included. It takes exactly what the 32 lanes hand the instruction (a, b, c registers, metadata
// e, selector f, scale data and selectors) and returns what the instruction writes to d.
//
// Layouts (PTX 9.7.14.6.2 for A and metadata, 9.7.14.5.x for B, C, D, 9.7.14.3 for scales):
// groupID g = lane >> 2, threadID_in_group t = lane % 4.
//   A   register r of lane: row g + 8*(r & 1); its elements are the kept values of metadata
//       chunks (chunk = 4 columns for 2:4 types, 2 for tf32 1:2, 8 for 4-bit 4:8 pairwise):
//         16-bit:  chunk t + 4*(r >> 1), 2 elements          tf32:  chunk t + 4*(r >> 1), 1 element
//         8-bit:   chunks 2t + 8*(r >> 1) (bytes 0,1) and +1 (bytes 2,3)
//         4-bit:   chunks 2t + 8*(r >> 1) (nibbles 0..3) and +1 (nibbles 4..7)
//   B   column g; row 8r + 2t + e (16-bit), 4r + t (tf32), 16r + 4t + e (8-bit), 32r + 8t + e (4-bit)
//   C,D f32/s32: register r -> row g + 8*(r >> 1), column 2t + (r & 1);
//       f16: register r, half h -> row g + 8r, column 2t + h.
//   Metadata: one nibble per chunk; bits 1..0 the index of the first kept element (pair for
//       4-bit), bits 3..2 of the second. Which lane and nibble holds (row, chunk c):
//         16-bit and tf32 (4 or 8 chunks a row):  lane 4g + s + c/4, nibble (c % 4) + 4*(row >= 8)
//         8-bit and 4-bit (8 or 16 chunks a row): lane 4g + s + (row >= 8) + 2*(c/8), nibble c % 8
//       where s = f (4 chunks a row, f in 0..3), 2f (8 chunks, f in 0..1), 0 (16 chunks, f == 0).
//       Lanes outside that set do not contribute: their e is ignored.
//   Scales (block_scale): SF_A(row m, block j) is byte (byte-id-a + j) of lane
//       4*(m % 8) + 2*thread-id-a + (m >= 8); SF_B(column n, block j) is byte (byte-id-b + j) of
//       lane 4n + thread-id-b. Block j covers logical columns [j*K/V, (j+1)*K/V) for scale_vec V.
//
// NOTES: where the PTX text gives only a figure (the metadata layouts, and B for m16n8k32 16-bit
// and m16n8k16 tf32), the layouts above come from reading the figures' descriptions together with
// register-level hardware tests published for mma.sp m16n8k16 f16 and m16n8k64 8-bit, and CUTLASS's
// metadata and fragment layouts for the same instructions; the sm80 device test (tests/sm80) is
// what checks them on the hardware.
//
// Arithmetic (hardware order and rounding are unspecified by PTX): every product is exact; the
// model sums C and all products exactly and rounds once (to nearest even) to the D type; s32
// wraps, or clamps with .satfinite. Exact agreement with hardware therefore holds whenever the
// hardware's partial sums are exact too (e.g. small-integer data). NaN results are written as the
// canonical NaN (f32 0x7fffffff, f16 0x7fff); an exact zero sum is -0 only if every term is -0.
// tf32 drops the low 13 bits of a/b. kind::f8f6f4 / mxf8f6f4 read 8-bit containers (e2m1 in bits
// 5..2, e3m2/e2m3 in bits 5..0; padding bits ignored); mxf4 / mxf4nvf4 read packed e2m1.
//
// Undefined inputs that PTX names are reported in MmaSpResult::undefined (never silently
// computed as if fine): metadata nibbles with equal indices (0b0000, 0b0101, 0b1010, 0b1111),
// for ::ordered_metadata indices not increasing from the LSB, for tf32 anything but 0b0100 /
// 0b1110, a selector the shape does not allow, scale selectors outside PTX Table 37. The model
// still returns a deterministic d for them (documented per case in mma_sp.cpp).
#pragma once

#include <spmma/types.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spmma::isa {

// One mma.sp form: the qualifiers of one instruction.
struct MmaSp {
    enum class Kind { Legacy, F8F6F4, MXF8F6F4, MXF4, MXF4NVF4 };
    int k = 16;                    // m16n8kK: 8/16 (tf32), 16/32 (f16/bf16), 32/64 (8-bit int),
                                   // 64 (e4m3/e5m2, f8f6f4, mxf8f6f4), 64/128 (4-bit int), 128 (mxf4*)
    DType a = DType::F16, b = DType::F16, c = DType::F32, d = DType::F32;
    bool ordered_metadata = true;  // mma.sp::ordered_metadata (required by every .kind form)
    bool satfinite = false;        // integer forms only
    Kind kind = Kind::Legacy;      // Legacy: no .kind qualifier
    int scale_vec = 0;             // 1, 2, 4 for block-scale forms (MXF8F6F4, MXF4, MXF4NVF4), else 0
    DType scale_type = DType::None;  // UE8M0 / UE4M3 for block-scale forms
};

bool operator==(const MmaSp& x, const MmaSp& y);
inline bool is_block_scaled(const MmaSp& f) {
    return f.kind == MmaSp::Kind::MXF8F6F4 || f.kind == MmaSp::Kind::MXF4 || f.kind == MmaSp::Kind::MXF4NVF4;
}

// Why this form is not an instruction of the PTX syntax section; nullopt when it is one.
std::optional<std::string> invalid_reason(const MmaSp& form);
// Every valid form (the test matrix): each shape, type combination, variant, satfinite, scale.
std::vector<MmaSp> all_forms();
// The PTX mnemonic, e.g. "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32".
std::string ptx_name(const MmaSp& form);

// Registers each lane hands over (a, b, c) and receives (d). Throws on an invalid form.
int a_registers(const MmaSp& form);
int b_registers(const MmaSp& form);
int c_registers(const MmaSp& form);   // == d registers
int chunk_width(const MmaSp& form);   // logical columns one metadata nibble covers: 4, 2 or 8
int kept_per_chunk(const MmaSp& form);  // kept elements per chunk: 2, 1 or 4
// Selector values the shape allows: 4 (0..3), 2 (0..1) or 1 (0).
int selector_count(const MmaSp& form);

// Exactly what the 32 lanes of the warp hand the instruction.
struct MmaSpWarp {
    std::array<std::array<uint32_t, 4>, 32> a{}, b{}, c{};  // [lane][register]; unused registers ignored
    std::array<uint32_t, 32> e{};                          // metadata operand per lane
    int selector = 0;                                      // f (immediate)
    std::array<uint32_t, 32> scale_a{}, scale_b{};         // scale-a-data / scale-b-data per lane
    uint16_t byte_id_a = 0, thread_id_a = 0, byte_id_b = 0, thread_id_b = 0;
};

struct MmaSpResult {
    std::array<std::array<uint32_t, 4>, 32> d{};  // [lane][register]; registers past c_registers() are 0
    std::vector<std::string> undefined;           // one line per undefined input found; empty if none
};

// The instruction.
MmaSpResult mma_sp(const MmaSp& form, const MmaSpWarp& in);

// Random inputs for checking the model against the hardware bit for bit: a valid selector and
// valid metadata in the contributing lanes (increasing indices for ::ordered_metadata, either
// order for plain mma.sp), random garbage in the metadata of lanes that do not contribute, in
// registers the form does not read and in scale bytes the selectors do not pick; element values
// chosen so that every partial sum is exact in the accumulator (any summation order gives the
// model's d). tf32 values have their low 13 bits zero (as cvt.rna.tf32.f32 leaves them); s32 C
// stays within +-2^30 so .satfinite never clamps. Deterministic for a seed on every platform.
MmaSpWarp mma_sp_random_warp(const MmaSp& form, uint64_t seed);

// ---- the logical meaning of the registers (for tests, packers' tests and the emulator) ----------

// What the registers denote, decoded exactly to double (row-major throughout).
struct MmaSpTile {
    int k = 0;
    std::vector<double> a;         // 16 x k, zeros where no kept element is placed
    std::vector<uint8_t> a_kept;   // 16 x k, 1 where the metadata places a kept element
    std::vector<double> b;         // k x 8
    std::vector<double> c;         // 16 x 8
    std::vector<double> scale_a;   // 16 x scale_vec (empty unless block-scaled)
    std::vector<double> scale_b;   // scale_vec x 8
};
// Decodes; undefined inputs are appended to *undefined when given.
MmaSpTile mma_sp_decode(const MmaSp& form, const MmaSpWarp& in, std::vector<std::string>* undefined = nullptr);

// The positions behind the layouts above (g = lane >> 2, t = lane & 3).
struct ASlot { int row, chunk, slot; };  // slot: which kept element of the chunk (0..kept_per_chunk-1)
ASlot a_slot(const MmaSp& form, int lane, int reg, int elem);   // elem within the register
struct MatPos { int row, col; };
MatPos b_position(const MmaSp& form, int lane, int reg, int elem);   // row = k index, col = n
MatPos cd_position(const MmaSp& form, int lane, int reg, int elem);  // elem: half (f16) or 0
int elements_per_register(DType t, MmaSp::Kind kind);               // 1, 2, 4 or 8
struct MetaPos { int lane, nibble; };
MetaPos metadata_position(const MmaSp& form, int selector, int row, int chunk);
struct ScalePos { int lane, byte; };
ScalePos scale_a_position(const MmaSp& form, const MmaSpWarp& sel, int row, int block);
ScalePos scale_b_position(const MmaSp& form, const MmaSpWarp& sel, int col, int block);
// Logical column of kept element `slot` of `chunk` under metadata nibble `nibble`.
int kept_column(const MmaSp& form, int chunk, int slot, uint32_t nibble);

// The value of one A or B element as the instruction reads its bits from a register
// (f8f6f4 8-bit containers, packed nibbles, tf32 = f32 bits with the low 13 dropped).
double operand_value(const MmaSp& form, DType t, uint32_t element_bits);

}  // namespace spmma::isa
