// The sm80 kernels, emulated: the sm80 plugin's host packing (plugins/sm80/pack) produces the
// packed A values, metadata words and B it uploads; every mma.sp a kernel issues is rebuilt from
// those buffers with the offsets of include/spmma_sm80/layout.hpp (what the kernel's lanes load)
// and run through the instruction model.
#include "emu_epilogue.hpp"
#include "emu_kernel.hpp"
#include "emu_walk.hpp"

#if SPMMA_EMU_SM80
#include <spmma_sm80/layout.hpp>
#include <spmma_sm80/op_tags.hpp>
#include <spmma_sm80/pack.hpp>
#endif

#include <cstring>

namespace spmma_emu {

#if SPMMA_EMU_SM80
namespace {

using namespace spmma_sm80;

struct Entry {
    const char* name;
    const OpInfo* op;
    bool ordered;
    Tile tile;
};

// Every kernel of the plugin's table (include/spmma_sm80/kernels/*.inc), as its kernel_table.cpp
// lists them.
#define SPMMA_SM80_KERNEL(name, tag, ord, bm, bn, wm, wn, st) Entry{#name, &tags::tag, (ord) != 0, Tile{bm, bn, wm, wn, st}},
const Entry kEntries[] = {
#include <spmma_sm80/kernels/f16.inc>
#include <spmma_sm80/kernels/bf16.inc>
#include <spmma_sm80/kernels/tf32.inc>
#include <spmma_sm80/kernels/i8.inc>
#include <spmma_sm80/kernels/i4.inc>
#include <spmma_sm80/kernels/f8.inc>
};
#undef SPMMA_SM80_KERNEL

spmma::isa::MmaSp form_of(const Entry& e) {
    spmma::isa::MmaSp f;
    f.k = e.op->family.mma_k();
    f.a = static_cast<spmma::DType>(e.op->a);
    f.b = static_cast<spmma::DType>(e.op->b);
    f.c = f.d = static_cast<spmma::DType>(e.op->acc);
    f.ordered_metadata = e.ordered;
    f.satfinite = e.op->satfinite;
    return f;
}

std::string reason(const Entry& e, const spmma_problem& p) {
    const OpInfo& op = *e.op;
    if (op.a != p.a_type || op.b != p.b_type || op.acc != p.acc_type || op.satfinite != (p.saturate != 0))
        return std::string(e.name) + " runs " + op.label + ", not " + spmma_dtype_name(p.a_type) + " x " +
               spmma_dtype_name(p.b_type) + " -> " + spmma_dtype_name(p.acc_type) + (p.saturate ? " satfinite" : "");
    if (p.scale_type != SPMMA_DTYPE_NONE) return "sm_80 mma.sp has no block scales";
    if (p.pattern != pattern_of(op.family))
        return std::string(spmma_dtype_name(p.a_type)) + " takes the " + spmma_pattern_name(pattern_of(op.family)) + " pattern";
    if (p.k % op.family.chunk != 0) return "k must be a multiple of " + std::to_string(op.family.chunk);
    if (auto r = epilogue_reason(p); !r.empty()) return r;
    const PackedShape s = packed_shape(op.family, e.tile, p.m, p.n, p.k);
    const int64_t mma_count = ((p.m + 15) / 16) * ((p.n + 7) / 8) * s.k_stages * kStepsPerStage;
    return size_reason(p, mma_count * 16 * 8 * (op.family.mma_k() / 2));
}

uint32_t word_at(const uint8_t* p) {
    uint32_t w;
    std::memcpy(&w, p, 4);
    return w;
}

std::vector<double> accumulate(const Entry& e, const spmma_problem& p, const Canonical& in) {
    const Family& f = e.op->family;
    const int bm = e.tile.bm;
    const PackedShape s = packed_shape(f, e.tile, p.m, p.n, p.k);
    std::vector<uint8_t> a(static_cast<size_t>(s.a_bytes)), b(static_cast<size_t>(s.b_bytes));
    std::vector<uint32_t> meta(static_cast<size_t>(s.e_words));
    pack_a(f, s, bm, in.a_values.data(), in.a_indices.data(), a.data(), meta.data());
    pack_b(f, s, in.b.data(), b.data());
    // What lane `lane` of the warp owning the atom loads for one mma (layout.hpp).
    const LoadMma load = [&](spmma::isa::MmaSpWarp& w, int64_t row0, int64_t col0, int64_t step) {
        const int64_t ks = step / kStepsPerStage;
        const int st = static_cast<int>(step % kStepsPerStage);
        const int64_t mt = row0 / bm;
        const int atom = static_cast<int>((row0 % bm) / kAtomRows);
        const uint8_t* a_blk = a.data() + (mt * s.k_stages + ks) * a_stage_bytes(bm);
        const uint32_t* e_blk = meta.data() + (mt * s.k_stages + ks) * e_stage_words(f, bm);
        for (int lane = 0; lane < 32; ++lane) {
            const int64_t col = col0 + b_frag_col(lane);
            for (int r = 0; r < 4; ++r) {
                w.a[lane][r] = word_at(a_blk + a_stage_offset(atom, st, lane) + 4 * r);
                w.b[lane][r] = word_at(b.data() + col * s.ldb + ks * kStageKBytes + st * kStepBytes + b_frag_byte(lane, r));
            }
            w.e[lane] = e_blk[e_stage_offset(f, atom, f.e_word_of_step(st), lane)];
        }
        w.selector = f.selector_of_step(st);
    };
    return walk_atoms(form_of(e), p.m, p.n, s.k_stages * kStepsPerStage, load, std::string("emu_") + e.name);
}

}  // namespace

void add_sm80_kernels(std::vector<EmuKernel>& out) {
    for (const Entry& e : kEntries) {
        EmuKernel k;
        k.name = std::string("emu_") + e.name;
        k.description = std::string("sm80 kernel ") + e.name + " on the CPU: its host packing through the mma.sp model (" +
                        spmma::isa::ptx_name(form_of(e)) + ")";
        k.reason = [&e](const spmma_problem& p) { return reason(e, p); };
        k.accumulate = [&e](const spmma_problem& p, const Canonical& in) { return accumulate(e, p, in); };
        out.push_back(std::move(k));
    }
}
#else
void add_sm80_kernels(std::vector<EmuKernel>&) {}  // the sm80 packing library is not built here
#endif

}  // namespace spmma_emu
