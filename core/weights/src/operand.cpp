#include <spmma/weights/operand.hpp>

#include <spmma/core/sha256.hpp>
#include <spmma/weights/bitmask24.hpp>
#include <spmma/weights/weights_error.hpp>

#include <fmt/format.h>

#include <cmath>
#include <cstring>

namespace spmma::weights {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const TensorView& t, const std::string& why) { throw WeightsError(t.file, "tensor " + quote_name(t.name) + ": " + why); }

std::string_view as_chars(std::span<const std::byte> b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

const char* reading_name(Reading r) { return r == Reading::Bits ? "bits" : r == Reading::View ? "view" : "converted"; }

// `count` stored elements as codes of operand type `type`: copied (bits, view) or each value
// decoded and encoded (convert). Returns the values the conversion changed.
int64_t to_operand(const TensorView& t, std::span<const std::byte> stored, int64_t count, DType type, const ReadPlan& plan,
                   std::vector<uint8_t>& out) {
    out.assign(storage_bytes(type, count), 0);
    if (plan.how != Reading::Convert) {
        if (out.size() != stored.size())
            fail(t, fmt::format("{} bytes of {} do not hold {} {} values", stored.size(), name(t.type), count, spmma::name(type)));
        std::memcpy(out.data(), stored.data(), out.size());
        return 0;
    }
    int64_t rounded = 0;
    // Packed 4-bit types share a byte between two elements: those are converted by one thread.
    const bool whole_bytes = info(type).storage_bits >= 8;
#pragma omp parallel for schedule(static) reduction(+ : rounded) if (whole_bytes)
    for (int64_t i = 0; i < count; ++i) {
        const double v = decode(plan.source, load_code(plan.source, stored.data(), i));
        const uint32_t code = encode(type, v);
        store_code(type, out.data(), i, code);
        const double back = decode(type, code);
        const bool same = (std::isnan(back) && std::isnan(v)) || (back == v && std::signbit(back) == std::signbit(v));
        rounded += !same;
    }
    return rounded;
}

ReadPlan plan_or_fail(const TensorView& t, DType type) {
    std::string why;
    const auto plan = plan_read(t.type, type, &why);
    if (!plan) fail(t, why);
    return *plan;
}

double sum_of_squares(DType t, const std::vector<uint8_t>& buf, int64_t count) {
    double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
    for (int64_t i = 0; i < count; ++i) {
        const double v = decode(t, load_code(t, buf.data(), i));
        s += v * v;
    }
    return s;
}

// The description every source starts from; the caller adds how it was read and the hash.
WeightSource describe(const Checkpoint& c, std::string_view tensor, const TensorView& t, std::string format) {
    WeightSource s;
    s.ref = TensorRef{c.path(), std::string(tensor)};
    s.file = t.file;
    s.format = std::move(format);
    s.stored_dtype = c.stored_dtype(t);
    s.shape = t.shape;
    return s;
}

std::string prefix_of(std::string_view tensor) {
    constexpr std::string_view kWeight = ".weight";
    if (tensor.size() > kWeight.size() && tensor.substr(tensor.size() - kWeight.size()) == kWeight)
        return std::string(tensor.substr(0, tensor.size() - kWeight.size()));
    return std::string(tensor);
}

SparseWeight from_bitmask24(const Checkpoint& c, std::string_view tensor, const Bitmask24Layer& l, DType type, Pattern pattern) {
    if (pattern != Pattern::P2_4)
        fail(l.compressed, fmt::format("a sparse-24-bitmask layer is 2:4; the problem's pattern is {}", name(pattern)));
    const ReadPlan plan = plan_or_fail(l.compressed, type);
    SparseWeight w{l.m, l.k, type, pattern, decode_bitmask24(l), describe(c, tensor, l.compressed, "sparse-24-bitmask")};
    std::vector<uint8_t> values;
    w.source.values_rounded = to_operand(l.compressed, l.compressed.bytes, l.m * l.k / 2, type, plan, values);
    w.a.values = std::move(values);
    w.source.reading = reading_name(plan.how);
    w.source.shape = {l.m, l.k};
    std::string both(as_chars(l.compressed.bytes));
    both += as_chars(l.bitmask.bytes);
    w.source.sha256 = sha256_hex(both);
    w.source.row_scale = find_row_scale(c, l.prefix, l.m);
    return w;
}

SparseWeight from_dense(const Checkpoint& c, std::string_view tensor, const TensorView& t, DType type, Pattern pattern) {
    if (!t.is_2d()) fail(t, fmt::format("shape {}: a weight is 2-D (out x in)", t.shape_text()));
    const int64_t m = t.shape[0], k = t.shape[1];
    const int group = group_size(pattern);
    if (m < 1 || k < 1 || k % group != 0)
        fail(t, fmt::format("shape {}: k = {} is not a positive multiple of {}'s group of {}", t.shape_text(), k, name(pattern), group));
    const ReadPlan plan = plan_or_fail(t, type);
    SparseWeight w{m, k, type, pattern, {}, describe(c, tensor, t, c.is_npy() ? "npy" : "safetensors")};
    w.source.sha256 = sha256_hex(as_chars(t.bytes));
    w.source.reading = reading_name(plan.how);
    std::vector<uint8_t> dense;
    w.source.values_rounded = to_operand(t, t.bytes, m * k, type, plan, dense);
    const PatternCensus census = pattern_census(type, pattern, dense.data(), m, k);
    w.source.pattern_share = census.groups ? static_cast<double>(census.conforming) / static_cast<double>(census.groups) : 1.0;
    if (census.conforming < census.groups) {
        const double before = sum_of_squares(type, dense, m * k);
        prune_by_magnitude(type, pattern, dense.data(), m, k);
        const double after = sum_of_squares(type, dense, m * k);
        w.source.pruned = true;
        w.source.norm_kept = !std::isfinite(before) || !std::isfinite(after) ? NAN : before > 0 ? std::sqrt(after / before) : 1.0;
    }
    w.a = compress(type, pattern, dense.data(), m, k);
    if (!c.is_npy()) w.source.row_scale = find_row_scale(c, prefix_of(t.name), m);
    return w;
}

}  // namespace

std::string TensorRef::text() const { return tensor.empty() ? path.string() : path.string() + ":" + tensor; }

TensorRef parse_tensor_ref(std::string_view text) {
    const std::string s(text);
    std::error_code ec;
    if (fs::is_regular_file(s, ec)) {
        if (fs::path(s).extension() == ".npy") return {s, ""};
        throw WeightsError(s, "names a file but no tensor: FILE.safetensors:TENSOR (spmma inspect lists the tensors)");
    }
    if (fs::is_directory(s, ec)) throw WeightsError(s, "names a folder but no tensor: FOLDER:TENSOR (spmma inspect lists the tensors)");
    for (size_t colon = s.rfind(':'); colon != std::string::npos && colon > 0; colon = s.rfind(':', colon - 1)) {
        const fs::path left = s.substr(0, colon);
        if (fs::exists(left, ec)) return {left, s.substr(colon + 1)};
    }
    throw WeightsError(s, "names no file or folder (FILE.safetensors:TENSOR, FOLDER:TENSOR or FILE.npy)");
}

nlohmann::json WeightSource::to_json() const {
    nlohmann::json j = {{"file", ref.path.string()},
                        {"tensor", ref.tensor},
                        {"format", format},
                        {"dtype", stored_dtype},
                        {"shape", shape},
                        {"sha256", sha256},
                        {"reading", reading},
                        {"values_rounded", values_rounded},
                        {"pattern_share", pattern_share},
                        {"pruned", pruned},
                        {"norm_kept", std::isfinite(norm_kept) ? nlohmann::json(norm_kept) : nlohmann::json()}};
    if (file != ref.path) j["shard"] = file.string();
    if (row_scale) j["row_scale"] = row_scale->to_json();
    return j;
}

SparseWeight load_sparse_weight(const Checkpoint& c, std::string_view tensor, DType type, Pattern pattern) {
    const auto layer = c.is_npy() ? std::nullopt : find_bitmask24_layer(c, tensor);
    if (layer) return from_bitmask24(c, tensor, *layer, type, pattern);
    return from_dense(c, tensor, c.get(tensor), type, pattern);
}

SparseWeight load_sparse_weight(const TensorRef& ref, DType type, Pattern pattern) {
    const Checkpoint c(ref.path);
    return load_sparse_weight(c, ref.tensor, type, pattern);
}

DenseTensor load_dense_tensor(const Checkpoint& c, std::string_view tensor, DType type) {
    const TensorView t = c.get(tensor);
    if (!t.is_2d()) fail(t, fmt::format("shape {}: B and C are 2-D", t.shape_text()));
    const ReadPlan plan = plan_or_fail(t, type);
    DenseTensor d{t.shape[0], t.shape[1], type, {}, describe(c, tensor, t, c.is_npy() ? "npy" : "safetensors")};
    d.source.sha256 = sha256_hex(as_chars(t.bytes));
    d.source.reading = reading_name(plan.how);
    d.source.values_rounded = to_operand(t, t.bytes, d.rows * d.cols, type, plan, d.data);
    return d;
}

DenseTensor load_dense_tensor(const TensorRef& ref, DType type) {
    const Checkpoint c(ref.path);
    return load_dense_tensor(c, ref.tensor, type);
}

}  // namespace spmma::weights
