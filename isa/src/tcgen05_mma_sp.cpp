// Model of tcgen05.mma.sp (PTX ISA 9.7.16.10.9.2), cta_group::1, A and B from shared memory.
#include <spmma/isa/tcgen05_mma_sp.hpp>
#include <spmma/isa/exact_accumulator.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

namespace spmma::isa {
namespace {

std::string hex(uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

uint32_t bits(uint32_t v, int lo, int n) { return (v >> lo) & ((1u << n) - 1); }

// atype/btype codes of each kind (Tables 42-44).
DType type_of(Tcgen05Kind kind, uint32_t code) {
    switch (kind) {
        case Tcgen05Kind::TF32: return code == 2 ? DType::TF32 : DType::None;
        case Tcgen05Kind::F16: return code == 0 ? DType::F16 : code == 1 ? DType::BF16 : DType::None;
        case Tcgen05Kind::I8: return code == 0 ? DType::U8 : code == 1 ? DType::S8 : DType::None;
        case Tcgen05Kind::F8F6F4: case Tcgen05Kind::MXF8F6F4:
            switch (code) {
                case 0: return DType::E4M3;
                case 1: return DType::E5M2;
                case 3: return DType::E2M3;
                case 4: return DType::E3M2;
                case 5: return DType::E2M1;
                default: return DType::None;
            }
        case Tcgen05Kind::MXF4: case Tcgen05Kind::MXF4NVF4: return code == 1 ? DType::E2M1 : DType::None;
    }
    return DType::None;
}

int code_of(Tcgen05Kind kind, DType t) {
    for (uint32_t c = 0; c < 8; ++c)
        if (type_of(kind, c) == t && t != DType::None) return static_cast<int>(c);
    return -1;
}

// How A and B elements of a kind sit in shared memory (9.7.16.10.4).
OperandLayout layout_for(const UmmaDescriptor& d, bool mn_major, Tcgen05Kind kind, DType t) {
    const Major m = mn_major ? Major::MN : Major::K;
    if (kind == Tcgen05Kind::MXF4 || kind == Tcgen05Kind::MXF4NVF4) return OperandLayout::from(d, m, 4);
    if (t == DType::E2M1) return OperandLayout::from(d, m, 4, true);                         // 16 x 4 bit + 8 B padding
    if (t == DType::E2M3 || t == DType::E3M2) return OperandLayout::from(d, m, 6, true);     // 16 x 6 bit + 4 B padding
    return OperandLayout::from(d, m, info(t).storage_bits);
}

bool valid_n(Tcgen05Kind kind, int n) {
    if (n < 8 || n > 256 || n % 8) return false;
    if (kind == Tcgen05Kind::I8 && n > 32) return n % 16 == 0;
    return true;
}

}  // namespace

// ---- tensor memory ----------------------------------------------------------------------------

uint32_t& TensorMemory::at(int lane, int column) {
    if (lane < 0 || lane >= kLanes || column < 0 || column >= kColumns)
        throw std::out_of_range("tensor memory lane " + std::to_string(lane) + " column " + std::to_string(column));
    return cells[size_t(lane) * kColumns + column];
}

uint32_t TensorMemory::at(int lane, int column) const { return const_cast<TensorMemory*>(this)->at(lane, column); }

const char* name(Tcgen05Kind k) {
    switch (k) {
        case Tcgen05Kind::F16: return "kind::f16";
        case Tcgen05Kind::TF32: return "kind::tf32";
        case Tcgen05Kind::F8F6F4: return "kind::f8f6f4";
        case Tcgen05Kind::I8: return "kind::i8";
        case Tcgen05Kind::MXF8F6F4: return "kind::mxf8f6f4";
        case Tcgen05Kind::MXF4: return "kind::mxf4";
        case Tcgen05Kind::MXF4NVF4: return "kind::mxf4nvf4";
    }
    return "?";
}

int tcgen05_sp_k(Tcgen05Kind k) {
    switch (k) {
        case Tcgen05Kind::F16: return 32;
        case Tcgen05Kind::TF32: return 16;
        case Tcgen05Kind::F8F6F4: case Tcgen05Kind::I8: case Tcgen05Kind::MXF8F6F4: return 64;
        case Tcgen05Kind::MXF4: case Tcgen05Kind::MXF4NVF4: return 128;
    }
    return 0;
}

TmemCell tcgen05_d_cell(int m, int row, int col) {
    if (m == 64) return {(row % 16) + 32 * (row / 16), col};
    return {row, col};
}

// ---- instruction descriptor -------------------------------------------------------------------

uint32_t InstrDescriptor::encode(Tcgen05Kind kind) const {
    auto fail = [&](const std::string& what) { throw std::invalid_argument(std::string("idesc for ") + name(kind) + ": " + what); };
    const int ac = code_of(kind, a), bc = code_of(kind, b);
    if (ac < 0 || bc < 0) fail(std::string("no type code for ") + name(a) + " x " + name(b));
    if (n < 8 || n > 256 || n % 8) fail("N " + std::to_string(n));
    uint32_t v = (sparse ? 1u << 2 : 0u) | (uint32_t(ac) << 7) | (uint32_t(bc) << 10) | (negate_a ? 1u << 13 : 0u) |
                 (negate_b ? 1u << 14 : 0u) | (transpose_a ? 1u << 15 : 0u) | (transpose_b ? 1u << 16 : 0u) |
                 (uint32_t(n >> 3) << 17);
    if (!is_block_scaled(kind)) {
        if (sparsity_selector < 0 || sparsity_selector > 3) fail("sparsity selector " + std::to_string(sparsity_selector));
        if (m % 16 || m < 16 || m > 256) fail("M " + std::to_string(m));
        if (max_shift < 0 || max_shift > 3) fail("max shift " + std::to_string(max_shift));
        const uint32_t dc = d == DType::F16 ? 0u : d == DType::F32 ? 1u : d == DType::S32 ? 2u : 3u;
        if (dc == 3) fail(std::string("dtype ") + name(d));
        v |= uint32_t(sparsity_selector) | (saturate ? 1u << 3 : 0u) | (dc << 4) | (uint32_t(m >> 4) << 24) | (uint32_t(max_shift) << 30);
    } else {
        if (sparsity_selector != 0) fail("bits 1..0 are reserved for the block-scaled kinds");
        if (m != 128 && m != 256) fail("M " + std::to_string(m) + " (M >> 7 is encoded)");
        if (scale_a_id < 0 || scale_a_id > 3 || scale_b_id < 0 || scale_b_id > 3) fail("scale factor id");
        if (scale_type != DType::UE8M0 && scale_type != DType::UE4M3) fail(std::string("scale type ") + name(scale_type));
        v |= (uint32_t(scale_b_id) << 4) | (scale_type == DType::UE8M0 ? 1u << 23 : 0u) | (uint32_t(m >> 7) << 27) |
             (uint32_t(scale_a_id) << 29) | (uint32_t(k_flag & 1) << 31);
    }
    return v;
}

InstrDescriptor InstrDescriptor::decode(uint32_t v, Tcgen05Kind kind, std::vector<std::string>* problems) {
    InstrDescriptor id;
    std::vector<std::string> local;
    auto& p = problems ? *problems : local;
    auto report = [&](const std::string& s) { p.push_back(std::string("idesc ") + hex(v) + " (" + name(kind) + "): " + s); };
    const bool block = is_block_scaled(kind);
    id.sparse = bits(v, 2, 1) != 0;
    const uint32_t ac = bits(v, 7, 3), bc = bits(v, 10, block && kind != Tcgen05Kind::MXF8F6F4 ? 2 : 3);
    id.a = type_of(kind, ac);
    id.b = type_of(kind, bc);
    if (id.a == DType::None) report("atype code " + std::to_string(ac) + " has no meaning");
    if (id.b == DType::None) report("btype code " + std::to_string(bc) + " has no meaning");
    id.negate_a = bits(v, 13, 1);
    id.negate_b = bits(v, 14, 1);
    id.transpose_a = bits(v, 15, 1);
    id.transpose_b = bits(v, 16, 1);
    id.n = static_cast<int>(bits(v, 17, 6)) << 3;
    if (!block) {
        id.sparsity_selector = static_cast<int>(bits(v, 0, 2));
        id.saturate = bits(v, 3, 1);
        const uint32_t dc = bits(v, 4, 2);
        id.d = dc == 0 ? DType::F16 : dc == 1 ? DType::F32 : dc == 2 ? DType::S32 : DType::None;
        id.m = static_cast<int>(bits(v, 24, 5)) << 4;
        id.max_shift = static_cast<int>(bits(v, 30, 2));
        if (bits(v, 6, 1) || bits(v, 23, 1) || bits(v, 29, 1)) report("reserved bit 6, 23 or 29 is set");
        if (id.max_shift) report("maximum shift (bits 31..30) is only meaningful for .ws");
        // dtype and types consistent with the kind (Tables 39, 42).
        bool d_ok = false;
        switch (kind) {
            case Tcgen05Kind::TF32: d_ok = id.d == DType::F32; break;
            case Tcgen05Kind::F16: d_ok = id.d == DType::F32 || (id.d == DType::F16 && id.a == DType::F16); break;
            case Tcgen05Kind::F8F6F4: d_ok = id.d == DType::F32 || id.d == DType::F16; break;
            case Tcgen05Kind::I8: d_ok = id.d == DType::S32; break;
            default: break;
        }
        if (!d_ok) report(std::string("dtype code ") + std::to_string(dc) + " is not valid with these operand types");
        if (kind == Tcgen05Kind::F16 && id.a != DType::None && id.b != DType::None && id.a != id.b)
            report("atype and btype must be the same (f16 or bf16)");
        if (id.saturate && kind != Tcgen05Kind::I8) report("saturate (bit 3) is only for kind::i8");
        if (kind == Tcgen05Kind::I8 && (id.negate_a || id.negate_b)) report("kind::i8 does not negate");
        if (kind == Tcgen05Kind::I8 || kind == Tcgen05Kind::F8F6F4) {
            if (id.sparse && id.sparsity_selector != 0) report("the sparsity selector must be 0 for kind::i8 and kind::f8f6f4");
        }
    } else {
        id.d = DType::F32;
        id.scale_b_id = static_cast<int>(bits(v, 4, 2));
        id.scale_type = bits(v, 23, 1) ? DType::UE8M0 : DType::UE4M3;
        id.m = static_cast<int>(bits(v, 27, 2)) << 7;
        id.scale_a_id = static_cast<int>(bits(v, 29, 2));
        id.k_flag = static_cast<int>(bits(v, 31, 1));
        if (bits(v, 0, 2) || bits(v, 3, 1) || bits(v, 6, 1) || bits(v, 24, 3)) report("reserved bits (1..0, 3, 6, 26..24) are set");
        if (kind == Tcgen05Kind::MXF8F6F4 && id.k_flag) report("bit 31 is reserved for kind::mxf8f6f4");
        if (kind != Tcgen05Kind::MXF8F6F4 && bits(v, 12, 1)) report("bit 12 is reserved for kind::mxf4 / mxf4nvf4");
        if (kind != Tcgen05Kind::MXF4NVF4 && id.scale_type != DType::UE8M0) report("scale type must be UE8M0 (bit 23 = 1)");
        if (kind != Tcgen05Kind::MXF8F6F4 && (id.transpose_a || id.transpose_b)) report("kind::mxf4 / mxf4nvf4 do not transpose");
        if (kind != Tcgen05Kind::MXF8F6F4 && ((id.scale_a_id & 1) || (id.scale_b_id & 1)))
            report("scale factor ids must be 0 or 2 for kind::mxf4 / mxf4nvf4");
    }
    return id;
}

// ---- the instruction -------------------------------------------------------------------------

std::vector<std::string> tcgen05_mma_sp(const Tcgen05MmaSp& op, const SharedMemory& smem, TensorMemory& tmem,
                                        uint32_t d_tmem, uint64_t a_desc, uint64_t b_desc, uint32_t meta_tmem,
                                        uint32_t idesc, uint32_t scale_a_tmem, uint32_t scale_b_tmem) {
    std::vector<std::string> u;
    const Tcgen05Kind kind = op.kind;
    const bool block = is_block_scaled(kind);
    if (op.cta_group != 1) {
        u.push_back("tcgen05.mma.sp: only .cta_group::1 is modelled");
        return u;
    }
    const InstrDescriptor id = InstrDescriptor::decode(idesc, kind, &u);
    if (!id.sparse) u.push_back("tcgen05.mma.sp: the idesc sparsity bit (2) is 0");
    const int K = tcgen05_sp_k(kind), KC = K / 2, M = id.m, N = id.n;
    const bool shape_ok = (block ? M == 128 : (M == 64 || M == 128)) && valid_n(kind, N);
    if (!shape_ok) u.push_back("tcgen05.mma.sp: shape M=" + std::to_string(M) + " N=" + std::to_string(N) + " is not valid for " + name(kind) + " with cta_group::1");
    if (id.a == DType::None || id.b == DType::None || !shape_ok || (!block && id.d == DType::None)) return u;
    if (M == 64) {
        u.push_back("tcgen05.mma.sp: M = 64 (half-datapath layout F): the sparsity metadata layout is given only by figures; not modelled");
        return u;
    }
    // Transpose rules (Tables 51, 54).
    for (int which = 0; which < 2; ++which) {
        const bool tr = which ? id.transpose_b : id.transpose_a;
        const DType t = which ? id.b : id.a;
        if (!tr) continue;
        if (kind == Tcgen05Kind::TF32) u.push_back("tcgen05.mma.sp: kind::tf32 transposes only with the 128B/32B-atom swizzle, which is not modelled");
        else if (info(t).bits < 8) u.push_back(std::string("tcgen05.mma.sp: ") + name(t) + " operands cannot be MN-major");
        else if (which == 1 && info(t).bits == 8 && N % 16) u.push_back("tcgen05.mma.sp: an MN-major 8-bit B needs N a multiple of 16");
    }
    // Qualifiers.
    ScaleVec sv = op.scale_vec;
    int nsf = 0;
    if (block) {
        if (sv == ScaleVec::None) {
            if (kind == Tcgen05Kind::MXF8F6F4) sv = ScaleVec::X1;
            else if (kind == Tcgen05Kind::MXF4) sv = ScaleVec::X2;
            else u.push_back("tcgen05.mma.sp: kind::mxf4nvf4 needs an explicit .scale_vec");
        }
        const bool sv_ok = (kind == Tcgen05Kind::MXF8F6F4 && sv == ScaleVec::X1) || (kind == Tcgen05Kind::MXF4 && sv == ScaleVec::X2) ||
                           (kind == Tcgen05Kind::MXF4NVF4 && (sv == ScaleVec::X4 || (sv == ScaleVec::X2 && id.scale_type == DType::UE8M0)));
        if (sv != ScaleVec::None && !sv_ok) u.push_back(std::string("tcgen05.mma.sp: this .scale_vec is not valid for ") + name(kind) + " with these scale types");
        nsf = sv == ScaleVec::X1 ? 1 : sv == ScaleVec::X2 ? 2 : sv == ScaleVec::X4 ? 4 : 0;
        if (nsf && (id.scale_a_id % nsf || id.scale_b_id % nsf))
            u.push_back("tcgen05.mma.sp: scale factor ids " + std::to_string(id.scale_a_id) + "/" + std::to_string(id.scale_b_id) + " not aligned to the " +
                        std::to_string(nsf) + "-byte sub-column of .scale_vec::" + std::to_string(nsf) + "X");
        if (id.k_flag) u.push_back("tcgen05.mma.sp: idesc bit 31 selects dense K = 96, invalid for .sp");
        if (op.disable_output_lane != std::array<uint32_t, 4>{}) u.push_back("tcgen05.mma.sp: the block-scaled forms take no disable-output-lane");
        if (nsf == 0) return u;
    } else if (op.scale_vec != ScaleVec::None) {
        u.push_back(std::string("tcgen05.mma.sp: .scale_vec needs a block-scaled kind, not ") + name(kind));
    }
    if (op.scale_input_d != 0 && !(kind == Tcgen05Kind::F16 || kind == Tcgen05Kind::TF32))
        u.push_back("tcgen05.mma.sp: scale-input-d is only valid for kind::f16 and kind::tf32");
    if (op.scale_input_d < 0 || op.scale_input_d > 15) u.push_back("tcgen05.mma.sp: scale-input-d must be 0..15");

    // ---- tensor memory addresses
    const int d_lane = tmem_lane(d_tmem), d_col = tmem_column(d_tmem);
    bool fatal = false;
    if (d_lane != 0) { u.push_back("tcgen05.mma.sp: d-tmem lane " + std::to_string(d_lane) + " must be 0 for M = 128 (layout D)"); fatal = true; }
    if (d_col + N > TensorMemory::kColumns) { u.push_back("tcgen05.mma.sp: D columns " + std::to_string(d_col) + ".." + std::to_string(d_col + N - 1) + " run past column 511"); fatal = true; }
    const bool one_col_meta = kind == Tcgen05Kind::F16 || kind == Tcgen05Kind::TF32;
    const int sel = one_col_meta ? id.sparsity_selector : 0;
    const int m_lane = tmem_lane(meta_tmem), m_col = tmem_column(meta_tmem) + sel;
    if (m_lane != 0) { u.push_back("tcgen05.mma.sp: sp-meta-tmem lane " + std::to_string(m_lane) + " must be 0 for M = 128"); fatal = true; }
    if (m_col + (one_col_meta ? 1 : 2) > TensorMemory::kColumns) { u.push_back("tcgen05.mma.sp: metadata columns run past column 511"); fatal = true; }
    const int sa_lane = tmem_lane(scale_a_tmem), sa_col = tmem_column(scale_a_tmem);
    const int sb_lane = tmem_lane(scale_b_tmem), sb_col = tmem_column(scale_b_tmem);
    if (block) {
        if (sa_lane != 0 || sb_lane != 0) { u.push_back("tcgen05.mma.sp: scale-A/B-tmem must address lane 0 (scales fill every 32-lane partition)"); fatal = true; }
        if (sa_col + M / 32 > TensorMemory::kColumns || sb_col + (N + 31) / 32 > TensorMemory::kColumns) { u.push_back("tcgen05.mma.sp: scale factor columns run past column 511"); fatal = true; }
    }

    // ---- operands in shared memory
    const UmmaDescriptor da = UmmaDescriptor::decode(a_desc, &u);
    const UmmaDescriptor db = UmmaDescriptor::decode(b_desc, &u);
    const OperandLayout la = layout_for(da, id.transpose_a, kind, id.a);
    const OperandLayout lb = layout_for(db, id.transpose_b, kind, id.b);
    for (auto& s : check_operand(la, M, KC, "A descriptor")) u.push_back(s);
    for (auto& s : check_operand(lb, N, K, "B descriptor")) u.push_back(s);
    for (const auto& s : u)
        if (s.find("past the") != std::string::npos || s.find("not modelled") != std::string::npos) fatal = true;
    if (fatal) return u;

    // ---- metadata (9.7.16.10.8; layout for M = 128):
    //  kind::f16 / tf32: one column, (meta column + sparsity selector); row m, chunk c (8 per row,
    //    4- resp. 2-wide) in lane (m%8) + 8*(c/4) + 16*(m/16), bits 16*((m/8)%2) + 4*(c%4) + 3..0.
    //  8-bit kinds and mxf4*: two columns; row m in lane m, chunk c (16 per row, 4-wide resp.
    //    8-wide in pairs) in column c/8, bits 4*(c%8) + 3..0.
    const int chunks = one_col_meta ? 8 : 16;
    const int stored_per_chunk = KC / chunks;        // 1 (tf32), 2 (2:4), 4 (mxf4 pairs)
    const int chunk_width = K / chunks;              // 2, 4 or 8
    std::vector<int> kpos(size_t(M) * KC);
    int bad_meta = 0;
    for (int m = 0; m < M; ++m)
        for (int c = 0; c < chunks; ++c) {
            int lane, col, shift;
            if (one_col_meta) { lane = (m % 8) + 8 * (c / 4) + 16 * (m / 16); col = m_col; shift = 16 * ((m / 8) % 2) + 4 * (c % 4); }
            else { lane = m; col = m_col + c / 8; shift = 4 * (c % 8); }
            const uint32_t nib = (tmem.at(lane, col) >> shift) & 0xf;
            int* pos = &kpos[size_t(m) * KC + size_t(c) * stored_per_chunk];
            bool ok;
            if (kind == Tcgen05Kind::TF32) {
                ok = nib == 0x4 || nib == 0xE;
                pos[0] = c * chunk_width + (nib == 0xE ? 1 : 0);
            } else {
                ok = nib == 0x4 || nib == 0x8 || nib == 0xC || nib == 0x9 || nib == 0xD || nib == 0x6 || nib == 0xE;
                const int i0 = static_cast<int>(nib & 3), i1 = static_cast<int>(nib >> 2);
                if (stored_per_chunk == 2) {
                    pos[0] = c * chunk_width + i0;
                    pos[1] = c * chunk_width + i1;
                } else {  // pairs
                    pos[0] = c * chunk_width + 2 * i0;
                    pos[1] = pos[0] + 1;
                    pos[2] = c * chunk_width + 2 * i1;
                    pos[3] = pos[2] + 1;
                }
            }
            if (!ok && bad_meta++ < 8)
                u.push_back("tcgen05.mma.sp: metadata " + hex(nib) + " of row " + std::to_string(m) + " chunk " + std::to_string(c) + " (lane " +
                            std::to_string(lane) + " column " + std::to_string(col) + " bits " + std::to_string(shift + 3) + ".." +
                            std::to_string(shift) + ") is not one of the meaningful values");
        }
    if (bad_meta > 8) u.push_back("tcgen05.mma.sp: ... " + std::to_string(bad_meta - 8) + " more invalid metadata values");

    // ---- block scales (9.7.16.10.7): element i of the row's (column's) scale vector for row m
    // (column n) of a 32-lane partition p sits in lane 32p + m%32 (n%32), column (m or n)/32,
    // byte id + i; every partition must hold the same values.
    auto scale_byte = [&](int lane, int col, int byte) { return (tmem.at(lane, col) >> (8 * byte)) & 0xffu; };
    std::vector<double> sa, sb;  // [m * nsf + i]; sb below
    if (block) {
        bool dup_ok = true;
        for (int m = 0; m < M; ++m)
            for (int i = 0; i < nsf; ++i) {
                const uint32_t ref = scale_byte(32 * (m / 32) + m % 32, sa_col + m / 32, id.scale_a_id + i);
                for (int p = 0; p < 4; ++p) dup_ok &= scale_byte(32 * p + m % 32, sa_col + m / 32, id.scale_a_id + i) == ref;
            }
        for (int n = 0; n < N; ++n)
            for (int i = 0; i < nsf; ++i) {
                const uint32_t ref = scale_byte(n % 32, sb_col + n / 32, id.scale_b_id + i);
                for (int p = 1; p < 4; ++p) dup_ok &= scale_byte(32 * p + n % 32, sb_col + n / 32, id.scale_b_id + i) == ref;
            }
        if (!dup_ok) u.push_back("tcgen05.mma.sp: scale factors are not duplicated to all four 32-lane partitions of tensor memory");
        sa.resize(size_t(M) * nsf);
        for (int m = 0; m < M; ++m)
            for (int i = 0; i < nsf; ++i) sa[size_t(m) * nsf + i] = decode(id.scale_type, scale_byte(m, sa_col + m / 32, id.scale_a_id + i));
        // scale_B as each 32-lane partition p reads its own copy: [(p * N + n) * nsf + i]
        sb.resize(size_t(4) * N * nsf);
        for (int p = 0; p < 4; ++p)
            for (int n = 0; n < N; ++n)
                for (int i = 0; i < nsf; ++i)
                    sb[(size_t(p) * N + n) * nsf + i] = decode(id.scale_type, scale_byte(32 * p + n % 32, sb_col + n / 32, id.scale_b_id + i));
    }

    // ---- operand values
    const bool integer = kind == Tcgen05Kind::I8;
    const double na = id.negate_a ? -1.0 : 1.0, nb = id.negate_b ? -1.0 : 1.0;
    std::vector<double> av(size_t(M) * KC), bv(size_t(N) * K);
    for (int m = 0; m < M; ++m)
        for (int j = 0; j < KC; ++j) av[size_t(m) * KC + j] = decode(id.a, load_element(smem, la, m, j)) * na;
    for (int n = 0; n < N; ++n)
        for (int k = 0; k < K; ++k) bv[size_t(n) * K + k] = decode(id.b, load_element(smem, lb, n, k)) * nb;
    const int block_k = block ? K / nsf : K;  // logical K covered by one scale factor

    // ---- D
    const double d_scale = std::ldexp(1.0, -op.scale_input_d);
    for (int m = 0; m < M; ++m) {
        const TmemCell c0 = tcgen05_d_cell(M, m, 0);
        const int lane = d_lane + c0.lane;
        const bool disabled = (op.disable_output_lane[lane / 32] >> (lane % 32)) & 1u;
        for (int n = 0; n < N; ++n) {
            uint32_t& cell = tmem.at(lane, d_col + n);
            if (integer) {
                int64_t s = op.enable_input_d ? static_cast<int64_t>(static_cast<int32_t>(cell)) : 0;
                for (int j = 0; j < KC; ++j)
                    s += static_cast<int64_t>(av[size_t(m) * KC + j]) * static_cast<int64_t>(bv[size_t(n) * K + kpos[size_t(m) * KC + j]]);
                if (id.saturate) s = std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, s));
                if (!disabled) cell = static_cast<uint32_t>(s);
                continue;
            }
            ExactAccumulator sum;
            if (op.enable_input_d) sum.add(decode(id.d, id.d == DType::F16 ? (cell & 0xffff) : cell) * d_scale);
            for (int j = 0; j < KC; ++j) {
                const int k = kpos[size_t(m) * KC + j];
                double prod = av[size_t(m) * KC + j] * bv[size_t(n) * K + k];
                if (block) {
                    const int i = k / block_k;
                    const int p = m / 32;  // the partition computing row m reads its own copy of scale_B
                    prod *= sa[size_t(m) * nsf + i] * sb[(size_t(p) * N + n) * nsf + i];
                }
                sum.add(prod);
            }
            uint32_t out;
            if (id.d == DType::F16) out = sum.is_nan() ? 0x7fffu : encode(DType::F16, sum.round_f16());
            else out = sum.is_nan() ? 0x7fffffffu : f32_bits(static_cast<float>(sum.round_f32()));
            if (!disabled) cell = out;
        }
    }
    return u;
}

}  // namespace spmma::isa
