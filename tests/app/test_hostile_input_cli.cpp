// Hostile input as issue reproducers gave it: sizes whose bytes overflow or exceed the machine,
// non-finite alpha/beta and time options, flags that named nothing and exited 3, Slurm variables
// that are not numbers. Each is refused up front with exit 2, naming the flag or the variable.
#include "cli.hpp"

#include <catch2/catch.hpp>

namespace {
const std::string kCpu = " --plugin cpu --no-progress";
}

TEST_CASE("sizes whose bytes overflow int64 exit 2 naming the flag (no SIGBUS)", "[cli][input]") {
    const auto r = spmma_cli("gemm --m 64 --n 2305843009213693956 --k 8 --dtype f16" + kCpu);
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Catch::Contains("--n: 64 x 2305843009213693956 x 8 is too large"));
    const auto m = spmma_cli("gemm --m 9223372036854775807 --n 64 --k 64 --dtype f16" + kCpu);
    INFO(m.out);
    CHECK(m.code == 2);
    CHECK_THAT(m.out, Catch::Contains("--m: 9223372036854775807 x 64 x 64 is too large"));
}

TEST_CASE("a problem larger than the machine's memory exits 2 before anything is allocated", "[cli][input]") {
    const auto r = spmma_cli("gemm --m 100000000000 --n 64 --k 64" + kCpu);
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Catch::Contains("--m/--n/--k: 100000000000x64x64") && Catch::Contains("of host memory") &&
                          Catch::Contains("available (MemAvailable in /proc/meminfo)"));
}

TEST_CASE("a workload problem larger than memory names its file and line", "[cli][input]") {
    const std::string w = write_file("huge.toml", "version = 1\n[[problem]]\nm = 100000000000\nn = 64\nk = 64\n");
    const auto r = spmma_cli("run " + w + kCpu);
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Catch::Contains("huge.toml:2: 100000000000x64x64"));
}

TEST_CASE("alpha and beta must be finite: nan, inf and 1e400 exit 2 naming the flag or the key", "[cli][input]") {
    for (const std::string flag : {"--alpha nan", "--alpha inf", "--beta -inf"}) {
        const auto r = spmma_cli("gemm --m 16 --n 16 --k 16 --in-process " + flag + kCpu);
        INFO(flag << ": " << r.out);
        CHECK(r.code == 2);
        CHECK_THAT(r.out, Catch::Contains(flag.substr(0, flag.find(' ')) + ": " + flag.substr(2, 4)) && Catch::Contains("must be a finite number"));
    }
    const auto big = spmma_cli("gemm --m 16 --n 16 --k 16 --beta 1e400" + kCpu);
    INFO(big.out);
    CHECK(big.code == 2);
    CHECK_THAT(big.out, Catch::Contains("--beta"));
    const std::string w = write_file("nan.toml", "version = 1\n[[problem]]\nm = 16\nn = 16\nk = 16\nalpha = nan\n");
    const auto t = spmma_cli("run " + w + kCpu);
    INFO(t.out);
    CHECK(t.code == 2);
    CHECK_THAT(t.out, Catch::Contains("nan.toml:6: alpha: alpha must be a finite number"));
}

TEST_CASE("time options must be finite and in range: --timeout 1e10 and nan, --min-time nan exit 2", "[cli][input]") {
    for (const std::string opt : {"--timeout 1e10", "--timeout nan", "--min-time nan", "--max-noise inf", "--max-time 0"}) {
        const auto r = spmma_cli("gemm --m 16 --n 16 --k 16 " + opt + kCpu);
        INFO(opt << ": " << r.out);
        CHECK(r.code == 2);
        CHECK_THAT(r.out, Catch::Contains(opt.substr(0, opt.find(' ')) + ": must be a number"));
    }
}

TEST_CASE("compare --threshold nan and --confidence nan exit 2 naming the flag", "[cli][input]") {
    const std::string f = write_file("any.jsonl", "");
    for (const std::string opt : {"--threshold nan", "--confidence nan"}) {
        const auto r = spmma_cli("compare " + f + " " + f + " " + opt);
        INFO(opt << ": " << r.out);
        CHECK(r.code == 2);
        CHECK_THAT(r.out, Catch::Contains(opt.substr(0, opt.find(' ')) + ": must be a finite number"));
    }
}

TEST_CASE("an unknown --emulate family, --device 99 and an empty --kernel exit 2 naming the flag, not 3", "[cli][input]") {
    const auto e = spmma_cli("gemm --m 16 --n 16 --k 16 --emulate sm99 --no-progress");
    INFO(e.out);
    CHECK(e.code == 2);
    CHECK_THAT(e.out, Catch::Contains("--emulate: no GPU family 'sm99'") && Catch::Contains("sm90a"));
    const auto d = spmma_cli("gemm --m 16 --n 16 --k 16 --device 99" + kCpu);
    INFO(d.out);
    CHECK(d.code == 2);
    CHECK_THAT(d.out, Catch::Contains("--device: device 99: the plugins to run have 1 device (0 to 0)"));
    const auto k = spmma_cli("gemm --m 16 --n 16 --k 16 --kernel ''" + kCpu);
    INFO(k.out);
    CHECK(k.code == 2);
    CHECK_THAT(k.out, Catch::Contains("--kernel: an empty name or pattern matches nothing"));
}

TEST_CASE("SLURM_ARRAY_TASK_ID that is not a number exits 2 naming it instead of running every job", "[cli][input]") {
    const auto r = spmma_cli_env("SLURM_ARRAY_TASK_ID=x SLURM_ARRAY_TASK_COUNT=4", "gemm --m 16 --n 16 --k 16" + kCpu);
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Catch::Contains("SLURM_ARRAY_TASK_ID='x' is not a whole number"));
}

TEST_CASE("a negative launch count, a sample count past 2^31 and a stray comma in a type list exit 2 naming the flag", "[cli][input]") {
    for (const auto& [opt, words] : {std::pair{"--warmup -1", "--warmup: must be 0 or more"}, std::pair{"--iterations -1", "--iterations: must be 1 or more"},
                                     std::pair{"--samples 9223372036854775807", "--samples must be from 1 to 2147483647"},
                                     std::pair{"--dtype f16,", "--dtype: an empty type in 'f16,'"}}) {
        const auto r = spmma_cli(std::string("gemm --m 16 --n 16 --k 16 ") + opt + kCpu);
        INFO(opt << ": " << r.out);
        CHECK(r.code == 2);
        CHECK_THAT(r.out, Catch::Contains(words));
    }
}
