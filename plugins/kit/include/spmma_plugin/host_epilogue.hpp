// The epilogue of ABI 1.2 as a host plugin computes it (cpu, emu): the problem's vectors decoded
// once at upload, then per element act(alpha*rs[i]*cs[j]*acc + beta*C + bias) in f32, in the
// order plugin.h writes, the caller rounding the result once to D's type. Pure C++.
#pragma once

#include <spmma/plugin.h>

#include <cstdint>
#include <string>
#include <vector>

namespace spmma_plugin {

// The activation of plugin.h in f32 (tanhf, expf).
float activate_f32(int32_t activation, float x);

// "" when a host plugin can apply p's epilogue (fields known, bias f32 or D's type, a floating
// problem), else why not.
std::string host_epilogue_reason(const spmma_problem& p);

class HostEpilogue {
public:
    HostEpilogue() = default;
    // Decodes rs, cs and the bias from `ops` (their sizes are check_operands's).
    HostEpilogue(const spmma_problem& p, const spmma_operands& ops);

    // act(alpha*rs[i]*cs[j]*acc + beta*c + bias) in f32; c is ignored when beta is 0.
    float operator()(int64_t i, int64_t j, float acc, float c) const {
        float x = alpha_;
        if (!rs_.empty()) x *= rs_[static_cast<size_t>(i)];
        if (!cs_.empty()) x *= cs_[static_cast<size_t>(j)];
        x *= acc;
        if (beta_ != 0.0f) x += beta_ * c;
        if (bias_axis_ == SPMMA_BIAS_ROW) x += bias_[static_cast<size_t>(i)];
        else if (bias_axis_ == SPMMA_BIAS_COL) x += bias_[static_cast<size_t>(j)];
        return activation_ == SPMMA_ACTIVATION_NONE ? x : activate_f32(activation_, x);
    }

private:
    float alpha_ = 1, beta_ = 0;
    std::vector<float> rs_, cs_, bias_;
    int32_t bias_axis_ = SPMMA_BIAS_NONE;
    int32_t activation_ = SPMMA_ACTIVATION_NONE;
};

}  // namespace spmma_plugin
