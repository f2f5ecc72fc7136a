// A Gemm for the warp-level mma.sp families (sm80, sm120a): one CTA per bm x bn tile of D (or a
// few, where the family splits k: ctas_per_tile) on a 1-D grid, A packed into values and metadata
// blocks per (tile, k stage), B into padded columns, and one parameter struct that the kernel
// takes by value. What such a family still writes: its packing library and the fields of its
// parameters that are its own (fill_own, pack_own).
//
// The family's names, found by argument-dependent lookup on Entry::packing()'s type (its
// packing form, e.g. sm80's Family): packed_shape(form, tile, m, n, k) -> Shape (a_bytes,
// e_words, b_bytes, ldb, k_stages, m_pad, n_pad); check_indices(form, m, k, indices) -> "" or
// the first undefined index byte; pack_a(form, shape, bm, values, indices, a, e, threads) and
// pack_b(form, shape, b, out, threads). Entry also gives tile (bm, bn), smem_bytes() and
// threads(); Params the fields fill_params sets below.
#pragma once

#include <spmma_plugin/host_pack.hpp>
#include <spmma_plugin/kernel_gemm.hpp>

#include <string>
#include <vector>

namespace spmma_plugin::cuda {

template <class Entry, class Params, class Shape>
class TileGemm : public KernelGemm<Entry> {
protected:
    using Base = KernelGemm<Entry>;

    TileGemm(int device, const spmma_problem& p, const Entry& k)
        : Base(device, p, k, k.smem_bytes()), shape_(packed_shape(k.packing(), k.tile, p.m, p.n, p.k)) {}

    // What the family adds to the packing (e.g. scale words), after A and B; the context is current.
    virtual void pack_own(const spmma_operands&, int /*threads*/) {}
    // The family's own fields of params_, after the shared ones.
    virtual void fill_own(Params&) const {}
    // The CTAs that share one tile (a family that splits k among them says how many; its
    // kernel tells them apart by blockIdx.x, and its launch adds what follows).
    virtual int ctas_per_tile() const { return 1; }

    void pack(const spmma_operands& ops) final {
        const auto& f = this->kernel_.packing();
        const spmma_problem& p = this->problem_;
        const std::string bad = check_indices(f, p.m, p.k, ops.a_indices);
        if (!bad.empty()) fail(SPMMA_INVALID_ARGUMENT, "A's metadata would be undefined for mma.sp: " + bad);
        const int threads = host::host_threads();
        std::vector<uint8_t> a(static_cast<size_t>(shape_.a_bytes)), b(static_cast<size_t>(shape_.b_bytes));
        std::vector<uint32_t> e(static_cast<size_t>(shape_.e_words));
        pack_a(f, shape_, this->kernel_.tile.bm, static_cast<const uint8_t*>(ops.a_values), ops.a_indices, a.data(), e.data(),
               threads);
        pack_b(f, shape_, static_cast<const uint8_t*>(ops.b), b.data(), threads);
        a_ = to_device(a);
        e_ = to_device(e);
        b_ = to_device(b);
        pack_own(ops, threads);
        this->upload_c(ops, CudaGemm::CForm::as_given);
        fill_params();
    }

    void launch(CUstream stream) override {
        launch_1d(this->fn_,
                  static_cast<unsigned>(params_.tiles_m) * static_cast<unsigned>(params_.tiles_n) *
                      static_cast<unsigned>(ctas_per_tile()),
                  static_cast<unsigned>(this->kernel_.threads()), static_cast<unsigned>(this->kernel_.smem_bytes()), stream,
                  params_);
    }

    Shape shape_;
    DeviceBuffer a_, e_, b_;
    Params params_{};

private:
    void fill_params() {
        const spmma_problem& p = this->problem_;
        const bool beta_zero = p.beta == 0;
        Params& g = params_;
        g = Params{};
        g.a = a_.template as<const uint8_t>();
        g.e = e_.template as<const uint32_t>();
        g.b = b_.template as<const uint8_t>();
        g.c = this->c_.template as<const void>();
        g.d = this->d_.as();
        g.ldb = shape_.ldb;
        g.m = static_cast<int>(p.m);
        g.n = static_cast<int>(p.n);
        g.k_stages = static_cast<int>(shape_.k_stages);
        g.tiles_m = static_cast<int>(shape_.m_pad / this->kernel_.tile.bm);
        g.tiles_n = static_cast<int>(shape_.n_pad / this->kernel_.tile.bn);
        g.raster_group = 8;
        g.c_type = beta_zero ? p.d_type : p.c_type;
        g.d_type = p.d_type;
        g.beta_zero = beta_zero ? 1 : 0;
        g.alpha = static_cast<float>(p.alpha);
        g.beta = static_cast<float>(p.beta);
        fill_own(g);
    }
};

}  // namespace spmma_plugin::cuda
