// The host plugins' f32 epilogue (cpu, emu): act(alpha*rs[i]*cs[j]*acc + beta*C + bias) in that
// order, vectors decoded from their ABI types, and the refusals of what it cannot apply.
#include <spmma_plugin/host_epilogue.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

using namespace spmma_plugin;

TEST_CASE("HostEpilogue computes act(alpha*rs[i]*cs[j]*acc + beta*C + bias) in f32, the bias read per row or column", "[plugin_kit]") {
    spmma_problem p{};
    p.m = p.n = 2;
    p.d_type = SPMMA_BF16;
    p.alpha = 0.5;
    p.beta = 0.25;
    p.row_scale = p.col_scale = 1;
    p.bias = SPMMA_BIAS_COL;
    p.bias_type = SPMMA_BF16;
    const float rs[2] = {2.0f, 0.5f}, cs[2] = {1.0f, -3.0f};
    const uint16_t bias[2] = {0x3f80, 0xc000};  // bf16 1 and -2
    spmma_operands o{};
    o.row_scale = rs;
    o.col_scale = cs;
    o.bias = bias;
    const HostEpilogue e(p, o);
    CHECK(e(0, 0, 3.0f, 4.0f) == 5.0f);    // 0.5*2*1*3 + 0.25*4 + 1
    CHECK(e(0, 1, 2.0f, 8.0f) == -6.0f);   // 0.5*2*(-3)*2 + 0.25*8 - 2
    CHECK(e(1, 1, 3.0f, 0.0f) == -4.25f);  // 0.5*0.5*(-3)*3 - 2
    p.bias = SPMMA_BIAS_ROW;
    p.activation = SPMMA_ACTIVATION_RELU;
    const HostEpilogue r(p, o);
    CHECK(r(1, 1, 3.0f, 0.0f) == 0.0f);    // -2.25 - 2, relu
    CHECK(r(0, 0, 3.0f, 4.0f) == 5.0f);
}

TEST_CASE("activate_f32: relu exact, gelu-tanh and silu within a few f32 ulps of the formula", "[plugin_kit]") {
    CHECK(activate_f32(SPMMA_ACTIVATION_RELU, -1.5f) == 0.0f);
    CHECK(activate_f32(SPMMA_ACTIVATION_RELU, 1.5f) == 1.5f);
    CHECK(activate_f32(SPMMA_ACTIVATION_NONE, -1.5f) == -1.5f);
    CHECK(activate_f32(SPMMA_ACTIVATION_SILU, 0.5f) == Approx(0.31122967).epsilon(1e-6));
    CHECK(activate_f32(SPMMA_ACTIVATION_GELU_TANH, 0.5f) == Approx(0.34571401).epsilon(1e-6));
    CHECK(activate_f32(SPMMA_ACTIVATION_SILU, -200.0f) == 0.0f);  // exp overflows to inf: -0, not NaN
}

TEST_CASE("host_epilogue_reason refuses integer problems, unknown fields and a bias of a third type", "[plugin_kit]") {
    spmma_problem p{};
    p.acc_type = SPMMA_F32;
    p.d_type = SPMMA_F16;
    CHECK(host_epilogue_reason(p).empty());
    p.bias = SPMMA_BIAS_ROW;
    p.bias_type = SPMMA_BF16;
    CHECK(host_epilogue_reason(p) == "the bias is f32 or D's type, not bf16");
    p.bias_type = SPMMA_F16;
    CHECK(host_epilogue_reason(p).empty());
    p.activation = 9;
    CHECK(host_epilogue_reason(p) == "unknown activation 9");
    p.activation = SPMMA_ACTIVATION_NONE;
    p.acc_type = SPMMA_S32;
    CHECK(host_epilogue_reason(p) == "integer problems take no epilogue (scales, bias, activation)");
}
