// One created sm80 problem: the kit's one-CTA-per-tile Gemm (tile_gemm.hpp) on the sm80
// packing (pack/), with the integer epilogue's fields of the parameters, ABI 1.2's epilogue
// (its vectors uploaded with the operands, fused into the kernels' epilogue) and split-K where
// the tiles alone leave SMs idle (split_k.hpp: its workspace, allocated with the operands, and
// the reduction launched after the GEMM).
#include "kernel_table.hpp"

#include <spmma_plugin/tile_gemm.hpp>
#include <spmma_sm80/pack.hpp>
#include <spmma_sm80/params.hpp>
#include <spmma_sm80/split_k.hpp>

#include <cmath>
#include <string>

namespace spmma_sm80 {
namespace {

class Sm80Gemm final : public spmma_plugin::cuda::TileGemm<KernelDesc, GemmParams, PackedShape> {
public:
    Sm80Gemm(int device, const spmma_problem& problem, const KernelDesc& kernel)
        : TileGemm(device, problem, kernel),
          splits_(splits_on_device(kernel)),
          reduce_fn_(splits_ > 1 ? this->kernel(kernel.image, kernel.op->acc == SPMMA_S32 ? "sm80_add_k_splits_s32"
                                                                                          : "sm80_add_k_splits_f32",
                                                0)
                                 : nullptr) {}

    // The record's plugin_notes: the grid and how many CTAs share a tile along k.
    std::string describe() const override {
        const int64_t t = tiles();
        return "{\"tiles\": " + std::to_string(t) + ", \"k_splits\": " + std::to_string(splits_) +
               ", \"ctas\": " + std::to_string(t * splits_) + "}";
    }

protected:
    void pack_own(const spmma_operands& ops, int /*threads*/) override {
        upload_epilogue(ops);
        if (splits_ > 1)
            partials_ = spmma_plugin::cuda::DeviceBuffer(static_cast<size_t>(splits_ * problem_.m * shape_.n_pad * 4));
    }

    void fill_own(GemmParams& g) const override {
        g.epi = fused_epilogue();
        g.alpha_i = static_cast<int64_t>(std::llround(problem_.alpha));
        g.beta_i = static_cast<int64_t>(std::llround(problem_.beta));
        g.saturate = problem_.saturate ? 1 : 0;
        g.k_splits = splits_;
        g.partials_ld = static_cast<int>(shape_.n_pad);
        g.partials = partials_.as<uint32_t>();
    }

    int ctas_per_tile() const override { return splits_; }

    // The GEMM, then (split) the reduction: one thread for 4 columns of each of D's m rows.
    void launch(CUstream stream) override {
        TileGemm::launch(stream);
        if (splits_ == 1) return;
        const int64_t threads = problem_.m * (shape_.n_pad / 4);
        spmma_plugin::cuda::launch_1d(reduce_fn_, static_cast<unsigned>((threads + kReduceThreads - 1) / kReduceThreads),
                                      kReduceThreads, 0, stream, params_);
    }

private:
    int64_t tiles() const { return (shape_.m_pad / kernel_.tile.bm) * (shape_.n_pad / kernel_.tile.bn); }

    int splits_on_device(const KernelDesc& k) const {
        return k_splits_on(k.tile, k.op->family, tiles(), shape_.k_stages, props_.sm_count,
                           props_.max_smem_per_block_optin + 1024);
    }

    int splits_;
    CUfunction reduce_fn_;  // sm80_add_k_splits_<acc> of the kernel's fatbin, when split
    spmma_plugin::cuda::DeviceBuffer partials_;
};

}  // namespace

std::unique_ptr<spmma_plugin::Gemm> make_gemm(int device, const spmma_problem& p, const KernelDesc& k) {
    return std::make_unique<Sm80Gemm>(device, p, k);
}

}  // namespace spmma_sm80
