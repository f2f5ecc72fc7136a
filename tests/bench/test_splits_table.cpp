// bench/decode/splits_table.py, run with python3 on records the test writes: each sm90a kernel's
// median per SPMMA_SM90A_SK_SPLITS value (the heuristic's kernel marked "pick"), the best of them
// against the best peer, records that did not verify left out.
#include <catch2/catch.hpp>

#include "run_script.hpp"

#include <fstream>
#include <string>

namespace {

using namespace bench_test;

// One record as spmma writes it, cut to what the table reads.
std::string record(const std::string& plugin, const std::string& kernel, bool named, int splits, double us,
                   const std::string& status = "verified") {
    const std::string knob = splits > 0 ? "SPMMA_SM90A_SK_SPLITS=" + std::to_string(splits) + " SPMMA_SM90A_STREAMK=on " : "";
    return R"({"plugin":{"name":")" + plugin + R"("},"kernel":")" + kernel + R"(","kernel_request":")" +
           (named ? kernel : "") + R"(","command":")" + knob + R"(spmma gemm --m 4096 --n 16 --k 4096","status":")" +
           status + R"(","problem":{"a_type":"e4m3","m":4096,"n":16,"k":4096},"timing":{"median_ms":)" +
           std::to_string(us / 1000.0) + "}}\n";
}

}  // namespace

TEST_CASE("splits_table.py: each kernel's time per split count, the best against the best peer, failures left out") {
    const auto dir = scratch("splits_table");
    {
        std::ofstream f(dir / "records.jsonl");
        const std::string k16 = "sm90a_e4m3e4m3_f32_128x16x128_c1x1_s12", k64 = "sm90a_e4m3e4m3_f32_128x64x128_c1x1_s10";
        f << record("sm90a", k16, false, 1, 11.5) << record("sm90a", k16, false, 4, 12.5)
          << record("sm90a", k16, true, 1, 11.0) << record("sm90a", k16, true, 4, 13.0)
          << record("sm90a", k64, true, 1, 14.0) << record("sm90a", k64, true, 4, 9.0, "failed")
          << record("cusparselt", "cusparselt_f8f8_f32acc_alg1", false, 0, 12.1)
          << record("cublas", "cublaslt_f8f8_f32acc", false, 0, 13.0);
    }
    const Run r = run_script("bench/decode/splits_table.py", quoted(dir), dir);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(has_line(r.out, "us per SPMMA_SM90A_SK_SPLITS value (1 / 4); best sm90a against the best peer"));
    CHECK(has_line(r.out, " e4m3 4096x16x4096: best 128x16x128_c1x1_s12 s=1 11.0 us, cusparselt 12.1 us, ratio 1.10"));
    CHECK(has_line(r.out, "             128x16x128_c1x1_s12 |   11.0   13.0"));
    CHECK(has_line(r.out, "             128x64x128_c1x1_s10 |   14.0      -"));
    CHECK(has_line(r.out, "        pick 128x16x128_c1x1_s12 |   11.5   12.5"));
}
