// Operands named by files instead of drawn from the seed: A a weight (out x in = m x k), B an
// n x k tensor (tokens x features: spmma's column-major k x n B as stored), C an m x n tensor.
// This folder reads no file: what a problem needs to know of a tensor (its shape, the type it
// holds, the types it can be read as) comes from a TensorProbe that core/weights provides.
#pragma once

#include <spmma/core/problem.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace spmma {

// "FILE.safetensors:TENSOR", "FOLDER:TENSOR" or "FILE.npy" with an absolute path; empty: drawn.
struct OperandFiles {
    std::string a, b, c;
    bool empty() const { return a.empty() && b.empty() && c.empty(); }
};

struct TensorFacts {
    std::string ref;                 // the reference with its path made absolute (what a job keeps)
    int64_t rows = 0, cols = 0;      // as stored (a sparse-24-bitmask layer: the dense m x k)
    DType type = DType::None;        // the operand type it holds as stored; None when the file does not say
    std::string stored;              // the stored type as the file writes it ("BF16", "<f2")
    bool sparse_2_4 = false;         // a compressed-tensors sparse-24-bitmask layer: 2:4 only
    std::function<std::string(DType)> cannot_read;  // why it cannot be read as a type; "" when it can
};

// Facts of the tensor a reference names (a relative path from the current folder). Throws
// std::runtime_error with the file and the reason (no such file or tensor, not 2-D, a bad file).
using TensorProbe = std::function<TensorFacts(const std::string& ref)>;

// The facts of each operand a problem reads from a file (none: drawn).
struct FileFacts {
    std::optional<TensorFacts> a, b, c;
    bool empty() const { return !a && !b && !c; }
    OperandFiles files() const;
    // The size a tensor gives a problem ("m": A's rows, "n": B's rows, "k": A's columns, else
    // B's); nullopt when no tensor gives it.
    std::optional<int64_t> size(const std::string& dim) const;
    // The type the operands take when none is given: A's tensor's, else B's; None when neither
    // says (the caller keeps its default).
    DType natural_type() const;
};

// Why a problem (sizes and types set) cannot read an operand from its tensor: the key at fault
// ("m", "n", "k" for a size the tensor contradicts; the operand's own key for a type it cannot
// be read as; "pattern" for a sparse-24-bitmask layer under another pattern; "beta" for C named
// while beta is 0; "scale_type" for block scales), the operand ("a", "b", "c": where the blame
// goes when the key was not given but came from another tensor) and the reason.
struct FileConflict {
    std::string key, operand, message;
};
std::optional<FileConflict> check_operand_files(const Problem& p, const FileFacts& f);

}  // namespace spmma
