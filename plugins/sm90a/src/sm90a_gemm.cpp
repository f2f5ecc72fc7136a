// One problem on one Hopper GPU with one sm90a kernel: packs the canonical operands into the
// kernel's layouts (pack library), builds the tensor maps, sizes the persistent grid, launches.
#include "kernel_table.hpp"
#include "selection.hpp"

#include <spmma_plugin/env_choice.hpp>
#include <spmma_plugin/kernel_gemm.hpp>
#include <spmma_plugin/tensor_map.hpp>
#include <spmma_sm90a/kernel_params.hpp>
#include <spmma_sm90a/pack.hpp>

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace spmma_sm90a {

using namespace spmma_plugin;
using namespace spmma_plugin::cuda;

namespace {

CUtensorMapDataType raw_type(int elem_bytes) {
    return elem_bytes == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8
           : elem_bytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                             : CU_TENSOR_MAP_DATA_TYPE_UINT32;
}

class Sm90aGemm final : public KernelGemm<KernelEntry> {
public:
    Sm90aGemm(int device, const spmma_problem& problem, const KernelEntry& kernel)
        : KernelGemm(device, problem, kernel, kernel.cfg.smem_bytes()), family_(kernel.cfg.family) {
        const TileConfig& cfg = kernel_.cfg;
        const spmma_problem& p = problem_;
        kp_ = padded_k(family_, p.k);
        meta_rows_ = padded_rows(p.m, static_cast<int64_t>(cfg.bm) * cfg.cm);

        const int tiles_m = static_cast<int>((p.m + cfg.bm - 1) / cfg.bm);
        const int tiles_n = static_cast<int>((p.n + cfg.bn - 1) / cfg.bn);
        const int ctm = (tiles_m + cfg.cm - 1) / cfg.cm, ctn = (tiles_n + cfg.cn - 1) / cfg.cn;
        const int64_t cluster_tiles = static_cast<int64_t>(ctm) * ctn;

        // Persistent grid: as many clusters as fit on the device at once (one CTA per SM: the
        // shared memory of a stage ring takes the SM), no more than there are tiles.
        int max_clusters = props_.sm_count / cfg.cluster_size();
        shape_.block[0] = static_cast<unsigned>(cfg.threads());
        shape_.cluster[0] = static_cast<unsigned>(cfg.cluster_size());
        shape_.smem_bytes = static_cast<unsigned>(cfg.smem_bytes());
        if (cfg.cluster_size() > 1) {
            shape_.grid[0] = static_cast<unsigned>(cfg.cluster_size() * max_clusters);
            const int n = max_active_clusters(fn_, shape_);
            if (n <= 0)
                fail(SPMMA_DEVICE_ERROR, kernel_.name + ": no cluster of " + std::to_string(cfg.cluster_size()) +
                                             " CTAs fits on " + props_.name);
            max_clusters = n;
        }
        // Whole tiles, or (SPMMA_SM90A_STREAMK=on) stream-K for the last turns where whole tiles
        // would leave clusters idle (stream_k.hpp; off by default: measured slower at most shapes).
        const StreamKMode sk_mode =
            env_choice("SPMMA_SM90A_STREAMK", {"off", "on"}).value_or(0) == 1 ? StreamKMode::On : StreamKMode::Off;
        const int k_tiles = static_cast<int>(kp_ / cfg.bk());
        params_.work = plan_work(cluster_tiles, max_clusters, k_tiles, sk_mode);
        const int clusters = params_.work.clusters;
        if (params_.work.stream_k()) {
            // One slot of partial accumulators (at most bm x bn 32-bit words) and one flag per range
            // and CTA; the flags start below every epoch a launch uses.
            const size_t ctas = static_cast<size_t>(clusters) * cfg.cluster_size();
            sk_partials_ = DeviceBuffer(ctas * cfg.bm * cfg.bn * 4);
            sk_flags_ = DeviceBuffer(ctas * cfg.consumers() * 4);
            sk_flags_.fill(0);
            params_.sk_partials = sk_partials_.as<uint32_t>();
            params_.sk_flags = sk_flags_.as<uint32_t>();
        }
        shape_.grid[0] = static_cast<unsigned>(clusters * cfg.cluster_size());

        params_.m = static_cast<int32_t>(p.m);
        params_.n = static_cast<int32_t>(p.n);
        params_.k = static_cast<int32_t>(p.k);
        params_.k_tiles = k_tiles;
        params_.tiles_m = tiles_m;
        params_.tiles_n = tiles_n;
        params_.raster_group = raster_group(cfg, ctm);
        params_.raster_along_n = 0;
        // Tuning (bench/sm90a): SPMMA_SM90A_RASTER=G bands of G cluster rows, =nG of G cluster
        // columns, in place of the heuristic's bands.
        if (const char* r = std::getenv("SPMMA_SM90A_RASTER"); r && r[0]) {
            const bool along_n = r[0] == 'n';
            const int g = std::atoi(r + (along_n ? 1 : 0));
            if (g <= 0) fail(SPMMA_INVALID_ARGUMENT, std::string("SPMMA_SM90A_RASTER='") + r + "': expected G or nG, G > 0");
            params_.raster_group = std::min(g, along_n ? ctn : ctm);
            params_.raster_along_n = along_n ? 1 : 0;
        }
        params_.d = d_.as();
        params_.c = nullptr;
        params_.d_type = p.d_type;
        params_.use_c = p.beta != 0.0 ? 1 : 0;
        params_.alpha = static_cast<float>(p.alpha);
        params_.beta = static_cast<float>(p.beta);
        params_.alpha_i = static_cast<int64_t>(p.alpha);
        params_.beta_i = static_cast<int64_t>(p.beta);
        // Diagnostics (plugins/sm90a/NOTES.md): SPMMA_SM90A_SERIAL_WGMMA=1 retires each k-tile's
        // wgmmas before the next k-tile's are prepared.
        const char* serial = std::getenv("SPMMA_SM90A_SERIAL_WGMMA");
        params_.serial_wgmma = serial && serial[0] == '1' ? 1 : 0;
        // The epilogue borrows buffers from the tile's last stage where the kernel allows it
        // (KernelParams::borrow_stage); SPMMA_SM90A_EPILOGUE_BORROW=off for A/B runs.
        params_.borrow_stage = env_choice("SPMMA_SM90A_EPILOGUE_BORROW", {"off", "on"}).value_or(1);

        // D leaves through TMA stores where the kernel has epilogue buffers and the problem allows
        // (tma_epilogue_possible, as the heuristic assumes); SPMMA_SM90A_EPILOGUE=direct forces the
        // direct stores (A/B measurements, bench/sm90a).
        const bool tma_wanted = env_choice("SPMMA_SM90A_EPILOGUE", {"direct", "tma"}).value_or(1) == 1;
        const bool tma_store = tma_wanted && cfg.tma_store() && tma_epilogue_possible(p);
        if (tma_store) {
            const int d_eb = spmma_dtype_storage_bits(p.d_type) / 8;
            tm_d_ = encode_tensor_map(row_major_map(
                "D", raw_type(d_eb), d_.get(), static_cast<uint64_t>(p.n), static_cast<uint64_t>(p.m),
                static_cast<uint32_t>(cfg.epi_row_bytes() / d_eb), 64,
                cfg.epi_row_bytes() == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B));
            params_.tma_store = 1;
        } else {
            params_.tma_store = 0;
        }
    }

protected:
    void pack(const spmma_operands& ops) override {
        const spmma_problem& p = problem_;
        const TileConfig& cfg = kernel_.cfg;
        const FamilyTraits t = traits(family_);
        const int eb = t.elem_bytes;

        // A values and B: padded along k to whole stages (uploaded as they are when k already is).
        a_ = DeviceBuffer(packed_a_bytes(family_, p.m, kp_));
        b_ = DeviceBuffer(packed_b_bytes(family_, p.n, kp_));
        if (kp_ == p.k) {
            a_.upload(ops.a_values, a_.size());
            b_.upload(ops.b, b_.size());
        } else {
            std::vector<uint8_t> buf(packed_a_bytes(family_, p.m, kp_));
            pack_a_values(family_, ops.a_values, p.m, p.k, kp_, buf.data());
            a_.upload(buf.data(), buf.size());
            buf.assign(packed_b_bytes(family_, p.n, kp_), 0);
            pack_b(family_, ops.b, p.n, p.k, kp_, buf.data());
            b_.upload(buf.data(), buf.size());
        }
        {
            std::vector<uint32_t> meta(packed_meta_words(family_, meta_rows_, kp_));
            pack_metadata(family_, ops.a_indices, p.m, p.k, meta_rows_, kp_, meta.data());
            e_ = to_device(meta);
        }
        upload_c(ops, CForm::widened);
        params_.c = c_.as<const void>();

        // Tensor maps: A and B K-major with the swizzle their descriptors name (layout.hpp), the
        // metadata as rows of 32-word units, boxes of one CTA's multicast slice.
        tm_a_ = encode_tensor_map(row_major_map("A values", raw_type(eb), a_.get(), static_cast<uint64_t>(kp_ / 2),
                                                static_cast<uint64_t>(p.m), static_cast<uint32_t>(cfg.bk() / 2),
                                                static_cast<uint32_t>(cfg.a_slice_rows()), CU_TENSOR_MAP_SWIZZLE_64B));
        tm_b_ = encode_tensor_map(row_major_map("B", raw_type(eb), b_.get(), static_cast<uint64_t>(kp_), static_cast<uint64_t>(p.n),
                                                static_cast<uint32_t>(cfg.bk()), static_cast<uint32_t>(cfg.b_slice_rows()),
                                                CU_TENSOR_MAP_SWIZZLE_128B));
        tm_e_ = encode_tensor_map(row_major_map(
            "metadata", CU_TENSOR_MAP_DATA_TYPE_UINT32, e_.get(), static_cast<uint64_t>(kp_ / t.unit_k) * 32,
            static_cast<uint64_t>(meta_rows_ / kMetaRowsPerUnit), static_cast<uint32_t>(cfg.units() * 32),
            static_cast<uint32_t>(cfg.e_slice_blocks()), CU_TENSOR_MAP_SWIZZLE_NONE));
    }

    void launch(CUstream stream) override {
        // Stream-K flags count launches: a flag equal to this launch's epoch marks its slot as
        // written by this launch (0 is never an epoch).
        if (params_.work.stream_k() && ++params_.sk_epoch == 0) {
            sk_flags_.fill(0);
            params_.sk_epoch = 1;
        }
        void* args[] = {&tm_a_, &tm_b_, &tm_e_, &tm_d_, &params_};
        cuda::launch(fn_, shape_, stream, args);
    }

private:
    Family family_;
    int64_t kp_ = 0;         // k padded to whole stages
    int64_t meta_rows_ = 0;  // m padded to whole cluster tiles (rows of metadata)
    spmma_plugin::cuda::DeviceBuffer a_, b_, e_;
    spmma_plugin::cuda::DeviceBuffer sk_partials_, sk_flags_;  // stream-K workspace (KernelParams)
    CUtensorMap tm_a_{}, tm_b_{}, tm_e_{}, tm_d_{};
    KernelParams params_{};
    spmma_plugin::cuda::LaunchShape shape_{};
};

}  // namespace

std::unique_ptr<spmma_plugin::Gemm> make_gemm(int device, const spmma_problem& p, const KernelEntry& k) {
    return std::make_unique<Sm90aGemm>(device, p, k);
}

}  // namespace spmma_sm90a
