// The per-type tolerance table: how far a plugin's D may be from the exact alpha*A*B + beta*C.
// The one place these numbers live (reference/src/tolerance.cpp); reference/README.md explains
// them. Integers are bit-exact; floating results get a bound built from the accumulator's
// precision, the number of products, the products' magnitudes and the output rounding.
#pragma once

#include <spmma/plugin.h>

#include <cstdint>
#include <span>
#include <string>

namespace spmma::reference {

// One row of the table: a family of input types with one accumulator type.
struct ToleranceRule {
    const char* name;          // "f16/bf16/tf32 inputs, f32 accumulation"
    bool bit_exact;            // integers: D must equal the reference exactly
    double acc_epsilon;        // relative error one addition into the accumulator may make
    int exact_bits;            // significand bits the accumulator keeps at least: partial sums that
                               // fit are exact in any order
    double epilogue_epsilon;   // relative error of alpha*acc + beta*C before the output conversion
    const char* basis;         // where the numbers come from
};

// c in the statistical term c*sqrt(n)*S (see tolerance.cpp and the README).
inline constexpr double kStatisticalFactor = 4.0;

// The epilogue's activation (ABI 1.2), as the bound sees it: how much it may stretch an error
// in its argument (the largest |act'(x)|), and the error of evaluating it in f32 with a
// full-precision tanh or exp, relative to |x| (see tolerance.cpp).
struct ActivationBound {
    double lipschitz;
    double epsilon;
};
ActivationBound activation_bound(int32_t activation);

std::span<const ToleranceRule> tolerance_table();
const ToleranceRule& tolerance_rule(const spmma_problem& p);

// What one element's bound is made of, all exact (double) reference quantities.
struct ElementTerms {
    double value = 0;    // the element's exact value: alpha*acc + beta*C, or with an epilogue
                         // act(alpha*rs*cs*acc + beta*C + bias)
    double acc = 0;      // sum of the products (block scales applied, alpha not)
    double abs_sum = 0;  // sum of |products| (block scales applied, alpha not): S
    double beta_c = 0;   // beta*C (0 when beta is 0)
    double quantum = 0;  // a power of two every product is a multiple of (0: unknown)
    // The epilogue (ABI 1.2); plain problems leave these as they are.
    double pre = 0;      // the value before the activation (= value without one)
    double scale = 1;    // rs[i]*cs[j] (1 when absent)
    double bias = 0;     // the element's bias (0 when absent)
};

// The bound for one problem: rule + the problem's constants.
class ToleranceModel {
public:
    explicit ToleranceModel(const spmma_problem& p);

    // Allowed |D - value| for one element (0 for integer problems).
    double operator()(const ElementTerms& t) const;
    // True when every partial sum of the element fits the accumulator and the epilogue is exact,
    // so the only error left is the output rounding (half an ulp of d_type).
    bool exact(const ElementTerms& t) const;

    const ToleranceRule& rule() const { return *rule_; }
    int64_t terms() const { return n_; }  // products per element: k/2
    std::string description() const;      // one line, with this problem's numbers

private:
    std::string epilogue_description() const;  // "" for plain problems

    const ToleranceRule* rule_;
    spmma_dtype d_;
    spmma_dtype acc_;
    double alpha_, beta_;
    int64_t n_;
    int products_ = 1;     // roundings of alpha*rs*cs*acc: 1 + one per scale vector
    int additions_ = 1;    // roundings of the sum: + beta*C, + bias
    int32_t activation_ = SPMMA_ACTIVATION_NONE;
    bool epilogue_ = false;
};

}  // namespace spmma::reference
