// bench/device/gemm_launch.py, run with python3 on a cut-down Nsight Compute CSV export
// (sample/launches.csv): a vendor library's GEMM among its launches is the function launched most
// often with the most time, not the longest launch; an export without launches is an error that
// says so.
#include <catch2/catch.hpp>

#include "run_script.hpp"

#include <fstream>

namespace {

using namespace bench_test;

Run gemm_launch(const fs::path& input, const fs::path& dir) {
    return run_script("bench/device/gemm_launch.py", "< '" + input.string() + "'", dir);
}

}  // namespace

TEST_CASE("gemm_launch.py: the timed GEMM outranks a longer one-off compression and an as-frequent shorter reduction") {
    const auto dir = scratch("gemm_launch_found");
    const Run r = gemm_launch(kSource / "tests/bench/sample/launches.csv", dir);
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.out == "sm90_xmma_sparse_gemm_f16f16_f32\n");
}

TEST_CASE("gemm_launch.py: ncu's log without a table exits 1 and says no launch was found") {
    const auto dir = scratch("gemm_launch_none");
    std::ofstream(dir / "in.csv") << "==PROF== Connected to process 4242\n==ERROR== The application returned an error code (1).\n";
    const Run r = gemm_launch(dir / "in.csv", dir);
    CHECK(r.status == 1);
    CHECK(r.out.empty());
    CHECK(has_line(r.err, "gemm_launch.py: no launch with gpu__time_duration.sum in the input"));
}
