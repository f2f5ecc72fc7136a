// A loop whose index is a compile-time constant (template arguments such as the sparsity
// selector of a sparse MMA): static_for<N>(f) calls f(std::integral_constant<int, 0>{}) ...
// f(std::integral_constant<int, N - 1>{}). Shared by the sm90a and sm100a kernels.
#pragma once

#include <type_traits>
#include <utility>

namespace spmma_device {

template <int N, class F, int... I>
__device__ __forceinline__ void static_for_impl(F&& f, std::integer_sequence<int, I...>) {
    (f(std::integral_constant<int, I>{}), ...);
}

template <int N, class F>
__device__ __forceinline__ void static_for(F&& f) {
    static_for_impl<N>(f, std::make_integer_sequence<int, N>{});
}

}  // namespace spmma_device
