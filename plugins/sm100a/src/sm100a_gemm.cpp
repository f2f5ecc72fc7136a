// One problem on one sm_100a GPU with one sm100a kernel: packs the canonical operands into the
// kernel's layouts (pack library), builds the tensor maps, sizes the persistent grid, launches.
#include "kernel_table.hpp"
#include "selection.hpp"

#include <spmma_plugin/kernel_gemm.hpp>
#include <spmma_plugin/tensor_map.hpp>
#include <spmma_sm100a/kernel_params.hpp>
#include <spmma_sm100a/pack.hpp>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace spmma_sm100a {

using namespace spmma_plugin;
using namespace spmma_plugin::cuda;

namespace {

// A packed buffer of 16-byte rows (metadata and scale chunks), loaded in boxes of `box_rows`.
TensorMap2D rows16_map(const char* what, const DeviceBuffer& buf, uint32_t box_rows) {
    return row_major_map(what, CU_TENSOR_MAP_DATA_TYPE_UINT8, buf.get(), 16, buf.size() / 16, 16, box_rows,
                         CU_TENSOR_MAP_SWIZZLE_NONE);
}

class Sm100aGemm final : public KernelGemm<KernelEntry> {
public:
    Sm100aGemm(int device, const spmma_problem& problem, const KernelEntry& kernel)
        : KernelGemm(device, problem, kernel, kernel.cfg.smem_bytes()) {
        const TileConfig& cfg = kernel_.cfg;
        const spmma_problem& p = problem_;
        kp_ = padded_k(cfg.kind, p.k);
        const int tiles_m = static_cast<int>((p.m + cfg.bm() - 1) / cfg.bm());
        const int tiles_n = static_cast<int>((p.n + cfg.bn - 1) / cfg.bn);
        rows_a_ = static_cast<int64_t>(tiles_m) * cfg.bm();
        rows_b_ = static_cast<int64_t>(tiles_n) * cfg.bn;

        // Persistent grid: as many CTAs (pairs) as fit at once, one per SM (pair of SMs): the stage
        // ring takes an SM's shared memory and all its tensor memory; no more than there are tiles.
        const int64_t tiles = static_cast<int64_t>(tiles_m) * tiles_n;
        int max_groups = props_.sm_count / cfg.cg;
        shape_.block[0] = static_cast<unsigned>(kThreads);
        shape_.cluster[0] = static_cast<unsigned>(cfg.cg);
        shape_.smem_bytes = static_cast<unsigned>(cfg.smem_bytes());
        if (cfg.cg > 1) {
            shape_.grid[0] = static_cast<unsigned>(cfg.cg * max_groups);
            const int n = max_active_clusters(fn_, shape_);
            if (n <= 0) fail(SPMMA_DEVICE_ERROR, kernel_.name + ": no CTA pair fits on " + props_.name);
            max_groups = n;
        }
        const int groups = static_cast<int>(std::min<int64_t>(tiles, max_groups));
        shape_.grid[0] = static_cast<unsigned>(groups * cfg.cg);

        params_.m = static_cast<int32_t>(p.m);
        params_.n = static_cast<int32_t>(p.n);
        params_.k_stages = static_cast<int32_t>(kp_ / cfg.bk());
        params_.tiles_m = tiles_m;
        params_.tiles_n = tiles_n;
        params_.raster_group = raster_group(cfg, tiles_m);
        try {
            params_.idesc = make_idesc(cfg.kind, p.a_type, p.b_type, p.acc_type, cfg.bm(), cfg.bn, p.saturate != 0,
                                       p.scale_type);
        } catch (const std::invalid_argument& e) {
            unsupported(std::string("unsupported: ") + e.what());
        }
        params_.d_type = p.d_type;
        params_.d = d_.as();
        params_.c = nullptr;
        params_.use_c = p.beta != 0.0 ? 1 : 0;
        params_.saturate = p.saturate;
        params_.alpha = static_cast<float>(p.alpha);
        params_.beta = static_cast<float>(p.beta);
        params_.alpha_i = static_cast<int64_t>(p.alpha);
        params_.beta_i = static_cast<int64_t>(p.beta);
    }

protected:
    void pack(const spmma_operands& ops) override {
        const spmma_problem& p = problem_;
        const TileConfig& cfg = kernel_.cfg;
        const Kind kind = cfg.kind;

        try {
            std::vector<uint8_t> buf(packed_a_bytes(kind, p.m, kp_));
            pack_a_values(kind, p.a_type, ops.a_values, p.m, p.k, kp_, buf.data());
            a_ = to_device(buf);

            buf.assign(packed_b_bytes(kind, p.n, kp_), 0);
            pack_b(kind, p.b_type, ops.b, p.n, p.k, kp_, buf.data());
            b_ = to_device(buf);

            buf.assign(packed_meta_bytes(kind, rows_a_, kp_), 0);
            pack_metadata(kind, ops.a_indices, p.m, p.k, rows_a_, kp_, buf.data());
            e_ = to_device(buf);

            if (is_block_scaled(kind)) {
                buf.assign(packed_scale_bytes(kind, cfg.sv, rows_a_, kp_, 1), 0);
                pack_scales(kind, cfg.sv, p.scale_type, ops.scale_a, p.m, p.k, p.scale_block, rows_a_, kp_, 1, buf.data());
                sfa_ = to_device(buf);
                buf.assign(packed_scale_bytes(kind, cfg.sv, rows_b_, kp_, cfg.n_groups()), 0);
                pack_scales(kind, cfg.sv, p.scale_type, ops.scale_b, p.n, p.k, p.scale_block, rows_b_, kp_, cfg.n_groups(),
                            buf.data());
                sfb_ = to_device(buf);
            }
        } catch (const std::invalid_argument& e) {
            fail(SPMMA_INVALID_ARGUMENT, std::string("packing: ") + e.what());
        }

        upload_c(ops, CForm::widened);
        params_.c = c_.as<const void>();
        upload_epilogue(ops);
        params_.epi = fused_epilogue();

        // Tensor maps: A (64-byte rows per stage, 64-byte swizzle) and B (128-byte rows, 128-byte
        // swizzle) as raw bytes in the instruction's format, boxes of one CTA's rows; metadata and
        // scales as 16-byte rows, boxes of one stage's chunk.
        const int eb_bits = traits(kind).elem_bits;
        tm_a_ = encode_tensor_map(row_major_map("A values", CU_TENSOR_MAP_DATA_TYPE_UINT8, a_.get(),
                                                static_cast<uint64_t>(kp_ / 2 * eb_bits / 8), static_cast<uint64_t>(p.m),
                                                kStageARowBytes, kRowsPerCta, CU_TENSOR_MAP_SWIZZLE_64B));
        tm_b_ = encode_tensor_map(row_major_map("B", CU_TENSOR_MAP_DATA_TYPE_UINT8, b_.get(), static_cast<uint64_t>(kp_ * eb_bits / 8),
                                                static_cast<uint64_t>(p.n), kStageBRowBytes, static_cast<uint32_t>(cfg.bn_cta()),
                                                CU_TENSOR_MAP_SWIZZLE_128B));

        tm_e_ = encode_tensor_map(rows16_map("metadata", e_, kRowsPerCta));
        if (is_block_scaled(kind)) {
            tm_sfa_ = encode_tensor_map(rows16_map("scale A", sfa_, static_cast<uint32_t>(cfg.sfa_tiles() * kScaleTileRows)));
            tm_sfb_ = encode_tensor_map(rows16_map("scale B", sfb_, static_cast<uint32_t>(cfg.sfb_tiles() * kScaleTileRows)));
        }
    }

    void launch(CUstream stream) override {
        void* args[] = {&tm_a_, &tm_b_, &tm_e_, &tm_sfa_, &tm_sfb_, &params_};
        cuda::launch(fn_, shape_, stream, args);
    }

private:
    int64_t kp_ = 0;      // k padded to whole stages
    int64_t rows_a_ = 0;  // m padded to whole tiles (rows of metadata and scale A chunks)
    int64_t rows_b_ = 0;  // n padded to whole tiles (rows of scale B chunks)
    spmma_plugin::cuda::DeviceBuffer a_, b_, e_, sfa_, sfb_;
    CUtensorMap tm_a_{}, tm_b_{}, tm_e_{}, tm_sfa_{}, tm_sfb_{};
    KernelParams params_{};
    spmma_plugin::cuda::LaunchShape shape_{};
};

}  // namespace

std::unique_ptr<spmma_plugin::Gemm> make_gemm(int device, const spmma_problem& p, const KernelEntry& k) {
    return std::make_unique<Sm100aGemm>(device, p, k);
}

}  // namespace spmma_sm100a
