// The problem families the conformance suite verifies: every operand type spmma knows, both
// accumulators where they exist, saturation, an epilogue with C, the block-scaled forms, and
// each part of ABI 1.2's epilogue.
#include <spmma/core/conformance.hpp>

#include <fmt/format.h>

#include <numeric>
#include <stdexcept>

namespace spmma::conformance {
namespace {

struct Spec {
    const char* name;
    DType a, b;
    DType acc = DType::None;  // None: the default for the types
    DType scale = DType::None;
    bool saturate = false;
    double alpha = 1.0, beta = 0.0;
    // The epilogue (ABI 1.2): drawn scales, a drawn bias (f32 unless bias_out), an activation.
    bool row_scale = false, col_scale = false;
    BiasAxis bias = BiasAxis::None;
    bool bias_out = false;  // the bias in D's type
    Activation activation = Activation::None;
};

Family make(const Spec& s) {
    Family f;
    f.name = s.name;
    Problem& p = f.problem;
    p.a = s.a;
    p.b = s.b;
    p.scale = s.scale;
    p.saturate = s.saturate;
    p.alpha = s.alpha;
    p.beta = s.beta;
    const bool acc_given = s.acc != DType::None;
    if (acc_given) p.acc = s.acc;
    apply_default_types(p, acc_given, false, false);
    const EpilogueVector drawn{EpilogueVector::Source::Drawn, 0};
    if (s.row_scale) p.row_scale = drawn;
    if (s.col_scale) p.col_scale = drawn;
    if (s.bias != BiasAxis::None) {
        p.bias = drawn;
        p.bias_axis = s.bias;
        p.bias_type = s.bias_out ? p.d : DType::F32;
    }
    p.activation = s.activation;
    // validate() needs sizes; k one step of the family.
    p.m = p.n = 1;
    p.k = f.k_step();
    if (const auto bad = validate(p)) throw std::logic_error(fmt::format("conformance family {}: {}: {}", s.name, bad->key, bad->message));
    return f;
}

std::vector<Family> build() {
    using D = DType;
    // NOTES: s8-satfinite multiplies by 1000 so that sums of ~500 products of s8 values pass
    // 2^31 and saturation (not wrap-around) is what is checked; the beta families carry C.
    const Spec specs[] = {
        {"f16", D::F16, D::F16},
        {"bf16", D::BF16, D::BF16},
        {"tf32", D::TF32, D::TF32},
        {"e4m3", D::E4M3, D::E4M3},
        {"e5m2", D::E5M2, D::E5M2},
        {"e4m3xe5m2", D::E4M3, D::E5M2},
        {"e3m2", D::E3M2, D::E3M2},
        {"e2m3", D::E2M3, D::E2M3},
        {"e2m1", D::E2M1, D::E2M1},
        {"s8", D::S8, D::S8},
        {"u8", D::U8, D::U8},
        {"u8xs8", D::U8, D::S8},
        {"s4", D::S4, D::S4},
        {"u4", D::U4, D::U4},
        {"f16-f16acc", D::F16, D::F16, D::F16},
        {"e4m3-f16acc", D::E4M3, D::E4M3, D::F16},
        {"s8-satfinite", D::S8, D::S8, D::None, D::None, true, 1000.0},
        {"f16-beta", D::F16, D::F16, D::None, D::None, false, 1.5, 0.5},
        {"s8-beta", D::S8, D::S8, D::None, D::None, false, 2.0, -3.0},
        {"e4m3/ue8m0", D::E4M3, D::E4M3, D::None, D::UE8M0},
        {"e2m1/ue8m0", D::E2M1, D::E2M1, D::None, D::UE8M0},
        {"e2m1/ue4m3", D::E2M1, D::E2M1, D::None, D::UE4M3},
        // NOTES: the epilogue of ABI 1.2, one family per part a plugin may claim (a scale, a bias
        // per row or column in f32 or D's type, each activation), then the serving op whole
        // (e4m3 -> bf16, both scales, a bias) and everything at once with C.
        {"f16+rs", D::F16, D::F16, D::None, D::None, false, 1.0, 0.0, true},
        {"f16+cs", D::F16, D::F16, D::None, D::None, false, 1.0, 0.0, false, true},
        {"f16+bias-row", D::F16, D::F16, D::None, D::None, false, 1.0, 0.0, false, false, BiasAxis::Row},
        {"f16+bias-col-f16", D::F16, D::F16, D::None, D::None, false, 1.0, 0.0, false, false, BiasAxis::Col, true},
        {"f16+relu", D::F16, D::F16, D::None, D::None, false, 1.0, 0.0, false, false, BiasAxis::None, false, Activation::Relu},
        {"f16+gelu-tanh", D::F16, D::F16, D::None, D::None, false, 1.0, 0.0, false, false, BiasAxis::None, false, Activation::GeluTanh},
        {"f16+silu", D::F16, D::F16, D::None, D::None, false, 1.0, 0.0, false, false, BiasAxis::None, false, Activation::Silu},
        {"e4m3+scaled-mm", D::E4M3, D::E4M3, D::None, D::None, false, 1.0, 0.0, true, true, BiasAxis::Row, true},
        {"bf16+all", D::BF16, D::BF16, D::None, D::None, false, 0.75, 0.5, true, true, BiasAxis::Row, false, Activation::GeluTanh},
    };
    std::vector<Family> out;
    for (const Spec& s : specs) out.push_back(make(s));
    return out;
}

}  // namespace

int64_t Family::k_step() const {
    const int64_t g = group_size(problem.pattern);
    return problem.scale == DType::None ? g : std::lcm(g, static_cast<int64_t>(problem.scale_block));
}

const std::vector<Family>& catalog() {
    static const std::vector<Family> families = build();
    return families;
}

const Family* find_family(const std::string& name) {
    for (const auto& f : catalog())
        if (f.name == name) return &f;
    return nullptr;
}

}  // namespace spmma::conformance
