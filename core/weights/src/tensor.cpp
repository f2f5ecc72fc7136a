#include <spmma/weights/tensor.hpp>

#include <fmt/format.h>

namespace spmma::weights {

int64_t TensorView::elements() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;  // the readers have checked that the product fits
    return n;
}

std::string TensorView::shape_text() const { return fmt::format("[{}]", fmt::join(shape, ", ")); }

}  // namespace spmma::weights
