// `spmma inspect` on the files make_weights.py writes: the listing, --json, --workload (which
// `spmma run` then accepts) and exit 2 with the file and the reason on a bad file.
#include "../../app/cli.hpp"

#include <spmma/core/workload.hpp>
#include <spmma/weights/file_operands.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace {

const std::filesystem::path kData = SPMMA_WEIGHTS_DATA;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("spmma inspect lists each 2-D tensor with shape, dtype, 2:4 and a gemm line, the bitmask layers as such") {
    const std::string ct = (kData / "ct_fp8").string();
    const auto r = spmma_cli("inspect " + ct);
    INFO(r.out);
    REQUIRE(r.code == 0);
    REQUIRE(has(r.out, "model.layers.0.mlp.down_proj  [32, 64]  F8_E4M3  2:4 (sparse-24-bitmask), weight_scale per channel\n"
                       "    spmma gemm --m 32 --k 64 --n 16 --dtype e4m3 --a " + ct + ":model.layers.0.mlp.down_proj\n"));
    REQUIRE(has(r.out, "model.layers.1.mlp.down_proj  [32, 64]  I8  2:4 (sparse-24-bitmask), weight_scale per tensor\n"
                       "    spmma gemm --m 32 --k 64 --n 16 --dtype e4m3 --a " + ct + ":model.layers.1.mlp.down_proj\n"));
    const std::string bf16 = (kData / "sparse24_bf16.safetensors").string();
    const auto s = spmma_cli("inspect " + bf16 + " --n 128");
    REQUIRE(has(s.out, "model.layers.0.self_attn.q_proj.weight  [32, 64]  BF16  2:4\n    spmma gemm --m 32 --k 64 --n 128 --dtype bf16 --a " + bf16 +
                           ":model.layers.0.self_attn.q_proj.weight\n"));
    const auto d = spmma_cli("inspect " + (kData / "dense_f16.safetensors").string());
    REQUIRE(has(d.out, "model.layers.0.mlp.up_proj.weight  [64, 128]  F16  dense, "));
    REQUIRE(has(d.out, "1 other tensor\n"));
}

TEST_CASE("spmma inspect --json gives the same listing as JSON") {
    const std::string sharded = (kData / "sharded").string();
    const auto r = spmma_cli("inspect --json " + sharded);
    INFO(r.out);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["files"].size() == 2);
    REQUIRE(j["layers"].size() == 3);
    REQUIRE(j["layers"][0]["name"] == "lm_head.weight");
    REQUIRE(j["layers"][0]["gemm"] == "spmma gemm --m 32 --k 64 --n 16 --dtype f16 --a " + sharded + ":lm_head.weight");
    REQUIRE(j["other_tensors"] == 1);
}

TEST_CASE("spmma inspect --workload writes a workload of every linear layer that spmma run accepts") {
    const std::string out = temp_path("layers.toml");
    const auto r = spmma_cli("inspect " + (kData / "sharded").string() + " --workload " + out + " --tokens 1,16,128");
    INFO(r.out);
    REQUIRE(r.code == 0);
    const auto jobs = spmma::load_workload(out, spmma::weights::probe_tensor);
    REQUIRE(jobs.size() == 3 * 3);
    REQUIRE(jobs[0].problem.m == 32);
    REQUIRE(jobs[0].problem.k == 64);
    REQUIRE(jobs[0].problem.a == spmma::DType::F16);
    REQUIRE(jobs[0].files.a == std::filesystem::absolute(kData / "sharded").lexically_normal().string() + ":lm_head.weight");
    const auto run = spmma_cli("run " + out + " --plugin cpu --no-progress --shard 0/9");
    INFO(run.out);
    REQUIRE(run.code == 0);
}

TEST_CASE("spmma inspect exits 2 naming the file and the reason for a bad file, a missing one and bad tokens") {
    const std::string bad = write_file("bad.safetensors", std::string("\x10\0\0\0\0\0\0\0{\"w\":", 14));
    const auto r = spmma_cli("inspect " + bad);
    REQUIRE(r.code == 2);
    REQUIRE(has(r.out, "spmma inspect: " + bad + ": the header length 16 runs past the end of the file (14 bytes)"));
    const auto fortran = spmma_cli("inspect " + (kData / "npy" / "fortran.npy").string());
    REQUIRE(fortran.code == 2);
    REQUIRE(has(fortran.out, "fortran.npy: fortran_order is True"));
    REQUIRE(spmma_cli("inspect " + temp_path("missing.safetensors")).code == 2);
    REQUIRE(spmma_cli("inspect " + (kData / "sharded").string() + " --workload x.toml --tokens 0").code == 2);
}
