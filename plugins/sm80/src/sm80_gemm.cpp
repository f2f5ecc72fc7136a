// One created sm80 problem: the kit's one-CTA-per-tile Gemm (tile_gemm.hpp) on the sm80
// packing (pack/), with the integer epilogue's fields of the parameters and ABI 1.2's epilogue
// (its vectors uploaded with the operands, fused into the kernels' epilogue).
#include "kernel_table.hpp"

#include <spmma_plugin/tile_gemm.hpp>
#include <spmma_sm80/pack.hpp>
#include <spmma_sm80/params.hpp>

#include <cmath>

namespace spmma_sm80 {
namespace {

class Sm80Gemm final : public spmma_plugin::cuda::TileGemm<KernelDesc, GemmParams, PackedShape> {
public:
    Sm80Gemm(int device, const spmma_problem& problem, const KernelDesc& kernel) : TileGemm(device, problem, kernel) {}

protected:
    void pack_own(const spmma_operands& ops, int /*threads*/) override { upload_epilogue(ops); }

    void fill_own(GemmParams& g) const override {
        g.epi = fused_epilogue();
        g.alpha_i = static_cast<int64_t>(std::llround(problem_.alpha));
        g.beta_i = static_cast<int64_t>(std::llround(problem_.beta));
        g.saturate = problem_.saturate ? 1 : 0;
    }
};

}  // namespace

std::unique_ptr<spmma_plugin::Gemm> make_gemm(int device, const spmma_problem& p, const KernelDesc& k) {
    return std::make_unique<Sm80Gemm>(device, p, k);
}

}  // namespace spmma_sm80
