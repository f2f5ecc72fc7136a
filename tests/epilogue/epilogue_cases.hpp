// The epilogue's test cases shared by the host and GPU plugin tests: every combination of its
// parts, a problem carrying one, and one run through the C ABI as the host makes it, D verified in
// full against the reference.
#pragma once

#include "../common/plugin.hpp"

#include <spmma/core/operands.hpp>
#include <spmma/reference/verify.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace spmma::epilogue_test {

struct Combination {
    bool rs, cs;
    BiasAxis bias;
    bool bias_out;  // the bias in D's type (else f32)
    Activation act;
    bool with_c;
    std::string label() const {
        return std::string(rs ? "rs " : "") + (cs ? "cs " : "") +
               (bias == BiasAxis::None ? "" : std::string("bias:") + name(bias) + (bias_out ? "/d " : "/f32 ")) + name(act) +
               (with_c ? " +C" : "");
    }
};

// 2 x 2 x 5 x 4 = 80 combinations; C with every other one.
inline std::vector<Combination> all_combinations() {
    std::vector<Combination> v;
    const std::pair<BiasAxis, bool> biases[] = {
        {BiasAxis::None, false}, {BiasAxis::Row, false}, {BiasAxis::Col, false}, {BiasAxis::Row, true}, {BiasAxis::Col, true}};
    for (bool rs : {false, true})
        for (bool cs : {false, true})
            for (const auto& [axis, out] : biases)
                for (Activation act : {Activation::None, Activation::Relu, Activation::GeluTanh, Activation::Silu})
                    v.push_back({rs, cs, axis, out, act, v.size() % 2 == 1});
    return v;
}

inline Problem with_epilogue(Problem p, const Combination& c) {
    const EpilogueVector drawn{EpilogueVector::Source::Drawn, 0};
    if (c.rs) p.row_scale = drawn;
    if (c.cs) p.col_scale = drawn;
    if (c.bias != BiasAxis::None) {
        p.bias = drawn;
        p.bias_axis = c.bias;
        p.bias_type = c.bias_out ? p.d : DType::F32;
    }
    p.activation = c.act;
    p.alpha = 1.25;
    p.beta = c.with_c ? 0.5 : 0.0;
    return p;
}

inline Problem base(DType t, int64_t m, int64_t n, int64_t k) {
    Problem p;
    p.a = p.b = t;
    p.m = m;
    p.n = n;
    p.k = k;
    apply_default_types(p, false, false, false);
    return p;
}

inline std::string supports(const spmma_plugin_api* api, const Problem& p, const char* kernel) {
    const spmma_problem abi = p.to_abi();
    char why[1024] = {};
    return api->supports(0, &abi, kernel, why, sizeof why) == SPMMA_OK ? std::string() : std::string(why);
}

// Runs p on the plugin through create, upload, run, download; "" when D verifies in full, else
// what went wrong.
inline std::string run_and_verify(const spmma_plugin_api* api, const Problem& p, const char* kernel) {
    const Operands ops = generate_operands(p);
    const spmma_problem abi = p.to_abi();
    const spmma_operands view = ops.view();
    char err[1024] = {};
    auto failed = [&](const char* call) {
        api->last_error(err, sizeof err);
        return std::string(call) + ": " + err;
    };
    spmma_handle* h = nullptr;
    if (api->create(0, &abi, kernel, &h) != SPMMA_OK) return failed("create");
    std::string result;
    float ms = 0;
    spmma_run_config rc{};
    rc.struct_size = sizeof rc;
    rc.iterations = 1;
    rc.times_ms = &ms;
    std::vector<uint8_t> d(storage_bytes(p.d, p.m * p.n));
    if (api->upload(h, &view) != SPMMA_OK) result = failed("upload");
    else if (api->run(h, &rc) != SPMMA_OK) result = failed("run");
    else if (api->download(h, d.data(), d.size()) != SPMMA_OK) result = failed("download");
    api->destroy(h);
    if (!result.empty()) return result;
    const reference::GemmInput in{abi, view};
    reference::VerifyOptions vo;
    vo.mode = reference::VerifyMode::Full;
    const auto v = reference::check(in, reference::compute_expected(in, vo), d.data());
    if (v.passed) return {};
    const auto& m = v.first.front();
    return std::to_string(v.mismatches) + " mismatches, first D[" + std::to_string(m.i) + "," + std::to_string(m.j) +
           "] = " + std::to_string(m.got) + ", expected " + std::to_string(m.expected) + " +- " + std::to_string(m.tolerance);
}

}  // namespace spmma::epilogue_test
