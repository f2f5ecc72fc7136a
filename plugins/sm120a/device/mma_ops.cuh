// The kernel's view of one form (forms.hpp): its accumulator registers and one call that issues
// the right wrapper of ptx_sm120a_mma.cuh. Unscaled forms ignore the scale words and selectors.
#pragma once

#include "ptx_sm120a_mma.cuh"
#if defined(SPMMA_SM120A_SOFTWARE_MMA)
#include "mma_software.cuh"  // the check build only (mma_software.cuh)
#endif

#include <spmma_sm120a/forms.hpp>

#include <cstdint>
#include <type_traits>

namespace spmma_sm120a {

template <Kind K, spmma_dtype A, spmma_dtype B, spmma_dtype Acc, int SV, spmma_dtype S>
struct Op {
    static constexpr Form kForm{K, A, B, Acc, S, SV};
    static constexpr bool kF16Acc = Acc == SPMMA_F16;
    static constexpr int kAccRegs = kF16Acc ? 2 : 4;
    using AccT = std::conditional_t<kF16Acc, uint32_t, float>;  // f16x2 bits, or f32

    static_assert(is_f8f6f4_type(A) && is_f8f6f4_type(B), "operands are f8f6f4 types");
    static_assert(K == Kind::F8F6F4 || Acc == SPMMA_F32, "block-scaled forms accumulate in f32");
    static_assert(K != Kind::F8F6F4 || (SV == 0 && S == SPMMA_DTYPE_NONE), "kind::f8f6f4 is unscaled");
    static_assert(K != Kind::MXF8F6F4 || (SV == 1 && S == SPMMA_UE8M0), "kind::mxf8f6f4: scale_vec::1X, ue8m0");
    static_assert(K != Kind::MXF4 || (SV == 2 && S == SPMMA_UE8M0 && A == SPMMA_E2M1 && B == SPMMA_E2M1),
                  "kind::mxf4: e2m1, scale_vec::2X, ue8m0");
    static_assert(K != Kind::MXF4NVF4 || (A == SPMMA_E2M1 && B == SPMMA_E2M1 &&
                                          ((SV == 2 && S == SPMMA_UE8M0) || (SV == 4 && S == SPMMA_UE4M3))),
                  "kind::mxf4nvf4 here: e2m1 with scale_vec::2X ue8m0 or scale_vec::4X ue4m3");

    template <int BidA, int TidA, int BidB, int TidB>
    __device__ __forceinline__ static void mma(AccT (&d)[kAccRegs], const ptx::A4& a, const ptx::B4& b, uint32_t e,
                                               uint32_t sa, uint32_t sb) {
#if defined(SPMMA_SM120A_SOFTWARE_MMA)
        swmma::mma<K, A, B, Acc, SV, S, BidA, TidA, BidB, TidB>(d, a, b, e, sa, sb);
#else
        if constexpr (K == Kind::F8F6F4) {
            if constexpr (kF16Acc) ptx::mma_sp_f8f6f4_f16<A, B>(d, a, b, e);
            else ptx::mma_sp_f8f6f4_f32<A, B>(d, a, b, e);
        } else if constexpr (K == Kind::MXF8F6F4) {
            ptx::mma_sp_mxf8f6f4<A, B, BidA, TidA, BidB, TidB>(d, a, b, e, sa, sb);
        } else if constexpr (K == Kind::MXF4) {
            ptx::mma_sp_mxf4<BidA, TidA, BidB, TidB>(d, a, b, e, sa, sb);
        } else if constexpr (SV == 2) {
            ptx::mma_sp_mxf4nvf4_2x_ue8m0<BidA, TidA, BidB, TidB>(d, a, b, e, sa, sb);
        } else {
            ptx::mma_sp_mxf4nvf4_4x_ue4m3<BidA, TidA, BidB, TidB>(d, a, b, e, sa, sb);
        }
#endif
    }
};

}  // namespace spmma_sm120a
