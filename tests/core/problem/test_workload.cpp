#include <spmma/core/workload.hpp>

#include <catch2/catch.hpp>

using namespace spmma;

namespace {

// The error a workload text raises (file "w.toml").
WorkloadError error_of(const std::string& text) {
    try {
        parse_workload(text, "w.toml");
    } catch (const WorkloadError& e) {
        return e;
    }
    FAIL("no error for:\n" << text);
    return WorkloadError("", 0, "", "");
}

const char* kHead = "version = 1\n";

}  // namespace

TEST_CASE("a problem table becomes one job with defaults applied", "[workload]") {
    const auto jobs = parse_workload(std::string(kHead) +
                                         "[defaults]\niterations = 7\nverify = \"full\"\n"
                                         "[[problem]]\nm = 100\nn = 30\nk = 64\ndtype = \"bf16\"\nbeta = 0.5\n",
                                     "w.toml");
    REQUIRE(jobs.size() == 1);
    const Job& j = jobs[0];
    CHECK(j.problem.m == 100);
    CHECK(j.problem.n == 30);
    CHECK(j.problem.k == 64);
    CHECK(j.problem.a == DType::BF16);
    CHECK(j.problem.d == DType::BF16);
    CHECK(j.problem.acc == DType::F32);
    CHECK(j.problem.beta == 0.5);
    CHECK(j.iterations == 7);
    CHECK(j.verify == reference::VerifyMode::Full);
    CHECK(j.source == "w.toml:5");
}

TEST_CASE("a sweep is the cartesian product of its lists and ranges", "[workload]") {
    const auto jobs = parse_workload(std::string(kHead) +
                                         "[[sweep]]\nm = \"64:256:64\"\nn = [8, 16]\nk = \"64:256:*2\"\n"
                                         "dtype = [\"f16\", \"s8\"]\nplugins = [\"cpu\"]\n",
                                     "w.toml");
    CHECK(jobs.size() == 4 * 2 * 3 * 2);
    CHECK(jobs.front().problem.m == 64);
    CHECK(jobs.back().problem.m == 256);
    CHECK(jobs.back().problem.k == 256);
    CHECK(jobs.back().problem.a == DType::S8);
    CHECK(jobs.back().problem.acc == DType::S32);
    CHECK(jobs.front().plugins == std::vector<std::string>{"cpu"});
}

TEST_CASE("an unknown key names file, line and key", "[workload][errors]") {
    const auto e = error_of(std::string(kHead) + "[[problem]]\nm = 1\nn = 1\nk = 4\nitertions = 3\n");
    CHECK(e.file == "w.toml");
    CHECK(e.line == 6);
    CHECK(e.key == "itertions");
    CHECK_THAT(e.what(), Catch::StartsWith("w.toml:6: itertions: unknown key"));
}

TEST_CASE("a wrong type names file, line and key", "[workload][errors]") {
    const auto e = error_of(std::string(kHead) + "[[problem]]\nm = \"big\"\nn = 1\nk = 4\n");
    CHECK(e.line == 3);
    CHECK(e.key == "m");
    CHECK_THAT(e.what(), Catch::Contains("must be an integer"));
}

TEST_CASE("an impossible value names file, line and key", "[workload][errors]") {
    SECTION("k not a multiple of the group") {
        const auto e = error_of(std::string(kHead) + "[[problem]]\nm = 8\nn = 8\nk = 30\ndtype = \"f16\"\n");
        CHECK(e.line == 5);
        CHECK(e.key == "k");
        CHECK_THAT(e.what(), Catch::Contains("multiple of 4"));
    }
    SECTION("a negative size") {
        const auto e = error_of(std::string(kHead) + "[[problem]]\nm = -8\nn = 8\nk = 32\n");
        CHECK(e.key == "m");
        CHECK(e.line == 3);
    }
    SECTION("an unknown type") {
        const auto e = error_of(std::string(kHead) + "[[problem]]\nm = 8\nn = 8\nk = 32\ndtype = \"f17\"\n");
        CHECK(e.key == "dtype");
        CHECK(e.line == 6);
    }
    SECTION("types that cannot multiply, blamed on the key that was written") {
        const auto e = error_of(std::string(kHead) + "[[problem]]\nm = 8\nn = 8\nk = 32\na_type = \"s8\"\nb_type = \"e4m3\"\n");
        CHECK(e.key == "b_type");
        CHECK(e.line == 7);
    }
    SECTION("a bad range in a sweep") {
        const auto e = error_of(std::string(kHead) + "[[sweep]]\nm = \"64:32:8\"\nn = 8\nk = 32\n");
        CHECK(e.key == "m");
        CHECK_THAT(e.what(), Catch::Contains("ends before it starts"));
    }
    SECTION("a list in a problem") {
        const auto e = error_of(std::string(kHead) + "[[problem]]\nm = [8, 16]\nn = 8\nk = 32\n");
        CHECK(e.key == "m");
        CHECK_THAT(e.what(), Catch::Contains("use [[sweep]]"));
    }
    SECTION("zero iterations in the defaults") {
        const auto e = error_of(std::string(kHead) + "[defaults]\niterations = 0\n[[problem]]\nm = 8\nn = 8\nk = 32\n");
        CHECK(e.key == "iterations");
        CHECK(e.line == 3);
    }
}

TEST_CASE("a missing size, version or body is an error", "[workload][errors]") {
    CHECK(error_of(std::string(kHead) + "[[problem]]\nm = 8\nn = 8\n").key == "k");
    CHECK(error_of("[[problem]]\nm = 8\nn = 8\nk = 32\n").key == "version");
    CHECK(error_of("version = 2\n[[problem]]\nm = 8\nn = 8\nk = 32\n").key == "version");
    CHECK_THAT(error_of(kHead).what(), Catch::Contains("no [[problem]] or [[sweep]]"));
}

TEST_CASE("a TOML syntax error names file and line", "[workload][errors]") {
    const auto e = error_of(std::string(kHead) + "[[problem]]\nm = 8\nn = = 8\n");
    CHECK(e.file == "w.toml");
    CHECK(e.line == 4);
}

TEST_CASE("problems and sweeps run in the order the file gives them", "[workload]") {
    const auto jobs = parse_workload(std::string(kHead) + "[[sweep]]\nm = [1, 2]\nn = 8\nk = 32\n[[problem]]\nm = 3\nn = 8\nk = 32\n"
                                                           "[[sweep]]\nm = 4\nn = 8\nk = 32\n",
                                     "w.toml");
    REQUIRE(jobs.size() == 4);
    for (int i = 0; i < 4; ++i) CHECK(jobs[i].problem.m == i + 1);
}

TEST_CASE("block-scale generation keys parse and are checked", "[workload]") {
    const auto jobs = parse_workload(std::string(kHead) + "[[problem]]\nm = 8\nn = 8\nk = 64\ndtype = \"e4m3\"\nscale_type = \"ue8m0\"\n"
                                                           "scale_block = 32\nscale_gen = \"random\"\nscale_min = 0.5\nscale_max = 4\n",
                                     "w.toml");
    REQUIRE(jobs.size() == 1);
    CHECK(jobs[0].problem.scale_gen == ScaleGen::Random);
    CHECK(jobs[0].problem.scale_max == 4);
    const auto e = error_of(std::string(kHead) + "[[problem]]\nm = 8\nn = 8\nk = 64\ndtype = \"e4m3\"\nscale_type = \"ue8m0\"\n"
                                                 "scale_block = 32\nscale_min = 4\nscale_max = 0.5\n");
    CHECK(e.key == "scale_max");
    CHECK(e.line == 10);
    CHECK(error_of(std::string(kHead) + "[[problem]]\nm = 8\nn = 8\nk = 64\ndtype = \"e4m3\"\nscale_type = \"ue8m0\"\n"
                                        "scale_block = 32\nscale_gen = \"max\"\n").key == "scale_gen");
}

TEST_CASE("the shipped workloads parse", "[workload]") {
    const auto quick = load_workload(SPMMA_SOURCE_DIR "/configs/quick.toml");
    CHECK(quick.size() >= 10);
    CHECK(quick.front().problem.m == 96);
    CHECK(load_workload(SPMMA_SOURCE_DIR "/configs/llm-shapes.toml").size() == 6 * 4);
}
