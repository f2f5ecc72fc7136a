#include <spmma/core/tensor_rates.hpp>

#include <iterator>

namespace spmma {
namespace {

struct Row {
    const char* arch;
    const char* family;
    const char* kind;
    double dense_flops_per_sm_per_clock;
};

// NOTES: the sources, per row group. Each figure is the whitepaper's dense tensor throughput per
// SM per clock (multiply-adds x 2); the whitepapers give the sparse rate of every kind as twice the
// dense one, which speed_of_light.cpp applies. The per-GPU figures they quote check them: SMs x
// boost clock x the rate.
//  - sm_80, "NVIDIA A100 Tensor Core GPU Architecture" (2020): 1024 dense FP16 FMA per clock per
//    SM, TF32 half of it, INT8 twice, INT4 four times (A100 SXM4: 108 SMs x 1.41 GHz x 2048 =
//    312 TFLOP/s f16). Not for sm_86/sm_87 (GA10x, Orin: other rates per SM).
//  - sm_90, "NVIDIA H100 Tensor Core GPU Architecture" (2022): twice A100 per SM per clock for
//    FP16/BF16/TF32, FP8 and INT8 twice FP16 (H100 SXM5: 132 SMs x 1.83 GHz x 4096 = 989.4
//    TFLOP/s f16, 1979 FP8). Cut-down sm_90 parts with fewer tensor rates per SM (H20) are
//    overstated by it.
//  - sm_100, "NVIDIA Blackwell Architecture Technical Brief" (2024): fifth-generation tensor
//    cores at twice Hopper per SM per clock for FP16/BF16/TF32/FP8/FP6/INT8, FP4 (mxf4, nvf4)
//    twice FP8 (B200: 2.25 PFLOP/s dense f16, 4.5 FP8, 9 FP4). Not for sm_103 (B300: other
//    INT8 and FP4 rates) or sm_120 (GB20x).
// A kind the architecture does not have (FP8 on sm_80, FP4 on sm_90) has no row: no plugin runs it
// there. The rate is the device's, by its newest tensor instructions: a kernel of an older family
// on it (the sm80 plugin's mma.sp on an sm_90, which plugins/sm80/NOTES.md measures at half the
// sparse wgmma rate) is held to the same speed of light.
constexpr Row kRates[] = {
    {"sm_80", "Ampere mma.sync", "f16", 2048},    {"sm_80", "Ampere mma.sync", "tf32", 1024},
    {"sm_80", "Ampere mma.sync", "i8", 4096},     {"sm_80", "Ampere mma.sync", "i4", 8192},
    {"sm_90", "Hopper wgmma", "f16", 4096},       {"sm_90", "Hopper wgmma", "tf32", 2048},
    {"sm_90", "Hopper wgmma", "f8", 8192},        {"sm_90", "Hopper wgmma", "i8", 8192},
    {"sm_100", "Blackwell tcgen05", "f16", 8192}, {"sm_100", "Blackwell tcgen05", "tf32", 4096},
    {"sm_100", "Blackwell tcgen05", "f8", 16384}, {"sm_100", "Blackwell tcgen05", "f4", 32768},
    {"sm_100", "Blackwell tcgen05", "i8", 16384},
};

bool wide(DType t) { return t == DType::F32 || t == DType::TF32; }
bool sixteen(DType t) { return t == DType::F16 || t == DType::BF16; }

}  // namespace

std::string tensor_kind(const Problem& p) {
    if (is_integer(p.a) || is_integer(p.b)) return info(p.a).bits == 4 && info(p.b).bits == 4 ? "i4" : "i8";
    if (wide(p.a) || wide(p.b)) return "tf32";
    if (sixteen(p.a) || sixteen(p.b)) return "f16";
    if (p.a == DType::E2M1 && p.b == DType::E2M1 && p.scale != DType::None) return "f4";
    return "f8";
}

std::optional<TensorRate> tensor_rate(const std::string& arch, const Problem& p) {
    const std::string kind = tensor_kind(p);
    for (const Row& r : kRates)
        if (arch == r.arch && kind == r.kind) return TensorRate{r.arch, r.family, r.kind, r.dense_flops_per_sm_per_clock};
    return std::nullopt;
}

}  // namespace spmma
