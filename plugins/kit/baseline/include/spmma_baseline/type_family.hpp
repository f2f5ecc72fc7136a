// A baseline's kernels are type families: the library picks the kernel inside one, the plugin
// lists the families to the ABI and maps a problem onto one of them (its setup) or refuses it.
// Pure C++.
#pragma once

#include <spmma/plugin.h>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>

namespace spmma_baseline {

// One entry of a baseline's kernel list.
struct TypeFamily {
    const char* name;         // "cublaslt_f16f16_f32acc"
    const char* description;  // one line
    int min_sm;               // the oldest architecture it runs on (major * 10 + minor)
};

// The ABI's kernel list of `families`, in their order.
template <size_t N>
std::array<spmma_kernel_info, N> kernel_infos_of(const std::array<TypeFamily, N>& families) {
    std::array<spmma_kernel_info, N> a{};
    for (size_t i = 0; i < N; ++i) a[i] = {sizeof(spmma_kernel_info), 0, families[i].name, families[i].description};
    return a;
}

// `return refuse(why, reason);` in a function that returns std::optional<Setup>: why set, no setup.
struct Refusal {
    template <class Setup>
    operator std::optional<Setup>() const {
        return std::nullopt;
    }
};
inline Refusal refuse(std::string& why, std::string reason) {
    why = std::move(reason);
    return {};
}

}  // namespace spmma_baseline
