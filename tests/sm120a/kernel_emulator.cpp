#include "kernel_emulator.hpp"

#include <spmma/types.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace sm120a_test {

using spmma::DType;
namespace isa = spmma::isa;
namespace L = spmma_sm120a;

namespace {

DType dt(spmma_dtype t) { return static_cast<DType>(t); }

// Codes of type t with a finite value, 1/8 <= |v| <= 4.
std::vector<uint32_t> moderate_codes(DType t) {
    std::vector<uint32_t> out;
    const uint32_t count = 1u << spmma::info(t).bits;
    for (uint32_t c = 0; c < count; ++c) {
        const double v = spmma::decode(t, c);
        if (std::isfinite(v) && std::fabs(v) >= 0.125 && std::fabs(v) <= 4.0) out.push_back(c);
    }
    if (out.empty()) throw std::logic_error("no moderate codes");
    return out;
}

std::vector<uint32_t> scale_codes(DType t) {
    std::vector<uint32_t> out;
    for (uint32_t c = 0; c < 256; ++c) {
        if (t == DType::UE4M3 && c > 0x7f) break;
        const double v = spmma::decode(t, c);
        if (std::isfinite(v) && v >= 0.25 && v <= 4.0) out.push_back(c);
    }
    return out;
}

// The logical columns (within the row) of the kept elements of group g under index byte idx,
// in the order the canonical values list them.
std::vector<int64_t> kept_columns(const Form& f, int64_t g, uint8_t idx) {
    const int i0 = idx & 3, i1 = (idx >> 2) & 3;
    if (!f.packed()) return {4 * g + i0, 4 * g + i1};
    return {8 * g + 2 * i0, 8 * g + 2 * i0 + 1, 8 * g + 2 * i1, 8 * g + 2 * i1 + 1};
}

// Dense decoded A (m x k, zeros where pruned) and its kept mask.
void decompress(const Form& f, const Operands& o, std::vector<double>& a, std::vector<uint8_t>& kept) {
    a.assign(o.m * o.k, 0.0);
    kept.assign(o.m * o.k, 0);
    const int64_t groups = o.k / f.chunk(), per_group = f.chunk() / 2;
    for (int64_t i = 0; i < o.m; ++i)
        for (int64_t g = 0; g < groups; ++g) {
            const auto cols = kept_columns(f, g, o.indices[i * groups + g]);
            for (int s = 0; s < per_group; ++s) {
                const int64_t v = i * (o.k / 2) + g * per_group + s;
                a[i * o.k + cols[s]] = spmma::decode(dt(f.a), spmma::load_code(dt(f.a), o.values.data(), v));
                kept[i * o.k + cols[s]] = 1;
            }
        }
}

double b_value(const Form& f, const Operands& o, int64_t kk, int64_t j) {
    return spmma::decode(dt(f.b), spmma::load_code(dt(f.b), o.b.data(), j * o.k + kk));
}

double scale_value(const Form& f, const std::vector<uint8_t>& scales, int64_t rows, int64_t blocks, int64_t rc, int64_t block) {
    if (!f.scaled()) return 1.0;
    if (rc >= rows || block >= blocks) return 1.0;  // padding carries unit scales
    return spmma::decode(dt(f.scale), scales[rc * blocks + block]);
}

uint32_t load_word(const uint8_t* p) {
    uint32_t w;
    std::memcpy(&w, p, 4);
    return w;
}

}  // namespace

Operands random_operands(const Form& f, int64_t m, int64_t n, int64_t k, double alpha, double beta, std::mt19937& rng) {
    Operands o;
    o.m = m;
    o.n = n;
    o.k = k;
    o.alpha = alpha;
    o.beta = beta;
    const DType a = dt(f.a), b = dt(f.b);
    const auto a_codes = moderate_codes(a), b_codes = moderate_codes(b);
    auto pick = [&](const std::vector<uint32_t>& v) { return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)]; };
    static constexpr uint8_t kIndexBytes[] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};  // (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
    o.indices.resize(static_cast<size_t>(m * (k / f.chunk())));
    for (auto& x : o.indices) x = kIndexBytes[std::uniform_int_distribution<int>(0, 5)(rng)];
    o.values.assign(spmma::storage_bytes(a, m * (k / 2)), 0);
    for (int64_t i = 0; i < m * (k / 2); ++i) spmma::store_code(a, o.values.data(), i, pick(a_codes));
    o.b.assign(spmma::storage_bytes(b, n * k), 0);
    for (int64_t i = 0; i < n * k; ++i) spmma::store_code(b, o.b.data(), i, pick(b_codes));
    if (f.scaled()) {
        const auto s_codes = scale_codes(dt(f.scale));
        const int64_t blocks = k / f.scale_block();
        o.scale_a.resize(static_cast<size_t>(m * blocks));
        o.scale_b.resize(static_cast<size_t>(n * blocks));
        for (auto& x : o.scale_a) x = static_cast<uint8_t>(pick(s_codes));
        for (auto& x : o.scale_b) x = static_cast<uint8_t>(pick(s_codes));
    }
    o.c.resize(static_cast<size_t>(m * n));
    for (auto& x : o.c) {
        const int q = std::uniform_int_distribution<int>(1, 16)(rng);
        x = (std::uniform_int_distribution<int>(0, 1)(rng) ? 1 : -1) * q * 0.125;  // exact in f16 and bf16
    }
    return o;
}

std::vector<double> reference(const Form& f, const Operands& o, std::vector<double>* abs_sum) {
    std::vector<double> a;
    std::vector<uint8_t> kept;
    decompress(f, o, a, kept);
    const int64_t blocks = f.scaled() ? o.k / f.scale_block() : 0;
    std::vector<double> d(o.m * o.n);
    if (abs_sum) abs_sum->assign(o.m * o.n, 0.0);
    for (int64_t i = 0; i < o.m; ++i)
        for (int64_t j = 0; j < o.n; ++j) {
            double s = 0, sa = 0;
            for (int64_t kk = 0; kk < o.k; ++kk) {
                if (!kept[i * o.k + kk]) continue;
                const int64_t blk = f.scaled() ? kk / f.scale_block() : 0;
                const double t = a[i * o.k + kk] * scale_value(f, o.scale_a, o.m, blocks, i, blk) * b_value(f, o, kk, j) *
                                 scale_value(f, o.scale_b, o.n, blocks, j, blk);
                s += t;  // exact here: the operands' bits make every partial sum fit a double
                sa += std::fabs(t);
            }
            d[i * o.n + j] = o.alpha * s + o.beta * o.c[i * o.n + j];
            if (abs_sum) (*abs_sum)[i * o.n + j] = std::fabs(o.alpha) * sa;
        }
    return d;
}

isa::MmaSp model_form(const Form& f) {
    isa::MmaSp m;
    m.k = f.mma_k();
    m.a = dt(f.a);
    m.b = dt(f.b);
    m.c = m.d = dt(f.acc);
    m.ordered_metadata = true;
    switch (f.kind) {
        case L::Kind::F8F6F4: m.kind = isa::MmaSp::Kind::F8F6F4; break;
        case L::Kind::MXF8F6F4: m.kind = isa::MmaSp::Kind::MXF8F6F4; break;
        case L::Kind::MXF4: m.kind = isa::MmaSp::Kind::MXF4; break;
        case L::Kind::MXF4NVF4: m.kind = isa::MmaSp::Kind::MXF4NVF4; break;
    }
    m.scale_vec = f.scale_vec;
    m.scale_type = dt(f.scale);
    return m;
}

Packed pack(const Form& f, const Tile& t, const Operands& o) {
    Packed p;
    p.shape = L::packed_shape(f, t, o.m, o.n, o.k);
    p.a.resize(p.shape.a_bytes);
    p.e.resize(p.shape.e_words);
    p.b.resize(p.shape.b_bytes);
    L::pack_a(f, p.shape, t.bm, o.values.data(), o.indices.data(), p.a.data(), p.e.data(), 2);
    L::pack_b(f, p.shape, o.b.data(), p.b.data(), 2);
    if (f.scaled()) {
        p.sa.resize(p.shape.sa_words);
        p.sb.resize(p.shape.sb_words);
        L::pack_scales_a(f, p.shape, t.bm, o.scale_a.data(), p.sa.data(), 2);
        L::pack_scales_b(f, p.shape, t.bn, o.scale_b.data(), p.sb.data(), 2);
    }
    return p;
}

Emulation emulate(const Form& f, const Tile& t, const Operands& o, const Packed& pk) {
    const isa::MmaSp mf = model_form(f);
    if (auto why = isa::invalid_reason(mf)) throw std::logic_error("not an mma.sp form: " + *why);
    const L::PackedShape& s = pk.shape;
    const bool f16 = f.acc == SPMMA_F16;
    const int MI = t.wm / L::kAtomRows, NJ = t.wn / L::kAtomCols, warps_m = t.bm / t.wm, W = f.scale_words();
    const int V = f.scale_vec, K = f.mma_k();
    const int64_t blocks = s.scale_blocks;

    std::vector<double> a_dense;
    std::vector<uint8_t> a_kept;
    decompress(f, o, a_dense, a_kept);

    Emulation out;
    out.d.assign(o.m * o.n, std::nan(""));
    auto error = [&](const std::string& e) {
        if (out.errors.size() < 20) out.errors.push_back(e);
        ++out.error_count;
    };

    std::vector<uint8_t> stage(static_cast<size_t>(t.stage_bytes(f)));
    using Regs = std::array<std::array<uint32_t, 4>, 32>;
    for (int64_t tm = 0; tm < s.m_pad / t.bm; ++tm)
        for (int64_t tn = 0; tn < s.n_pad / t.bn; ++tn) {
            std::vector<Regs> acc(static_cast<size_t>(t.warps() * MI * NJ), Regs{});
            for (int64_t ks = 0; ks < s.k_stages; ++ks) {
                // ---- the producer: one stage into the shared-memory image (kernel: load_stage) ----
                std::fill(stage.begin(), stage.end(), uint8_t(0xA5));  // stale bytes must not matter
                std::memcpy(stage.data(), pk.a.data() + (tm * s.k_stages + ks) * L::a_stage_bytes(t.bm), L::a_stage_bytes(t.bm));
                std::memcpy(stage.data() + t.e_region(), pk.e.data() + (tm * s.k_stages + ks) * L::e_stage_words(t.bm),
                            L::e_stage_words(t.bm) * 4);
                if (f.scaled()) {
                    std::memcpy(stage.data() + t.sa_region(), pk.sa.data() + (tm * s.k_stages + ks) * L::sa_stage_words(f, t.bm),
                                L::sa_stage_words(f, t.bm) * 4);
                    std::memcpy(stage.data() + t.sb_region(f), pk.sb.data() + (tn * s.k_stages + ks) * L::sb_stage_words(f, t.bn),
                                L::sb_stage_words(f, t.bn) * 4);
                }
                for (int col = 0; col < t.bn; ++col)
                    for (int chunk = 0; chunk < L::kStageBytes / 16; ++chunk)
                        std::memcpy(stage.data() + t.b_region() + L::b_smem_offset(col, chunk),
                                    pk.b.data() + (tn * t.bn + col) * s.ldb + ks * L::kStageBytes + chunk * 16, 16);

                // ---- the consumer: every warp, step and atom pair x quad (kernel: mma_atoms) ----
                for (int warp = 0; warp < t.warps(); ++warp) {
                    const int warp_m = warp % warps_m, warp_n = warp / warps_m;
                    const int atom0 = warp_m * MI, natom0 = warp_n * NJ;
                    for (int step = 0; step < L::kSteps; ++step) {
                        const int64_t jmma = ks * L::kSteps + step;  // mma step along k
                        for (int q = 0; q < MI / L::kAtomsPerScaleA; ++q)
                            for (int r = 0; r < NJ / L::kAtomsPerScaleB; ++r)
                                for (int TA = 0; TA < 2; ++TA)
                                    for (int TB = 0; TB < 4; ++TB) {
                                        const int i = 2 * q + TA, j = 4 * r + TB;
                                        if (L::thread_id_a(atom0 + i) != TA || L::thread_id_b(natom0 + j) != TB)
                                            error("the kernel's immediate selectors disagree with layout.hpp");
                                        isa::MmaSpWarp w;
                                        const uint8_t* sm = stage.data();
                                        for (int lane = 0; lane < 32; ++lane) {
                                            const uint8_t* ap = sm + L::a_stage_offset(atom0 + i, step, lane);
                                            for (int reg = 0; reg < 4; ++reg) w.a[lane][reg] = load_word(ap + 4 * reg);
                                            w.e[lane] = load_word(sm + t.e_region() + 4 * L::e_stage_offset(atom0 + i, step, lane));
                                            // ldmatrix.x4 (PTX 9.7.14.5.15): register q of lane l is bytes
                                            // [4*(l%4), +4) of the row addressed by lane 8q + l/4.
                                            for (int reg = 0; reg < 4; ++reg) {
                                                const int src = 8 * reg + (lane >> 2);
                                                const int addr = t.b_region() + L::b_ldsm_offset((natom0 + j) * L::kAtomCols, step, src);
                                                w.b[lane][reg] = load_word(sm + addr + 4 * (lane & 3));
                                            }
                                            if (f.scaled()) {
                                                w.scale_a[lane] = load_word(sm + t.sa_region() +
                                                                            4 * L::sa_stage_offset(W, atom0 / 2 + q, L::scale_word(f, step), lane));
                                                w.scale_b[lane] = load_word(sm + t.sb_region(f) +
                                                                            4 * L::sb_stage_offset(W, natom0 / 4 + r, L::scale_word(f, step), lane));
                                            }
                                        }
                                        Regs& c = acc[static_cast<size_t>((warp * MI + i) * NJ + j)];
                                        w.c = c;
                                        w.selector = 0;
                                        w.byte_id_a = w.byte_id_b = static_cast<uint16_t>(L::scale_byte_id(f, step));
                                        w.thread_id_a = static_cast<uint16_t>(TA);
                                        w.thread_id_b = static_cast<uint16_t>(TB);

                                        // Exact check: the registers denote the canonical operands' tile.
                                        std::vector<std::string> undefined;
                                        const isa::MmaSpTile tile = isa::mma_sp_decode(mf, w, &undefined);
                                        const int64_t row0 = tm * t.bm + (atom0 + i) * L::kAtomRows;
                                        const int64_t col0 = tn * t.bn + (natom0 + j) * L::kAtomCols;
                                        for (int rr = 0; rr < 16; ++rr)
                                            for (int kc = 0; kc < K; ++kc) {
                                                const int64_t row = row0 + rr, kk = jmma * K + kc;
                                                const bool real = row < o.m && kk < o.k;
                                                const double want = real ? a_dense[row * o.k + kk] : 0.0;
                                                if (tile.a[rr * K + kc] != want ||
                                                    (real && tile.a_kept[rr * K + kc] != a_kept[row * o.k + kk]))
                                                    error("A(" + std::to_string(row) + ", " + std::to_string(kk) + ") decodes to " +
                                                          std::to_string(tile.a[rr * K + kc]) + " (kept " +
                                                          std::to_string(tile.a_kept[rr * K + kc]) + "), expected " + std::to_string(want));
                                            }
                                        for (int kc = 0; kc < K; ++kc)
                                            for (int cc = 0; cc < 8; ++cc) {
                                                const int64_t kk = jmma * K + kc, col = col0 + cc;
                                                const double want = (kk < o.k && col < o.n) ? b_value(f, o, kk, col) : 0.0;
                                                if (tile.b[kc * 8 + cc] != want)
                                                    error("B(" + std::to_string(kk) + ", " + std::to_string(col) + ") decodes to " +
                                                          std::to_string(tile.b[kc * 8 + cc]) + ", expected " + std::to_string(want));
                                            }
                                        for (int jb = 0; jb < V; ++jb) {
                                            for (int rr = 0; rr < 16; ++rr) {
                                                const double want = scale_value(f, o.scale_a, o.m, blocks, row0 + rr, jmma * V + jb);
                                                if (tile.scale_a[rr * V + jb] != want)
                                                    error("scale_A(" + std::to_string(row0 + rr) + ", block " + std::to_string(jmma * V + jb) +
                                                          ") decodes to " + std::to_string(tile.scale_a[rr * V + jb]) + ", expected " +
                                                          std::to_string(want));
                                            }
                                            for (int cc = 0; cc < 8; ++cc) {
                                                const double want = scale_value(f, o.scale_b, o.n, blocks, col0 + cc, jmma * V + jb);
                                                if (tile.scale_b[jb * 8 + cc] != want)
                                                    error("scale_B(" + std::to_string(col0 + cc) + ", block " + std::to_string(jmma * V + jb) +
                                                          ") decodes to " + std::to_string(tile.scale_b[jb * 8 + cc]) + ", expected " +
                                                          std::to_string(want));
                                            }
                                        }

                                        const isa::MmaSpResult res = isa::mma_sp(mf, w);
                                        for (const auto& u : res.undefined) error("undefined input: " + u);
                                        c = res.d;
                                        ++out.mmas;
                                    }
                    }
                }
            }
            // ---- the epilogue: accumulator registers -> (row, col) (kernel: cd_row / cd_col) ----
            for (int warp = 0; warp < t.warps(); ++warp) {
                const int warp_m = warp % warps_m, warp_n = warp / warps_m;
                for (int i = 0; i < MI; ++i)
                    for (int j = 0; j < NJ; ++j) {
                        const Regs& c = acc[static_cast<size_t>((warp * MI + i) * NJ + j)];
                        for (int lane = 0; lane < 32; ++lane)
                            for (int reg = 0; reg < (f16 ? 2 : 4); ++reg)
                                for (int h = 0; h < (f16 ? 2 : 1); ++h) {
                                    const int64_t row = tm * t.bm + warp_m * t.wm + i * L::kAtomRows + L::cd_row(lane, reg, f16);
                                    const int64_t col = tn * t.bn + warp_n * t.wn + j * L::kAtomCols + L::cd_col(lane, reg, h, f16);
                                    if (row >= o.m || col >= o.n) continue;
                                    const double v = f16 ? spmma::decode(DType::F16, (c[lane][reg] >> (16 * h)) & 0xffffu)
                                                         : spmma::decode(DType::F32, c[lane][reg]);
                                    out.d[row * o.n + col] = o.alpha * v + (o.beta != 0 ? o.beta * o.c[row * o.n + col] : 0.0);
                                }
                    }
            }
        }
    return out;
}

}  // namespace sm120a_test
