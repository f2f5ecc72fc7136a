// The sm_120a sparse MMA forms this plugin issues (PTX ISA 9.7.14.6.3, mma.sp::ordered_metadata
// with .kind), as data both the host (g++) and the kernels (nvcc) read:
//   kind::f8f6f4    m16n8k64,  A/B in e4m3/e5m2/e3m2/e2m3/e2m1 (8-bit containers), f32 or f16 acc
//   kind::mxf8f6f4  m16n8k64,  the same types, block_scale.scale_vec::1X, ue8m0
//   kind::mxf4      m16n8k128, e2m1 packed two per byte, block_scale.scale_vec::2X, ue8m0
//   kind::mxf4nvf4  m16n8k128, e2m1 packed, scale_vec::2X ue8m0 or scale_vec::4X ue4m3
//                   (4X with ue8m0 is PTX ISA 9.1; see NOTES.md)
// Table 35 of PTX 9.7.14.3: scale_A is M x V and scale_B V x N for scale_vec::VX, so one scale
// covers K/V elements of the instruction's logical k: 64 for mxf8f6f4 (k64, 1X) and for
// mxf4/mxf4nvf4 2X (k128), 32 for mxf4nvf4 4X.
#pragma once

#include <spmma/plugin.h>

#if defined(__CUDACC__)
#define SPMMA_SM120A_HD __host__ __device__ __forceinline__
#else
#define SPMMA_SM120A_HD inline
#endif

namespace spmma_sm120a {

constexpr int kSteps = 2;  // mma steps along k per pipeline stage (layout.hpp)

enum class Kind : int { F8F6F4 = 0, MXF8F6F4 = 1, MXF4 = 2, MXF4NVF4 = 3 };

struct Form {
    Kind kind;
    spmma_dtype a, b;
    spmma_dtype acc;    // SPMMA_F32, or SPMMA_F16 (kind::f8f6f4 only)
    spmma_dtype scale;  // SPMMA_DTYPE_NONE, SPMMA_UE8M0, SPMMA_UE4M3
    int scale_vec;      // 0 (unscaled), 1, 2, 4

    // e2m1 two per byte in the registers (mxf4, mxf4nvf4); else one element per byte (containers).
    SPMMA_SM120A_HD constexpr bool packed() const { return kind == Kind::MXF4 || kind == Kind::MXF4NVF4; }
    SPMMA_SM120A_HD constexpr bool scaled() const { return scale_vec != 0; }
    SPMMA_SM120A_HD constexpr int mma_k() const { return packed() ? 128 : 64; }
    // Logical elements of A one metadata nibble (and one canonical index byte) covers.
    SPMMA_SM120A_HD constexpr int chunk() const { return packed() ? 8 : 4; }
    SPMMA_SM120A_HD constexpr spmma_pattern pattern() const {
        return packed() ? SPMMA_PATTERN_4_8_PAIRWISE : SPMMA_PATTERN_2_4;
    }
    // Logical k of one pipeline stage.
    SPMMA_SM120A_HD constexpr int stage_k() const { return mma_k() * kSteps; }
    // k elements per scale factor (0 unscaled).
    SPMMA_SM120A_HD constexpr int scale_block() const { return scale_vec ? mma_k() / scale_vec : 0; }
    // Scale blocks one stage covers, and the 32-bit scale words per lane per stage that hold them
    // (4 blocks a word: 1X uses bytes 0..1 of its word, 2X all four, 4X two words).
    SPMMA_SM120A_HD constexpr int stage_blocks() const { return kSteps * scale_vec; }
    SPMMA_SM120A_HD constexpr int scale_words() const { return (stage_blocks() + 3) / 4; }
};

SPMMA_SM120A_HD constexpr bool is_f8f6f4_type(spmma_dtype t) {
    return t == SPMMA_E4M3 || t == SPMMA_E5M2 || t == SPMMA_E3M2 || t == SPMMA_E2M3 || t == SPMMA_E2M1;
}

SPMMA_SM120A_HD constexpr Form f8f6f4_form(spmma_dtype a, spmma_dtype b, spmma_dtype acc) {
    return Form{Kind::F8F6F4, a, b, acc, SPMMA_DTYPE_NONE, 0};
}
SPMMA_SM120A_HD constexpr Form mxf8f6f4_form(spmma_dtype a, spmma_dtype b) {
    return Form{Kind::MXF8F6F4, a, b, SPMMA_F32, SPMMA_UE8M0, 1};
}
SPMMA_SM120A_HD constexpr Form mxf4_form() { return Form{Kind::MXF4, SPMMA_E2M1, SPMMA_E2M1, SPMMA_F32, SPMMA_UE8M0, 2}; }
SPMMA_SM120A_HD constexpr Form mxf4nvf4_form(int scale_vec, spmma_dtype scale) {
    return Form{Kind::MXF4NVF4, SPMMA_E2M1, SPMMA_E2M1, SPMMA_F32, scale, scale_vec};
}

inline const char* kind_name(Kind k) {
    switch (k) {
        case Kind::F8F6F4: return "kind::f8f6f4";
        case Kind::MXF8F6F4: return "kind::mxf8f6f4";
        case Kind::MXF4: return "kind::mxf4";
        case Kind::MXF4NVF4: return "kind::mxf4nvf4";
    }
    return "?";
}

}  // namespace spmma_sm120a
