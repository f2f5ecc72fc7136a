// The sm120a kernel's data path on the CPU, around the mma.sp instruction model: canonical
// operands -> the plugin's own host packing (include/spmma_sm120a/pack.hpp) -> every stage
// copied into a shared-memory image at the kernel's offsets -> every warp's fragments, metadata
// and scale words read at the kernel's offsets (ldmatrix emulated from its PTX definition) -> the
// model, with the kernel's selectors -> the epilogue's accumulator mapping. All offsets come from
// include/spmma_sm120a/layout.hpp, the header the kernel (device/sm120a_spgemm.cuh) uses.
#pragma once

#include <spmma/isa/mma_sp.hpp>
#include <spmma_sm120a/layout.hpp>
#include <spmma_sm120a/pack.hpp>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace sm120a_test {

using spmma_sm120a::Form;
using spmma_sm120a::Tile;

// Canonical operands as the ABI hands them over (abi/include/spmma/plugin.h), C as values.
struct Operands {
    int64_t m = 0, n = 0, k = 0;
    double alpha = 1.0, beta = 0.0;
    std::vector<uint8_t> values, indices, b, scale_a, scale_b;
    std::vector<double> c;  // m x n, row-major (values exactly representable in f16, bf16, f32)
};

// Random operands (no zero element, scale or C entry): every group a random valid index byte,
// elements drawn from the type's codes with 1/8 <= |v| <= 4, scales in [1/4, 4].
Operands random_operands(const Form& f, int64_t m, int64_t n, int64_t k, double alpha, double beta, std::mt19937& rng);

// alpha * A * B + beta * C computed exactly from the canonical operands (A decompressed by the
// index bytes, scales per block), and sum |alpha * a * b * scales| per element.
std::vector<double> reference(const Form& f, const Operands& o, std::vector<double>* abs_sum = nullptr);

// The model's description of a form.
spmma::isa::MmaSp model_form(const Form& f);

// The packed buffers (open for corruption in negative tests).
struct Packed {
    spmma_sm120a::PackedShape shape;
    std::vector<uint8_t> a, b;
    std::vector<uint32_t> e, sa, sb;
};
Packed pack(const Form& f, const Tile& t, const Operands& o);

struct Emulation {
    std::vector<double> d;            // m x n: alpha * acc + beta * C from the model's accumulators
    std::vector<std::string> errors;  // model-reported undefined inputs, decode mismatches (first 20)
    int64_t error_count = 0;
    int64_t mmas = 0;
};

// Runs the kernel's data path for every CTA tile. Each mma's registers are also decoded by the
// model and compared exactly with the logical tile the canonical operands denote (A values and
// kept positions, B, scale_A, scale_B), so a packing error shows even where sums would hide it.
Emulation emulate(const Form& f, const Tile& t, const Operands& o, const Packed& packed);

}  // namespace sm120a_test
