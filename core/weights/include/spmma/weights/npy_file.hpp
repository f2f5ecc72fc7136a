// A .npy file as a weight: the header read by core's npy_format (versions 1.0, 2.0, 3.0), the
// array's bytes mapped. Read: C order only; the descrs of parse_npy_descr (little-endian or
// byte-order free f2 f4 f8 i1 u1 i2 u2 i4 u4 i8 u8 b1, and ml_dtypes' raw V1 / V2, whose type
// the operand type names: stored_type.hpp). The data must be exactly as long as the header says.
#pragma once

#include <spmma/weights/mapped_file.hpp>
#include <spmma/weights/tensor.hpp>

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace spmma::weights {

struct NpyLayout {
    std::string descr;              // as written
    StoredType type = StoredType::F32;
    std::vector<int64_t> shape;
    size_t data_offset = 0;
};

// Throws WeightsError(file_name, reason): not .npy, a bad header, fortran_order True, a descr
// not read, data shorter or longer than the shape.
NpyLayout parse_npy(std::span<const std::byte> file, const std::filesystem::path& file_name);

class NpyFile {
public:
    explicit NpyFile(const std::filesystem::path& file);
    const std::filesystem::path& path() const { return map_.path(); }
    const NpyLayout& layout() const { return layout_; }
    TensorView view() const;  // named after the file's stem

private:
    MappedFile map_;
    NpyLayout layout_;
};

}  // namespace spmma::weights
