#include <spmma/weights/file_operands.hpp>

#include <spmma/weights/bitmask24.hpp>
#include <spmma/weights/checkpoint.hpp>
#include <spmma/weights/operand.hpp>
#include <spmma/weights/stored_type.hpp>
#include <spmma/weights/weights_error.hpp>

#include <fmt/format.h>

#include <cstring>

namespace spmma::weights {
namespace {

namespace fs = std::filesystem;

std::function<std::string(DType)> reader_of(StoredType stored) {
    return [stored](DType t) {
        std::string why;
        return plan_read(stored, t, &why) ? std::string() : why;
    };
}

// The bytes made from a file must fill the buffer the problem sized, exactly.
void copy_exact(const std::vector<uint8_t>& from, uint8_t* to, size_t size, const WeightSource& s, const char* what) {
    if (from.size() != size)
        throw WeightsError(s.file, fmt::format("tensor {}: {} holds {} bytes, the problem's {} takes {}", quote_name(s.ref.tensor), what,
                                               from.size(), what, size));
    std::memcpy(to, from.data(), size);
}

}  // namespace

TensorFacts probe_tensor(const std::string& text) {
    TensorRef ref = parse_tensor_ref(text);
    ref.path = fs::absolute(ref.path).lexically_normal();
    const Checkpoint c(ref.path);
    TensorFacts f;
    f.ref = ref.text();
    if (const auto layer = c.is_npy() ? std::nullopt : find_bitmask24_layer(c, ref.tensor)) {
        f.rows = layer->m;
        f.cols = layer->k;
        f.type = run_type(layer->compressed.type, c.int8_view());
        f.stored = c.stored_dtype(layer->compressed);
        f.sparse_2_4 = true;
        f.cannot_read = reader_of(layer->compressed.type);
        return f;
    }
    const TensorView t = c.get(ref.tensor);
    if (!t.is_2d()) throw WeightsError(t.file, fmt::format("tensor {}: shape {}: an operand is 2-D", quote_name(t.name), t.shape_text()));
    f.rows = t.shape[0];
    f.cols = t.shape[1];
    f.type = run_type(t.type, c.int8_view());
    f.stored = c.stored_dtype(t);
    f.cannot_read = reader_of(t.type);
    return f;
}

nlohmann::json make_operands(const Job& job, const OperandBuffers& out) {
    generate_operands(job.problem, out);
    const OperandFiles& files = job.files;
    if (files.empty()) return nullptr;
    const Problem& p = job.problem;
    nlohmann::json sources = nlohmann::json::object();
    if (!files.a.empty()) {
        const SparseWeight w = load_sparse_weight(parse_tensor_ref(files.a), p.a, p.pattern);
        copy_exact(w.a.values, out.a_values, out.sizes.a_values, w.source, "A's values");
        copy_exact(w.a.indices, out.a_indices, out.sizes.a_indices, w.source, "A's indices");
        sources["a"] = w.source.to_json();
    }
    if (!files.b.empty()) {
        // B is k x n column-major: the n x k tensor row-major, byte for byte.
        const DenseTensor b = load_dense_tensor(parse_tensor_ref(files.b), p.b);
        copy_exact(b.data, out.b, out.sizes.b, b.source, "B");
        sources["b"] = b.source.to_json();
    }
    if (!files.c.empty()) {
        const DenseTensor c = load_dense_tensor(parse_tensor_ref(files.c), p.c);
        copy_exact(c.data, out.c, out.sizes.c, c.source, "C");
        sources["c"] = c.source.to_json();
    }
    return sources;
}

}  // namespace spmma::weights
