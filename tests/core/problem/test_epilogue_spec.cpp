// The epilogue as spmma gemm's flags and a workload's keys give it: read into problems, written
// back the same, the named op scaled-mm, and bad values named by flag or by file, line and key.
#include <spmma/core/epilogue_spec.hpp>
#include <spmma/core/gemm_spec.hpp>
#include <spmma/core/workload.hpp>

#include <catch2/catch.hpp>

using namespace spmma;

namespace {
GemmSpec sizes(const std::string& m, const std::string& n, const std::string& k) {
    GemmSpec s;
    s.given = {{"m", {m}}, {"n", {n}}, {"k", {k}}};
    return s;
}
// The spec with the epilogue's parts given as --row-scale, --col-scale, --bias and --activation
// give them ("" : not given).
GemmSpec with_epilogue(GemmSpec s, const EpilogueSpec& e) {
    for (const auto& [key, text] : {std::pair{"row_scale", &e.row_scale}, std::pair{"col_scale", &e.col_scale},
                                    std::pair{"bias", &e.bias}, std::pair{"activation", &e.activation}}) {
        s.given.erase(key);
        if (!text->empty()) s.given[key] = {*text};
    }
    return s;
}
}  // namespace

TEST_CASE("op scaled-mm presets e4m3 x e4m3 -> bf16 with random row and column scales and a bf16 row bias", "[problem][epilogue]") {
    GemmSpec s = sizes("28672", "16", "4096");
    s.op = "scaled-mm";
    const auto jobs = jobs_from_spec(s);
    REQUIRE(jobs.size() == 1);
    const Problem& p = jobs[0].problem;
    CHECK(p.a == DType::E4M3);
    CHECK(p.b == DType::E4M3);
    CHECK(p.d == DType::BF16);
    CHECK(p.row_scale.source == EpilogueVector::Source::Drawn);
    CHECK(p.col_scale.source == EpilogueVector::Source::Drawn);
    CHECK(p.bias_axis == BiasAxis::Row);
    CHECK(p.bias_type == DType::BF16);
    CHECK(p.activation == Activation::None);
    CHECK(p.label() == "28672x16x4096 e4m3*e4m3+f32->bf16 2:4 rs cs bias:row/bf16");
    // The options refine the preset.
    s.given["activation"] = {"silu"};
    s.given["col_scale"] = {"0.5"};
    const Problem q = jobs_from_spec(s)[0].problem;
    CHECK(q.activation == Activation::Silu);
    CHECK(q.col_scale.source == EpilogueVector::Source::Given);
    CHECK(q.col_scale.value == 0.5);
}

TEST_CASE("epilogue flags read into the problem and write back the same", "[problem][epilogue]") {
    GemmSpec s = with_epilogue(sizes("37", "29", "64"), {"0.25", "random", "col,f32,0.5", "gelu-tanh"});
    const Problem p = jobs_from_spec(s)[0].problem;
    CHECK(p.row_scale.value == 0.25);
    CHECK(p.bias_axis == BiasAxis::Col);
    CHECK(p.bias_type == DType::F32);
    CHECK(p.bias.source == EpilogueVector::Source::Given);
    CHECK(p.bias.value == 0.5);
    const EpilogueSpec back = epilogue_spec_of(p);
    CHECK(back.row_scale == "0.25");
    CHECK(back.col_scale == "random");
    CHECK(back.bias == "col,f32,0.5");
    CHECK(back.activation == "gelu-tanh");
    s = with_epilogue(s, {"", "", "row", ""});
    CHECK(epilogue_spec_of(jobs_from_spec(s)[0].problem).bias == "row,f16");  // D's type when none is given
}

TEST_CASE("bad epilogue flags name the flag", "[problem][epilogue]") {
    const std::pair<EpilogueSpec, const char*> cases[] = {
        {{"", "", "", "gelu"}, "--activation: unknown activation 'gelu'"},
        {{"x", "", "", ""}, "--row-scale: 'x' is not 'random', 'none' or a finite number"},
        {{"", "inf", "", ""}, "--col-scale: 'inf' is not"},
        {{"", "", "diag", ""}, "--bias: 'diag': unknown axis 'diag'"},
        {{"", "", "row,bf16", ""}, "--bias: the bias is f32 or D's type (f16), not bf16"},
    };
    for (const auto& [e, message] : cases) {
        const GemmSpec s = with_epilogue(sizes("8", "8", "32"), e);
        INFO(message);
        CHECK_THROWS_WITH(jobs_from_spec(s), Catch::Contains(message));
    }
    GemmSpec s = sizes("8", "8", "32");
    s.op = "nope";
    CHECK_THROWS_WITH(jobs_from_spec(s), Catch::Contains("--op: unknown op 'nope' (known: scaled-mm)"));
    s.op.clear();
    s.given["dtype"] = {"s8"};
    s.given["activation"] = {"relu"};
    CHECK_THROWS_WITH(jobs_from_spec(s), Catch::Contains("--activation: the epilogue (scales, bias, activation) is for floating problems"));
}

TEST_CASE("workload epilogue keys sweep, and bad ones name file, line and key", "[problem][epilogue]") {
    const auto jobs = parse_workload("version = 1\n[[sweep]]\nm = 37\nn = 29\nk = 64\ndtype = \"bf16\"\nrow_scale = \"random\"\n"
                                     "col_scale = 2\nbias = \"row,f32\"\nactivation = [\"relu\", \"silu\"]\n",
                                     "e.toml");
    REQUIRE(jobs.size() == 2);
    CHECK(jobs[0].problem.activation == Activation::Relu);
    CHECK(jobs[1].problem.activation == Activation::Silu);
    CHECK(jobs[0].problem.col_scale.value == 2);
    CHECK(jobs[0].problem.bias_type == DType::F32);
    const std::pair<const char*, const char*> bad[] = {
        {"activation = \"gelu\"\n", "e.toml:6: activation: unknown activation 'gelu'"},
        {"bias = \"row,f16\"\n", "e.toml:6: bias: the bias is f32 or D's type (bf16), not f16"},
        {"row_scale = true\n", "e.toml:6: row_scale: must be \"random\" or a number, not boolean"},
        {"col_scale = \"lots\"\n", "e.toml:6: col_scale: 'lots' is not 'random', 'none' or a finite number"},
        {"activation = [\"relu\"]\n", "e.toml:6: activation: a [[problem]] takes one value"},
    };
    for (const auto& [line, message] : bad) {
        INFO(line);
        CHECK_THROWS_WITH(parse_workload(std::string("version = 1\n[[problem]]\nm = 8\nn = 8\nk = 64\n") + line + "dtype = \"bf16\"\n", "e.toml"),
                          Catch::Contains(message));
    }
}
