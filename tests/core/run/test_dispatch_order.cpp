// The order --devices hands jobs out in: the longest first, ties in workload order.
#include <catch2/catch.hpp>

#include <spmma/core/runner.hpp>

#include <vector>

using namespace spmma;

namespace {

Job job(int64_t m, int64_t n, int64_t k, DType t = DType::F16, std::vector<std::string> plugins = {}) {
    Job j;
    j.problem.m = m;
    j.problem.n = n;
    j.problem.k = k;
    j.problem.a = j.problem.b = t;
    j.problem.acc = DType::F32;
    j.problem.c = j.problem.d = DType::F16;
    j.plugins = std::move(plugins);
    return j;
}

}  // namespace

TEST_CASE("longest_first: the largest problems go out first, equal ones in workload order", "[run]") {
    const std::vector<Job> jobs{job(4096, 4096, 4096), job(16384, 16384, 16384), job(4096, 4096, 4096), job(8192, 8192, 8192)};
    CHECK(longest_first(jobs, {}) == std::vector<size_t>{1, 3, 0, 2});
}

TEST_CASE("longest_first: a decode layer's weight bytes outweigh a compute-bound problem of more FLOPs", "[run]") {
    // 28672 x 1 x 8192: 0.47 GFLOP on a 28672 x 8192 f16 weight (235 MB of 2:4 values);
    // 1024^3: 2.1 GFLOP on a few MB of operands.
    const std::vector<Job> jobs{job(1024, 1024, 1024), job(28672, 1, 8192)};
    CHECK(longest_first(jobs, {}) == std::vector<size_t>{1, 0});
}

TEST_CASE("longest_first: a job run by more plugins counts as longer, unless the run names the plugins for all", "[run]") {
    const std::vector<Job> jobs{job(4096, 4096, 4096, DType::F16, {"a"}), job(4096, 4096, 4096, DType::F16, {"a", "b", "c"})};
    CHECK(longest_first(jobs, {}) == std::vector<size_t>{1, 0});
    CHECK(longest_first(jobs, {"a", "b"}) == std::vector<size_t>{0, 1});
}

TEST_CASE("JobFeed hands out each job once in the order it was given, then nothing", "[run]") {
    JobFeed feed(std::vector<size_t>{2, 0, 1});
    CHECK(feed.next() == std::optional<size_t>(2));
    CHECK(feed.next() == std::optional<size_t>(0));
    CHECK(feed.next() == std::optional<size_t>(1));
    CHECK_FALSE(feed.next().has_value());
}
