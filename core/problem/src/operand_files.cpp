#include <spmma/core/operand_files.hpp>

#include <fmt/format.h>

namespace spmma {

OperandFiles FileFacts::files() const {
    return {a ? a->ref : "", b ? b->ref : "", c ? c->ref : ""};
}

std::optional<int64_t> FileFacts::size(const std::string& dim) const {
    if (dim == "m" && a) return a->rows;
    if (dim == "n" && b) return b->rows;
    if (dim == "k" && (a || b)) return a ? a->cols : b->cols;
    return std::nullopt;
}

DType FileFacts::natural_type() const {
    if (a) return a->type;
    if (b) return b->type;
    return DType::None;
}

namespace {

std::optional<FileConflict> shape_mismatch(const TensorFacts& t, const char* operand, const char* layout, int64_t rows, int64_t cols,
                                           const char* row_key, const char* col_key) {
    const char* key = t.rows != rows ? row_key : t.cols != cols ? col_key : nullptr;
    if (!key) return std::nullopt;
    return FileConflict{key, operand, fmt::format("{} = {}, but {}'s tensor {} is {} x {} ({}: the problem needs {} x {})", key,
                                    key == row_key ? rows : cols, operand, t.ref, t.rows, t.cols, layout, rows, cols)};
}

std::optional<FileConflict> unreadable(const TensorFacts& t, const char* operand, DType type) {
    const std::string why = t.cannot_read ? t.cannot_read(type) : "";
    if (why.empty()) return std::nullopt;
    return FileConflict{operand, operand, fmt::format("{}'s tensor {} ({}) cannot be read as {}: {}", operand, t.ref, t.stored, name(type), why)};
}

}  // namespace

std::optional<FileConflict> check_operand_files(const Problem& p, const FileFacts& f) {
    if (f.a) {
        if (auto bad = shape_mismatch(*f.a, "a", "out x in = m x k", p.m, p.k, "m", "k")) return bad;
        if (f.a->sparse_2_4 && p.pattern != Pattern::P2_4)
            return FileConflict{"pattern", "a", fmt::format("a's tensor {} is a sparse-24-bitmask layer (2:4), the pattern is {}", f.a->ref, name(p.pattern))};
        if (p.scale != DType::None)
            return FileConflict{"scale_type", "a", "block scales are drawn, not read from a checkpoint: A from a file runs without them"};
        if (auto bad = unreadable(*f.a, "a", p.a)) return bad;
    }
    if (f.b) {
        if (auto bad = shape_mismatch(*f.b, "b", "n x k, tokens x features", p.n, p.k, "n", "k")) return bad;
        if (p.scale != DType::None)
            return FileConflict{"scale_type", "b", "block scales are drawn, not read from a checkpoint: B from a file runs without them"};
        if (auto bad = unreadable(*f.b, "b", p.b)) return bad;
    }
    if (f.c) {
        if (p.beta == 0) return FileConflict{"beta", "c", fmt::format("c names {}, but C is read only when beta is not 0", f.c->ref)};
        if (auto bad = shape_mismatch(*f.c, "c", "m x n", p.m, p.n, "m", "n")) return bad;
        if (auto bad = unreadable(*f.c, "c", p.c)) return bad;
    }
    return std::nullopt;
}

}  // namespace spmma
