// bench/devices/two_gpu_summary.py on a work folder made here as bench/devices/two_gpu.sh leaves
// it (manifest, device listing, record files, plan cache, report page), cut to the fields the
// script reads: a clean two-GPU run passes every check, and each thing that can go wrong on the
// GPU machine (a second plan search, a device that took no cached plan, a fault run that hides
// its failure or shows no restart, a record not verified or not naming its device, a page or a
// listing without one GPU) fails its check by name. Made-up figures, not measurements.
#include <catch2/catch.hpp>

#include "run_script.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace {

using namespace bench_test;
using nlohmann::json;

// One record of job `job` (of four) on `device`; `plan` is a vendor plugin's plan note.
json rec(const std::string& plugin, int job, int device, const std::string& plan = "") {
    json j = {{"problem", {{"m", 64 + job}, {"n", 64}, {"k", 128}, {"label", std::to_string(64 + job) + "x64x128 f16"}}},
              {"plugin", {{"name", plugin}}},
              {"device", {{"index", device}, {"name", "NVIDIA H100 80GB HBM3"}, {"uuid", device ? "GPU-bbbb" : "GPU-aaaa"}}},
              {"status", "verified"},
              {"sweep", {{"job", job}, {"jobs", 4}}}};
    if (!plan.empty()) j["plugin_notes"] = {{"plan", plan}};
    return j;
}

using Records = std::vector<json>;

// The four jobs on sm90a and cublas; `device(job)` places each job.
Records standard(const std::function<int(int)>& device, const std::string& plan) {
    Records out;
    for (int job = 0; job < 4; ++job) {
        out.push_back(rec("sm90a", job, device(job)));
        out.push_back(rec("cublas", job, device(job), plan));
    }
    return out;
}

int spread(int job) { return job % 2; }
int zero(int) { return 0; }

Records fault_run() {
    Records out;
    for (int job = 0; job < 4; ++job) {
        out.push_back(rec("sm90a", job, spread(job)));
        json f = rec("fault_segv_run_device1", job, spread(job));
        if (spread(job) == 1) {
            f["status"] = "error";
            f["stage"] = "run";
            f["reason"] = "crashed: SIGSEGV in run (fault plugin: writing through a null pointer in run on device 1)";
        }
        out.push_back(f);
    }
    return out;
}

struct WorkFolder {
    std::string devices = "device 0: NVIDIA H100 80GB HBM3 (sm_90, driver 13.0, GPU-aaaa)\n  plugins: sm90a, cublas\n"
                          "device 1: NVIDIA H100 80GB HBM3 (sm_90, driver 13.0, GPU-bbbb)\n  plugins: sm90a, cublas\n";
    Records fill = standard(spread, "searched");
    Records d0 = standard(zero, "cache");
    Records all = standard(spread, "cache");
    Records fault = fault_run();
    Records merged = {rec("sm90a", 0, 0), rec("sm90a", 1, 1), rec("sm90a", 2, 0), rec("sm90a", 3, 1)};
    std::string report = "<dd>NVIDIA H100 80GB HBM3 (sm_90), device 0, GPU-aaaa (4); NVIDIA H100 80GB HBM3 (sm_90), device 1, GPU-bbbb (4)</dd>";
    std::string fault_exit = "1", d0_wall = "10.00", all_wall = "5.00";
    int cached_plans = 4;
};

void write(const fs::path& f, const std::string& text) {
    fs::create_directories(f.parent_path());
    std::ofstream(f) << text;
}

void write(const fs::path& f, const Records& rs) {
    std::string text;
    for (const auto& r : rs) text += r.dump() + "\n";
    write(f, text);
}

Run summary(const std::string& name, const WorkFolder& w) {
    const auto dir = scratch("two_gpu_summary_" + name);
    const auto work = dir / "work";
    write(work / "devices.txt", w.devices);
    write(work / "fill.jsonl", w.fill);
    write(work / "d0-1.jsonl", w.d0);
    write(work / "all-1.jsonl", w.all);
    write(work / "fault.jsonl", w.fault);
    write(work / "report.html", w.report);
    write(work / "slurm" / "merged.jsonl", w.merged);
    json plans = {{"version", 1}, {"plans", json::object()}};
    for (int i = 0; i < w.cached_plans; ++i) plans["plans"]["key " + std::to_string(i)] = {{"plan", json::object()}};
    write(work / "plan-cache" / "cublas-plans.json", plans.dump());
    write(work / "runs.tsv", "devices\tdevices\t-\t0\t0.50\tdevices.txt\t\n"
                             "fill\tfill\tall\t0\t30.00\tfill.jsonl\t\n"
                             "standard\td0-1\t0\t0\t" + w.d0_wall + "\td0-1.jsonl\t\n"
                             "standard\tall-1\tall\t0\t" + w.all_wall + "\tall-1.jsonl\t\n"
                             "fault\tfault\tall\t" + w.fault_exit + "\t3.00\tfault.jsonl\tfault_segv_run_device1\n"
                             "report\treport\tall\t0\t0.40\treport.html\t\n"
                             "slurm-task\tslurm-task-0\tall\t0\t2.00\tslurm/shard-0.jsonl\t\n"
                             "slurm-task\tslurm-task-1\tall\t0\t2.10\tslurm/shard-1.jsonl\t\n"
                             "slurm-merge\tslurm-merge\tall\t0\t0.10\tslurm/merged.jsonl\t\n");
    return run_script("bench/devices/two_gpu_summary.py", "'" + work.string() + "' --vendor cublas", dir);
}

}  // namespace

TEST_CASE("two_gpu_summary.py: a clean two-GPU run passes every check: walls and their ratio, records per device, plans, fault, report, Slurm") {
    const Run r = summary("clean", WorkFolder{});
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(has_line(r.out, "  device 1: NVIDIA H100 80GB HBM3 (sm_90, driver 13.0, GPU-bbbb)"));
    CHECK(has_line(r.out, "fill         all     0    30.00        8          4 / 4      0      8  searched 4 (2 / 2)"));
    CHECK(has_line(r.out, "d0-1           0     0    10.00        8          8 / 0      0      8  cache 4 (4 / 0)"));
    CHECK(has_line(r.out, "all-1        all     0     5.00        8          4 / 4      0      8  cache 4 (2 / 2)"));
    CHECK(has_line(r.out, "wall all / 0: mean 5.00 s / 10.00 s = 0.50 (pairs in order: 0.50); the bar is <= 0.6: met"));
    CHECK(has_line(r.out, "plan cache cublas-plans.json: 4 plans, 4 searches in the cache-filling run"));
    CHECK(has_line(r.out, "  fault_segv_run_device1: device 0 2/2 verified; device 1 2/2 'crashed: SIGSEGV in run', "
                          "the worker started again for each after the first"));
    CHECK(has_line(r.out, "  sm90a: 4/4 verified (device 0 / 1: 2 / 2)"));
    CHECK(has_line(r.out, "report  exit 0: the page names device 0, GPU-aaaa; device 1, GPU-bbbb"));
    CHECK(has_line(r.out, "  merge exit 0: 4 records, 4 verified (device 0 / 1: 2 / 2)"));
    CHECK(r.out.find("FAIL") == std::string::npos);
    CHECK(r.out.find(", 0 failed") != std::string::npos);
}

TEST_CASE("two_gpu_summary.py: a ratio above the bar is said, and is a measurement, not a failed check") {
    WorkFolder w;
    w.all_wall = "7.00";
    const Run r = summary("slow", w);
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(has_line(r.out, "wall all / 0: mean 7.00 s / 10.00 s = 0.70 (pairs in order: 0.70); the bar is <= 0.6: missed"));
}

TEST_CASE("two_gpu_summary.py: a search after the cache-filling run, or a device whose workers took no plan from the cache, fails") {
    WorkFolder w;
    for (auto& r : w.all)
        if (r["plugin"]["name"] == "cublas" && r["device"]["index"] == 1) r["plugin_notes"]["plan"] = "searched";
    w.cached_plans = 3;
    const Run r = summary("plans", w);
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK(has_line(r.out, "FAIL all-1: no search after the cache-filling run (every plan from the cache)"));
    CHECK(has_line(r.out, "FAIL all-1: device 1's workers took plans from the cache"));
    CHECK(has_line(r.out, "FAIL plan cache cublas: 3 plans stored, 4 searched in the cache-filling run"));
    CHECK(has_line(r.out, "checks: 39 passed, 3 failed"));
}

TEST_CASE("two_gpu_summary.py: a fault run that exits 0, or shows one crash on device 1 (no restart), fails") {
    WorkFolder w;
    w.fault_exit = "0";
    w.fault[7]["device"]["index"] = 0;  // the fault plugin's job 3, on device 0 and verified
    w.fault[7]["status"] = "verified";
    w.fault[6]["device"]["index"] = 0;
    const Run r = summary("fault", w);
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK(has_line(r.out, "FAIL fault: exit 0, expected 1 (a failure is never hidden)"));
    CHECK(has_line(r.out, "FAIL fault: fault_segv_run_device1 on device 1: 1 of 1 records 'crashed: SIGSEGV in run' "
                          "(two or more: its worker started again)"));
}

TEST_CASE("two_gpu_summary.py: a record not verified, one without its UUID, and a doubled one fail by name") {
    WorkFolder w;
    w.d0[0]["status"] = "failed";
    w.d0[0]["reason"] = "3 mismatches";
    w.d0[1]["device"].erase("uuid");
    w.d0.push_back(w.d0[2]);
    const Run r = summary("records", w);
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK(has_line(r.out, "FAIL d0-1: every record verified (1 not: sm90a 64x64x128 f16: failed 3 mismatches)"));
    CHECK(has_line(r.out, "FAIL d0-1: every record names its device (index, name, UUID)"));
    CHECK(has_line(r.out, "FAIL d0-1: every job one record per plugin (sm90a job 1: 2 records)"));
}

TEST_CASE("two_gpu_summary.py: a report page or a device listing without the second GPU fails") {
    WorkFolder w;
    w.report = "<dd>NVIDIA H100 80GB HBM3 (sm_90), device 0, GPU-aaaa (8)</dd>";
    w.devices = "device 0: NVIDIA H100 80GB HBM3 (sm_90, driver 13.0, GPU-aaaa)\n  plugins: sm90a, cublas\n";
    const Run r = summary("one_gpu", w);
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK(has_line(r.out, "FAIL report: the page names both GPUs (missing: device 1, GPU-bbbb; 2 seen in the records)"));
    CHECK(has_line(r.out, "FAIL spmma devices: exit 0, lists devices 0 and 1"));
    CHECK(has_line(r.out, "FAIL spmma devices lists device 1 (GPU-bbbb), as the records name it"));
}

TEST_CASE("two_gpu_summary.py: a folder without a manifest exits 2 naming it") {
    const auto dir = scratch("two_gpu_summary_none");
    const Run r = run_script("bench/devices/two_gpu_summary.py", "'" + dir.string() + "'", dir);
    CHECK(r.status == 2);
    CHECK(r.err.find("runs.tsv") != std::string::npos);
    CHECK(r.out.empty());
}
