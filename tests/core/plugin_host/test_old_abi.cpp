// A plugin of ABI 1.1 (the example vendor plugin built against the 1.1 header, tests/vendor/abi-1.1)
// keeps loading and running plain problems, and the host refuses to send it a problem with an
// epilogue (ABI 1.2), which it could not see, with a reason naming its version.
#include <spmma/core/execution.hpp>
#include <spmma/core/operands.hpp>
#include <spmma/core/plugins.hpp>
#include <spmma/reference/verify.hpp>

#include <catch2/catch.hpp>

using namespace spmma;

namespace {

Problem plain_f16() {
    Problem p;
    p.m = 61;
    p.n = 37;
    p.k = 96;
    apply_default_types(p, false, false, false);
    return p;
}

// Runs p on the plugin (its own kernel choice) and verifies D in full.
ExecResult run_verified(const Plugin& plugin, const Problem& p, bool* verified) {
    const Operands ops = generate_operands(p);
    ExecRequest req;
    req.problem = p.to_abi();
    req.result.d_bytes = storage_bytes(p.d, p.m * p.n);
    std::vector<uint8_t> d(req.result.d_bytes);
    const ExecResult r = execute(plugin, req, ops.view(), d.data());
    if (r.ok) {
        const reference::GemmInput in{req.problem, ops.view()};
        reference::VerifyOptions vo;
        vo.mode = reference::VerifyMode::Full;
        *verified = reference::check(in, reference::compute_expected(in, vo), d.data()).passed;
    }
    return r;
}

}  // namespace

TEST_CASE("an ABI 1.1 plugin loads, runs a plain problem verified, and is refused a scaled one with a reason naming its version",
          "[plugins][abi]") {
    auto ps = load_plugins({SPMMA_ABI11_PLUGIN_DIR});
    const Plugin* old = find_plugin(ps, "acme");
    REQUIRE(old);
    REQUIRE(old->usable());
    CHECK(old->abi_major == 1);
    CHECK(old->abi_minor == 1);

    const Problem plain = plain_f16();
    CHECK_FALSE(old->unsupported_reason(0, plain.to_abi(), nullptr).has_value());
    bool verified = false;
    const ExecResult r = run_verified(*old, plain, &verified);
    INFO(r.error);
    REQUIRE(r.ok);
    CHECK(verified);

    Problem scaled = plain;
    scaled.row_scale = {EpilogueVector::Source::Drawn, 0};
    scaled.col_scale = {EpilogueVector::Source::Given, 0.5};
    const auto why = old->unsupported_reason(0, scaled.to_abi(), nullptr);
    REQUIRE(why.has_value());
    CHECK(*why == "speaks ABI 1.1; the epilogue (rs cs) needs ABI 1.2");
    // Asked to run it anyway, the host does not create it: the plugin would compute alpha*A*B.
    const ExecResult refused = run_verified(*old, scaled, &verified);
    CHECK_FALSE(refused.ok);
    CHECK(refused.status == SPMMA_UNSUPPORTED);
    CHECK_THAT(refused.error, Catch::Contains("speaks ABI 1.1"));

    Problem activated = plain;
    activated.activation = Activation::Relu;
    CHECK(old->unsupported_reason(0, activated.to_abi(), nullptr) == "speaks ABI 1.1; the epilogue (relu) needs ABI 1.2");
}

TEST_CASE("a plugin of this ABI is asked about an epilogue itself: the cpu plugin accepts one", "[plugins][abi]") {
    const auto ps = load_plugins({SPMMA_PLUGIN_DIR});
    const Plugin* cpu = find_plugin(ps, "cpu");
    REQUIRE(cpu);
    Problem p = plain_f16();
    p.bias = {EpilogueVector::Source::Drawn, 0};
    p.bias_axis = BiasAxis::Col;
    p.bias_type = DType::F32;
    p.activation = Activation::Silu;
    CHECK_FALSE(abi_refusal(*cpu, p.to_abi()).has_value());
    CHECK_FALSE(cpu->unsupported_reason(0, p.to_abi(), nullptr).has_value());
    bool verified = false;
    const ExecResult r = run_verified(*cpu, p, &verified);
    INFO(r.error);
    REQUIRE(r.ok);
    CHECK(verified);
}
