// The loop over the independent pieces of an emulated kernel (CTA tiles), spread over the
// OpenMP threads, with the first problem any piece meets turned into one exception.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace spmma_emu {

// Runs piece(i) for every i in [0, count); a piece returns "" or the problem that stopped it.
// Throws std::runtime_error with the problem of the lowest such i (the same message whatever the
// thread count). An exception a piece throws counts as its problem.
void for_each_piece(int64_t count, const std::function<std::string(int64_t)>& piece);

}  // namespace spmma_emu
