// bench/epilogue/table.py on records the test writes: the summary of how many shapes an epilogue
// keeps within 2 % of the plain GEMM's time, per plugin and epilogue, and the shapes over it.
#include <catch2/catch.hpp>

#include "run_script.hpp"

#include <fstream>
#include <string>

namespace {

using namespace bench_test;

// One verified record of m x n x k on plugin, with the serving op's epilogue or none, at us µs.
std::string record(const std::string& plugin, int m, int n, int k, bool serving_op, double us) {
    const std::string epi = serving_op ? R"(, "row_scale": "random", "col_scale": "random", "bias": "row")" : "";
    return R"({"plugin": {"name": ")" + plugin + R"("}, "status": "verified", "kernel": "k", "problem": {"m": )" +
           std::to_string(m) + R"(, "n": )" + std::to_string(n) + R"(, "k": )" + std::to_string(k) + epi +
           R"(}, "timing": {"median_ms": )" + std::to_string(us / 1e3) + "}}\n";
}

}  // namespace

TEST_CASE("epilogue/table.py: per plugin and epilogue, the shapes within 2 % of the plain GEMM and those over it with their ratio") {
    const auto dir = scratch("epilogue_table_within");
    {
        std::ofstream f(dir / "runs.jsonl");
        f << record("sm90a", 4096, 16, 4096, false, 10.0) << record("sm90a", 4096, 16, 4096, true, 10.1)  // 1.010
          << record("sm90a", 6144, 16, 4096, false, 10.0) << record("sm90a", 6144, 16, 4096, true, 10.3)  // 1.030
          << record("sm90a", 128, 16, 128, false, 5.0) << record("sm90a", 128, 16, 128, true, 5.09)       // 1.018
          << record("cpu", 64, 32, 128, false, 100.0) << record("cpu", 64, 32, 128, true, 101.0);         // 1.010
    }
    const Run r = run_script("bench/epilogue/table.py", quoted(dir), dir);
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    CHECK(has_line(r.out, "sm90a rs+cs+bias: within 2 % of the plain GEMM at 2 of 3 shapes; over: 6144x16x4096 1.030"));
    CHECK(has_line(r.out, "cpu rs+cs+bias: within 2 % of the plain GEMM at 1 of 1 shapes"));
}
