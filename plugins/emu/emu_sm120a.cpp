// The sm120a kernels, emulated: the sm120a plugin's host packing (plugins/sm120a/pack) produces
// the packed A values, metadata, scale words and B it uploads; every mma.sp a kernel issues is
// rebuilt from those buffers with the offsets and selectors of include/spmma_sm120a/layout.hpp
// and run through the instruction model.
#include "emu_epilogue.hpp"
#include "emu_kernel.hpp"
#include "emu_walk.hpp"

#if SPMMA_EMU_SM120A
#include <spmma_sm120a/forms.hpp>
#include <spmma_sm120a/kernel_tiles.hpp>
#include <spmma_sm120a/layout.hpp>
#include <spmma_sm120a/pack.hpp>
#endif

#include <cstring>

namespace spmma_emu {

#if SPMMA_EMU_SM120A
namespace {

using namespace spmma_sm120a;

struct Entry {
    const char* name;
    Form form;
    Tile tile;
};

// Every kernel of the plugin's table (include/spmma_sm120a/kernels/*.inc), as its kernel_table.cpp
// lists them.
#define SPMMA_SM120A_KERNEL(name, KIND, A, B, ACC, SV, SCALE, bm, bn, wm, wn, st) \
    Entry{#name, SPMMA_SM120A_FORM(KIND, A, B, ACC, SV, SCALE), Tile{bm, bn, wm, wn, st}},
const Entry kEntries[] = {
#include <spmma_sm120a/kernels/f8f6f4.inc>
#include <spmma_sm120a/kernels/mxf8f6f4.inc>
#include <spmma_sm120a/kernels/mxf4.inc>
#include <spmma_sm120a/kernels/mxf4nvf4.inc>
};
#undef SPMMA_SM120A_KERNEL

spmma::isa::MmaSp form_of(const Form& f) {
    using K = spmma::isa::MmaSp::Kind;
    spmma::isa::MmaSp m;
    m.k = f.mma_k();
    m.a = static_cast<spmma::DType>(f.a);
    m.b = static_cast<spmma::DType>(f.b);
    m.c = m.d = static_cast<spmma::DType>(f.acc);
    m.ordered_metadata = true;
    m.kind = f.kind == Kind::F8F6F4 ? K::F8F6F4 : f.kind == Kind::MXF8F6F4 ? K::MXF8F6F4 : f.kind == Kind::MXF4 ? K::MXF4 : K::MXF4NVF4;
    m.scale_vec = f.scale_vec;
    m.scale_type = static_cast<spmma::DType>(f.scale);
    return m;
}

std::string reason(const Entry& e, const spmma_problem& p) {
    const Form& f = e.form;
    if (f.a != p.a_type || f.b != p.b_type || f.acc != p.acc_type || p.saturate)
        return std::string(e.name) + " runs " + spmma_dtype_name(f.a) + " x " + spmma_dtype_name(f.b) + " -> " +
               spmma_dtype_name(f.acc) + ", not " + spmma_dtype_name(p.a_type) + " x " + spmma_dtype_name(p.b_type) +
               " -> " + spmma_dtype_name(p.acc_type);
    if (p.pattern != f.pattern())
        return std::string(kind_name(f.kind)) + " takes the " + spmma_pattern_name(f.pattern()) + " pattern";
    if (f.scale != p.scale_type)
        return std::string(e.name) + " takes " + (f.scaled() ? spmma_dtype_name(f.scale) : "no") + " block scales, not " +
               (p.scale_type == SPMMA_DTYPE_NONE ? "none" : spmma_dtype_name(p.scale_type));
    if (f.scaled() && p.scale_block != f.scale_block())
        return std::string(e.name) + " scales blocks of " + std::to_string(f.scale_block()) + " elements, not " +
               std::to_string(p.scale_block);
    if (p.k % f.chunk() != 0 || (f.scaled() && p.k % f.scale_block() != 0))
        return "k must be a multiple of " + std::to_string(f.scaled() ? f.scale_block() : f.chunk());
    if (auto r = epilogue_reason(p); !r.empty()) return r;
    const PackedShape s = packed_shape(f, e.tile, p.m, p.n, p.k);
    const int64_t mma_count = ((p.m + 15) / 16) * ((p.n + 7) / 8) * s.k_stages * kSteps;
    return size_reason(p, mma_count * 16 * 8 * (f.mma_k() / 2));
}

uint32_t word_at(const uint8_t* p) {
    uint32_t w;
    std::memcpy(&w, p, 4);
    return w;
}

std::vector<double> accumulate(const Entry& e, const spmma_problem& p, const Canonical& in) {
    const Form& f = e.form;
    const int bm = e.tile.bm, bn = e.tile.bn;
    const PackedShape s = packed_shape(f, e.tile, p.m, p.n, p.k);
    std::vector<uint8_t> a(static_cast<size_t>(s.a_bytes)), b(static_cast<size_t>(s.b_bytes));
    std::vector<uint32_t> meta(static_cast<size_t>(s.e_words)), sa(static_cast<size_t>(s.sa_words)),
        sb(static_cast<size_t>(s.sb_words));
    pack_a(f, s, bm, in.a_values.data(), in.a_indices.data(), a.data(), meta.data());
    pack_b(f, s, in.b.data(), b.data());
    if (f.scaled()) {
        pack_scales_a(f, s, bm, in.scale_a.data(), sa.data());
        pack_scales_b(f, s, bn, in.scale_b.data(), sb.data());
    }
    const int words = f.scaled() ? f.scale_words() : 0;
    // What lane `lane` of the warp owning the atom loads for one mma (layout.hpp).
    const LoadMma load = [&](spmma::isa::MmaSpWarp& w, int64_t row0, int64_t col0, int64_t step) {
        const int64_t ks = step / kSteps;
        const int st = static_cast<int>(step % kSteps);
        const int64_t mt = row0 / bm, nt = col0 / bn;
        const int atom = static_cast<int>((row0 % bm) / kAtomRows), natom = static_cast<int>((col0 % bn) / kAtomCols);
        const uint8_t* a_blk = a.data() + (mt * s.k_stages + ks) * a_stage_bytes(bm);
        const uint32_t* e_blk = meta.data() + (mt * s.k_stages + ks) * e_stage_words(bm);
        for (int lane = 0; lane < 32; ++lane) {
            const int64_t col = col0 + b_frag_col(lane);
            for (int r = 0; r < 4; ++r) {
                w.a[lane][r] = word_at(a_blk + a_stage_offset(atom, st, lane) + 4 * r);
                w.b[lane][r] = word_at(b.data() + col * s.ldb + ks * kStageBytes + st * kStepBytes + b_frag_byte(lane, r));
            }
            w.e[lane] = e_blk[e_stage_offset(atom, st, lane)];
        }
        w.selector = 0;
        if (!f.scaled()) return;
        const uint32_t* sa_blk = sa.data() + (mt * s.k_stages + ks) * sa_stage_words(f, bm);
        const uint32_t* sb_blk = sb.data() + (nt * s.k_stages + ks) * sb_stage_words(f, bn);
        for (int lane = 0; lane < 32; ++lane) {
            w.scale_a[lane] = sa_blk[sa_stage_offset(words, atom / kAtomsPerScaleA, scale_word(f, st), lane)];
            w.scale_b[lane] = sb_blk[sb_stage_offset(words, natom / kAtomsPerScaleB, scale_word(f, st), lane)];
        }
        w.thread_id_a = static_cast<uint16_t>(thread_id_a(atom));
        w.thread_id_b = static_cast<uint16_t>(thread_id_b(natom));
        w.byte_id_a = w.byte_id_b = static_cast<uint16_t>(scale_byte_id(f, st));
    };
    return walk_atoms(form_of(f), p.m, p.n, s.k_stages * kSteps, load, std::string("emu_") + e.name);
}

}  // namespace

void add_sm120a_kernels(std::vector<EmuKernel>& out) {
    for (const Entry& e : kEntries) {
        EmuKernel k;
        k.name = std::string("emu_") + e.name;
        k.description = std::string("sm120a kernel ") + e.name + " on the CPU: its host packing through the mma.sp model (" +
                        spmma::isa::ptx_name(form_of(e.form)) + ")";
        k.reason = [&e](const spmma_problem& p) { return reason(e, p); };
        k.accumulate = [&e](const spmma_problem& p, const Canonical& in) { return accumulate(e, p, in); };
        out.push_back(std::move(k));
    }
}
#else
void add_sm120a_kernels(std::vector<EmuKernel>&) {}  // the sm120a packing library is not built here
#endif

}  // namespace spmma_emu
