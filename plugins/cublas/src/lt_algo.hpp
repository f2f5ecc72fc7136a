// A cuBLASLt algorithm as the cublas plugin's plan: what its configuration says (for records),
// its name, and how it is written to the plan cache and read back. cublasLt.h documents
// cublasLtMatmulAlgo_t as trivially serialisable for use with the same cuBLAS version (the cache
// key carries the version): the file keeps its eight 64-bit words, and a plan read back is checked
// with cublasLtMatmulAlgoCheck before it is used.
#pragma once

#include "cublaslt_api.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace spmma_cublas {

struct AlgoConfig {
    int32_t id = -1, splitk = 1;
    uint32_t tile = 0, reduction = 0, swizzle = 0, custom = 0, stages = 0;
    uint16_t inner_shape = 0, cluster_shape = 0;
};

// The configuration attributes of an initialised algorithm (a library that does not answer one
// leaves its default).
AlgoConfig algo_config(const CublasLt& lt, const cublasLtMatmulAlgo_t& algo);
// "algo 66 tile 31 stages 24 cluster 2 splitk 1" (the fields that tell kernels apart).
std::string algo_name(const AlgoConfig& c);
// Every field, for describe().
nlohmann::json to_json(const AlgoConfig& c);

// {"algo_id": 66, "words": ["0123456789abcdef", ...8]}: the plan cache's form.
nlohmann::json algo_to_plan(const cublasLtMatmulAlgo_t& algo, const AlgoConfig& c);
// The algorithm a stored plan holds; nullopt with why when it is not eight hex words.
std::optional<cublasLtMatmulAlgo_t> algo_from_plan(const nlohmann::json& plan, std::string& why);

}  // namespace spmma_cublas
