#include <spmma/weights/row_scale.hpp>

#include <spmma/core/sha256.hpp>
#include <spmma/weights/weights_error.hpp>

#include <fmt/format.h>

#include <cmath>

namespace spmma::weights {

nlohmann::json RowScale::to_json() const {
    return {{"tensor", tensor}, {"dtype", name(stored)}, {"per_tensor", per_tensor}, {"sha256", sha256}};
}

std::optional<RowScale> find_row_scale(const Checkpoint& c, std::string_view prefix, int64_t m) {
    const std::string name = std::string(prefix) + ".weight_scale";
    const auto t = c.find(name);
    if (!t) return std::nullopt;
    auto fail = [&](const std::string& why) -> void { throw WeightsError(t->file, "tensor " + quote_name(name) + ": " + why); };
    const DType type = natural_type(t->type);
    if (type != DType::F32 && type != DType::F16 && type != DType::BF16)
        fail(fmt::format("a {} scale (f16, bf16 or f32 are read)", weights::name(t->type)));
    const int64_t n = t->elements();
    if (n != m && n != 1) fail(fmt::format("shape {}: neither one scale per row ({}) nor one per tensor", t->shape_text(), m));
    RowScale s{name, t->type, n == 1 && m != 1, {}, sha256_hex(std::string_view(reinterpret_cast<const char*>(t->bytes.data()), t->bytes.size()))};
    s.values.reserve(static_cast<size_t>(m));
    for (int64_t i = 0; i < m; ++i) {
        const double v = decode(type, load_code(type, t->bytes.data(), n == 1 ? 0 : i));
        if (!std::isfinite(v)) fail(fmt::format("row {} is {}", i, v));
        s.values.push_back(static_cast<float>(v));
    }
    return s;
}

}  // namespace spmma::weights
