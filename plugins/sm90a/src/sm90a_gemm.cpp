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

size_t bytes_of(spmma_dtype t, int64_t count) {
    return static_cast<size_t>(count) * static_cast<size_t>(spmma_dtype_storage_bits(t) / 8);
}

void expect_bytes(const char* what, size_t got, size_t want) {
    if (got != want)
        fail(SPMMA_INVALID_ARGUMENT, std::string(what) + ": " + std::to_string(got) + " bytes given, " +
                                         std::to_string(want) + " expected");
}

}  // namespace

Sm90aGemm::Sm90aGemm(int device, const spmma_problem& problem, const KernelEntry& kernel)
    : CudaGemm(device, problem), kernel_(kernel), family_(kernel.cfg.family) {
    const TileConfig& cfg = kernel_.cfg;
    const spmma_problem& p = problem_;
    kp_ = padded_k(family_, p.k);
    meta_rows_ = padded_rows(p.m, static_cast<int64_t>(cfg.bm) * cfg.cm);
    d_bytes_ = bytes_of(p.d_type, p.m * p.n);
    d_ = DeviceBuffer(d_bytes_);

    fn_ = module(kernel_.image).function(kernel_.name.c_str());
    set_max_dynamic_smem(fn_, static_cast<unsigned>(cfg.smem_bytes()));

    const int tiles_m = static_cast<int>((p.m + cfg.bm - 1) / cfg.bm);
    const int tiles_n = static_cast<int>((p.n + cfg.bn - 1) / cfg.bn);
    const int ctm = (tiles_m + cfg.cm - 1) / cfg.cm, ctn = (tiles_n + cfg.cn - 1) / cfg.cn;
    const int64_t cluster_tiles = static_cast<int64_t>(ctm) * ctn;

    // Persistent grid: as many clusters as fit on the device at once (one CTA per SM: the
    // shared memory of a stage ring takes the SM), no more than there are tiles.
    int max_clusters = props_.sm_count / cfg.cluster_size();
    if (cfg.cluster_size() > 1) {
        CUlaunchConfig lc{};
        lc.gridDimX = static_cast<unsigned>(cfg.cluster_size() * max_clusters);
        lc.gridDimY = lc.gridDimZ = 1;
        lc.blockDimX = static_cast<unsigned>(cfg.threads());
        lc.blockDimY = lc.blockDimZ = 1;
        lc.sharedMemBytes = static_cast<unsigned>(cfg.smem_bytes());
        CUlaunchAttribute attr{};
        attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attr.value.clusterDim.x = static_cast<unsigned>(cfg.cluster_size());
        attr.value.clusterDim.y = attr.value.clusterDim.z = 1;
        lc.attrs = &attr;
        lc.numAttrs = 1;
        int n = 0;
        CU_CHECK(require_driver().cuOccupancyMaxActiveClusters(&n, fn_, &lc));
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
        params_.sk_partials = reinterpret_cast<uint32_t*>(static_cast<uintptr_t>(sk_partials_.get()));
        params_.sk_flags = reinterpret_cast<uint32_t*>(static_cast<uintptr_t>(sk_flags_.get()));
    }
    shape_.grid[0] = static_cast<unsigned>(clusters * cfg.cluster_size());
    shape_.block[0] = static_cast<unsigned>(cfg.threads());
    shape_.cluster[0] = static_cast<unsigned>(cfg.cluster_size());
    shape_.smem_bytes = static_cast<unsigned>(cfg.smem_bytes());

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
    params_.d = reinterpret_cast<void*>(static_cast<uintptr_t>(d_.get()));
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

void Sm90aGemm::upload(const spmma_operands& ops) {
    context_.make_current();
    const spmma_problem& p = problem_;
    const TileConfig& cfg = kernel_.cfg;
    const FamilyTraits t = traits(family_);
    const int eb = t.elem_bytes;

    expect_bytes("A values", ops.a_values_bytes, static_cast<size_t>(p.m) * static_cast<size_t>(p.k / 2) * eb);
    expect_bytes("A indices", ops.a_indices_bytes, static_cast<size_t>(p.m) * static_cast<size_t>(p.k / t.group));
    expect_bytes("B", ops.b_bytes, static_cast<size_t>(p.n) * static_cast<size_t>(p.k) * eb);
    if (!ops.a_values || !ops.a_indices || !ops.b) fail(SPMMA_INVALID_ARGUMENT, "null A or B");

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
        e_ = DeviceBuffer(meta.size() * 4);
        e_.upload(meta.data(), meta.size() * 4);
    }
    if (params_.use_c) {
        if (!ops.c) fail(SPMMA_INVALID_ARGUMENT, "beta != 0 but C is null");
        expect_bytes("C", ops.c_bytes, bytes_of(p.c_type, p.m * p.n));
        std::vector<uint8_t> c(static_cast<size_t>(p.m * p.n) * 4);
        try {
            pack_c(p.c_type, ops.c, p.m * p.n, c.data());
        } catch (const std::invalid_argument& e) {
            unsupported(std::string("unsupported: ") + e.what());
        }
        c_ = DeviceBuffer(c.size());
        c_.upload(c.data(), c.size());
        params_.c = reinterpret_cast<const void*>(static_cast<uintptr_t>(c_.get()));
    }

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
    uploaded_ = true;
}

void Sm90aGemm::launch(CUstream stream) {
    if (!uploaded_) fail(SPMMA_INVALID_ARGUMENT, "run before upload");
    // Stream-K flags count launches: a flag equal to this launch's epoch marks its slot as
    // written by this launch (0 is never an epoch).
    if (params_.work.stream_k() && ++params_.sk_epoch == 0) {
        sk_flags_.fill(0);
        params_.sk_epoch = 1;
    }
    void* args[] = {&tm_a_, &tm_b_, &tm_e_, &tm_d_, &params_};
    cuda::launch(fn_, shape_, stream, args);
}

void Sm90aGemm::download(void* d, size_t bytes) {
    context_.make_current();
    expect_bytes("D", bytes, d_bytes_);
    stream_.synchronize();
    d_.download(d, bytes);
}

}  // namespace spmma_sm90a
