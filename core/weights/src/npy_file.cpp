#include <spmma/weights/npy_file.hpp>

#include <spmma/core/npy_format.hpp>
#include <spmma/weights/weights_error.hpp>

#include <fmt/format.h>

#include <limits>
#include <stdexcept>

namespace spmma::weights {

NpyLayout parse_npy(std::span<const std::byte> file, const std::filesystem::path& file_name) {
    NpyHeader h;
    try {
        h = parse_npy_header(std::string_view(reinterpret_cast<const char*>(file.data()), file.size()));
    } catch (const std::invalid_argument& e) {
        throw WeightsError(file_name, e.what());
    }
    if (h.fortran_order)
        throw WeightsError(file_name, "fortran_order is True: only C-order arrays are read (numpy.ascontiguousarray before numpy.save)");
    const auto type = parse_npy_descr(h.descr);
    if (!type)
        throw WeightsError(file_name, fmt::format("the dtype {} is not read (little-endian f2 f4 f8 i1 u1 i2 u2 i4 u4 i8 u8 b1, "
                                                  "ml_dtypes' V1 and V2)", quote_name(h.descr)));
    const int64_t elements = npy_element_count(h.shape);
    const int64_t size = element_bytes(*type);
    if (elements > std::numeric_limits<int64_t>::max() / size) throw WeightsError(file_name, "the byte count of the shape overflows int64");
    const auto bytes = static_cast<uint64_t>(elements * size);
    const uint64_t data = file.size() - h.data_offset;
    if (data != bytes)
        throw WeightsError(file_name, fmt::format("the data is {} bytes, {} of shape ({}) is {}: {}", data, h.descr, fmt::join(h.shape, ", "),
                                                  bytes, data < bytes ? "truncated" : "trailing bytes"));
    return NpyLayout{h.descr, *type, h.shape, h.data_offset};
}

NpyFile::NpyFile(const std::filesystem::path& file) : map_(file), layout_(parse_npy(map_.bytes(), file)) {}

TensorView NpyFile::view() const {
    return TensorView{path(), path().stem().string(), layout_.type, layout_.shape, map_.bytes().subspan(layout_.data_offset)};
}

}  // namespace spmma::weights
