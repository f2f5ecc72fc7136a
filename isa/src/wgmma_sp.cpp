// Model of wgmma.mma_async.sp (PTX ISA 9.7.15.6), A and B from shared memory.
#include <spmma/isa/wgmma_sp.hpp>
#include <spmma/isa/exact_accumulator.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

namespace spmma::isa {
namespace {

bool is_fp8(DType t) { return t == DType::E4M3 || t == DType::E5M2; }
bool is_i8(DType t) { return t == DType::S8 || t == DType::U8; }

std::string hex(uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// Checks the qualifier combination against the syntax tables of 9.7.15.6.3.
void check_op(const WgmmaSp& op, std::vector<std::string>& u) {
    const DType a = op.a, b = op.b, d = op.d;
    bool types_ok = false;
    if (a == DType::F16) types_ok = b == DType::F16 && (d == DType::F16 || d == DType::F32);
    else if (a == DType::BF16) types_ok = b == DType::BF16 && d == DType::F32;
    else if (a == DType::TF32) types_ok = b == DType::TF32 && d == DType::F32;
    else if (is_fp8(a)) types_ok = is_fp8(b) && (d == DType::F16 || d == DType::F32);
    else if (is_i8(a)) types_ok = is_i8(b) && d == DType::S32;
    if (!types_ok)
        u.push_back(std::string("wgmma.mma_async.sp has no variant .") + name(d) + "." + name(a) + "." + name(b));
    bool n_ok = op.n >= 8 && op.n <= 256 && op.n % 8 == 0;
    if (is_i8(a) && op.n > 32) n_ok = n_ok && op.n % 16 == 0;  // m64n{8,16,24,32,48,64,80,...}k64
    if (!n_ok) u.push_back("wgmma.mma_async.sp: N = " + std::to_string(op.n) + " is not a valid shape for ." + name(a));
    if (op.satfinite && !is_i8(a)) u.push_back("wgmma.mma_async.sp: .satfinite exists only for the integer variants");
    const bool fp = !is_i8(a);
    if (!(op.scale_a == 1 || op.scale_a == -1) || !(op.scale_b == 1 || op.scale_b == -1))
        u.push_back("wgmma.mma_async.sp: imm-scale-a/b must be 1 or -1");
    if (!fp && (op.scale_a != 1 || op.scale_b != 1))
        u.push_back("wgmma.mma_async.sp: the integer variants take no imm-scale-a/b");
    if (op.trans_a < 0 || op.trans_a > 1 || op.trans_b < 0 || op.trans_b > 1)
        u.push_back("wgmma.mma_async.sp: imm-trans-a/b must be 0 or 1");
    if ((op.trans_a || op.trans_b) && !(a == DType::F16 || a == DType::BF16))
        u.push_back(std::string("wgmma.mma_async.sp: imm-trans-a/b (MN-major operands) exist only for .f16/.bf16, not .") + name(a));
}

bool selector_ok(DType a, int sel) {
    if (a == DType::F16 || a == DType::BF16 || a == DType::TF32) return sel == 0 || sel == 1;
    return sel == 0;
}

struct MetaField { int thread, shift, width; };

// Where the index of compressed element j of row m sits (9.7.15.6.2; figures 176, 178, 180-181):
// warp m/16 holds rows 16w..16w+15; lane group g = (m%16)%8 holds rows g and g+8, row g+8 in
// bits 31..16 where a thread covers both rows.
//  .f16/.bf16 (k32): threads 2*sel and 2*sel+1 of each group of four; the even one holds k 0..15,
//                    the odd one k 16..31; four 4-element chunks per row half, 2 bits each index.
//  .tf32 (k16):      same threads; k 0..7 / 8..15; four 2-element chunks per row half, one
//                    4-bit index each.
//  8-bit (k64):      every thread; thread%4 bit 0 selects row g / g+8, bit 1 selects k 0..31 /
//                    32..63; eight 4-element chunks, 2 bits each index.
MetaField meta_field(DType a, int sel, int m, int j) {
    const int w = m / 16, r = m % 16, g = r % 8, h = r / 8;
    if (a == DType::TF32) {
        const int c = j, p = c / 4, cc = c % 4;
        return {32 * w + 4 * g + 2 * sel + p, 16 * h + 4 * cc, 4};
    }
    const int c = j / 2, e = j % 2;
    if (a == DType::F16 || a == DType::BF16) {
        const int p = c / 4, cc = c % 4;
        return {32 * w + 4 * g + 2 * sel + p, 16 * h + 4 * cc + 2 * e, 2};
    }
    const int q = c / 8, cc = c % 8;
    return {32 * w + 4 * g + 2 * q + h, 4 * cc + 2 * e, 2};
}

int bits_of(DType t) { return info(t).storage_bits; }

}  // namespace

int wgmma_sp_k(DType a) {
    switch (a) {
        case DType::F16: case DType::BF16: return 32;
        case DType::TF32: return 16;
        case DType::E4M3: case DType::E5M2: case DType::S8: case DType::U8: return 64;
        default: throw std::invalid_argument(std::string("wgmma.mma_async.sp takes no .") + name(a) + " operands");
    }
}

int wgmma_d_registers(const WgmmaSp& op) { return op.d == DType::F16 ? op.n / 4 : op.n / 2; }

DCoord wgmma_d_coord(int t, int i) {
    return {16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2), 8 * (i / 4) + 2 * (t % 4) + (i % 2)};
}

std::vector<uint32_t> wgmma_d_to_matrix(const WgmmaSp& op, const std::array<std::vector<uint32_t>, 128>& d) {
    std::vector<uint32_t> m(size_t(64) * op.n, 0);
    for (int t = 0; t < 128; ++t)
        for (int i = 0; i < op.n / 2; ++i) {
            const DCoord c = wgmma_d_coord(t, i);
            uint32_t v;
            if (op.d == DType::F16) v = (d[t].at(i / 2) >> (16 * (i % 2))) & 0xffff;
            else v = d[t].at(i);
            m[size_t(c.row) * op.n + c.col] = v;
        }
    return m;
}

std::array<std::vector<uint32_t>, 128> wgmma_d_from_matrix(const WgmmaSp& op, const std::vector<uint32_t>& m) {
    std::array<std::vector<uint32_t>, 128> d;
    for (int t = 0; t < 128; ++t) {
        d[t].assign(wgmma_d_registers(op), 0);
        for (int i = 0; i < op.n / 2; ++i) {
            const DCoord c = wgmma_d_coord(t, i);
            const uint32_t v = m.at(size_t(c.row) * op.n + c.col);
            if (op.d == DType::F16) d[t][i / 2] |= (v & 0xffff) << (16 * (i % 2));
            else d[t][i] = v;
        }
    }
    return d;
}

WgmmaSpResult wgmma_sp(const WgmmaSp& op, const SharedMemory& smem, const WgmmaSpWarpgroup& wg) {
    WgmmaSpResult res;
    res.d = wg.d;
    auto& u = res.undefined;
    check_op(op, u);
    if (!u.empty()) return res;  // no such instruction: nothing to compute
    const int k = wgmma_sp_k(op.a), kc = k / 2, n = op.n;
    const int regs = wgmma_d_registers(op);
    for (int t = 0; t < 128; ++t)
        if (static_cast<int>(wg.d[t].size()) != regs)
            throw std::invalid_argument("wgmma_sp: thread " + std::to_string(t) + " holds " + std::to_string(wg.d[t].size()) +
                                        " d registers, the shape has " + std::to_string(regs));
    if (!selector_ok(op.a, wg.selector)) {
        u.push_back("wgmma.mma_async.sp: sparsity selector " + std::to_string(wg.selector) + " is undefined for ." + name(op.a) +
                    (op.a == DType::F16 || op.a == DType::BF16 || op.a == DType::TF32 ? " (must be 0 or 1)" : " (must be 0)"));
        return res;
    }

    // ---- operands in shared memory
    const WgmmaDescriptor da = WgmmaDescriptor::decode(wg.a_desc, &u);
    const WgmmaDescriptor db = WgmmaDescriptor::decode(wg.b_desc, &u);
    const OperandLayout la = OperandLayout::from(da, op.trans_a ? Major::MN : Major::K, bits_of(op.a));
    const OperandLayout lb = OperandLayout::from(db, op.trans_b ? Major::MN : Major::K, bits_of(op.b));
    for (auto& s : check_operand(la, 64, kc, "A descriptor")) u.push_back(s);
    for (auto& s : check_operand(lb, n, k, "B descriptor")) u.push_back(s);
    for (const auto& s : u)
        if (s.find("past the") != std::string::npos) return res;  // cannot read the operands

    // ---- metadata: position in its chunk of every compressed element
    const int chunk = op.a == DType::TF32 ? 2 : 4;
    const int per_chunk = op.a == DType::TF32 ? 1 : 2;
    std::vector<int> kpos(size_t(64) * kc);
    for (int m = 0; m < 64; ++m)
        for (int c = 0; c < kc / per_chunk; ++c) {
            const MetaField f = meta_field(op.a, wg.selector, m, c * per_chunk);
            const uint32_t nib = (wg.meta[f.thread] >> f.shift) & 0xf;
            if (op.a == DType::TF32) {
                int pos = 0;
                if (nib == 0x4) pos = 0;
                else if (nib == 0xE) pos = 1;
                else u.push_back("wgmma.mma_async.sp: metadata " + hex(nib) + " of row " + std::to_string(m) + " chunk " + std::to_string(c) +
                                 " (thread " + std::to_string(f.thread) + " bits " + std::to_string(f.shift + 3) + ".." + std::to_string(f.shift) +
                                 ") is undefined for .tf32 (only 0b0100 and 0b1110)");
                kpos[size_t(m) * kc + c] = c * chunk + pos;
            } else {
                const int i0 = static_cast<int>(nib & 3), i1 = static_cast<int>(nib >> 2);
                if (i0 == i1)
                    u.push_back("wgmma.mma_async.sp: metadata " + hex(nib) + " of row " + std::to_string(m) + " chunk " + std::to_string(c) +
                                " (thread " + std::to_string(f.thread) + " bits " + std::to_string(f.shift + 3) + ".." + std::to_string(f.shift) +
                                ") is undefined (both indices equal)");
                kpos[size_t(m) * kc + 2 * c] = c * chunk + i0;
                kpos[size_t(m) * kc + 2 * c + 1] = c * chunk + i1;
            }
        }

    // ---- operand values
    const bool integer = is_i8(op.a);
    std::vector<double> av(size_t(64) * kc), bv(size_t(n) * k);
    for (int m = 0; m < 64; ++m)
        for (int j = 0; j < kc; ++j) av[size_t(m) * kc + j] = decode(op.a, load_element(smem, la, m, j)) * op.scale_a;
    for (int c = 0; c < n; ++c)
        for (int kk = 0; kk < k; ++kk) bv[size_t(c) * k + kk] = decode(op.b, load_element(smem, lb, c, kk)) * op.scale_b;

    // ---- D = A*B (+ D)
    const std::vector<uint32_t> din = wgmma_d_to_matrix(op, wg.d);
    std::vector<uint32_t> dout(din.size());
    for (int m = 0; m < 64; ++m)
        for (int c = 0; c < n; ++c) {
            const uint32_t in = din[size_t(m) * n + c];
            if (integer) {
                int64_t s = op.scale_d ? static_cast<int64_t>(static_cast<int32_t>(in)) : 0;
                for (int j = 0; j < kc; ++j)
                    s += static_cast<int64_t>(av[size_t(m) * kc + j]) * static_cast<int64_t>(bv[size_t(c) * k + kpos[size_t(m) * kc + j]]);
                if (op.satfinite) s = std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, s));
                dout[size_t(m) * n + c] = static_cast<uint32_t>(s);
                continue;
            }
            ExactAccumulator sum;
            if (op.scale_d) sum.add(decode(op.d, in));
            for (int j = 0; j < kc; ++j) sum.add(av[size_t(m) * kc + j] * bv[size_t(c) * k + kpos[size_t(m) * kc + j]]);
            if (op.d == DType::F32) {
                dout[size_t(m) * n + c] = sum.is_nan() ? 0x7fffffffu : f32_bits(static_cast<float>(sum.round_f32()));
            } else {
                dout[size_t(m) * n + c] = sum.is_nan() ? 0x7fffu : encode(DType::F16, sum.round_f16());
            }
        }
    res.d = wgmma_d_from_matrix(op, dout);
    return res;
}

}  // namespace spmma::isa
