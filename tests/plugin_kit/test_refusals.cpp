// The pieces of refusal reasons the plugins share read the same wherever they are used.
#include <spmma_plugin/refusals.hpp>

#include <catch2/catch.hpp>

#include <string>

using namespace spmma_plugin;

TEST_CASE("types_label writes a x b -> acc, satfinite when asked", "[plugin_kit]") {
    CHECK(types_label(SPMMA_F16, SPMMA_F16, SPMMA_F32) == "f16 x f16 -> f32");
    CHECK(types_label(SPMMA_S8, SPMMA_U8, SPMMA_S32, true) == "s8 x u8 -> s32 satfinite");
    spmma_problem p{};
    p.a_type = SPMMA_E4M3;
    p.b_type = SPMMA_E5M2;
    p.acc_type = SPMMA_F16;
    CHECK(types_label(p) == "e4m3 x e5m2 -> f16");
    p.saturate = 1;
    CHECK(types_label(p) == "e4m3 x e5m2 -> f16 satfinite");
}

TEST_CASE("shared_memory_reason is empty up to the limit and names kernel, sizes and arch above it", "[plugin_kit]") {
    CHECK(shared_memory_reason("k1", 99 * 1024, 99 * 1024, "sm_86").empty());
    CHECK(shared_memory_reason("k1", 100 * 1024, 99 * 1024, "sm_86") ==
          "kernel k1 needs 100 KiB of shared memory per block, sm_86 allows 99 KiB");
}

TEST_CASE("tile_count_reason refuses more than 2^31 - 1 tiles only", "[plugin_kit]") {
    CHECK(tile_count_reason(1 << 20, 1 << 20, 128, 128).empty());  // 2^26 tiles
    CHECK(tile_count_reason(int64_t(1) << 31, int64_t(1) << 31, 64, 64) == "too many CTA tiles for one launch");
}

TEST_CASE("is_float_type: f32, f16, bf16 only", "[plugin_kit]") {
    CHECK(is_float_type(SPMMA_F32));
    CHECK(is_float_type(SPMMA_F16));
    CHECK(is_float_type(SPMMA_BF16));
    CHECK_FALSE(is_float_type(SPMMA_TF32));
    CHECK_FALSE(is_float_type(SPMMA_S32));
}

TEST_CASE("fused_epilogue_reason: empty for the epilogues a fusing kernel applies, the host plugins' reason otherwise", "[plugin_kit]") {
    spmma_problem p{};
    p.a_type = p.b_type = SPMMA_E4M3;
    p.acc_type = SPMMA_F32;
    p.d_type = SPMMA_BF16;
    p.row_scale = p.col_scale = 1;
    p.bias = SPMMA_BIAS_ROW;
    p.bias_type = SPMMA_BF16;
    p.activation = SPMMA_ACTIVATION_SILU;
    CHECK(fused_epilogue_reason(p).empty());
    p.bias_type = SPMMA_F16;
    CHECK(fused_epilogue_reason(p) == "unsupported: the bias is f32 or D's type, not f16");
    spmma_problem q{};
    q.a_type = q.b_type = SPMMA_S8;
    q.acc_type = q.d_type = SPMMA_S32;
    q.activation = SPMMA_ACTIVATION_RELU;
    CHECK(fused_epilogue_reason(q) == "unsupported: integer problems take no epilogue (scales, bias, activation)");
}

TEST_CASE("unfused_epilogue_reason: empty for a plain problem, else names the plugin and every part of the epilogue", "[plugin_kit]") {
    spmma_problem p{};
    p.d_type = SPMMA_BF16;
    CHECK(unfused_epilogue_reason(p, "sm120a").empty());
    p.row_scale = p.col_scale = 1;
    p.bias = SPMMA_BIAS_COL;
    p.bias_type = SPMMA_BF16;
    p.activation = SPMMA_ACTIVATION_GELU_TANH;
    CHECK(unfused_epilogue_reason(p, "sm120a") ==
          "unsupported: the sm120a plugin does not apply the epilogue yet (rs cs bias:col/bf16 gelu-tanh); it computes alpha*A*B + "
          "beta*C only");
    spmma_problem q{};
    q.activation = SPMMA_ACTIVATION_SILU;
    CHECK(unfused_epilogue_reason(q, "cusparselt") ==
          "unsupported: the cusparselt plugin does not apply the epilogue yet (silu); it computes alpha*A*B + beta*C only");
    char small[6];
    const std::string cut = spmma_epilogue_label(&p, small, sizeof small);  // truncated, NUL-terminated
    CHECK(cut.size() < sizeof small);
    CHECK(std::string("rs cs bias:col/bf16 gelu-tanh").rfind(cut, 0) == 0);
}
