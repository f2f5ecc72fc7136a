// Layers run on their own weights: `spmma gemm --a/--b/--c` and a workload's a, b, c keys on the
// files make_weights.py writes, verified on the cpu plugin; the records name each operand's file,
// tensor and hash, and their command reruns the run; bad operands exit 2 naming the flag or the
// file, line and key.
#include "../../app/cli.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>
#include <sstream>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kData = SPMMA_WEIGHTS_DATA;
const std::string kCpu = " --plugin cpu --no-progress -q";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<nlohmann::json> records(const std::string& path) {
    std::vector<nlohmann::json> out;
    std::istringstream in(read_file(path));
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) out.push_back(nlohmann::json::parse(line));
    return out;
}

// One gemm on the cpu plugin; its one record (the run's output when it is not exactly one).
nlohmann::json one_record(const std::string& args, const std::string& name) {
    const std::string json = temp_path(name + ".jsonl");
    fs::remove(json);
    const auto r = spmma_cli("gemm " + args + kCpu + " --json " + json);
    INFO(args << "\n" << r.out);
    REQUIRE(r.code == 0);
    const auto recs = records(json);
    REQUIRE(recs.size() == 1);
    return recs[0];
}

std::string ref(const fs::path& file, const std::string& tensor = "") {
    const std::string path = fs::absolute(file).lexically_normal().string();
    return tensor.empty() ? path : path + ":" + tensor;
}

}  // namespace

TEST_CASE("spmma gemm --a runs a layer of each file kind verified on the cpu plugin, m, k and the type from the tensor") {
    struct Case {
        std::string ref, type;
        int64_t m, k;
        std::string format;
        bool pruned;
    };
    const std::vector<Case> cases = {
        {ref(kData / "dense_f16.safetensors", "model.layers.0.mlp.up_proj.weight"), "f16", 64, 128, "safetensors", true},
        {ref(kData / "sparse24_bf16.safetensors", "model.layers.0.self_attn.q_proj.weight"), "bf16", 32, 64, "safetensors", false},
        {ref(kData / "e4m3.safetensors", "model.layers.0.mlp.gate_proj.weight"), "e4m3", 16, 32, "safetensors", true},
        {ref(kData / "ct_fp8", "model.layers.0.mlp.down_proj"), "e4m3", 32, 64, "sparse-24-bitmask", false},
        {ref(kData / "ct_fp8", "model.layers.1.mlp.down_proj.weight"), "e4m3", 32, 64, "sparse-24-bitmask", false},
        {ref(kData / "sharded", "lm_head.weight"), "f16", 32, 64, "safetensors", true},
        {ref(kData / "npy" / "f2.npy"), "f16", 8, 16, "npy", true},
    };
    for (const Case& c : cases) {
        const auto rec = one_record("--a " + c.ref + " --n 8", "kind");
        INFO(c.ref);
        CHECK(rec["status"] == "verified");
        CHECK(rec["problem"]["m"] == c.m);
        CHECK(rec["problem"]["k"] == c.k);
        CHECK(rec["problem"]["a_type"] == c.type);
        CHECK(rec["problem"]["operand_files"]["a"] == c.ref);
        const auto& a = rec["operand_sources"]["a"];
        CHECK(a["format"] == c.format);
        CHECK(a["pruned"] == c.pruned);
        CHECK(a["sha256"].get<std::string>().size() == 64);
    }
}

TEST_CASE("a weight that is not 2:4 is pruned and the record says how much of it was kept, a 2:4 one is used as it is") {
    const auto pruned = one_record("--a " + ref(kData / "dense_f16.safetensors", "model.layers.0.mlp.up_proj.weight") + " --n 4", "pruned");
    const auto& a = pruned["operand_sources"]["a"];
    CHECK(a["pruned"] == true);
    CHECK(a["pattern_share"].get<double>() < 1.0);
    CHECK(a["norm_kept"].get<double>() > 0.0);
    CHECK(a["norm_kept"].get<double>() < 1.0);
    const auto kept = one_record("--a " + ref(kData / "sparse24_bf16.safetensors", "model.layers.0.self_attn.q_proj.weight") + " --n 4", "kept");
    CHECK(kept["operand_sources"]["a"]["pruned"] == false);
    CHECK(kept["operand_sources"]["a"]["pattern_share"] == 1.0);
    CHECK(kept["operand_sources"]["a"]["norm_kept"] == 1.0);
}

TEST_CASE("A, B and C from one file: n from B's tensor, C read with beta, every source in the record") {
    const fs::path file = kData / "layer_io.safetensors";
    const auto rec = one_record("--a " + ref(file, "model.layers.0.mlp.up_proj.weight") + " --b " + ref(file, "activations") + " --c " +
                                    ref(file, "residual") + " --beta 1",
                                "abc");
    CHECK(rec["status"] == "verified");
    CHECK(rec["problem"]["n"] == 8);
    for (const char* op : {"a", "b", "c"}) {
        INFO(op);
        CHECK(rec["operand_sources"][op]["file"] == fs::absolute(file).lexically_normal().string());
        CHECK(rec["operand_sources"][op]["sha256"].get<std::string>().size() == 64);
    }
    CHECK(rec["operand_sources"]["b"]["tensor"] == "activations");
    CHECK(rec["operand_sources"]["c"]["tensor"] == "residual");
}

TEST_CASE("a weight converts to the float type --dtype names, and a type the tensor cannot be is refused naming --a") {
    const std::string w = ref(kData / "dense_f16.safetensors", "model.layers.0.mlp.up_proj.weight");
    const auto rec = one_record("--a " + w + " --n 4 --dtype e4m3", "converted");
    CHECK(rec["status"] == "verified");
    CHECK(rec["problem"]["a_type"] == "e4m3");
    CHECK(rec["operand_sources"]["a"]["reading"] == "converted");
    const auto r = spmma_cli("gemm --a " + w + " --n 4 --dtype s8" + kCpu);
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK(has(r.out, "spmma gemm: --a: a's tensor " + w + " (F16) cannot be read as s8"));
}

TEST_CASE("spmma gemm exits 2 naming the flag for a size the tensor contradicts, a missing tensor or file, C without beta") {
    const fs::path file = kData / "layer_io.safetensors";
    const std::string a = ref(file, "model.layers.0.mlp.up_proj.weight");
    const auto m = spmma_cli("gemm --a " + a + " --m 32 --n 8" + kCpu);
    CHECK(m.code == 2);
    CHECK(has(m.out, "spmma gemm: --m: m = 32, but a's tensor " + a + " is 16 x 32"));
    const auto k = spmma_cli("gemm --a " + a + " --b " + ref(kData / "dense_f16.safetensors", "model.layers.0.mlp.up_proj.weight") + kCpu);
    CHECK(k.code == 2);
    CHECK(has(k.out, "spmma gemm: --b: k = 32, but b's tensor"));
    const auto n = spmma_cli("gemm --a " + a + " --b " + ref(file, "activations") + " --n 16" + kCpu);
    CHECK(n.code == 2);
    CHECK(has(n.out, "spmma gemm: --n: n = 16, but b's tensor"));
    const auto missing = spmma_cli("gemm --a " + ref(file, "no.such.weight") + " --n 8" + kCpu);
    CHECK(missing.code == 2);
    CHECK(has(missing.out, "spmma gemm: --a: "));
    CHECK(has(missing.out, "no.such.weight"));
    const auto no_file = spmma_cli("gemm --a " + temp_path("none.safetensors") + ":w --n 8" + kCpu);
    CHECK(no_file.code == 2);
    CHECK(has(no_file.out, "spmma gemm: --a: "));
    const auto one_d = spmma_cli("gemm --a " + ref(kData / "dense_f16.safetensors", "model.layers.0.mlp.up_proj.bias") + " --n 8" + kCpu);
    CHECK(one_d.code == 2);
    CHECK(has(one_d.out, "an operand is 2-D"));
    const auto c = spmma_cli("gemm --a " + a + " --n 8 --c " + ref(file, "residual") + kCpu);
    CHECK(c.code == 2);
    CHECK(has(c.out, "spmma gemm: --beta: c names"));
    const auto no_m = spmma_cli("gemm --n 8 --k 32" + kCpu);
    CHECK(no_m.code == 2);
    CHECK(has(no_m.out, "--m is required (or --a, whose tensor gives it)"));
}

TEST_CASE("a workload's a, b, c keys read files beside it, and bad ones exit 2 naming the file, line and key") {
    const fs::path dir = fs::path(temp_path("workload_dir"));
    fs::create_directories(dir);
    fs::copy_file(kData / "layer_io.safetensors", dir / "layer_io.safetensors", fs::copy_options::overwrite_existing);
    const std::string toml = (dir / "layer.toml").string();
    std::ofstream(toml) << "version = 1\n"
                           "[[sweep]]\n"
                           "name = \"up\"\n"
                           "a = \"layer_io.safetensors:model.layers.0.mlp.up_proj.weight\"\n"
                           "n = [1, 8]\n"
                           "[[problem]]\n"
                           "a = \"layer_io.safetensors:model.layers.0.mlp.up_proj.weight\"\n"
                           "b = \"layer_io.safetensors:activations\"\n"
                           "c = \"layer_io.safetensors:residual\"\n"
                           "beta = 0.5\n";
    const std::string json = temp_path("workload_abc.jsonl");
    fs::remove(json);
    const auto r = spmma_cli("run " + toml + kCpu + " --json " + json);
    INFO(r.out);
    REQUIRE(r.code == 0);
    const auto recs = records(json);
    REQUIRE(recs.size() == 3);
    for (const auto& rec : recs) {
        CHECK(rec["status"] == "verified");
        CHECK(rec["problem"]["m"] == 16);
        CHECK(rec["operand_sources"]["a"]["file"] == (dir / "layer_io.safetensors").string());
    }
    CHECK(recs[2]["operand_sources"]["c"]["tensor"] == "residual");

    const auto bad = [&](const std::string& body, const std::string& expect) {
        const std::string f = (dir / "bad.toml").string();
        std::ofstream(f, std::ios::trunc) << "version = 1\n[[problem]]\nn = 8\n" << body;
        const auto b = spmma_cli("run " + f + kCpu);
        INFO(body << "\n" << b.out);
        CHECK(b.code == 2);
        CHECK(has(b.out, f + expect));
    };
    bad("a = \"layer_io.safetensors:missing\"\n", ":4: a: ");
    bad("a = \"nowhere.safetensors:w\"\n", ":4: a: ");
    bad("a = \"layer_io.safetensors:model.layers.0.mlp.up_proj.weight\"\nm = 8\n", ":5: m: m = 8, but a's tensor");
    bad("a = \"layer_io.safetensors:model.layers.0.mlp.up_proj.weight\"\ndtype = \"s8\"\n", ":4: a: a's tensor");
    bad("a = 3\n", ":4: a: must be a string");
    bad("a = \"layer_io.safetensors:model.layers.0.mlp.up_proj.weight\"\nb = \"layer_io.safetensors:residual\"\n", ":3: n: n = 8, but b's tensor");
}

TEST_CASE("the workload spmma inspect --workload writes runs every linear layer of a checkpoint on its own weights") {
    const fs::path dir = fs::path(temp_path("inspect_dir"));
    fs::create_directories(dir);
    const std::string toml = (dir / "ct.toml").string();
    fs::remove(toml);
    const auto w = spmma_cli("inspect " + (kData / "ct_fp8").string() + " --workload " + toml + " --tokens 1,16");
    INFO(w.out);
    REQUIRE(w.code == 0);
    CHECK(has(read_file(toml), "a = '"));
    const std::string json = temp_path("inspect_run.jsonl");
    fs::remove(json);
    const auto r = spmma_cli("run " + toml + kCpu + " --json " + json);
    INFO(r.out);
    REQUIRE(r.code == 0);
    const auto recs = records(json);
    REQUIRE(recs.size() == 2 * 2);
    for (const auto& rec : recs) {
        CHECK(rec["status"] == "verified");
        CHECK(rec["operand_sources"]["a"]["format"] == "sparse-24-bitmask");
    }
    CHECK(recs[0]["operand_sources"]["a"]["tensor"] == "model.layers.0.mlp.down_proj");
    CHECK(recs[3]["operand_sources"]["a"]["tensor"] == "model.layers.1.mlp.down_proj");
}

TEST_CASE("a record's command reruns the layer on the same weights to the same result") {
    const fs::path file = kData / "layer_io.safetensors";
    const auto rec = one_record("--a " + ref(file, "model.layers.0.mlp.up_proj.weight") + " --b " + ref(file, "activations") + " --c " +
                                    ref(file, "residual") + " --beta 1 --alpha 0.5",
                                "first");
    const std::string cmd = rec["command"];
    REQUIRE(cmd.rfind("spmma gemm ", 0) == 0);
    CHECK(has(cmd, " --a " + ref(file, "model.layers.0.mlp.up_proj.weight")));
    CHECK(has(cmd, " --b " + ref(file, "activations")));
    CHECK(has(cmd, " --c " + ref(file, "residual")));
    const std::string json2 = temp_path("rerun.jsonl");
    fs::remove(json2);
    const auto r = spmma_cli(cmd.substr(6) + " --no-progress -q --json " + json2);
    INFO(cmd << "\n" << r.out);
    REQUIRE(r.code == 0);
    const auto rec2 = records(json2).at(0);
    CHECK(rec2["problem"] == rec["problem"]);
    CHECK(rec2["operand_sources"] == rec["operand_sources"]);
    CHECK(rec2["verification"]["max_abs_error"] == rec["verification"]["max_abs_error"]);
}

TEST_CASE("every plugin that can runs a checkpoint's layer verified: cpu, and emu through sm90a's packing") {
    const std::string a = ref(kData / "ct_fp8", "model.layers.0.mlp.down_proj");
    for (const std::string how : {"", " --emulate sm90a"}) {
        const std::string json = temp_path("every_plugin.jsonl");
        fs::remove(json);
        const auto r = spmma_cli("gemm --a " + a + " --n 8 --verify full --no-progress -q" + how + " --json " + json);
        INFO(how << "\n" << r.out);
        REQUIRE(r.code == 0);
        const auto recs = records(json);
        REQUIRE_FALSE(recs.empty());
        std::set<std::string> plugins;
        for (const auto& rec : recs) {
            // A plugin that cannot run here is skipped with its reason: the GPU plugins of a CUDA
            // build on a machine without a GPU, and the emulator without --emulate (it runs no family).
            if (rec["status"] == "skipped") continue;
            CHECK(rec["status"] == "verified");
            CHECK(rec["operand_sources"]["a"]["format"] == "sparse-24-bitmask");
            plugins.insert(rec["plugin"]["name"].get<std::string>());
        }
        if (how.empty()) CHECK(plugins == std::set<std::string>{"cpu"});
        else CHECK(plugins == std::set<std::string>{"emu"});
    }
}
