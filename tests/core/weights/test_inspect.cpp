// What `spmma inspect` reports, on a checkpoint written here: the layers with their 2:4 share,
// the type each runs as and its gemm line, and a workload that the workload parser accepts.
#include "weights_test.hpp"

#include <spmma/core/workload.hpp>
#include <spmma/weights/file_operands.hpp>
#include <spmma/weights/inspect.hpp>

using namespace spmma;
using namespace spmma::weights;
using spmma::test::make_safetensors;
using spmma::test::raw;
using spmma::test::StTensor;

namespace {

std::vector<uint16_t> f16(const std::vector<double>& v) {
    std::vector<uint16_t> out;
    for (double x : v) out.push_back(static_cast<uint16_t>(encode(DType::F16, x)));
    return out;
}

// dense 2 x 8: group (1,2,3,0) breaks 2:4, the other three groups keep it: share 3/4.
const std::vector<double> kHalf = {1, 2, 3, 0, 1, 0, 0, 1, 0, 0, 0, 0, 5, 0, 6, 0};

std::filesystem::path checkpoint(const std::string& dir) {
    const std::vector<uint8_t> mask = {0x33, 0x33};  // 2 x 8: columns 0, 1, 4, 5 of each row
    return spmma::test::write_bytes(
        spmma::test::scratch_dir(dir) / "model.safetensors",
        make_safetensors({{"model.layers.0.mlp.up_proj.weight", "F16", {2, 8}, raw(f16(kHalf))},
                          {"model.layers.0.mlp.up_proj.bias", "F16", {2}, raw(f16({0, 0}))},
                          {"model.embed_tokens.weight", "F16", {2, 8}, raw(f16(kHalf))},
                          {"model.layers.0.attn.o_proj.weight", "F32", {2, 6}, std::string(48, '\0')},
                          {"model.layers.0.attn.k_proj.weight", "F64", {2, 4}, std::string(64, '\0')},
                          {"model.layers.1.mlp.down_proj.compressed", "F8_E4M3", {2, 4}, std::string(8, '\x38')},
                          {"model.layers.1.mlp.down_proj.bitmask", "U8", {2, 1}, raw(mask)},
                          {"model.layers.1.mlp.down_proj.shape", "I64", {2}, raw(std::vector<int64_t>{2, 8})},
                          {"model.layers.1.mlp.down_proj.weight_scale", "F32", {2, 1}, raw(std::vector<float>{1, 2})}}));
}

const LayerInfo& layer(const CheckpointSummary& s, const std::string& name) {
    for (const auto& l : s.layers)
        if (l.name == name) return l;
    FAIL("no layer " << name);
    throw;
}

}  // namespace

TEST_CASE("summarize lists the 2-D tensors and bitmask layers with shape, dtype, 2:4 share and the type each runs as") {
    const auto path = checkpoint("inspect_layers");
    const auto s = summarize(Checkpoint(path));
    REQUIRE(s.layers.size() == 5);
    REQUIRE(s.other_tensors == 5);  // the bias, the three parts of the bitmask layer, its scale
    const auto& up = layer(s, "model.layers.0.mlp.up_proj.weight");
    REQUIRE(up.form == "dense");
    REQUIRE(up.m == 2);
    REQUIRE(up.k == 8);
    REQUIRE(up.stored_dtype == "F16");
    REQUIRE(up.type == DType::F16);
    REQUIRE(*up.share_2_4 == 0.75);
    REQUIRE_FALSE(up.is_2_4());
    REQUIRE(up.linear);
    REQUIRE(up.gemm_args(16, path) == std::vector<std::string>{"spmma", "gemm", "--m", "2", "--k", "8", "--n", "16", "--dtype", "f16",
                                                               "--a", path.string() + ":model.layers.0.mlp.up_proj.weight"});
    REQUIRE_FALSE(layer(s, "model.embed_tokens.weight").linear);
    const auto& o = layer(s, "model.layers.0.attn.o_proj.weight");
    REQUIRE(o.type == DType::TF32);
    REQUIRE_FALSE(o.share_2_4);  // k = 6
    REQUIRE(o.cannot_run().empty());  // tf32 is 1:2: k = 6 is a multiple of 2
    const auto& k = layer(s, "model.layers.0.attn.k_proj.weight");
    REQUIRE(k.type == DType::None);
    REQUIRE(k.cannot_run() == "no spmma operand type reads F64");
    REQUIRE(k.gemm_args(16, path).empty());
    const auto& down = layer(s, "model.layers.1.mlp.down_proj");
    REQUIRE(down.form == "sparse-24-bitmask");
    REQUIRE(down.is_2_4());
    REQUIRE(down.type == DType::E4M3);
    REQUIRE(*down.row_scale == "per channel");
    REQUIRE(down.k == 8);
}

TEST_CASE("the workload of every linear layer is one sweep each at the token counts, and the workload parser accepts it") {
    const auto path = checkpoint("inspect_workload");
    const auto s = summarize(Checkpoint(path));
    const std::string toml = workload_toml(s, {1, 16, 128}, path.parent_path());
    INFO(toml);
    REQUIRE(toml.find("\"model.layers.0.attn.k_proj.weight\": no spmma operand type reads F64") != std::string::npos);
    REQUIRE(toml.find("a = '" + path.filename().string() + ":model.layers.0.mlp.up_proj.weight'") != std::string::npos);
    const auto jobs = parse_workload(toml, (path.parent_path() / "inspect.toml").string(), probe_tensor);
    REQUIRE(jobs.size() == 3 * 3);  // up_proj, o_proj (tf32), down_proj at three token counts; not the embedding
    REQUIRE(jobs[0].problem.m == 2);
    REQUIRE(jobs[0].problem.n == 1);
    REQUIRE(jobs[2].problem.n == 128);
    bool e4m3 = false;
    for (const auto& j : jobs) e4m3 = e4m3 || j.problem.a == DType::E4M3;
    REQUIRE(e4m3);
}

TEST_CASE("the JSON listing holds each layer with its gemm line, or why it cannot run") {
    const auto path = checkpoint("inspect_json");
    const auto j = summarize(Checkpoint(path)).to_json(32);
    REQUIRE(j["layers"].size() == 5);
    for (const auto& l : j["layers"]) {
        if (l["name"] == "model.layers.0.mlp.up_proj.weight") {
            REQUIRE(l["gemm"] == "spmma gemm --m 2 --k 8 --n 32 --dtype f16 --a " + path.string() + ":model.layers.0.mlp.up_proj.weight");
            REQUIRE(l["share_2_4"] == 0.75);
            REQUIRE(l["shape"] == nlohmann::json::array({2, 8}));
        }
        if (l["name"] == "model.layers.0.attn.k_proj.weight") {
            REQUIRE(l["gemm"].is_null());
            REQUIRE(l["cannot_run"] == "no spmma operand type reads F64");
        }
    }
    REQUIRE(j["other_tensors"] == 5);
}

TEST_CASE("a checkpoint without a linear layer spmma can run has no workload") {
    const auto file = spmma::test::write_bytes(spmma::test::scratch_dir("no_linear") / "m.safetensors",
                                               make_safetensors({{"norm.weight", "F16", {8}, std::string(16, '\0')}}));
    spmma::test::require_refused([&] { workload_toml(summarize(Checkpoint(file)), {16}, file.parent_path()); }, file, "no linear layer that spmma can run");
}
