// A kernel plugin's search among its own kernels (searched_gemm.hpp), driven by fake kernels whose
// launches take a fixed time: which one it keeps and runs, what a later process takes from the
// cache file, what it does with kernels that fail, and what the record is told.
#include <spmma_baseline/searched_gemm.hpp>

#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <map>
#include <stdexcept>

using namespace spmma_baseline;
namespace fs = std::filesystem;

namespace {

// What the fake kernels of one test did, by name.
struct Log {
    std::map<std::string, int> built, uploads, timed_launches, flushed_runs, unflushed_runs;
    int alive = 0;  // kernels built and not yet destroyed
};

class FakeKernel final : public spmma_plugin::Gemm {
public:
    FakeKernel(const spmma_problem& p, std::string name, float ms, bool broken, Log& log)
        : Gemm(p), name_(std::move(name)), ms_(ms), broken_(broken), log_(log) {
        ++log_.built[name_];
        ++log_.alive;
    }
    ~FakeKernel() override { --log_.alive; }
    std::string kernel_name() const override { return name_; }
    void upload(const spmma_operands&) override {
        ++log_.uploads[name_];
        if (broken_) throw std::runtime_error("no cluster of 4 CTAs fits");
    }
    void run(int, int iterations, float* times_ms, uint32_t flags) override {
        ++((flags & SPMMA_RUN_FLUSH_L2) ? log_.flushed_runs : log_.unflushed_runs)[name_];
        log_.timed_launches[name_] += iterations;
        for (int i = 0; i < iterations; ++i) times_ms[i] = ms_;
    }
    void download(void*, size_t) override {}
    std::string describe() const override { return R"({"grids": [{"function": ")" + name_ + R"("}]})"; }

private:
    std::string name_;
    float ms_;
    bool broken_;
    Log& log_;
};

spmma_problem problem() {
    spmma_problem p{};
    p.struct_size = sizeof p;
    p.m = 6144, p.n = 128, p.k = 4096;
    p.a_type = p.b_type = SPMMA_S8;
    p.acc_type = p.c_type = p.d_type = SPMMA_S32;
    p.pattern = SPMMA_PATTERN_2_4;
    p.alpha = 1;
    return p;
}

struct Kernel {
    std::string name;
    float ms;
    bool broken = false;
};

std::vector<KernelCandidate> candidates(const std::vector<Kernel>& ks, Log& log) {
    std::vector<KernelCandidate> out;
    for (const Kernel& k : ks)
        out.push_back({k.name, [k, &log] { return std::make_unique<FakeKernel>(problem(), k.name, k.ms, k.broken, log); }});
    return out;
}

fs::path temp_file(const std::string& name) {
    const fs::path d = fs::temp_directory_path() / ("spmma-searched-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d / "sm90a-plans.json";
}

PlanKey key_of(const spmma_problem& p) { return kernel_search_key(p, "sm90a 0.1.0", {"k128x128", "k128x64", "k64x64"}, "NVIDIA H200", "sm_90"); }

const std::vector<Kernel> kThree = {{"k128x128", 0.0139f}, {"k128x64", 0.0125f}, {"k64x64", 0.0164f}};

}  // namespace

TEST_CASE("the search keeps the fastest kernel and runs it timed with the L2 flushed", "[baselines][kernel-search]") {
    Log log;
    PlanMemory memory;
    const fs::path file = temp_file("fastest");
    SearchedGemm g(problem(), candidates(kThree, log), key_of(problem()), {CacheMode::On, file}, memory);
    CHECK(g.kernel_name() == "k128x128");  // the heuristic's pick until the search has run
    g.upload(spmma_operands{});
    CHECK(g.kernel_name() == "k128x64");
    CHECK(log.alive == 1);  // every other candidate released
    for (const Kernel& k : kThree) {
        CHECK(log.uploads[k.name] == (k.name == "k128x64" ? 2 : 1));  // the pick built again alone
        CHECK(log.flushed_runs[k.name] >= 1);
        CHECK(log.unflushed_runs[k.name] == 0);
    }
    float t[4];
    g.run(1, 4, t, 0);
    CHECK(log.unflushed_runs["k128x64"] == 1);  // the record's run goes to the pick, as asked
    CHECK(t[3] == 0.0125f);
    const nlohmann::json d = nlohmann::json::parse(g.describe());
    CHECK(d["grids"][0]["function"] == "k128x64");  // the pick's own notes, kept
    CHECK(d["kernel_search"]["plan"] == "searched");
    CHECK(d["kernel_search"]["heuristic"] == "k128x128");
    CHECK(d["kernel_search"]["candidates"].size() == 3);
    CHECK(d["kernel_search"]["search"]["tried"] == 3);
    CHECK(d["kernel_search"]["cache_file"] == file.string());
    CHECK(d["prepare_ms"].get<double>() >= 0);
    fs::remove_all(file.parent_path());
}

TEST_CASE("a later process takes the pick from the cache file and builds no other kernel", "[baselines][kernel-search]") {
    const fs::path file = temp_file("cache");
    {
        Log log;
        PlanMemory memory;
        SearchedGemm g(problem(), candidates(kThree, log), key_of(problem()), {CacheMode::On, file}, memory);
        g.upload(spmma_operands{});
    }
    Log log;
    PlanMemory fresh;  // another process
    SearchedGemm g(problem(), candidates(kThree, log), key_of(problem()), {CacheMode::On, file}, fresh);
    g.upload(spmma_operands{});
    CHECK(g.kernel_name() == "k128x64");
    CHECK(log.built.size() == 1);
    CHECK(log.built["k128x64"] == 1);
    CHECK(log.flushed_runs.empty());
    CHECK(nlohmann::json::parse(g.describe())["kernel_search"]["plan"] == "cache");
    fs::remove_all(file.parent_path());
}

TEST_CASE("a kernel that fails to upload is passed over and named in the search", "[baselines][kernel-search]") {
    Log log;
    PlanMemory memory;
    const std::vector<Kernel> ks = {{"k128x128", 0.0139f}, {"k128x16c4", 0.0050f, true}, {"k64x64", 0.0164f}};
    SearchedGemm g(problem(), candidates(ks, log), key_of(problem()), {CacheMode::Off, {}}, memory);
    g.upload(spmma_operands{});
    CHECK(g.kernel_name() == "k128x128");
    const nlohmann::json s = nlohmann::json::parse(g.describe())["kernel_search"]["search"];
    CHECK(s["failed"] == 1);
    CHECK(s["failures"][0].get<std::string>().find("k128x16c4") != std::string::npos);
}

TEST_CASE("a search where every kernel fails throws and leaves no kernel to run", "[baselines][kernel-search]") {
    Log log;
    PlanMemory memory;
    const std::vector<Kernel> ks = {{"k128x128", 0.0139f, true}, {"k64x64", 0.0164f, true}};
    SearchedGemm g(problem(), candidates(ks, log), key_of(problem()), {CacheMode::Off, {}}, memory);
    CHECK_THROWS(g.upload(spmma_operands{}));
    float t[1];
    CHECK_THROWS_AS(g.run(0, 1, t, 0), std::logic_error);
}

TEST_CASE("the search key tells problems apart by shape type epilogue and the plugin's kernels", "[baselines][kernel-search]") {
    const spmma_problem p = problem();
    spmma_problem q = p;
    q.n = 64;
    spmma_problem scaled = p;
    scaled.a_type = scaled.b_type = SPMMA_E4M3;
    scaled.acc_type = SPMMA_F32;
    scaled.c_type = scaled.d_type = SPMMA_BF16;
    spmma_problem with_bias = scaled;
    with_bias.bias = SPMMA_BIAS_ROW;
    with_bias.bias_type = SPMMA_F32;
    const auto text = [](const spmma_problem& x) { return key_of(x).text(); };
    CHECK(text(p) != text(q));
    CHECK(text(scaled) != text(with_bias));
    CHECK(kernel_search_types(with_bias).find("epilogue=") != std::string::npos);
    CHECK(kernel_search_key(p, "sm90a 0.1.0", {"k128x128"}, "NVIDIA H200", "sm_90").text() != text(p));  // other kernels
    CHECK(text(p) == text(problem()));
}
