#include <spmma/core/speed_of_light.hpp>
#include <spmma/core/tensor_rates.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace spmma {
namespace {

using nlohmann::json;

int64_t bytes_of(DType t, int64_t count) { return static_cast<int64_t>(storage_bytes(t, count)); }

// The member `key`, or nullptr when absent or null.
const json* member(const json& o, const char* key) {
    const auto it = o.find(key);
    return it == o.end() || it->is_null() ? nullptr : &*it;
}

double number(const json& o, const char* key, const char* where) {
    const json* v = member(o, key);
    if (!v) return 0;
    if (!v->is_number()) throw std::invalid_argument(fmt::format("{}.{}: expected a number, found {}", where, key, v->dump()));
    return v->get<double>();
}

int64_t count(const json& o, const char* key, const char* where) {
    const json* v = member(o, key);
    if (!v) return 0;
    if (!v->is_number_integer() || v->get<int64_t>() < 0)
        throw std::invalid_argument(fmt::format("{}.{}: expected a non-negative integer, found {}", where, key, v->dump()));
    return v->get<int64_t>();
}

std::string text(const json& o, const char* key, const char* where) {
    const json* v = member(o, key);
    if (!v) return "";
    if (!v->is_string()) throw std::invalid_argument(fmt::format("{}.{}: expected a string, found {}", where, key, v->dump()));
    return v->get<std::string>();
}

}  // namespace

// NOTES: the memory clock the driver reports (CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) is the
// DRAM's command clock; data moves on both of its edges (the DDR factor 2), bus width / 8 bytes
// each. H100 SXM: 2 x 2619 MHz x 5120 / 8 = 3.352e12 B/s, its datasheet's 3.35 TB/s.
double DevicePeaks::dram_bytes_per_s() const {
    if (mem_clock_khz <= 0 || mem_bus_bits <= 0) return 0;
    return 2.0 * static_cast<double>(mem_clock_khz) * 1e3 * static_cast<double>(mem_bus_bits) / 8.0;
}

json DevicePeaks::to_json() const {
    return {{"sm_count", sm_count}, {"sm_clock_khz", sm_clock_khz}, {"mem_clock_khz", mem_clock_khz}, {"mem_bus_bits", mem_bus_bits}};
}

DevicePeaks DevicePeaks::from_json(const json& o) {
    if (!o.is_object()) throw std::invalid_argument(fmt::format("device.peaks: expected an object, found {}", o.type_name()));
    DevicePeaks p;
    p.sm_count = count(o, "sm_count", "device.peaks");
    p.sm_clock_khz = count(o, "sm_clock_khz", "device.peaks");
    p.mem_clock_khz = count(o, "mem_clock_khz", "device.peaks");
    p.mem_bus_bits = count(o, "mem_bus_bits", "device.peaks");
    return p;
}

MovedBytes moved_bytes(const Problem& p, bool dense) {
    MovedBytes b;
    const int group = group_size(p.pattern);
    if (dense || group <= 0) {
        b.a = bytes_of(p.a, p.m * p.k);
    } else {
        b.a = bytes_of(p.a, p.m * (p.k / 2));
        b.a_metadata = p.m * (p.k / group) / 2;  // a nibble per group
    }
    b.b = bytes_of(p.b, p.k * p.n);
    if (p.beta != 0.0) b.c = bytes_of(p.c, p.m * p.n);
    b.d = bytes_of(p.d, p.m * p.n);
    if (p.scale != DType::None && p.scale_block > 0) b.scales = (p.m + p.n) * (p.k / p.scale_block);
    if (p.row_scale.present()) b.epilogue += bytes_of(DType::F32, p.m);
    if (p.col_scale.present()) b.epilogue += bytes_of(DType::F32, p.n);
    if (p.bias.present()) b.epilogue += bytes_of(p.bias_type, p.bias_axis == BiasAxis::Row ? p.m : p.n);
    return b;
}

SpeedOfLight speed_of_light(const Problem& p, bool dense, const std::string& arch, const DevicePeaks& peaks, double median_ms) {
    SpeedOfLight s;
    s.bytes = moved_bytes(p, dense);
    s.flops = p.flops();
    const double seconds = median_ms * 1e-3;
    if (seconds > 0 && std::isfinite(seconds)) {
        s.achieved_bytes_per_s = static_cast<double>(s.bytes.total()) / seconds;
        s.achieved_flops_per_s = s.flops / seconds;
    }
    s.peak_dram_bytes_per_s = peaks.dram_bytes_per_s();
    if (const auto rate = tensor_rate(arch, p); rate && peaks.sm_count > 0 && peaks.sm_clock_khz > 0) {
        const bool sparse = !dense && group_size(p.pattern) > 0;
        s.tensor_family = rate->family;
        s.tensor_kind = rate->kind;
        s.flops_per_sm_per_clock = rate->dense_flops_per_sm_per_clock * (sparse ? 2 : 1);
        s.peak_tensor_flops_per_s = static_cast<double>(peaks.sm_count) * static_cast<double>(peaks.sm_clock_khz) * 1e3 * s.flops_per_sm_per_clock;
    }
    if (s.peak_dram_bytes_per_s > 0 && s.peak_tensor_flops_per_s > 0) {
        const double dram_s = static_cast<double>(s.bytes.total()) / s.peak_dram_bytes_per_s;
        const double tensor_s = s.flops / s.peak_tensor_flops_per_s;
        s.bound_ms = std::max(dram_s, tensor_s) * 1e3;
        s.bound_by = dram_s >= tensor_s ? "dram" : "tensor";
        if (s.achieved_flops_per_s > 0) s.fraction = s.bound_ms / median_ms;
    }
    return s;
}

json SpeedOfLight::to_json() const {
    json o = {{"bytes", bytes.total()},
              {"bytes_by_operand", {{"a", bytes.a}, {"a_metadata", bytes.a_metadata}, {"b", bytes.b}, {"c", bytes.c}, {"d", bytes.d}, {"scales", bytes.scales}, {"epilogue", bytes.epilogue}}},
              {"flops", flops},
              {"achieved_bytes_per_s", achieved_bytes_per_s},
              {"achieved_flops_per_s", achieved_flops_per_s}};
    if (peak_dram_bytes_per_s > 0) o["peak_dram_bytes_per_s"] = peak_dram_bytes_per_s;
    if (peak_tensor_flops_per_s > 0) {
        o["peak_tensor_flops_per_s"] = peak_tensor_flops_per_s;
        o["tensor_rate"] = {{"family", tensor_family}, {"kind", tensor_kind}, {"flops_per_sm_per_clock", flops_per_sm_per_clock}};
    }
    if (has_bound()) {
        o["bound_ms"] = bound_ms;
        o["bound_by"] = bound_by;
        if (fraction > 0) o["fraction"] = fraction;
    }
    return o;
}

SpeedOfLight SpeedOfLight::from_json(const json& o) {
    if (!o.is_object()) throw std::invalid_argument(fmt::format("sol: expected an object, found {}", o.type_name()));
    SpeedOfLight s;
    if (const json* by = member(o, "bytes_by_operand")) {
        if (!by->is_object()) throw std::invalid_argument("sol.bytes_by_operand: expected an object");
        const char* w = "sol.bytes_by_operand";
        s.bytes = {count(*by, "a", w), count(*by, "a_metadata", w), count(*by, "b", w), count(*by, "c", w), count(*by, "d", w), count(*by, "scales", w),
                   count(*by, "epilogue", w)};
    }
    s.flops = number(o, "flops", "sol");
    s.achieved_bytes_per_s = number(o, "achieved_bytes_per_s", "sol");
    s.achieved_flops_per_s = number(o, "achieved_flops_per_s", "sol");
    s.peak_dram_bytes_per_s = number(o, "peak_dram_bytes_per_s", "sol");
    s.peak_tensor_flops_per_s = number(o, "peak_tensor_flops_per_s", "sol");
    if (const json* r = member(o, "tensor_rate")) {
        if (!r->is_object()) throw std::invalid_argument("sol.tensor_rate: expected an object");
        s.tensor_family = text(*r, "family", "sol.tensor_rate");
        s.tensor_kind = text(*r, "kind", "sol.tensor_rate");
        s.flops_per_sm_per_clock = number(*r, "flops_per_sm_per_clock", "sol.tensor_rate");
    }
    s.bound_ms = number(o, "bound_ms", "sol");
    s.bound_by = text(o, "bound_by", "sol");
    s.fraction = number(o, "fraction", "sol");
    return s;
}

}  // namespace spmma
