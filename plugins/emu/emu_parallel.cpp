// for_each_piece (emu_parallel.hpp).
#include "emu_parallel.hpp"

#include <exception>
#include <limits>
#include <stdexcept>

namespace spmma_emu {

void for_each_piece(int64_t count, const std::function<std::string(int64_t)>& piece) {
    int64_t first = std::numeric_limits<int64_t>::max();
    std::string problem;
#pragma omp parallel for schedule(dynamic)
    for (int64_t i = 0; i < count; ++i) {
        std::string why;
        try {
            why = piece(i);
        } catch (const std::exception& e) {
            why = e.what();
        }
        if (why.empty()) continue;
#pragma omp critical(spmma_emu_piece_problem)
        if (i < first) {
            first = i;
            problem = std::move(why);
        }
    }
    if (!problem.empty()) throw std::runtime_error(problem);
}

}  // namespace spmma_emu
