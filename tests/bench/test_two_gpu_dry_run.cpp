// bench/devices/two_gpu.sh end to end on the CPU (DRY_RUN=1): the test plugins of tests/faults
// with two devices stand in for the GPU plugins, and every step, file name and check of the
// script runs as it will on the two-GPU machine, except the plan cache (no vendor plugin here).
#include <catch2/catch.hpp>

#include "run_script.hpp"

#include <cstdlib>
#include <set>
#include <string>

namespace {

using namespace bench_test;

struct ScriptRun {
    int status = -1;
    std::string console, summary, listing;
    std::set<std::string> out_files;
};

ScriptRun dry_run(const fs::path& dir) {
    const auto out = dir / "out", work = dir / "work";
    const std::string cmd = "cd '" + kSource.string() + "' && DRY_RUN=1 BUILD='" + std::string(SPMMA_BINARY_DIR) + "' OUT='" + out.string() +
                            "' WORK='" + work.string() + "' bash bench/devices/two_gpu.sh > '" + (dir / "console").string() + "' 2>&1";
    const int raw = std::system(cmd.c_str());
    ScriptRun r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.console = slurp(dir / "console");
    r.summary = slurp(out / "summary.txt");
    for (const auto& e : fs::directory_iterator(out)) r.out_files.insert(e.path().filename().string());
    std::system(("tar -tzf '" + (out / "records.tgz").string() + "' > '" + (dir / "listing").string() + "'").c_str());
    r.listing = slurp(dir / "listing");
    return r;
}

}  // namespace

TEST_CASE("two_gpu.sh's dry run on the CPU: every step runs, every check passes, OUT holds summary, report and one archive") {
    const ScriptRun r = dry_run(scratch("two_gpu_dry_run"));
    INFO(r.console);
    CHECK(r.status == 0);
    CHECK(r.out_files == std::set<std::string>{"records.tgz", "report.html", "summary.txt"});
    CHECK(r.summary.find(", 0 failed") != std::string::npos);
    // The fault on device 1: the run said so with exit 1, and the other plugin verified beside it.
    CHECK_THAT(r.summary, Catch::Contains("\nfault   exit 1 (1 expected), wall ") && Catch::Contains(" s, 12 records\n"));
    CHECK_THAT(r.summary, Catch::Contains("\n  fault_good_two_devices: 6/6 verified (device 0 / 1: "));
    CHECK(r.summary.find("report  exit 0: the page names device 0, fault-0; device 1, fault-1") != std::string::npos);
    for (const char* f : {"./runs.tsv", "./fill.jsonl", "./d0-1.jsonl", "./all-2.jsonl", "./fault.jsonl", "./devices.txt", "./slurm/merged.jsonl",
                          "./slurm/shard-1.jsonl", "./steps.log"}) {
        INFO(f);
        CHECK(has_line(r.listing, f));
    }
}
