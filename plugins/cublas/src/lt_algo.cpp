#include "lt_algo.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace spmma_cublas {
namespace {

template <class T>
void read_attr(const CublasLt& lt, const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoConfigAttributes_t a, T& out) {
    T v{};
    size_t written = 0;
    if (lt.cublasLtMatmulAlgoConfigGetAttribute(&algo, a, &v, sizeof v, &written) == CUBLAS_STATUS_SUCCESS) out = v;
}

}  // namespace

AlgoConfig algo_config(const CublasLt& lt, const cublasLtMatmulAlgo_t& algo) {
    AlgoConfig c;
    read_attr(lt, algo, CUBLASLT_ALGO_CONFIG_ID, c.id);
    read_attr(lt, algo, CUBLASLT_ALGO_CONFIG_TILE_ID, c.tile);
    read_attr(lt, algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, c.splitk);
    read_attr(lt, algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, c.reduction);
    read_attr(lt, algo, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, c.swizzle);
    read_attr(lt, algo, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, c.custom);
    read_attr(lt, algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, c.stages);
    read_attr(lt, algo, CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID, c.inner_shape);
    read_attr(lt, algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, c.cluster_shape);
    return c;
}

std::string algo_name(const AlgoConfig& c) {
    return "algo " + std::to_string(c.id) + " tile " + std::to_string(c.tile) + " stages " + std::to_string(c.stages) + " cluster " +
           std::to_string(c.cluster_shape) + " splitk " + std::to_string(c.splitk);
}

nlohmann::json to_json(const AlgoConfig& c) {
    return {{"algo_id", c.id},     {"tile", c.tile},       {"stages", c.stages},           {"cluster_shape", c.cluster_shape},
            {"splitk", c.splitk},  {"reduction", c.reduction}, {"swizzle", c.swizzle}, {"custom", c.custom},
            {"inner_shape", c.inner_shape}};
}

nlohmann::json algo_to_plan(const cublasLtMatmulAlgo_t& algo, const AlgoConfig& c) {
    nlohmann::json words = nlohmann::json::array();
    for (const uint64_t w : algo.data) {
        char buf[17];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(w));
        words.push_back(buf);
    }
    return {{"algo_id", c.id}, {"name", algo_name(c)}, {"words", words}};
}

std::optional<cublasLtMatmulAlgo_t> algo_from_plan(const nlohmann::json& plan, std::string& why) {
    constexpr size_t kWords = sizeof(cublasLtMatmulAlgo_t::data) / sizeof(uint64_t);
    if (!plan.contains("words") || !plan["words"].is_array() || plan["words"].size() != kWords) {
        why = "the stored plan has no \"words\" array of " + std::to_string(kWords);
        return std::nullopt;
    }
    cublasLtMatmulAlgo_t algo{};
    for (size_t i = 0; i < kWords; ++i) {
        const auto& w = plan["words"][i];
        const std::string s = w.is_string() ? w.get<std::string>() : "";
        const bool hex = s.size() == 16 && std::all_of(s.begin(), s.end(), [](unsigned char ch) { return std::isxdigit(ch) != 0; });
        if (!hex) {
            why = "the stored plan's word " + std::to_string(i) + " is not 16 hex digits (" + w.dump() + ")";
            return std::nullopt;
        }
        algo.data[i] = std::strtoull(s.c_str(), nullptr, 16);
    }
    return algo;
}

}  // namespace spmma_cublas
