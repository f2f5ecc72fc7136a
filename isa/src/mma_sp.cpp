// The mma.sp / mma.sp::ordered_metadata instruction model (PTX ISA 9.7.14.6.3): decode the
// registers into the logical operands, report undefined inputs, multiply exactly, round once.
#include <spmma/isa/mma_sp_geometry.hpp>
#include <spmma/isa/exact_accumulator.hpp>

#include <cstdio>
#include <stdexcept>

namespace spmma::isa {
namespace {

std::string bin4(uint32_t v) {
    std::string s = "0b";
    for (int i = 3; i >= 0; --i) s += ((v >> i) & 1) ? '1' : '0';
    return s;
}

// One kept element as the hardware sees it: row, logical column, value.
struct Kept {
    int row, col;
    double value;
};

struct Decoded {
    MmaSpTile tile;
    std::vector<Kept> kept;
};

uint32_t register_bits(uint32_t reg, int elem, int per_reg) {
    const int bits = 32 / per_reg;
    return bits == 32 ? reg : (reg >> (elem * bits)) & ((1u << bits) - 1);
}

// NOTES: what the model computes for undefined inputs (reported, then made deterministic):
//  - a selector the shape does not allow: the low bits that fit (f & (count-1)) pick the lanes;
//  - a nibble with equal indices: both kept elements sit in the same column and both multiply
//    that B row; unordered indices under ::ordered_metadata: placed where the indices say;
//  - a tf32 nibble other than 0b0100 / 0b1110: bit 1 of the low index picks the column;
//  - scale selectors outside Table 37: thread-id-a & 1, thread-id-b & 3, bytes modulo 4.
void check_metadata(const MmaSp& f, const MmaSpGeometry& geo, const MmaSpWarp& in, int sel,
                    std::vector<std::string>* undefined) {
    if (!undefined) return;
    const int cw = geo.chunk_width;
    for (int row = 0; row < 16; ++row)
        for (int chunk = 0; chunk < geo.chunks; ++chunk) {
            const MetaPos p = metadata_position(geo, sel, row, chunk);
            const uint32_t nib = (in.e[p.lane] >> (4 * p.nibble)) & 0xf;
            const uint32_t i0 = nib & 3, i1 = nib >> 2;
            const char* why = nullptr;
            if (f.a == DType::TF32) {
                if (nib != 0b0100 && nib != 0b1110) why = "tf32 metadata must be 0b0100 or 0b1110";
            } else if (i0 == i1) {
                why = "equal indices (0b0000/0b0101/0b1010/0b1111 are invalid)";
            } else if (f.ordered_metadata && i0 > i1) {
                why = "mma.sp::ordered_metadata needs indices increasing from the LSB";
            }
            if (why) {
                char buf[200];
                std::snprintf(buf, sizeof buf, "metadata lane %d bits %d..%d (row %d, columns %d..%d) is %s: %s", p.lane,
                              4 * p.nibble + 3, 4 * p.nibble, row, chunk * cw, chunk * cw + cw - 1, bin4(nib).c_str(), why);
                undefined->push_back(buf);
            }
        }
}

void check_scale_selectors(const MmaSp& f, const MmaSpWarp& in, std::vector<std::string>* undefined) {
    if (!undefined || !is_block_scaled(f)) return;
    auto bad = [&](const char* what, int v, const char* allowed) {
        undefined->push_back(std::string(what) + " " + std::to_string(v) + " is undefined for scale_vec::" +
                             std::to_string(f.scale_vec) + "X (allowed " + allowed + ")");
    };
    if (in.thread_id_a > 1) bad("thread-id-a", in.thread_id_a, "0, 1");
    if (in.thread_id_b > 3) bad("thread-id-b", in.thread_id_b, "0..3");
    const char* bytes = f.scale_vec == 1 ? "0..3" : f.scale_vec == 2 ? "0, 2" : "0";
    auto byte_ok = [&](int b) { return f.scale_vec == 1 ? b <= 3 : f.scale_vec == 2 ? (b == 0 || b == 2) : b == 0; };
    if (!byte_ok(in.byte_id_a)) bad("byte-id-a", in.byte_id_a, bytes);
    if (!byte_ok(in.byte_id_b)) bad("byte-id-b", in.byte_id_b, bytes);
}

// The value of an element's register bits (f8f6f4 containers unwrapped), by table for the
// types of at most 16 bits.
struct ElementDecoder {
    DType t;
    bool container;
    const std::vector<float>* table;
    ElementDecoder(const MmaSp& f, DType type)
        : t(type),
          container(f.kind == MmaSp::Kind::F8F6F4 || f.kind == MmaSp::Kind::MXF8F6F4),
          table(info(type).storage_bits <= 16 ? &decode_table(type) : nullptr) {}
    double operator()(uint32_t bits) const {
        if (container) bits = from_f8f6f4_container(t, static_cast<uint8_t>(bits));
        return table ? static_cast<double>((*table)[bits]) : decode(t, bits);
    }
};

Decoded decode_all(const MmaSp& f, const MmaSpWarp& in, std::vector<std::string>* undefined) {
    const MmaSpGeometry geo = mma_sp_geometry(f);  // throws for an invalid form
    Decoded out;
    MmaSpTile& t = out.tile;
    const int k = f.k;
    t.k = k;
    t.a.assign(16 * k, 0.0);
    t.a_kept.assign(16 * k, 0);
    t.b.assign(k * 8, 0.0);
    t.c.assign(16 * 8, 0.0);

    const int count = geo.selector_count;
    if ((in.selector < 0 || in.selector >= count) && undefined)
        undefined->push_back("sparsity selector " + std::to_string(in.selector) + " is undefined for m16n8k" +
                             std::to_string(k) + " with " + name(f.a) + " (allowed 0.." + std::to_string(count - 1) + ")");
    const int sel = in.selector & (count - 1);
    check_metadata(f, geo, in, sel, undefined);

    const ElementDecoder a_value(f, f.a), b_value(f, f.b);
    const int a_per = geo.a_per_reg;
    out.kept.reserve(16 * k / 2);
    for (int lane = 0; lane < 32; ++lane)
        for (int r = 0; r < geo.a_regs; ++r)
            for (int e = 0; e < a_per; ++e) {
                const ASlot s = a_slot(geo, lane, r, e);
                const MetaPos p = metadata_position(geo, sel, s.row, s.chunk);
                const uint32_t nib = (in.e[p.lane] >> (4 * p.nibble)) & 0xf;
                const int col = kept_column(geo, s.chunk, s.slot, nib);
                const double v = a_value(register_bits(in.a[lane][r], e, a_per));
                out.kept.push_back({s.row, col, v});
                t.a[s.row * k + col] += v;
                t.a_kept[s.row * k + col] = 1;
            }

    const int b_per = geo.b_per_reg;
    for (int lane = 0; lane < 32; ++lane)
        for (int r = 0; r < geo.b_regs; ++r)
            for (int e = 0; e < b_per; ++e) {
                const MatPos p = b_position(geo, lane, r, e);
                t.b[p.row * 8 + p.col] = b_value(register_bits(in.b[lane][r], e, b_per));
            }

    for (int lane = 0; lane < 32; ++lane)
        for (int r = 0; r < geo.c_regs; ++r) {
            const int halves = geo.f16_acc ? 2 : 1;
            for (int e = 0; e < halves; ++e) {
                const MatPos p = cd_position(geo, lane, r, e);
                const uint32_t bits = halves == 2 ? (in.c[lane][r] >> (16 * e)) & 0xffff : in.c[lane][r];
                t.c[p.row * 8 + p.col] = decode(f.c, bits);
            }
        }

    if (is_block_scaled(f)) {
        check_scale_selectors(f, in, undefined);
        t.scale_a.assign(16 * f.scale_vec, 0.0);
        t.scale_b.assign(f.scale_vec * 8, 0.0);
        for (int j = 0; j < f.scale_vec; ++j) {
            for (int m = 0; m < 16; ++m) {
                const ScalePos p = scale_a_position(f, in, m, j);
                t.scale_a[m * f.scale_vec + j] = decode(f.scale_type, (in.scale_a[p.lane] >> (8 * p.byte)) & 0xff);
            }
            for (int n = 0; n < 8; ++n) {
                const ScalePos p = scale_b_position(f, in, n, j);
                t.scale_b[j * 8 + n] = decode(f.scale_type, (in.scale_b[p.lane] >> (8 * p.byte)) & 0xff);
            }
        }
    }
    return out;
}

}  // namespace

MmaSpTile mma_sp_decode(const MmaSp& form, const MmaSpWarp& in, std::vector<std::string>* undefined) {
    return decode_all(form, in, undefined).tile;
}

// NOTES: only kept elements multiply B (the hardware selects B rows by the metadata), so an
// inf/NaN in a B row that no kept element of a row points at does not reach that row of D.
MmaSpResult mma_sp(const MmaSp& f, const MmaSpWarp& in) {
    MmaSpResult res;
    const Decoded dec = decode_all(f, in, &res.undefined);
    const MmaSpGeometry geo = mma_sp_geometry(f);
    const MmaSpTile& t = dec.tile;
    const bool integer = f.d == DType::S32;
    const int block_width = is_block_scaled(f) ? f.k / f.scale_vec : f.k;

    std::array<int64_t, 128> isum{};
    std::array<ExactAccumulator, 128> fsum{};
    for (int i = 0; i < 128; ++i) {
        if (integer) isum[i] = static_cast<int64_t>(t.c[i]);
        else fsum[i].add(t.c[i]);
    }
    for (const Kept& e : dec.kept)
        for (int n = 0; n < 8; ++n) {
            const double b = t.b[e.col * 8 + n];
            if (integer) {
                isum[e.row * 8 + n] += static_cast<int64_t>(e.value) * static_cast<int64_t>(b);
            } else if (is_block_scaled(f)) {
                const int j = e.col / block_width;
                fsum[e.row * 8 + n].add((e.value * t.scale_a[e.row * f.scale_vec + j]) * (b * t.scale_b[j * 8 + n]));
            } else {
                fsum[e.row * 8 + n].add(e.value * b);
            }
        }

    auto result_bits = [&](int i) -> uint32_t {
        if (!integer) {
            // NaN as the canonical 0x7fff / 0x7fffffff; the sign of an exact zero as IEEE gives it.
            const ExactAccumulator& s = fsum[i];
            const double sign = s.all_terms_negative_zero() ? -1.0 : 1.0;
            if (f.d == DType::F16) return s.is_nan() ? 0x7fffu : encode(DType::F16, sign * s.round_f16());
            return s.is_nan() ? 0x7fffffffu : f32_bits(static_cast<float>(sign * s.round_f32()));
        }
        int64_t v = isum[i];
        if (f.satfinite) {
            if (v > INT32_MAX) v = INT32_MAX;
            if (v < INT32_MIN) v = INT32_MIN;
        }
        return static_cast<uint32_t>(static_cast<uint64_t>(v));  // wraps modulo 2^32
    };
    for (int lane = 0; lane < 32; ++lane)
        for (int r = 0; r < geo.c_regs; ++r) {
            if (geo.f16_acc) {
                const MatPos lo = cd_position(geo, lane, r, 0), hi = cd_position(geo, lane, r, 1);
                res.d[lane][r] = result_bits(lo.row * 8 + lo.col) | (result_bits(hi.row * 8 + hi.col) << 16);
            } else {
                const MatPos p = cd_position(geo, lane, r, 0);
                res.d[lane][r] = result_bits(p.row * 8 + p.col);
            }
        }
    return res;
}

}  // namespace spmma::isa
