// One created sm120a problem: the kit's one-CTA-per-tile Gemm (tile_gemm.hpp) on the sm120a
// packing (pack/), with the block scales' words for the scaled forms.
#include "kernel_table.hpp"

#include <spmma_plugin/tile_gemm.hpp>
#include <spmma_sm120a/pack.hpp>
#include <spmma_sm120a/params.hpp>

#include <vector>

namespace spmma_sm120a {
namespace {

using spmma_plugin::cuda::to_device;

class Sm120aGemm final : public spmma_plugin::cuda::TileGemm<KernelDesc, GemmParams, PackedShape> {
public:
    Sm120aGemm(int device, const spmma_problem& problem, const KernelDesc& kernel) : TileGemm(device, problem, kernel) {}

protected:
    void pack_own(const spmma_operands& ops, int threads) override {
        upload_epilogue(ops);
        const Form& f = kernel_.form;
        if (!f.scaled()) return;
        std::vector<uint32_t> sa(static_cast<size_t>(shape_.sa_words)), sb(static_cast<size_t>(shape_.sb_words));
        pack_scales_a(f, shape_, kernel_.tile.bm, ops.scale_a, sa.data(), threads);
        pack_scales_b(f, shape_, kernel_.tile.bn, ops.scale_b, sb.data(), threads);
        sa_ = to_device(sa);
        sb_ = to_device(sb);
    }

    void fill_own(GemmParams& g) const override {
        g.epi = fused_epilogue();
        g.sa = sa_.as<const uint32_t>();  // null when unscaled
        g.sb = sb_.as<const uint32_t>();
    }

private:
    spmma_plugin::cuda::DeviceBuffer sa_, sb_;
};

}  // namespace

std::unique_ptr<spmma_plugin::Gemm> make_gemm(int device, const spmma_problem& p, const KernelDesc& k) {
    return std::make_unique<Sm120aGemm>(device, p, k);
}

}  // namespace spmma_sm120a
