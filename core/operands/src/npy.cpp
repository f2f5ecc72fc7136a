// NumPy .npy writer/reader and the operand export.
#include <spmma/core/npy.hpp>

#include <spmma/core/sparsity.hpp>
#include <spmma/reference/tolerance.hpp>
#include <spmma/types.hpp>

#include <nlohmann/json.hpp>

#include <cstring>
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

int64_t element_count(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (auto s : shape) {
        if (s < 0) throw std::invalid_argument("npy: negative dimension");
        n *= s;
    }
    return n;
}

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
    std::string dims;  // "3," for one dimension, "3, 4" for two
    for (size_t x = 0; x < shape.size(); ++x) dims += (x ? ", " : "") + std::to_string(shape[x]);
    if (shape.size() == 1) dims += ",";
    std::string header = std::string("{'descr': '") + descr(type) + "', 'fortran_order': False, 'shape': (" + dims + "), }";
    // Magic (6) + version (2) + header length (2) + header, padded with spaces to a multiple of
    // 64 and ended by a newline.
    const size_t unpadded = 10 + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header.push_back('\n');
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + file.string());
    const char magic[8] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0};
    out.write(magic, 8);
    const uint16_t len = static_cast<uint16_t>(header.size());
    const char len_bytes[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
    out.write(len_bytes, 2);
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
    char magic[10];
    in.read(magic, 10);
    if (!in || std::memcmp(magic, "\x93NUMPY", 6) != 0 || magic[6] != 1) throw std::runtime_error(file.string() + ": not a .npy 1.x file");
    const size_t len = static_cast<uint8_t>(magic[8]) | (static_cast<size_t>(static_cast<uint8_t>(magic[9])) << 8);
    std::string header(len, '\0');
    in.read(header.data(), static_cast<std::streamsize>(len));
    NpyArray a;
    bool found = false;
    for (NpyType t : {NpyType::F32, NpyType::F64, NpyType::I32, NpyType::I64})
        if (header.find(std::string("'descr': '") + descr(t) + "'") != std::string::npos) {
            a.type = t;
            found = true;
        }
    if (!found || header.find("'fortran_order': False") == std::string::npos)
        throw std::runtime_error(file.string() + ": unsupported .npy header " + header);
    const auto open = header.find("'shape': (");
    const auto close = header.find(')', open);
    if (open == std::string::npos || close == std::string::npos) throw std::runtime_error(file.string() + ": no shape in " + header);
    std::string dims = header.substr(open + 10, close - open - 10);
    size_t pos = 0;
    while (pos < dims.size()) {
        const auto comma = dims.find(',', pos);
        const std::string item = dims.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (item.find_first_not_of(' ') != std::string::npos) a.shape.push_back(std::stoll(item));
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    a.bytes.resize(element_size(a.type) * static_cast<size_t>(element_count(a.shape)));
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
                    {"beta", p.beta}};
    j["files"] = files;
    j["layout"] = "C-order; A m x k dense with zeros in place; B k x n; C, D, D_ref m x n; scale_A m x k/scale_block; "
                  "scale_B n x k/scale_block; floating types as exactly decoded float32, integers as int32";
    j["tolerance"] = {{"rule", tol.description()},
                      {"bit_exact", rule.bit_exact},
                      {"acc_epsilon", rule.acc_epsilon},
                      {"exact_bits", rule.exact_bits},
                      {"epilogue_epsilon", rule.epilogue_epsilon},
                      {"statistical_factor", reference::kStatisticalFactor},
                      {"terms", tol.terms()}};
    const auto sidecar = dir / (stem + ".json");
    std::ofstream out(sidecar, std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + sidecar.string());
    out << j.dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write " + sidecar.string());
    return sidecar;
}

}  // namespace spmma
