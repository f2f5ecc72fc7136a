// How the host's OpenMP threads are shared among the runners of --devices.
#include <catch2/catch.hpp>

#include <spmma/core/runner.hpp>

using spmma::host_threads_per_device;

TEST_CASE("host_threads_per_device: each of several devices' runners gets an equal share of the host's threads, at least one",
          "[run]") {
    CHECK(host_threads_per_device(2, 32, nullptr) == 16);
    CHECK(host_threads_per_device(3, 32, nullptr) == 10);
    CHECK(host_threads_per_device(8, 4, nullptr) == 1);
}

TEST_CASE("host_threads_per_device: one device, or OMP_NUM_THREADS set by the user, leaves OpenMP's own setting", "[run]") {
    CHECK(host_threads_per_device(1, 32, nullptr) == 0);
    CHECK(host_threads_per_device(2, 32, "4") == 0);
    CHECK(host_threads_per_device(2, 32, "") == 16);  // set but empty: as if unset
}
