// Record lines for the tests of compare, JUnit and report: a record as Record::to_json writes it
// (every field a test does not set has a plausible value), to edit and dump.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace spmma_test {

inline nlohmann::json record_json(const std::string& status, const std::vector<double>& times, int64_t m = 64,
                                  const std::string& plugin = "cpu", const std::string& kernel = "cpu_omp_f32acc",
                                  const std::string& device = "host CPU (2 threads)") {
    nlohmann::json r = {
        {"spmma_version", "0.1.0"},
        {"timestamp", "2026-11-24T09:00:00Z"},
        {"host", "builder"},
        {"source", "command line"},
        {"command", "spmma gemm --m 64 --n 32 --k 128"},
        {"problem",
         {{"m", m}, {"n", 32}, {"k", 128}, {"a_type", "f16"}, {"b_type", "f16"}, {"acc_type", "f32"}, {"c_type", "f16"},
          {"d_type", "f16"}, {"pattern", "2:4"}, {"satfinite", false}, {"alpha", 1.0}, {"beta", 0.0}, {"dist", "uniform"},
          {"seed", 42}, {"label", std::to_string(m) + "x32x128 f16*f16+f32->f16 2:4"}}},
        {"plugin", {{"name", plugin}, {"version", "0.1.0"}, {"kind", "sparse"}}},
        {"kernel", kernel},
        {"device", {{"name", device}, {"arch", "x86_64"}, {"driver", ""}}},
        {"status", status},
    };
    if (!times.empty()) {
        r["timing"] = {{"warmup", 1}, {"iterations", times.size()}, {"times_ms", times}};
    }
    if (status == "verified" || status == "failed") {
        r["verification"] = {{"passed", status == "verified"}, {"mode", "full"}, {"checked", m * 32}, {"mismatches", 0},
                             {"first_mismatches", nlohmann::json::array()}};
    }
    if (status == "failed") {
        r["reason"] = "2 of 2048 elements outside the tolerance";
        r["verification"]["mismatches"] = 2;
        r["verification"]["first_mismatches"] = {{{"i", 1}, {"j", 2}, {"got", 1.5}, {"expected", 1.0}, {"tolerance", 0.01}},
                                                 {{"i", 3}, {"j", 4}, {"got", "nan"}, {"expected", 2.0}, {"tolerance", 0.01}}};
    }
    if (status == "error") {
        r["stage"] = "run";
        r["reason"] = "launch failed";
    }
    if (status == "skipped") r["reason"] = "no GPU";
    return r;
}

// n times around `centre` (within +-0.5 %), in a fixed scrambled order.
inline std::vector<double> tight_times(double centre, int n = 20) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i) v.push_back(centre * (1.0 + 0.01 * (((i * 7) % n) / double(n - 1) - 0.5)));
    return v;
}

}  // namespace spmma_test
