// One sm120a GEMM: the canonical operands packed into the kernel's layout (pack/pack.hpp),
// uploaded once, then launched on the handle's stream, one CTA per tile.
#include "kernels.hpp"

#include "pack.hpp"

#include <spmma_plugin/host_pack.hpp>
#include <spmma_plugin/kernel_gemm.hpp>
#include <spmma_sm120a/params.hpp>

#include <vector>

namespace spmma_sm120a {
namespace {

using spmma_plugin::fail;
using spmma_plugin::cuda::to_device;

class Sm120aGemm final : public spmma_plugin::cuda::KernelGemm<KernelDesc> {
public:
    Sm120aGemm(int device, const spmma_problem& problem, const KernelDesc& kernel)
        : KernelGemm(device, problem, kernel, kernel.smem_bytes()),
          shape_(packed_shape(kernel.form, kernel.tile, problem.m, problem.n, problem.k)) {}

protected:
    void pack(const spmma_operands& ops) override {
        const Form& f = kernel_.form;
        const spmma_problem& p = problem_;
        const std::string bad = check_indices(f, p.m, p.k, ops.a_indices);
        if (!bad.empty()) fail(SPMMA_INVALID_ARGUMENT, "A's metadata would be undefined for mma.sp: " + bad);
        const int threads = spmma_plugin::host::host_threads();
        std::vector<uint8_t> a(static_cast<size_t>(shape_.a_bytes)), b(static_cast<size_t>(shape_.b_bytes));
        std::vector<uint32_t> e(static_cast<size_t>(shape_.e_words));
        pack_a(f, shape_, kernel_.tile.bm, static_cast<const uint8_t*>(ops.a_values), ops.a_indices, a.data(), e.data(), threads);
        pack_b(f, shape_, static_cast<const uint8_t*>(ops.b), b.data(), threads);
        a_ = to_device(a);
        e_ = to_device(e);
        b_ = to_device(b);
        if (f.scaled()) {
            std::vector<uint32_t> sa(static_cast<size_t>(shape_.sa_words)), sb(static_cast<size_t>(shape_.sb_words));
            pack_scales_a(f, shape_, kernel_.tile.bm, ops.scale_a, sa.data(), threads);
            pack_scales_b(f, shape_, kernel_.tile.bn, ops.scale_b, sb.data(), threads);
            sa_ = to_device(sa);
            sb_ = to_device(sb);
        }
        upload_c(ops, CForm::as_given);
        fill_params();
    }

    void launch(CUstream stream) override {
        spmma_plugin::cuda::launch_1d(fn_, static_cast<unsigned>(params_.tiles_m) * static_cast<unsigned>(params_.tiles_n),
                                      static_cast<unsigned>(kernel_.threads()), static_cast<unsigned>(kernel_.smem_bytes()),
                                      stream, params_);
    }

private:
    void fill_params() {
        const spmma_problem& p = problem_;
        const bool beta_zero = p.beta == 0;
        GemmParams& g = params_;
        g = GemmParams{};
        g.a = a_.as<const uint8_t>();
        g.e = e_.as<const uint32_t>();
        g.sa = sa_.as<const uint32_t>();  // null when unscaled
        g.sb = sb_.as<const uint32_t>();
        g.b = b_.as<const uint8_t>();
        g.c = c_.as<const void>();
        g.d = d_.as();
        g.ldb = shape_.ldb;
        g.m = static_cast<int>(p.m);
        g.n = static_cast<int>(p.n);
        g.k_stages = static_cast<int>(shape_.k_stages);
        g.tiles_m = static_cast<int>(shape_.m_pad / kernel_.tile.bm);
        g.tiles_n = static_cast<int>(shape_.n_pad / kernel_.tile.bn);
        g.raster_group = 8;
        g.c_type = beta_zero ? p.d_type : p.c_type;
        g.d_type = p.d_type;
        g.beta_zero = beta_zero ? 1 : 0;
        g.alpha = static_cast<float>(p.alpha);
        g.beta = static_cast<float>(p.beta);
    }

    PackedShape shape_;
    spmma_plugin::cuda::DeviceBuffer a_, e_, sa_, sb_, b_;
    GemmParams params_{};
};

}  // namespace

std::unique_ptr<spmma_plugin::Gemm> make_gemm(int device, const spmma_problem& p, const KernelDesc& k) {
    return std::make_unique<Sm120aGemm>(device, p, k);
}

}  // namespace spmma_sm120a
