// compressed-tensors' sparse-24-bitmask layers made here from a dense 2:4 weight: decoded into
// exactly what pruning and compressing the dense weight gives, and every inconsistency refused.
#include "weights_test.hpp"

#include <spmma/core/sha256.hpp>
#include <spmma/weights/bitmask24.hpp>
#include <spmma/weights/operand.hpp>

using namespace spmma;
using namespace spmma::weights;
using spmma::test::make_safetensors;
using spmma::test::raw;
using spmma::test::require_refused;
using spmma::test::StTensor;

namespace {

constexpr int64_t kM = 6, kK = 12;  // k not a multiple of 8: each mask row has a padded byte

// A dense 2:4 e4m3 weight: in group g of row i, two non-zero values at a pair that varies.
std::vector<uint8_t> dense_e4m3() {
    static const int pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    std::vector<uint8_t> d(kM * kK, 0);
    for (int64_t i = 0; i < kM; ++i)
        for (int64_t g = 0; g < kK / 4; ++g) {
            const auto* p = pairs[(i + 2 * g) % 6];
            d[static_cast<size_t>(i * kK + 4 * g + p[0])] = static_cast<uint8_t>(encode(DType::E4M3, 0.25 * static_cast<double>(i + g + 1)));
            d[static_cast<size_t>(i * kK + 4 * g + p[1])] = static_cast<uint8_t>(encode(DType::E4M3, -0.5 * static_cast<double>(g + 1)));
        }
    return d;
}

// The layer as llm-compressor writes it: kept values row by row, the mask packed LSB first.
struct Parts {
    std::vector<uint8_t> compressed, bitmask;
};
Parts encode_bitmask24(const std::vector<uint8_t>& dense) {
    Parts p;
    const int64_t row_bytes = (kK + 7) / 8;
    p.bitmask.assign(static_cast<size_t>(kM * row_bytes), 0);
    for (int64_t i = 0; i < kM; ++i)
        for (int64_t j = 0; j < kK; ++j)
            if (const uint8_t v = dense[static_cast<size_t>(i * kK + j)]; v != 0) {
                p.compressed.push_back(v);
                p.bitmask[static_cast<size_t>(i * row_bytes + j / 8)] |= static_cast<uint8_t>(1 << (j % 8));
            }
    return p;
}

std::filesystem::path layer_file(const std::string& dir, const Parts& p, const std::string& values_dtype = "F8_E4M3",
                                  std::vector<int64_t> shape = {kM, kK}, std::vector<StTensor> extra = {}) {
    std::vector<StTensor> t = {{"mlp.down_proj.compressed", values_dtype, {kM, kK / 2}, raw(p.compressed)},
                               {"mlp.down_proj.bitmask", "U8", {kM, (kK + 7) / 8}, raw(p.bitmask)},
                               {"mlp.down_proj.shape", "I64", {2, 1}, raw(shape)}};
    t.insert(t.end(), extra.begin(), extra.end());
    return spmma::test::write_bytes(spmma::test::scratch_dir(dir) / "ct.safetensors", make_safetensors(t));
}

}  // namespace

TEST_CASE("a sparse-24-bitmask layer decodes into exactly what pruning and compressing its dense weight gives") {
    const auto dense = dense_e4m3();
    const Parts parts = encode_bitmask24(dense);
    const auto file = layer_file("roundtrip", parts);
    const Checkpoint c(file);
    const auto layer = find_bitmask24_layer(c, "mlp.down_proj.weight");
    REQUIRE(layer);
    REQUIRE(layer->prefix == "mlp.down_proj");
    REQUIRE(layer->m == kM);
    REQUIRE(layer->k == kK);
    auto pruned = dense;
    prune_by_magnitude(DType::E4M3, Pattern::P2_4, pruned.data(), kM, kK);
    REQUIRE(pruned == dense);
    const CompressedA expect = compress(DType::E4M3, Pattern::P2_4, dense.data(), kM, kK);
    const CompressedA got = decode_bitmask24(*layer);
    REQUIRE(got.values == expect.values);
    REQUIRE(got.indices == expect.indices);
    REQUIRE(decompress(DType::E4M3, Pattern::P2_4, got, kM, kK) == dense);

    const SparseWeight w = load_sparse_weight(c, "mlp.down_proj", DType::E4M3, Pattern::P2_4);
    REQUIRE(w.a.values == expect.values);
    REQUIRE(w.source.format == "sparse-24-bitmask");
    REQUIRE(w.source.shape == std::vector<int64_t>{kM, kK});
    REQUIRE_FALSE(w.source.pruned);
    REQUIRE(w.source.sha256 == sha256_hex(raw(parts.compressed) + raw(parts.bitmask)));
    REQUIRE(bitmask24_layers(c).size() == 1);
}

TEST_CASE("a sparse-24-bitmask layer's FP8 values through an int8 view decode to the same bits") {
    const Parts parts = encode_bitmask24(dense_e4m3());
    const std::vector<float> scale(kM, 0.5f);
    const auto file = layer_file("int8_view", parts, "I8", {kM, kK}, {{"mlp.down_proj.weight_scale", "F32", {kM, 1}, raw(scale)}});
    const SparseWeight w = load_sparse_weight(Checkpoint(file), "mlp.down_proj.weight", DType::E4M3, Pattern::P2_4);
    REQUIRE(w.source.reading == "view");
    REQUIRE(w.a.values == parts.compressed);
    REQUIRE(w.source.row_scale);
    REQUIRE(w.source.row_scale->values == scale);
    require_refused([&] { load_sparse_weight(Checkpoint(file), "mlp.down_proj", DType::E4M3, Pattern::P4_8); }, file,
                    "a sparse-24-bitmask layer is 2:4; the problem's pattern is 4:8");
}

TEST_CASE("a mask group keeping other than two columns is refused naming its row and group") {
    Parts parts = encode_bitmask24(dense_e4m3());
    parts.bitmask[static_cast<size_t>(3 * 2 + 1)] |= 0x0f;  // row 3, byte 1: columns 8..11 = group 2, all four kept
    const auto file = layer_file("bad_mask", parts);
    const Checkpoint c(file);
    require_refused([&] { decode_bitmask24(*find_bitmask24_layer(c, "mlp.down_proj")); }, file,
                    "tensor \"mlp.down_proj.bitmask\": row 3, group 2 (columns 8..11) keeps 4 columns, 2:4 keeps 2");
    parts = encode_bitmask24(dense_e4m3());
    parts.bitmask[0] &= 0xf0;  // row 0, group 0: nothing kept
    const auto empty = layer_file("empty_mask", parts);
    require_refused([&] { decode_bitmask24(*find_bitmask24_layer(Checkpoint(empty), "mlp.down_proj")); }, empty, "row 0, group 0 (columns 0..3) keeps 0 columns");
}

TEST_CASE("parts that disagree or are missing are refused naming the tensor") {
    const Parts parts = encode_bitmask24(dense_e4m3());
    const auto find = [](const std::filesystem::path& f) { return find_bitmask24_layer(Checkpoint(f), "mlp.down_proj"); };
    const auto wrong_k = layer_file("wrong_k", parts, "F8_E4M3", {kM, 16});
    require_refused([&] { find(wrong_k); }, wrong_k, "tensor \"mlp.down_proj.compressed\": shape [6, 6], the layer's [6, 16] keeps [6, 8]");
    const auto odd_k = layer_file("odd_k", parts, "F8_E4M3", {kM, 10});
    require_refused([&] { find(odd_k); }, odd_k, "tensor \"mlp.down_proj.shape\": [6, 10]: m must be 1 or more, k a positive multiple of 4");
    const auto no_mask = spmma::test::write_bytes(spmma::test::scratch_dir("no_mask") / "ct.safetensors",
                                                  make_safetensors({{"l.compressed", "F8_E4M3", {kM, kK / 2}, raw(parts.compressed)}}));
    require_refused([&] { find_bitmask24_layer(Checkpoint(no_mask), "l"); }, no_mask, "\"l.compressed\" has no \"l.bitmask\" beside it");
    const std::vector<float> f_shape = {6, 12};
    const auto float_shape = spmma::test::write_bytes(
        spmma::test::scratch_dir("float_shape") / "ct.safetensors",
        make_safetensors({{"l.compressed", "F8_E4M3", {kM, kK / 2}, raw(parts.compressed)}, {"l.bitmask", "U8", {kM, 2}, raw(parts.bitmask)},
                          {"l.shape", "F32", {2}, raw(f_shape)}}));
    require_refused([&] { find_bitmask24_layer(Checkpoint(float_shape), "l"); }, float_shape, "tensor \"l.shape\": a F32 tensor, not integers");
    const auto wide_mask = spmma::test::write_bytes(
        spmma::test::scratch_dir("wide_mask") / "ct.safetensors",
        make_safetensors({{"l.compressed", "F8_E4M3", {kM, kK / 2}, raw(parts.compressed)}, {"l.bitmask", "U8", {kM * 2}, raw(parts.bitmask)},
                          {"l.shape", "I32", {2}, raw(std::vector<int32_t>{kM, kK})}}));
    require_refused([&] { find_bitmask24_layer(Checkpoint(wide_mask), "l"); }, wide_mask, "tensor \"l.bitmask\": shape [12], the layer's [6, 12] packs into [6, 2]");
}
