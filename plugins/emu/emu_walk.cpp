// The atom walk shared by the emulated kernels (see emu_walk.hpp).
#include "emu_walk.hpp"

#include "emu_parallel.hpp"

#include <spmma/isa/mma_sp_geometry.hpp>
#include <spmma/types.hpp>

namespace spmma_emu {

std::vector<double> walk_atoms(const spmma::isa::MmaSp& form, int64_t m, int64_t n, int64_t steps, const LoadMma& load,
                               const std::string& kernel) {
    using namespace spmma::isa;
    const MmaSpGeometry geo = mma_sp_geometry(form);
    const int64_t atoms_m = (m + 15) / 16, atoms_n = (n + 7) / 8;
    std::vector<double> acc(static_cast<size_t>(m * n), 0.0);
    for_each_piece(atoms_m * atoms_n, [&](int64_t atom) -> std::string {
        const int64_t row0 = (atom / atoms_n) * 16, col0 = (atom % atoms_n) * 8;
        MmaSpWarp w{};  // c starts at zero: the kernels accumulate from 0 and add beta*C after
        for (int64_t step = 0; step < steps; ++step) {
            load(w, row0, col0, step);
            const MmaSpResult r = mma_sp(form, w);
            if (!r.undefined.empty())
                return kernel + ": the mma.sp of rows " + std::to_string(row0) + ".." + std::to_string(row0 + 15) +
                       ", columns " + std::to_string(col0) + ".." + std::to_string(col0 + 7) + ", k step " +
                       std::to_string(step) + " gets an undefined input: " + r.undefined.front();
            w.c = r.d;
        }
        for (int lane = 0; lane < 32; ++lane)
            for (int reg = 0; reg < geo.c_regs; ++reg)
                for (int h = 0; h < (geo.f16_acc ? 2 : 1); ++h) {
                    const MatPos p = cd_position(geo, lane, reg, h);
                    const int64_t row = row0 + p.row, col = col0 + p.col;
                    if (row >= m || col >= n) continue;
                    const uint32_t bits = geo.f16_acc ? (w.c[lane][reg] >> (16 * h)) & 0xffff : w.c[lane][reg];
                    acc[static_cast<size_t>(row * n + col)] =
                        form.d == spmma::DType::S32 ? static_cast<double>(static_cast<int32_t>(bits)) : spmma::decode(form.d, bits);
                }
        return {};
    });
    return acc;
}

}  // namespace spmma_emu
