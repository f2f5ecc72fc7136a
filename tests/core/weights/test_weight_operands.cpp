// Operands from weight files written by the tests: a dense weight pruned by magnitude with the
// share of groups already 2:4 and the norm kept, a 2:4 weight used as it is (-0.0 kept bit for
// bit), stored types read as bits, views or converted, hashes, scales and every refusal.
#include "weights_test.hpp"

#include <spmma/core/sha256.hpp>
#include <spmma/weights/operand.hpp>

#include <cmath>

using namespace spmma;
using namespace spmma::weights;
using spmma::test::make_safetensors;
using spmma::test::raw;
using spmma::test::require_refused;
using spmma::test::StTensor;

namespace {

std::vector<uint16_t> codes(DType t, const std::vector<double>& v) {
    std::vector<uint16_t> out;
    for (double x : v) out.push_back(static_cast<uint16_t>(encode(t, x)));
    return out;
}

// A 4 x 8 f16 weight: row 0 and 1 already 2:4 in both groups, rows 2 and 3 dense.
const std::vector<double> kDense = {1, 0, 0, -2,   0, 3, 0.5, 0,
                                    0, 0, 0, 0,    -0.0, 0, 0, 7,
                                    1, 2, 3, 4,    -8, 1, 0.25, 2,
                                    5, -6, 0, 1,   1, 1, 1, 1};

std::filesystem::path weight_file(const std::string& dir, const std::vector<StTensor>& tensors) {
    return spmma::test::write_bytes(spmma::test::scratch_dir(dir) / "w.safetensors", make_safetensors(tensors));
}

std::filesystem::path dense_f16_file(const std::string& dir) {
    return weight_file(dir, {{"layer.weight", "F16", {4, 8}, raw(codes(DType::F16, kDense))}});
}

double norm(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x * x;
    return std::sqrt(s);
}

}  // namespace

TEST_CASE("a dense weight is pruned by magnitude per group of 4 along k, with the share already 2:4 and the norm kept") {
    const auto file = dense_f16_file("dense_pruned");
    const SparseWeight w = load_sparse_weight(Checkpoint(file), "layer.weight", DType::F16, Pattern::P2_4);
    REQUIRE(w.m == 4);
    REQUIRE(w.k == 8);
    REQUIRE(w.source.pruned);
    REQUIRE(w.source.pattern_share == 0.5);  // rows 0 and 1 are 2:4, rows 2 and 3 are not
    // Pruned by hand: the two largest magnitudes of each group (ties: the lower column).
    const std::vector<double> kept = {1, 0, 0, -2,   0, 3, 0.5, 0,
                                      0, 0, 0, 0,    -0.0, 0, 0, 7,
                                      0, 0, 3, 4,    -8, 0, 0, 2,
                                      5, -6, 0, 0,   1, 1, 0, 0};
    REQUIRE(w.source.norm_kept == Approx(norm(kept) / norm(kDense)).epsilon(1e-12));
    const auto expect = compress(DType::F16, Pattern::P2_4, codes(DType::F16, kept).data(), 4, 8);
    REQUIRE(w.a.values == expect.values);
    REQUIRE(w.a.indices == expect.indices);
    REQUIRE(w.source.sha256 == sha256_hex(raw(codes(DType::F16, kDense))));
    REQUIRE(w.source.reading == "bits");
    REQUIRE(w.source.stored_dtype == "F16");
    REQUIRE(w.source.shape == std::vector<int64_t>{4, 8});
}

TEST_CASE("a weight already 2:4 is validated and used as it is: not pruned, -0.0 kept bit for bit where it is kept") {
    // Row 0: groups (1, -0.0, 0, 0) and (0, 0, 2, -3); row 1: (-0.0, -0.0, 0, 4) and all zero.
    const std::vector<double> v = {1, -0.0, 0, 0, 0, 0, 2, -3, -0.0, -0.0, 0, 4, 0, 0, 0, 0};
    const auto file = weight_file("sparse", {{"q.weight", "BF16", {2, 8}, raw(codes(DType::BF16, v))}});
    const SparseWeight w = load_sparse_weight(Checkpoint(file), "q.weight", DType::BF16, Pattern::P2_4);
    REQUIRE_FALSE(w.source.pruned);
    REQUIRE(w.source.pattern_share == 1.0);
    REQUIRE(w.source.norm_kept == 1.0);
    // Kept: (1, -0.0) at columns 0, 1; (2, -3) at 2, 3; (-0.0, 4) at 0, 3; the zero group keeps columns 0, 1.
    const std::vector<uint16_t> values = {0x3f80, 0x8000, 0x4000, 0xc040, 0x8000, 0x4080, 0x0000, 0x0000};
    REQUIRE(w.a.values == std::vector<uint8_t>(reinterpret_cast<const uint8_t*>(values.data()), reinterpret_cast<const uint8_t*>(values.data()) + 16));
    REQUIRE(w.a.indices == std::vector<uint8_t>{0 | 1 << 2, 2 | 3 << 2, 0 | 3 << 2, 0 | 1 << 2});
}

TEST_CASE("a stored type becomes the operand type bit for bit, through a view, or converted with the changed values counted") {
    const std::vector<float> f32 = {1.0f, 0.1f, -2.5f, 1e-3f, 0, 0, 0, 0};
    const std::vector<int8_t> fp8 = {0x38, 0x40, 0, 0, static_cast<int8_t>(0xc0), 0x30, 0, 0};  // e4m3 1, 2, -2, 0.5
    const auto file = weight_file("types", {{"f32", "F32", {2, 4}, raw(f32)}, {"i8", "I8", {2, 4}, raw(fp8)}, {"u8", "U8", {2, 4}, raw(fp8)}});
    const Checkpoint c(file);
    const SparseWeight as_f16 = load_sparse_weight(c, "f32", DType::F16, Pattern::P2_4);
    REQUIRE(as_f16.source.reading == "converted");
    REQUIRE(as_f16.source.values_rounded == 2);  // 0.1 and 1e-3 are not f16 values; 1, -2.5 and the zeros are
    REQUIRE(as_f16.source.pruned);               // (1, 0.1, -2.5, 1e-3) keeps 1 and -2.5
    const SparseWeight view = load_sparse_weight(c, "i8", DType::E4M3, Pattern::P2_4);
    REQUIRE(view.source.reading == "view");
    REQUIRE(view.a.values == std::vector<uint8_t>{0x38, 0x40, 0xc0, 0x30});
    REQUIRE(load_sparse_weight(c, "i8", DType::S8, Pattern::P2_4).source.reading == "bits");
    require_refused([&] { load_sparse_weight(c, "f32", DType::S8, Pattern::P2_4); }, file,
                    "tensor \"f32\": a F32 tensor is not an s8 operand: floats become integers only with a quantization scale");
    require_refused([&] { load_sparse_weight(c, "u8", DType::S8, Pattern::P2_4); }, file, "a U8 tensor cannot be read as an s8 operand");
    const SparseWeight tf32 = load_sparse_weight(c, "f32", DType::TF32, Pattern::P1_2);
    REQUIRE(tf32.source.values_rounded == 2);
    REQUIRE(tf32.a.values.size() == 4 * 4);
}

TEST_CASE("plan_read: floats to any float type, 1-byte integers and V1 viewed as 8-bit floats, 2-byte raw as bf16 or f16") {
    const auto how = [](StoredType s, DType t) -> std::string {
        const auto p = plan_read(s, t, nullptr);
        return !p ? "refused" : p->how == Reading::Bits ? "bits" : p->how == Reading::View ? "view" : "convert";
    };
    CHECK(how(StoredType::F16, DType::F16) == "bits");
    CHECK(how(StoredType::BF16, DType::F16) == "convert");
    CHECK(how(StoredType::F8_E4M3, DType::E4M3) == "bits");
    CHECK(how(StoredType::F8_E4M3, DType::E5M2) == "convert");
    CHECK(how(StoredType::F32, DType::TF32) == "convert");
    CHECK(how(StoredType::I8, DType::S8) == "bits");
    CHECK(how(StoredType::U8, DType::U8) == "bits");
    CHECK(how(StoredType::I8, DType::E4M3) == "view");
    CHECK(how(StoredType::U8, DType::E5M2) == "view");
    CHECK(how(StoredType::Raw8, DType::E4M3) == "view");
    CHECK(how(StoredType::Raw16, DType::BF16) == "view");
    CHECK(how(StoredType::U16, DType::BF16) == "view");
    CHECK(how(StoredType::Raw8, DType::S8) == "refused");
    CHECK(how(StoredType::Raw16, DType::E4M3) == "refused");
    CHECK(how(StoredType::F16, DType::S8) == "refused");
    CHECK(how(StoredType::I8, DType::F16) == "refused");
    CHECK(how(StoredType::I64, DType::S8) == "refused");
    CHECK(how(StoredType::F64, DType::F16) == "refused");
}

TEST_CASE("a weight that is not 2-D, whose k is not a multiple of the group, or that is missing is refused") {
    const auto file = weight_file("shapes", {{"one_d", "F16", {8}, std::string(16, '\0')},
                                              {"three_d", "F16", {2, 2, 4}, std::string(32, '\0')},
                                              {"k6", "F16", {2, 6}, std::string(24, '\0')}});
    const Checkpoint c(file);
    require_refused([&] { load_sparse_weight(c, "one_d", DType::F16, Pattern::P2_4); }, file, "tensor \"one_d\": shape [8]: a weight is 2-D");
    require_refused([&] { load_sparse_weight(c, "three_d", DType::F16, Pattern::P2_4); }, file, "shape [2, 2, 4]: a weight is 2-D");
    require_refused([&] { load_sparse_weight(c, "k6", DType::F16, Pattern::P2_4); }, file, "k = 6 is not a positive multiple of 2:4's group of 4");
    require_refused([&] { load_dense_tensor(c, "one_d", DType::F16); }, file, "B and C are 2-D");
    require_refused([&] { load_sparse_weight(c, "nope", DType::F16, Pattern::P2_4); }, file, "no tensor \"nope\"");
    REQUIRE(load_sparse_weight(c, "k6", DType::F16, Pattern::P1_2).k == 6);
}

TEST_CASE("a dense tensor (B, C) is read as stored, row-major, with its hash") {
    const std::vector<double> v = {1, 2, 3, 4, 5, 6};
    const auto file = weight_file("dense_b", {{"x", "BF16", {2, 3}, raw(codes(DType::BF16, v))}});
    const DenseTensor d = load_dense_tensor(Checkpoint(file), "x", DType::F16);
    REQUIRE(d.rows == 2);
    REQUIRE(d.cols == 3);
    for (int i = 0; i < 6; ++i) REQUIRE(decode(DType::F16, load_code(DType::F16, d.data.data(), i)) == v[static_cast<size_t>(i)]);
    REQUIRE(d.source.reading == "converted");
    REQUIRE(d.source.values_rounded == 0);
    REQUIRE(d.source.sha256 == sha256_hex(raw(codes(DType::BF16, v))));
}

TEST_CASE("a weight_scale beside a weight is its row scale, per channel or per tensor repeated, and any other is refused") {
    const std::vector<float> per_channel = {0.5f, 0.25f};
    const std::vector<uint16_t> one = codes(DType::BF16, {0.125});
    const std::vector<float> bad = {1.0f, NAN};
    const std::string w(2 * 4 * 2, '\0');
    const auto file = weight_file("scales", {{"a.weight", "F16", {2, 4}, w}, {"a.weight_scale", "F32", {2, 1}, raw(per_channel)},
                                              {"b.weight", "F16", {2, 4}, w}, {"b.weight_scale", "BF16", {1}, raw(one)},
                                              {"c.weight", "F16", {2, 4}, w}, {"c.weight_scale", "F32", {2}, raw(bad)},
                                              {"d.weight", "F16", {2, 4}, w}, {"d.weight_scale", "F32", {3}, raw(std::vector<float>{1, 1, 1})},
                                              {"e.weight", "F16", {2, 4}, w}});
    const Checkpoint c(file);
    const auto a = load_sparse_weight(c, "a.weight", DType::F16, Pattern::P2_4).source.row_scale;
    REQUIRE(a);
    REQUIRE(a->values == per_channel);
    REQUIRE_FALSE(a->per_tensor);
    REQUIRE(a->tensor == "a.weight_scale");
    REQUIRE(a->sha256 == sha256_hex(raw(per_channel)));
    const auto b = load_sparse_weight(c, "b.weight", DType::F16, Pattern::P2_4).source.row_scale;
    REQUIRE(b->per_tensor);
    REQUIRE(b->values == std::vector<float>{0.125f, 0.125f});
    require_refused([&] { load_sparse_weight(c, "c.weight", DType::F16, Pattern::P2_4); }, file, "tensor \"c.weight_scale\": row 1 is nan");
    require_refused([&] { load_sparse_weight(c, "d.weight", DType::F16, Pattern::P2_4); }, file, "shape [3]: neither one scale per row (2) nor one per tensor");
    REQUIRE_FALSE(load_sparse_weight(c, "e.weight", DType::F16, Pattern::P2_4).source.row_scale);
}

TEST_CASE("the record's description of a source names file, tensor, dtype, shape, hash, pruning and the scale") {
    const auto file = dense_f16_file("dense_record");
    const auto j = load_sparse_weight(TensorRef{file, "layer.weight"}, DType::F16, Pattern::P2_4).source.to_json();
    REQUIRE(j["file"] == file.string());
    REQUIRE(j["tensor"] == "layer.weight");
    REQUIRE(j["format"] == "safetensors");
    REQUIRE(j["dtype"] == "F16");
    REQUIRE(j["shape"] == nlohmann::json::array({4, 8}));
    REQUIRE(j["sha256"].get<std::string>().size() == 64);
    REQUIRE(j["pruned"] == true);
    REQUIRE(j["norm_kept"].get<double>() < 1.0);
    REQUIRE(j["pattern_share"] == 0.5);
    REQUIRE_FALSE(j.contains("row_scale"));
    REQUIRE_FALSE(j.contains("shard"));
}

TEST_CASE("parse_tensor_ref splits FILE:TENSOR at the rightmost ':' that leaves a file, and reads FILE.npy whole") {
    const auto dir = spmma::test::scratch_dir("refs");
    const auto st = spmma::test::write_bytes(dir / "m.safetensors", make_safetensors({}));
    const auto npy = spmma::test::write_bytes(dir / "a.npy", "x");
    const auto r1 = parse_tensor_ref(st.string() + ":layers.0:weight");
    REQUIRE(r1.path == st);
    REQUIRE(r1.tensor == "layers.0:weight");
    REQUIRE(parse_tensor_ref(dir.string() + ":w").path == dir);
    const auto r2 = parse_tensor_ref(npy.string());
    REQUIRE(r2.path == npy);
    REQUIRE(r2.tensor.empty());
    REQUIRE(r1.text() == st.string() + ":layers.0:weight");
    require_refused([&] { parse_tensor_ref(st.string()); }, st, "names a file but no tensor");
    require_refused([&] { parse_tensor_ref(dir.string()); }, dir, "names a folder but no tensor");
    require_refused([&] { parse_tensor_ref((dir / "none.safetensors:w").string()); }, dir / "none.safetensors:w", "names no file or folder");
}
