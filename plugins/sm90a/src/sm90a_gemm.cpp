#include "sm90a_gemm.hpp"

#include "selection.hpp"

#include <spmma_plugin/tensor_map.hpp>
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

}  // namespace

Sm90aGemm::Sm90aGemm(int device, const spmma_problem& problem, const KernelEntry& kernel)
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
    StreamKMode sk_mode = StreamKMode::Off;
    if (const char* e = std::getenv("SPMMA_SM90A_STREAMK"); e && e[0]) {
        const std::string v(e);
        if (v != "off" && v != "on") fail(SPMMA_INVALID_ARGUMENT, "SPMMA_SM90A_STREAMK='" + v + "': expected off or on");
        sk_mode = v == "on" ? StreamKMode::On : StreamKMode::Off;
    }
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

    // D leaves through TMA stores where the kernel has epilogue buffers and the problem allows
    // (tma_epilogue_possible, as the heuristic assumes); SPMMA_SM90A_EPILOGUE=direct forces the
    // direct stores (A/B measurements, bench/sm90a).
    bool tma_store = cfg.tma_store() && tma_epilogue_possible(p);
    if (const char* e = std::getenv("SPMMA_SM90A_EPILOGUE"); e && e[0]) {
        const std::string v(e);
        if (v != "direct" && v != "tma")
            fail(SPMMA_INVALID_ARGUMENT, "SPMMA_SM90A_EPILOGUE='" + v + "': expected direct or tma");
        tma_store = tma_store && v == "tma";
    }
    if (tma_store) {
        const int d_eb = spmma_dtype_storage_bits(p.d_type) / 8;
        TensorMap2D d{};
        d.what = "D";
        d.dtype = raw_type(d_eb);
        d.base = d_.get();
        d.cols = static_cast<uint64_t>(p.n);
        d.rows = static_cast<uint64_t>(p.m);
        d.row_pitch_bytes = d.cols * static_cast<uint64_t>(d_eb);
        d.box_cols = static_cast<uint32_t>(cfg.epi_row_bytes() / d_eb);
        d.box_rows = 64;
        d.swizzle = cfg.epi_row_bytes() == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B;
        tm_d_ = encode_tensor_map(d);
        params_.tma_store = 1;
    } else {
        params_.tma_store = 0;
    }
}

void Sm90aGemm::pack(const spmma_operands& ops) {
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
    TensorMap2D a{};
    a.what = "A values";
    a.dtype = raw_type(eb);
    a.base = a_.get();
    a.cols = static_cast<uint64_t>(kp_ / 2);
    a.rows = static_cast<uint64_t>(p.m);
    a.row_pitch_bytes = a.cols * eb;
    a.box_cols = static_cast<uint32_t>(cfg.bk() / 2);
    a.box_rows = static_cast<uint32_t>(cfg.a_slice_rows());
    a.swizzle = CU_TENSOR_MAP_SWIZZLE_64B;
    tm_a_ = encode_tensor_map(a);

    TensorMap2D b{};
    b.what = "B";
    b.dtype = raw_type(eb);
    b.base = b_.get();
    b.cols = static_cast<uint64_t>(kp_);
    b.rows = static_cast<uint64_t>(p.n);
    b.row_pitch_bytes = b.cols * eb;
    b.box_cols = static_cast<uint32_t>(cfg.bk());
    b.box_rows = static_cast<uint32_t>(cfg.b_slice_rows());
    b.swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
    tm_b_ = encode_tensor_map(b);

    TensorMap2D e{};
    e.what = "metadata";
    e.dtype = CU_TENSOR_MAP_DATA_TYPE_UINT32;
    e.base = e_.get();
    e.cols = static_cast<uint64_t>(kp_ / t.unit_k) * 32;
    e.rows = static_cast<uint64_t>(meta_rows_ / kMetaRowsPerUnit);
    e.row_pitch_bytes = e.cols * 4;
    e.box_cols = static_cast<uint32_t>(cfg.units() * 32);
    e.box_rows = static_cast<uint32_t>(cfg.e_slice_blocks());
    e.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
    tm_e_ = encode_tensor_map(e);
}

void Sm90aGemm::launch(CUstream stream) {
    // Stream-K flags count launches: a flag equal to this launch's epoch marks its slot as
    // written by this launch (0 is never an epoch).
    if (params_.work.stream_k() && ++params_.sk_epoch == 0) {
        sk_flags_.fill(0);
        params_.sk_epoch = 1;
    }
    void* args[] = {&tm_a_, &tm_b_, &tm_e_, &tm_d_, &params_};
    cuda::launch(fn_, shape_, stream, args);
}

}  // namespace spmma_sm90a
