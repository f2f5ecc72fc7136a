// NumPy .npy writer/reader (the header: npy_format.cpp) and the operand export.
#include <spmma/core/npy.hpp>

#include <spmma/core/npy_format.hpp>
#include <spmma/core/sparsity.hpp>
#include <spmma/reference/tolerance.hpp>
#include <spmma/types.hpp>

#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>

namespace spmma {
namespace {

const char* descr(NpyType t) {
    switch (t) {
        case NpyType::F32: return "<f4";
        case NpyType::F64: return "<f8";
        case NpyType::I32: return "<i4";
        case NpyType::I64: return "<i8";
    }
    return "?";
}

size_t element_size(NpyType t) { return (t == NpyType::F32 || t == NpyType::I32) ? 4 : 8; }

int64_t element_count(const std::vector<int64_t>& shape) { return npy_element_count(shape); }

// Exactly decoded operand as float32 (floating types) or int32 (integer types).
struct Decoded {
    bool integer = false;
    std::vector<float> f;
    std::vector<int32_t> i;
};

Decoded decode_all(DType t, const void* buf, int64_t count) {
    Decoded out;
    out.integer = is_integer(t);
    if (out.integer) out.i.resize(static_cast<size_t>(count));
    else out.f.resize(static_cast<size_t>(count));
    for (int64_t x = 0; x < count; ++x) {
        const double v = decode(t, load_code(t, buf, x));
        if (out.integer) out.i[static_cast<size_t>(x)] = static_cast<int32_t>(v);
        else out.f[static_cast<size_t>(x)] = static_cast<float>(v);
    }
    return out;
}

void write_decoded(const std::filesystem::path& file, const Decoded& d, const std::vector<int64_t>& shape) {
    if (d.integer) write_npy(file, d.i, shape);
    else write_npy(file, d.f, shape);
}

// Column-major k x n -> row-major k x n.
Decoded transpose_b(const Decoded& colmajor, int64_t k, int64_t n) {
    Decoded out;
    out.integer = colmajor.integer;
    auto move = [&](const auto& src, auto& dst) {
        dst.resize(src.size());
        for (int64_t j = 0; j < n; ++j)
            for (int64_t kk = 0; kk < k; ++kk) dst[static_cast<size_t>(kk * n + j)] = src[static_cast<size_t>(j * k + kk)];
    };
    if (out.integer) move(colmajor.i, out.i);
    else move(colmajor.f, out.f);
    return out;
}

}  // namespace

void write_npy(const std::filesystem::path& file, NpyType type, const void* data, const std::vector<int64_t>& shape) {
    const std::string header = format_npy_header(descr(type), shape);
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + file.string());
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(element_size(type) * static_cast<size_t>(element_count(shape))));
    if (!out) throw std::runtime_error("cannot write " + file.string());
}

void write_npy(const std::filesystem::path& f, const std::vector<float>& d, const std::vector<int64_t>& s) {
    if (static_cast<int64_t>(d.size()) != element_count(s)) throw std::invalid_argument("npy: data size does not match the shape");
    write_npy(f, NpyType::F32, d.data(), s);
}
void write_npy(const std::filesystem::path& f, const std::vector<double>& d, const std::vector<int64_t>& s) {
    if (static_cast<int64_t>(d.size()) != element_count(s)) throw std::invalid_argument("npy: data size does not match the shape");
    write_npy(f, NpyType::F64, d.data(), s);
}
void write_npy(const std::filesystem::path& f, const std::vector<int32_t>& d, const std::vector<int64_t>& s) {
    if (static_cast<int64_t>(d.size()) != element_count(s)) throw std::invalid_argument("npy: data size does not match the shape");
    write_npy(f, NpyType::I32, d.data(), s);
}
void write_npy(const std::filesystem::path& f, const std::vector<int64_t>& d, const std::vector<int64_t>& s) {
    if (static_cast<int64_t>(d.size()) != element_count(s)) throw std::invalid_argument("npy: data size does not match the shape");
    write_npy(f, NpyType::I64, d.data(), s);
}

NpyArray read_npy(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + file.string());
    std::string head(10 + 2 + kNpyMaxHeaderBytes, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    NpyHeader h;
    try {
        h = parse_npy_header(head);
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(file.string() + ": " + e.what());
    }
    NpyArray a;
    bool found = false;
    for (NpyType t : {NpyType::F32, NpyType::F64, NpyType::I32, NpyType::I64})
        if (h.descr == descr(t)) {
            a.type = t;
            found = true;
        }
    if (!found || h.fortran_order) throw std::runtime_error(file.string() + ": unsupported .npy dtype '" + h.descr + "' or order");
    a.shape = h.shape;
    a.bytes.resize(element_size(a.type) * static_cast<size_t>(element_count(a.shape)));
    in.clear();
    in.seekg(static_cast<std::streamoff>(h.data_offset));
    in.read(reinterpret_cast<char*>(a.bytes.data()), static_cast<std::streamsize>(a.bytes.size()));
    if (!in) throw std::runtime_error(file.string() + ": truncated data");
    return a;
}

std::filesystem::path save_operands(const std::filesystem::path& dir, const std::string& stem, const spmma_problem& p,
                                    const spmma_operands& o, const void* d, const void* reference_d) {
    std::filesystem::create_directories(dir);
    const DType a_type = static_cast<DType>(p.a_type), b_type = static_cast<DType>(p.b_type);
    const DType c_type = static_cast<DType>(p.c_type), d_type = static_cast<DType>(p.d_type);
    const DType scale_type = static_cast<DType>(p.scale_type);
    const Pattern pattern = static_cast<Pattern>(p.pattern);
    const auto file = [&](const char* what) { return dir / (stem + "." + what + ".npy"); };
    nlohmann::json files = nlohmann::json::object();

    CompressedA compressed;
    compressed.values.assign(static_cast<const uint8_t*>(o.a_values), static_cast<const uint8_t*>(o.a_values) + o.a_values_bytes);
    compressed.indices.assign(o.a_indices, o.a_indices + o.a_indices_bytes);
    const auto dense = decompress(a_type, pattern, compressed, p.m, p.k);
    write_decoded(file("A"), decode_all(a_type, dense.data(), p.m * p.k), {p.m, p.k});
    files["A"] = file("A").filename().string();
    write_decoded(file("B"), transpose_b(decode_all(b_type, o.b, p.k * p.n), p.k, p.n), {p.k, p.n});
    files["B"] = file("B").filename().string();
    if (o.c && o.c_bytes) {
        write_decoded(file("C"), decode_all(c_type, o.c, p.m * p.n), {p.m, p.n});
        files["C"] = file("C").filename().string();
    }
    if (scale_type != DType::None && p.scale_block > 0) {
        const int64_t blocks = p.k / p.scale_block;
        write_decoded(file("scale_A"), decode_all(scale_type, o.scale_a, p.m * blocks), {p.m, blocks});
        write_decoded(file("scale_B"), decode_all(scale_type, o.scale_b, p.n * blocks), {p.n, blocks});
        files["scale_A"] = file("scale_A").filename().string();
        files["scale_B"] = file("scale_B").filename().string();
    }
    // The epilogue's vectors (ABI 1.2), 1-D.
    if (p.row_scale) {
        write_decoded(file("row_scale"), decode_all(DType::F32, o.row_scale, p.m), {p.m});
        files["row_scale"] = file("row_scale").filename().string();
    }
    if (p.col_scale) {
        write_decoded(file("col_scale"), decode_all(DType::F32, o.col_scale, p.n), {p.n});
        files["col_scale"] = file("col_scale").filename().string();
    }
    if (p.bias != SPMMA_BIAS_NONE) {
        const int64_t count = p.bias == SPMMA_BIAS_ROW ? p.m : p.n;
        write_decoded(file("bias"), decode_all(static_cast<DType>(p.bias_type), o.bias, count), {count});
        files["bias"] = file("bias").filename().string();
    }
    if (d) {
        write_decoded(file("D"), decode_all(d_type, d, p.m * p.n), {p.m, p.n});
        files["D"] = file("D").filename().string();
    }
    if (reference_d) {
        write_decoded(file("D_ref"), decode_all(d_type, reference_d, p.m * p.n), {p.m, p.n});
        files["D_ref"] = file("D_ref").filename().string();
    }

    const reference::ToleranceModel tol(p);
    const auto& rule = tol.rule();
    nlohmann::json j;
    j["problem"] = {{"m", p.m},
                    {"n", p.n},
                    {"k", p.k},
                    {"a_type", name(a_type)},
                    {"b_type", name(b_type)},
                    {"c_type", name(c_type)},
                    {"d_type", name(d_type)},
                    {"acc_type", name(static_cast<DType>(p.acc_type))},
                    {"pattern", spmma_pattern_name(p.pattern)},
                    {"saturate", p.saturate != 0},
                    {"scale_type", scale_type == DType::None ? "none" : name(scale_type)},
                    {"scale_block", p.scale_block},
                    {"alpha", p.alpha},
                    {"beta", p.beta},
                    {"row_scale", p.row_scale != 0},
                    {"col_scale", p.col_scale != 0},
                    {"bias", spmma_bias_name(p.bias)},
                    {"bias_type", spmma_dtype_name(p.bias_type)},
                    {"activation", spmma_activation_name(p.activation)}};
    j["files"] = files;
    j["layout"] = "C-order; A m x k dense with zeros in place; B k x n; C, D, D_ref m x n; scale_A m x k/scale_block; "
                  "scale_B n x k/scale_block; row_scale m, col_scale n, bias m or n; floating types as exactly decoded float32, integers as int32";
    j["tolerance"] = {{"rule", tol.description()},
                      {"bit_exact", rule.bit_exact},
                      {"acc_epsilon", rule.acc_epsilon},
                      {"exact_bits", rule.exact_bits},
                      {"epilogue_epsilon", rule.epilogue_epsilon},
                      {"statistical_factor", reference::kStatisticalFactor},
                      {"terms", tol.terms()},
                      {"activation_lipschitz", reference::activation_bound(p.activation).lipschitz},
                      {"activation_epsilon", reference::activation_bound(p.activation).epsilon}};
    const auto sidecar = dir / (stem + ".json");
    std::ofstream out(sidecar, std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + sidecar.string());
    out << j.dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write " + sidecar.string());
    return sidecar;
}

}  // namespace spmma
