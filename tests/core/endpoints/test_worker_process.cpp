// A worker process that cannot be started: the error says so, and nothing it opened stays open.
#include "open_descriptors.hpp"

#include <spmma/core/worker_process.hpp>

#include <catch2/catch.hpp>

TEST_CASE("a worker that cannot be spawned is an error naming the binary, and its socket and pipe are closed", "[worker_process]") {
    const int before = open_descriptors();
    for (int i = 0; i < 3; ++i)
        CHECK_THROWS_WITH(spmma::detail::WorkerProcess("/nonexistent/spmma", "missing"),
                          Catch::Contains("cannot start a worker (/nonexistent/spmma)"));
    CHECK(open_descriptors() == before);
}
