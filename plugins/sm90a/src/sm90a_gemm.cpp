// One problem on one Hopper GPU with one sm90a kernel: packs the canonical operands into the
// kernel's layouts (pack library), builds the tensor maps, sizes the persistent grid (two grids
// that run at once for a split kernel: split_plan.hpp), launches.
#include "kernel_table.hpp"
#include "selection.hpp"

#include <spmma_plugin/env_choice.hpp>
#include <spmma_plugin/kernel_gemm.hpp>
#include <spmma_plugin/tensor_map.hpp>
#include <spmma_sm90a/kernel_params.hpp>
#include <spmma_sm90a/launch_notes.hpp>
#include <spmma_sm90a/pack.hpp>
#include <spmma_sm90a/pack_a_stages_params.hpp>
#include <spmma_sm90a/split_plan.hpp>
#include <spmma_sm90a/tile_scheduler.hpp>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

SPMMA_DECLARE_FATBIN(sm90a_pack_a_stages)

namespace spmma_sm90a {

using namespace spmma_plugin;
using namespace spmma_plugin::cuda;

namespace {

CUtensorMapDataType raw_type(int elem_bytes) {
    return elem_bytes == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8
           : elem_bytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                             : CU_TENSOR_MAP_DATA_TYPE_UINT32;
}

// One persistent grid of a launch: its kernel, shape, parameters and B map (whose box, one CTA's
// multicast slice, depends on the cluster). A launch has one, or two for a split kernel.
struct Grid {
    std::string function;  // the extern "C" kernel it runs
    TileConfig cfg{};
    CUfunction fn{};
    LaunchShape shape{};
    KernelParams params{};
    CUtensorMap tm_b{};
};

class Sm90aGemm final : public KernelGemm<KernelEntry> {
public:
    Sm90aGemm(int device, const spmma_problem& problem, const KernelEntry& kernel)
        : KernelGemm(device, problem, kernel, kernel.cfg.smem_bytes()), family_(kernel.cfg.family) {
        const TileConfig& cfg = kernel_.cfg;
        const spmma_problem& p = problem_;
        kp_ = padded_k(family_, p.k);
        meta_rows_ = padded_rows(p.m, static_cast<int64_t>(cfg.bm) * cfg.cm);
        main_.function = kernel.function();
        main_.cfg = cfg;
        main_.fn = fn_;
        const int tiles_m = static_cast<int>((p.m + cfg.bm - 1) / cfg.bm);
        const int tiles_n = static_cast<int>((p.n + cfg.bn - 1) / cfg.bn);
        const int main_clusters = resident_clusters(main_, props_.sm_count / cfg.cluster_size());
        if (kernel_.split()) {
            plan_split_grids(tiles_m, tiles_n, main_clusters);
        } else {
            const int ctm = (tiles_m + cfg.cm - 1) / cfg.cm, ctn = (tiles_n + cfg.cn - 1) / cfg.cn;
            const int64_t cluster_tiles = static_cast<int64_t>(ctm) * ctn;
            const int sk_clusters = stream_k_clusters(cfg, p, props_, cluster_tiles, main_clusters);
            set_grid(main_, tiles_m, tiles_n, 0, 0, cluster_tiles,
                     sk_clusters > 0 ? sk_clusters : whole_tile_clusters(cfg, p, props_, cluster_tiles, main_clusters),
                     sk_clusters > 0 ? StreamKMode::On : StreamKMode::Off);
        }
        set_epilogue();
    }

    // The record's plugin_notes: each grid's function, clusters and tiles, its D stores and
    // epilogue form (launch_notes.hpp).
    std::string describe() const override {
        const std::string epilogue = epilogue_form_name(epilogue_form(problem_));
        auto note = [&](const Grid& g, int cluster_ranges) {
            return GridNote{g.function, g.cfg.cm, g.cfg.cn, g.params.work, cluster_ranges, g.params.tma_store ? "tma" : "direct", epilogue};
        };
        std::vector<GridNote> notes{note(main_, main_.params.sk_cluster_ranges)};
        if (rest_) notes.push_back(note(*rest_, 0));
        return launch_notes(notes);
    }

protected:
    void pack(const spmma_operands& ops) override {
        const spmma_problem& p = problem_;
        const TileConfig& cfg = kernel_.cfg;
        const FamilyTraits t = traits(family_);
        const int eb = t.elem_bytes;

        // A values and B: padded along k to whole stages (uploaded as they are when k already is);
        // A in stage order for the kernels that copy it so (TileConfig::a_in_stage_order).
        const bool a_stages = cfg.a_in_stage_order();
        a_ = DeviceBuffer(a_stages ? packed_a_stages_bytes(family_, p.m, kp_, cfg.a_slice_rows())
                                   : packed_a_bytes(family_, p.m, kp_));
        b_ = DeviceBuffer(packed_b_bytes(family_, p.n, kp_));
        if (a_stages) {
            pack_a_stages_on_device(ops, cfg.a_slice_rows());
        } else if (kp_ == p.k) {
            a_.upload(ops.a_values, a_.size());
        } else {
            std::vector<uint8_t> buf(a_.size());
            pack_a_values(family_, ops.a_values, p.m, p.k, kp_, buf.data());
            a_.upload(buf.data(), buf.size());
        }
        if (kp_ == p.k) {
            b_.upload(ops.b, b_.size());
        } else {
            std::vector<uint8_t> buf(b_.size());
            pack_b(family_, ops.b, p.n, p.k, kp_, buf.data());
            b_.upload(buf.data(), buf.size());
        }
        {
            std::vector<uint32_t> meta(packed_meta_words(family_, meta_rows_, kp_));
            pack_metadata(family_, ops.a_indices, p.m, p.k, meta_rows_, kp_, meta.data());
            e_ = to_device(meta);
        }
        upload_c(ops, CForm::widened);
        upload_epilogue(ops);
        for (Grid* g : grids()) {
            g->params.c = c_.as<const void>();
            g->params.epi = fused_epilogue();
            g->params.a_stages = a_stages ? a_.as<const uint8_t>() : nullptr;
        }

        // Tensor maps: A and B K-major with the swizzle their descriptors name (layout.hpp), the
        // metadata as rows of 32-word units, boxes of one CTA's multicast slice (A and metadata
        // slices are alike in both grids of a split: clusters along m only).
        if (!a_stages)
            tm_a_ = encode_tensor_map(row_major_map("A values", raw_type(eb), a_.get(), static_cast<uint64_t>(kp_ / 2),
                                                    static_cast<uint64_t>(p.m), static_cast<uint32_t>(cfg.bk() / 2),
                                                    static_cast<uint32_t>(cfg.a_slice_rows()), CU_TENSOR_MAP_SWIZZLE_64B));
        for (Grid* g : grids())
            g->tm_b = encode_tensor_map(row_major_map("B", raw_type(eb), b_.get(), static_cast<uint64_t>(kp_),
                                                      static_cast<uint64_t>(p.n), static_cast<uint32_t>(g->cfg.bk()),
                                                      static_cast<uint32_t>(g->cfg.b_slice_rows()), CU_TENSOR_MAP_SWIZZLE_128B));
        tm_e_ = encode_tensor_map(row_major_map(
            "metadata", CU_TENSOR_MAP_DATA_TYPE_UINT32, e_.get(), static_cast<uint64_t>(kp_ / t.unit_k) * 32,
            static_cast<uint64_t>(meta_rows_ / kMetaRowsPerUnit), static_cast<uint32_t>(cfg.units() * 32),
            static_cast<uint32_t>(cfg.e_slice_blocks()), CU_TENSOR_MAP_SWIZZLE_NONE));
    }

    // NOTES: a split launch forks the rest grid onto a second stream and joins it back, so the
    // two grids run at once and the caller's stream (and its timing events) sees one GEMM. The
    // main grid is enqueued first, so that its clusters of four or eight take their SMs before
    // the rest grid's clusters of two fill what is left.
    void launch(CUstream stream) override {
        // Stream-K flags count launches: a flag equal to this launch's epoch marks its slot as
        // written by this launch (0 is never an epoch).
        KernelParams& mp = main_.params;
        if (mp.work.stream_k() && mp.sk_cluster_ranges == 0 && ++mp.sk_epoch == 0) {
            sk_flags_.fill(0);
            mp.sk_epoch = 1;
        }
        if (!rest_) {
            launch_grid(main_, stream);
            return;
        }
        const CUstream side = side_->stream.get();
        side_->fork.record(stream);
        side_->fork.make_wait(side);
        launch_grid(main_, stream);
        launch_grid(*rest_, side);
        side_->join.record(side);
        side_->join.make_wait(stream);
    }

private:
    // A in stage order (pack.hpp's layout), packed on the device from the canonical values
    // uploaded as they are (sm90a_pack_a_stages.cu; the stream synchronized).
    void pack_a_stages_on_device(const spmma_operands& ops, int slice_rows) {
        const spmma_problem& p = problem_;
        DeviceBuffer canonical(ops.a_values_bytes);
        canonical.upload(ops.a_values, ops.a_values_bytes);
        PackAStagesParams pp = pack_a_stages_params(family_, canonical.as<const void>(), p.m, p.k, kp_, slice_rows, a_.as());
        const int64_t ctas = std::clamp<int64_t>((pp.chunks + 255) / 256, 1, int64_t{props_.sm_count} * 16);
        launch_1d(module(SPMMA_FATBIN(sm90a_pack_a_stages)).function(kPackAStagesKernel), static_cast<unsigned>(ctas), 256, 0,
                  stream_.get(), pp);
        stream_.synchronize();
    }

    std::vector<Grid*> grids() {
        std::vector<Grid*> g{&main_};
        if (rest_) g.push_back(&*rest_);
        return g;
    }

    void launch_grid(Grid& g, CUstream stream) {
        void* args[] = {&tm_a_, &g.tm_b, &tm_e_, &tm_d_, &g.params};
        cuda::launch(g.fn, g.shape, stream, args);
    }

    // Fills g's launch shape but for the grid (block, cluster, shared memory) and returns how many
    // clusters of g's kernel fit on the device at once, at most `most` (one CTA per SM: the shared
    // memory of a stage ring takes the SM).
    int resident_clusters(Grid& g, int most) {
        g.shape.block[0] = static_cast<unsigned>(g.cfg.threads());
        g.shape.cluster[0] = static_cast<unsigned>(g.cfg.cluster_size());
        g.shape.smem_bytes = static_cast<unsigned>(g.cfg.smem_bytes());
        if (g.cfg.cluster_size() == 1) return most;
        g.shape.grid[0] = static_cast<unsigned>(g.cfg.cluster_size() * most);
        const int n = max_active_clusters(g.fn, g.shape);
        if (n <= 0)
            fail(SPMMA_DEVICE_ERROR, kernel_.name + ": no cluster of " + std::to_string(g.cfg.cluster_size()) +
                                         " CTAs fits on " + props_.name);
        return std::min(n, most);
    }

    // g computes the tiles_m x tiles_n CTA tiles from (tile_m0, tile_n0) on, visiting its first
    // `cluster_tiles` cluster tiles: whole tiles, or stream-K for the last turn where whole tiles
    // would leave clusters idle (stream_k.hpp), where `sk_mode` says (stream_k_clusters: on `clusters`).
    void set_grid(Grid& g, int tiles_m, int tiles_n, int tile_m0, int tile_n0, int64_t cluster_tiles, int clusters,
                  StreamKMode sk_mode) {
        const TileConfig& cfg = g.cfg;
        KernelParams& kp = g.params;
        const int ctm = (tiles_m + cfg.cm - 1) / cfg.cm, ctn = (tiles_n + cfg.cn - 1) / cfg.cn;
        const int k_tiles = static_cast<int>(kp_ / cfg.bk());
        kp.work = plan_work(cluster_tiles, clusters, k_tiles, sk_mode);
        g.shape.grid[0] = static_cast<unsigned>(kp.work.clusters * cfg.cluster_size());
        set_cluster_ranges(g);
        kp.sk_partials = nullptr;
        kp.sk_flags = nullptr;
        if (kp.work.stream_k() && kp.sk_cluster_ranges == 0) {
            // One slot of partial accumulators (at most bm x bn 32-bit words) and one flag per range
            // and CTA; the flags start below every epoch a launch uses. (Ranges in one cluster hand
            // their partials over in shared memory: no workspace.)
            const size_t ctas = static_cast<size_t>(kp.work.clusters) * cfg.cluster_size();
            sk_partials_ = DeviceBuffer(ctas * cfg.bm * cfg.bn * 4);
            sk_flags_ = DeviceBuffer(ctas * cfg.consumers() * 4);
            sk_flags_.fill(0);
            kp.sk_partials = sk_partials_.as<uint32_t>();
            kp.sk_flags = sk_flags_.as<uint32_t>();
        }
        kp.m = static_cast<int32_t>(problem_.m);
        kp.n = static_cast<int32_t>(problem_.n);
        kp.k = static_cast<int32_t>(problem_.k);
        kp.k_tiles = k_tiles;
        kp.tiles_m = tiles_m;
        kp.tiles_n = tiles_n;
        kp.tile_m0 = tile_m0;
        kp.tile_n0 = tile_n0;
        kp.raster_group = raster_group(cfg, ctm);
        kp.raster_along_n = 0;
        // Tuning (bench/sm90a): SPMMA_SM90A_RASTER=G bands of G cluster rows, =nG of G cluster
        // columns, in place of the heuristic's bands (not for split kernels: their plan follows
        // the main grid's bands).
        if (const char* r = std::getenv("SPMMA_SM90A_RASTER"); r && r[0] && !kernel_.split()) {
            const bool along_n = r[0] == 'n';
            const int gr = std::atoi(r + (along_n ? 1 : 0));
            if (gr <= 0) fail(SPMMA_INVALID_ARGUMENT, std::string("SPMMA_SM90A_RASTER='") + r + "': expected G or nG, G > 0");
            kp.raster_group = std::min(gr, along_n ? ctn : ctm);
            kp.raster_along_n = along_n ? 1 : 0;
        }
    }

    // Where every tile is s equal ranges (ranges_per_cluster) and the kernel has room for s - 1
    // partials (TileConfig::exchange_ranges), the grid runs as clusters of s CTAs, a tile's ranges
    // each, and the earlier ranges hand their partials over in the owner's shared memory
    // (KernelParams::sk_cluster_ranges), if that many clusters of s fit at once.
    // SPMMA_SM90A_SK_CLUSTER=off keeps the workspace (A/B runs).
    void set_cluster_ranges(Grid& g) {
        KernelParams& kp = g.params;
        kp.sk_cluster_ranges = 0;
        const int s = ranges_per_cluster(kp.work);
        if (s < 2 || s > g.cfg.exchange_ranges() || kernel_.split()) return;
        if (env_choice("SPMMA_SM90A_SK_CLUSTER", {"off", "on"}).value_or(1) == 0) return;
        LaunchShape clustered = g.shape;
        clustered.cluster[0] = static_cast<unsigned>(s);
        if (max_active_clusters(g.fn, clustered) < kp.work.clusters / s) return;
        g.shape = clustered;
        kp.sk_cluster_ranges = s;
    }

    // The two grids of a split kernel (split_plan.hpp): the main grid's clusters of four or eight
    // on the SMs that hold them, the rest grid's clusters of two on those left over, each with its
    // part of the tiles. No rest grid where no SM is left over or the plan gives it nothing.
    void plan_split_grids(int tiles_m, int tiles_n, int main_clusters) {
        Grid rest;
        rest.function = kernel_.rest_symbol;
        rest.cfg = kernel_.rest_cfg;
        rest.fn = kernel(kernel_.image, kernel_.rest_symbol.c_str(), static_cast<unsigned>(rest.cfg.smem_bytes()));
        const int left_over = props_.sm_count - main_clusters * kernel_.cfg.cluster_size();
        const int rest_clusters = left_over / rest.cfg.cluster_size() > 0
                                      ? resident_clusters(rest, left_over / rest.cfg.cluster_size())
                                      : 0;
        const int ctm = (tiles_m + kernel_.cfg.cm - 1) / kernel_.cfg.cm;
        const SplitPlan plan = plan_split({tiles_m, tiles_n, kernel_.cfg.cm, raster_group(kernel_.cfg, ctm), main_clusters,
                                           rest.cfg.cm, rest_clusters, kSplitMainTurn});
        set_grid(main_, tiles_m, tiles_n, 0, 0, plan.main_cluster_tiles, main_clusters, StreamKMode::Off);
        if (!plan.has_rest()) return;
        set_grid(rest, plan.rest_tiles_m, plan.rest_tiles_n, plan.rest_tile_m0, plan.rest_tile_n0, plan.rest_cluster_tiles,
                 rest_clusters, StreamKMode::Off);
        rest_ = rest;
        side_.emplace();
    }

    // Epilogue and tuning switches, alike in every grid.
    void set_epilogue() {
        const spmma_problem& p = problem_;
        const TileConfig& cfg = kernel_.cfg;
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
        }
        // Diagnostics (plugins/sm90a/NOTES.md): SPMMA_SM90A_SERIAL_WGMMA=1 retires each k-tile's
        // wgmmas before the next k-tile's are prepared.
        const char* serial = std::getenv("SPMMA_SM90A_SERIAL_WGMMA");
        // The epilogue borrows buffers from the tile's last stage where the kernel allows it
        // (KernelParams::borrow_stage); SPMMA_SM90A_EPILOGUE_BORROW=off for A/B runs.
        const int borrow = env_choice("SPMMA_SM90A_EPILOGUE_BORROW", {"off", "on"}).value_or(1);
        for (Grid* g : grids()) {
            KernelParams& kp = g->params;
            kp.d = d_.as();
            kp.c = nullptr;
            kp.d_type = p.d_type;
            kp.use_c = p.beta != 0.0 ? 1 : 0;
            kp.alpha = static_cast<float>(p.alpha);
            kp.beta = static_cast<float>(p.beta);
            kp.alpha_i = static_cast<int64_t>(p.alpha);
            kp.beta_i = static_cast<int64_t>(p.beta);
            kp.serial_wgmma = serial && serial[0] == '1' ? 1 : 0;
            kp.borrow_stage = borrow;
            // (a kernel that fuses the epilogue only in its direct stores keeps D off TMA then)
            kp.tma_store = tma_store && tma_epilogue_for(g->cfg, p) ? 1 : 0;
        }
    }

    Family family_;
    int64_t kp_ = 0;         // k padded to whole stages
    int64_t meta_rows_ = 0;  // m padded to whole cluster tiles of the main grid (rows of metadata)
    spmma_plugin::cuda::DeviceBuffer a_, b_, e_;
    spmma_plugin::cuda::DeviceBuffer sk_partials_, sk_flags_;  // stream-K workspace (KernelParams)
    CUtensorMap tm_a_{}, tm_e_{}, tm_d_{};
    Grid main_;
    std::optional<Grid> rest_;  // a split kernel's rest grid, and the stream it runs on
    struct Side {
        spmma_plugin::cuda::Stream stream;
        spmma_plugin::cuda::Event fork, join;
    };
    std::optional<Side> side_;
};

}  // namespace

std::unique_ptr<spmma_plugin::Gemm> make_gemm(int device, const spmma_problem& p, const KernelEntry& k) {
    return std::make_unique<Sm90aGemm>(device, p, k);
}

}  // namespace spmma_sm90a
