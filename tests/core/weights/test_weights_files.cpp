// The files make_weights.py writes (and PyPI's safetensors and numpy read back), read by
// core/weights value by value: the formulas here are the script's.
#include <spmma/core/sha256.hpp>
#include <spmma/weights/bitmask24.hpp>
#include <spmma/weights/operand.hpp>
#include <spmma/weights/weights_error.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

using namespace spmma;
using namespace spmma::weights;

namespace {

const std::filesystem::path kData = SPMMA_WEIGHTS_DATA;

double dense(int64_t i, int64_t j) { return static_cast<double>((i * 7 + j * 3) % 23 - 11) / 8; }
double fp8(int64_t i, int64_t j) { return static_cast<double>((i * 3 + j * 5) % 15 - 7) / 4; }

const int kPairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};

double value(const TensorView& t, DType type, int64_t index) { return decode(type, load_code(type, t.bytes.data(), index)); }

// Every element of a rows x cols tensor of `type` against f(i, j).
template <class F>
void require_values(const TensorView& t, DType type, int64_t rows, int64_t cols, F f) {
    REQUIRE(t.shape == std::vector<int64_t>{rows, cols});
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
            INFO(t.name << " (" << i << ", " << j << ")");
            REQUIRE(value(t, type, i * cols + j) == f(i, j));
        }
}

}  // namespace

TEST_CASE("dense_f16.safetensors: every value, the metadata's tensors, and the weight pruned with its norm kept") {
    const Checkpoint c(kData / "dense_f16.safetensors");
    REQUIRE(c.tensors().size() == 3);
    const TensorView w = c.get("model.layers.0.mlp.up_proj.weight");
    REQUIRE(w.type == StoredType::F16);
    require_values(w, DType::F16, 64, 128, dense);
    REQUIRE(c.get("model.layers.0.mlp.up_proj.bias").shape == std::vector<int64_t>{64});

    const SparseWeight a = load_sparse_weight(c, "model.layers.0.mlp.up_proj.weight", DType::F16, Pattern::P2_4);
    REQUIRE(a.source.pruned);
    // Recomputed from the formula: groups already 2:4, and the norm of the two largest of each group.
    int64_t conforming = 0;
    double all = 0, kept = 0;
    for (int64_t i = 0; i < 64; ++i)
        for (int64_t g = 0; g < 32; ++g) {
            double mag[4];
            int nz = 0;
            for (int c4 = 0; c4 < 4; ++c4) {
                mag[c4] = std::fabs(dense(i, 4 * g + c4));
                nz += mag[c4] != 0;
                all += mag[c4] * mag[c4];
            }
            conforming += nz <= 2;
            std::sort(mag, mag + 4);
            kept += mag[3] * mag[3] + mag[2] * mag[2];
        }
    REQUIRE(a.source.pattern_share == static_cast<double>(conforming) / (64 * 32));
    REQUIRE(a.source.norm_kept == Approx(std::sqrt(kept / all)).epsilon(1e-12));
    REQUIRE(a.source.sha256 == sha256_hex(std::string_view(reinterpret_cast<const char*>(w.bytes.data()), w.bytes.size())));
}

TEST_CASE("sparse24_bf16.safetensors: already 2:4, used as it is, every kept -0.0 kept bit for bit") {
    const Checkpoint c(kData / "sparse24_bf16.safetensors");
    const TensorView t = c.get("model.layers.0.self_attn.q_proj.weight");
    REQUIRE(t.type == StoredType::BF16);
    const SparseWeight w = load_sparse_weight(c, t.name, DType::BF16, Pattern::P2_4);
    REQUIRE_FALSE(w.source.pruned);
    REQUIRE(w.source.pattern_share == 1.0);
    int kept_negative_zero = 0;
    for (int64_t i = 0; i < 32; ++i)
        for (int64_t g = 0; g < 16; ++g) {
            int cols[4], n = 0;
            REQUIRE(decode_index(Pattern::P2_4, w.a.indices[static_cast<size_t>(i * 16 + g)], cols, n));
            for (int x = 0; x < 2; ++x) {
                const uint32_t stored = load_code(DType::BF16, t.bytes.data(), i * 64 + 4 * g + cols[x]);
                REQUIRE(load_code(DType::BF16, w.a.values.data(), i * 32 + 2 * g + x) == stored);
                kept_negative_zero += stored == 0x8000;
            }
        }
    REQUIRE(kept_negative_zero > 0);
    // The script's pairs and values where no -0.0 took the second value's place.
    const auto pair = kPairs[(3 + 5) % 6];
    REQUIRE(value(t, DType::BF16, 3 * 64 + 4 * 5 + pair[0]) == static_cast<double>((3 * 5 + 5 * 3) % 13 + 1) / 8);
}

TEST_CASE("e4m3.safetensors: F8_E4M3 values as they are, pruned as e4m3, with its per-channel scale") {
    const Checkpoint c(kData / "e4m3.safetensors");
    const TensorView t = c.get("model.layers.0.mlp.gate_proj.weight");
    REQUIRE(t.type == StoredType::F8_E4M3);
    require_values(t, DType::E4M3, 16, 32, fp8);
    const SparseWeight w = load_sparse_weight(c, t.name, DType::E4M3, Pattern::P2_4);
    REQUIRE(w.source.reading == "bits");
    REQUIRE(w.source.pruned);
    REQUIRE(w.source.row_scale);
    for (int i = 0; i < 16; ++i) REQUIRE(w.source.row_scale->values[static_cast<size_t>(i)] == static_cast<float>(i + 1) / 16);
}

TEST_CASE("ct_fp8: both sparse-24-bitmask layers decode to what pruning and compressing the dense file gives, with their scales") {
    const Checkpoint ct(kData / "ct_fp8");
    REQUIRE(ct.int8_view() == DType::E4M3);  // config.json: 8-bit float weights
    const Checkpoint dense(kData / "ct_fp8_dense.safetensors");
    REQUIRE(bitmask24_layers(ct).size() == 2);
    for (int layer = 0; layer < 2; ++layer) {
        const std::string prefix = "model.layers." + std::to_string(layer) + ".mlp.down_proj";
        const SparseWeight w = load_sparse_weight(ct, prefix + ".weight", DType::E4M3, Pattern::P2_4);
        REQUIRE(w.m == 32);
        REQUIRE(w.k == 64);
        REQUIRE(w.source.format == "sparse-24-bitmask");
        REQUIRE(w.source.reading == (layer == 0 ? "bits" : "view"));
        const SparseWeight d = load_sparse_weight(dense, prefix + ".weight", DType::E4M3, Pattern::P2_4);
        REQUIRE_FALSE(d.source.pruned);
        REQUIRE(w.a.values == d.a.values);
        REQUIRE(w.a.indices == d.a.indices);
        REQUIRE(w.source.row_scale);
        if (layer == 0)
            for (int i = 0; i < 32; ++i) REQUIRE(w.source.row_scale->values[static_cast<size_t>(i)] == static_cast<float>(i + 1) / 64);
        else
            REQUIRE(w.source.row_scale->per_tensor);
    }
}

TEST_CASE("sharded: the index's weight_map finds each tensor in its shard, whatever the order of the offsets") {
    const Checkpoint c(kData / "sharded");
    REQUIRE(c.files().size() == 2);
    REQUIRE(c.tensors().size() == 4);
    const TensorView up = c.get("model.layers.1.mlp.up_proj.weight");
    REQUIRE(up.file == kData / "sharded" / "model-00002-of-00002.safetensors");
    require_values(up, DType::F16, 64, 128, dense);
    require_values(c.get("lm_head.weight"), DType::F16, 32, 64, dense);
    const auto j = load_sparse_weight(c, "lm_head.weight", DType::F16, Pattern::P2_4).source.to_json();
    REQUIRE(j["shard"] == up.file.string());
    REQUIRE(j["file"] == (kData / "sharded").string());
}

TEST_CASE("npy: f2, f4, i1, u1, versions 2.0 and 3.0, and bf16 / e4m3 as ml_dtypes and numpy store them, read by value") {
    const auto npy = [](const std::string& name) { return Checkpoint(kData / "npy" / name); };
    for (const char* f : {"f2.npy", "f2_v2.npy", "f2_v3.npy"}) {
        INFO(f);
        const auto c = npy(f);
        require_values(c.get(""), DType::F16, 8, 16, dense);
        REQUIRE(c.stored_dtype(c.get("")) == "<f2");
    }
    require_values(npy("f4.npy").get("f4"), DType::F32, 8, 16, [](int64_t i, int64_t j) { return static_cast<double>(static_cast<float>(dense(i, j) / 3)); });
    require_values(npy("i1.npy").get(""), DType::S8, 8, 16, [](int64_t i, int64_t j) { return static_cast<double>((i * 7 + j) % 255 - 127); });
    require_values(npy("u1.npy").get(""), DType::U8, 8, 16, [](int64_t i, int64_t j) { return static_cast<double>(i * 16 + j); });
    for (const char* f : {"bf16_ml_dtypes.npy", "bf16_void.npy", "bf16_u2.npy"}) {
        INFO(f);
        const DenseTensor d = load_dense_tensor(TensorRef{kData / "npy" / f, ""}, DType::BF16);
        REQUIRE(d.source.reading == "view");
        for (int64_t x = 0; x < 8 * 16; ++x) REQUIRE(decode(DType::BF16, load_code(DType::BF16, d.data.data(), x)) == dense(x / 16, x % 16));
    }
    REQUIRE(npy("bf16_ml_dtypes.npy").stored_dtype(npy("bf16_ml_dtypes.npy").get("")) == "<V2");
    REQUIRE(npy("bf16_void.npy").stored_dtype(npy("bf16_void.npy").get("")) == "|V2");
    const DenseTensor e4m3 = load_dense_tensor(TensorRef{kData / "npy" / "e4m3_ml_dtypes.npy", ""}, DType::E4M3);
    for (int64_t x = 0; x < 8 * 16; ++x) REQUIRE(decode(DType::E4M3, load_code(DType::E4M3, e4m3.data.data(), x)) == fp8(x / 16, x % 16));
    const SparseWeight from_npy = load_sparse_weight(TensorRef{kData / "npy" / "f2.npy", ""}, DType::F16, Pattern::P2_4);
    REQUIRE(from_npy.source.format == "npy");
    REQUIRE(from_npy.source.stored_dtype == "<f2");
}

TEST_CASE("npy: fortran order, big-endian and a raw type read as what the file cannot say are refused") {
    const auto refused = [](const std::string& name, const std::string& reason, DType t = DType::F16) {
        try {
            load_dense_tensor(TensorRef{kData / "npy" / name, ""}, t);
            FAIL(name << " accepted");
        } catch (const WeightsError& e) {
            INFO(e.what());
            REQUIRE(e.file == kData / "npy" / name);
            REQUIRE(e.reason.find(reason) != std::string::npos);
        }
    };
    refused("fortran.npy", "fortran_order is True");
    refused("big_endian.npy", "the dtype \">f2\" is not read");
    refused("bf16_ml_dtypes.npy", "a V2 tensor cannot be read as an e4m3 operand", DType::E4M3);
    refused("e4m3_ml_dtypes.npy", "a V1 tensor cannot be read as an f16 operand");
}
