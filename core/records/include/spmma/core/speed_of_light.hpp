// A record's speed of light, from the problem declaration, the plugin's kind and the device's
// peaks: the least a run must move (bytes) and compute (FLOPs), the rates it reached at its
// median time, and where the device states its peaks, the roofline bound as a time and the
// fraction of it reached. The one place these are computed; records carry the result
// (Record::sol, written as the record's "sol" object) and read it back as written.
#pragma once

#include <spmma/core/problem.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace spmma {

// The device's peaks as its plugin reports them (ABI 1.2 spmma_device_info); 0 where unknown
// (a CPU, an older plugin).
struct DevicePeaks {
    int64_t sm_count = 0, sm_clock_khz = 0, mem_clock_khz = 0, mem_bus_bits = 0;
    bool any() const { return sm_count > 0 || sm_clock_khz > 0 || mem_clock_khz > 0 || mem_bus_bits > 0; }
    // Peak DRAM bytes per second: 2 x memory clock x bus width / 8, 0 when either is unknown.
    double dram_bytes_per_s() const;
    nlohmann::json to_json() const;
    // Throws std::invalid_argument naming the key of a value that is not a non-negative integer.
    static DevicePeaks from_json(const nlohmann::json& o);
};

// The least bytes a run moves between DRAM and the SMs: each operand read once, D written once,
// in the layout the plugin reads. A sparse plugin reads A compressed: the kept values (k / 2
// elements a row) and the hardware's metadata, a nibble per group of the pattern (2:4: k / 8
// bytes a row; tf32 1:2: k / 4; 4:8 pairwise: k / 16); a dense plugin reads A expanded (k
// elements a row). B always; C only when beta != 0; block scales when scaled (a byte per block of A
// and of B); the epilogue's vectors when present (f32 row and column scales, the bias in its
// type). Elements in their canonical storage (spmma/plugin.h).
struct MovedBytes {
    int64_t a = 0, a_metadata = 0, b = 0, c = 0, d = 0, scales = 0, epilogue = 0;
    int64_t total() const { return a + a_metadata + b + c + d + scales + epilogue; }
};
MovedBytes moved_bytes(const Problem& p, bool dense);

struct SpeedOfLight {
    MovedBytes bytes;
    double flops = 0;                 // 2 m n k
    double achieved_bytes_per_s = 0;  // bytes / median
    double achieved_flops_per_s = 0;  // flops / median
    // Where the device states its peaks (0 otherwise):
    double peak_dram_bytes_per_s = 0;
    double peak_tensor_flops_per_s = 0;  // SMs x SM clock x the table's rate (x 2 for a sparse A)
    std::string tensor_family, tensor_kind;  // the table's row (tensor_rates.hpp)
    double flops_per_sm_per_clock = 0;       // dense-equivalent, the sparse doubling included
    // The roofline bound: max(flops / peak tensor, bytes / peak DRAM), the least time the run
    // could take; what limits it ("dram" or "tensor"); bound / median. 0 and "" where unknown.
    double bound_ms = 0;
    std::string bound_by;
    double fraction = 0;

    bool has_bound() const { return bound_ms > 0; }
    nlohmann::json to_json() const;
    // Throws std::invalid_argument naming the key of a field of the wrong type.
    static SpeedOfLight from_json(const nlohmann::json& o);
};

// `dense`: the plugin computes with A expanded (SPMMA_PLUGIN_DENSE); `arch` the device's ("sm_90").
SpeedOfLight speed_of_light(const Problem& p, bool dense, const std::string& arch, const DevicePeaks& peaks, double median_ms);

}  // namespace spmma
