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

TEST_CASE("longest_first: a decode layer's weight outweighs a compute-bound problem of more FLOPs", "[run]") {
    // 28672 x 1 x 8192: 0.47 GFLOP on a 28672 x 8192 f16 weight (235 MB of 2:4 values);
    // 1024^3: 2.1 GFLOP on a few MB of operands.
    const std::vector<Job> jobs{job(1024, 1024, 1024), job(28672, 1, 8192)};
    CHECK(longest_first(jobs, {}) == std::vector<size_t>{1, 0});
}

TEST_CASE("longest_first: a job run by more plugins counts as longer, unless the run names the plugins for all", "[run]") {
    // 4096^3 f16: about 8 ms of device time a plugin against 21 ms of generation; three plugins
    // outlast the generation, one does not.
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

TEST_CASE("longest_first: a job whose operands take longer to generate than another's run goes first", "[run]") {
    // 8192 x 2048 x 28672: 13 % fewer FLOPs than 8192^3 but 294 M elements of A and B to draw
    // against 134 M: behind 8192^3 its generation would outlast 8192^3's run.
    const std::vector<Job> jobs{job(8192, 8192, 8192), job(8192, 2048, 28672)};
    CHECK(longest_first(jobs, {"a", "b", "c"}) == std::vector<size_t>{1, 0});
}
