// The device side of each operand-type combination (include/spmma_sm80/op_tags.hpp): its
// accumulator registers and the mma.sp wrapper it issues. One struct per combination, templated
// on the metadata variant (Ordered: mma.sp::ordered_metadata, else mma.sp).
#pragma once

#include "ptx_sm80_mma.cuh"

#include <spmma_sm80/op_tags.hpp>

#include <cstdint>

namespace spmma_sm80::op {

enum class Acc { F32, F16, S32 };

// Accumulator registers per mma and their element type, by accumulator kind.
template <Acc K> struct AccRegs;
template <> struct AccRegs<Acc::F32> { using T = float; static constexpr int kRegs = 4; };
template <> struct AccRegs<Acc::F16> { using T = uint32_t; static constexpr int kRegs = 2; };  // f16x2
template <> struct AccRegs<Acc::S32> { using T = int32_t; static constexpr int kRegs = 4; };

template <const OpInfo& Info, Acc K, bool Ordered>
struct OpBase {
    static constexpr const OpInfo& kInfo = Info;
    static constexpr Family kFamily = Info.family;
    static constexpr Acc kAcc = K;
    static constexpr bool kOrdered = Ordered;
    using AccT = typename AccRegs<K>::T;
    static constexpr int kAccRegs = AccRegs<K>::kRegs;
};

using ptx::A4;
using ptx::B4;

template <bool O>
struct F16F16_F32 : OpBase<tags::F16F16_F32, Acc::F32, O> {
    template <int Sel>
    static __device__ __forceinline__ void mma(float (&d)[4], const A4& a, const B4& b, uint32_t e) {
        ptx::mma_sp_m16n8k32_f32_f16<O, Sel>(d, a, b, e);
    }
};

template <bool O>
struct F16F16_F16 : OpBase<tags::F16F16_F16, Acc::F16, O> {
    template <int Sel>
    static __device__ __forceinline__ void mma(uint32_t (&d)[2], const A4& a, const B4& b, uint32_t e) {
        ptx::mma_sp_m16n8k32_f16_f16<O, Sel>(d, a, b, e);
    }
};

template <bool O>
struct BF16BF16_F32 : OpBase<tags::BF16BF16_F32, Acc::F32, O> {
    template <int Sel>
    static __device__ __forceinline__ void mma(float (&d)[4], const A4& a, const B4& b, uint32_t e) {
        ptx::mma_sp_m16n8k32_f32_bf16<O, Sel>(d, a, b, e);
    }
};

template <bool O>
struct TF32TF32_F32 : OpBase<tags::TF32TF32_F32, Acc::F32, O> {
    template <int Sel>
    static __device__ __forceinline__ void mma(float (&d)[4], const A4& a, const B4& b, uint32_t e) {
        ptx::mma_sp_m16n8k16_f32_tf32<O, Sel>(d, a, b, e);
    }
};

template <const OpInfo& Info, bool O, bool AE5, bool BE5>
struct F8Op : OpBase<Info, Acc::F32, O> {
    template <int Sel>
    static __device__ __forceinline__ void mma(float (&d)[4], const A4& a, const B4& b, uint32_t e) {
        ptx::mma_sp_m16n8k64_f32_f8<O, Sel, AE5, BE5>(d, a, b, e);
    }
};
template <bool O> using E4M3E4M3_F32 = F8Op<tags::E4M3E4M3_F32, O, false, false>;
template <bool O> using E4M3E5M2_F32 = F8Op<tags::E4M3E5M2_F32, O, false, true>;
template <bool O> using E5M2E4M3_F32 = F8Op<tags::E5M2E4M3_F32, O, true, false>;
template <bool O> using E5M2E5M2_F32 = F8Op<tags::E5M2E5M2_F32, O, true, true>;

template <const OpInfo& Info, bool O, bool AU, bool BU, bool Sat>
struct I8Op : OpBase<Info, Acc::S32, O> {
    template <int Sel>
    static __device__ __forceinline__ void mma(int32_t (&d)[4], const A4& a, const B4& b, uint32_t e) {
        ptx::mma_sp_m16n8k64_s32_i8<O, Sel, AU, BU, Sat>(d, a, b, e);
    }
};
template <bool O> using S8S8_S32 = I8Op<tags::S8S8_S32, O, false, false, false>;
template <bool O> using S8U8_S32 = I8Op<tags::S8U8_S32, O, false, true, false>;
template <bool O> using U8S8_S32 = I8Op<tags::U8S8_S32, O, true, false, false>;
template <bool O> using U8U8_S32 = I8Op<tags::U8U8_S32, O, true, true, false>;
template <bool O> using S8S8_S32_SAT = I8Op<tags::S8S8_S32_SAT, O, false, false, true>;
template <bool O> using S8U8_S32_SAT = I8Op<tags::S8U8_S32_SAT, O, false, true, true>;
template <bool O> using U8S8_S32_SAT = I8Op<tags::U8S8_S32_SAT, O, true, false, true>;
template <bool O> using U8U8_S32_SAT = I8Op<tags::U8U8_S32_SAT, O, true, true, true>;

template <const OpInfo& Info, bool O, bool AU, bool BU, bool Sat>
struct I4Op : OpBase<Info, Acc::S32, O> {
    template <int Sel>
    static __device__ __forceinline__ void mma(int32_t (&d)[4], const A4& a, const B4& b, uint32_t e) {
        ptx::mma_sp_m16n8k128_s32_i4<O, Sel, AU, BU, Sat>(d, a, b, e);
    }
};
template <bool O> using S4S4_S32 = I4Op<tags::S4S4_S32, O, false, false, false>;
template <bool O> using S4U4_S32 = I4Op<tags::S4U4_S32, O, false, true, false>;
template <bool O> using U4S4_S32 = I4Op<tags::U4S4_S32, O, true, false, false>;
template <bool O> using U4U4_S32 = I4Op<tags::U4U4_S32, O, true, true, false>;
template <bool O> using S4S4_S32_SAT = I4Op<tags::S4S4_S32_SAT, O, false, false, true>;
template <bool O> using S4U4_S32_SAT = I4Op<tags::S4U4_S32_SAT, O, false, true, true>;
template <bool O> using U4S4_S32_SAT = I4Op<tags::U4S4_S32_SAT, O, true, false, true>;
template <bool O> using U4U4_S32_SAT = I4Op<tags::U4U4_S32_SAT, O, true, true, true>;

}  // namespace spmma_sm80::op
