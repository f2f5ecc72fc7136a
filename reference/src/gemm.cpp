// gemm_full, gemm_element, reference_d: the reference's public GEMM entry points.
#include <spmma/reference/gemm.hpp>

#include "operand_view.hpp"

#include <spmma/types.hpp>

#include <stdexcept>

namespace spmma::reference {

std::vector<double> gemm_full(const GemmInput& input, std::vector<double>* abs_sum) {
    const detail::OperandView v(input);
    std::vector<double> out(static_cast<size_t>(v.m * v.n));
    if (abs_sum) abs_sum->assign(out.size(), 0.0);
    detail::accumulate_full(v, out.data(), abs_sum ? abs_sum->data() : nullptr, nullptr, nullptr);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < v.m; ++i)
        for (int64_t j = 0; j < v.n; ++j) {
            double& x = out[static_cast<size_t>(i * v.n + j)];
            x = detail::finish(v, i, j, x, v.c_value(i, j));
        }
    return out;
}

double gemm_element(const GemmInput& input, int64_t i, int64_t j, double* abs_sum) {
    const detail::OperandView v(input);
    if (i < 0 || i >= v.m || j < 0 || j >= v.n) throw std::out_of_range("gemm_element: (i, j) outside the problem");
    std::vector<double> values(static_cast<size_t>(v.entries));
    std::vector<int32_t> columns(static_cast<size_t>(v.entries));
    v.a_row(i, 0, v.entries, values.data(), columns.data());
    const auto r = detail::raw_element(v, values.data(), columns.data(), INT_MAX, j);
    if (abs_sum) *abs_sum = r.abs;
    return detail::finish(v, i, j, r.acc, v.c_value(i, j));
}

std::vector<uint8_t> reference_d(const GemmInput& input) {
    const auto value = gemm_full(input);
    const DType d = static_cast<DType>(input.problem.d_type);
    const int64_t count = static_cast<int64_t>(value.size());
    std::vector<uint8_t> out(storage_bytes(d, count));
    // D types are 16 or 32 bits wide: threads never share a byte.
#pragma omp parallel for schedule(static)
    for (int64_t x = 0; x < count; ++x) store_code(d, out.data(), x, encode(d, value[static_cast<size_t>(x)]));
    return out;
}

}  // namespace spmma::reference
