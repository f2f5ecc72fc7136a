// mma.sp forms: which qualifier combinations exist (PTX ISA 9.7.14.6.3, syntax section and the
// block-scale Table 36), their names and their register counts.
#include <spmma/isa/mma_sp_geometry.hpp>

#include <stdexcept>

namespace spmma::isa {
namespace {

using Kind = MmaSp::Kind;

bool one_of(DType t, std::initializer_list<DType> set) {
    for (DType s : set)
        if (t == s) return true;
    return false;
}

constexpr std::initializer_list<DType> kF8F6F4 = {DType::E4M3, DType::E5M2, DType::E3M2, DType::E2M3, DType::E2M1};

const char* kind_name(Kind k) {
    switch (k) {
        case Kind::Legacy: return "";
        case Kind::F8F6F4: return "kind::f8f6f4";
        case Kind::MXF8F6F4: return "kind::mxf8f6f4";
        case Kind::MXF4: return "kind::mxf4";
        case Kind::MXF4NVF4: return "kind::mxf4nvf4";
    }
    return "?";
}

// Bits of one A/B element inside a register.
int element_bits(DType t, Kind kind) {
    if (kind == Kind::F8F6F4 || kind == Kind::MXF8F6F4) return 8;  // 8-bit containers
    return info(t).storage_bits;                                    // 32, 16, 8 or 4
}

void require_valid(const MmaSp& f) {
    if (auto why = invalid_reason(f)) throw std::invalid_argument("not an mma.sp form: " + *why);
}

}  // namespace

bool operator==(const MmaSp& x, const MmaSp& y) {
    return x.k == y.k && x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d &&
           x.ordered_metadata == y.ordered_metadata && x.satfinite == y.satfinite && x.kind == y.kind &&
           x.scale_vec == y.scale_vec && x.scale_type == y.scale_type;
}

std::optional<std::string> invalid_reason(const MmaSp& f) {
    auto types = [&] { return std::string(name(f.d)) + "." + name(f.a) + "." + name(f.b) + "." + name(f.c); };
    const bool is_int = one_of(f.a, {DType::S8, DType::U8, DType::S4, DType::U4});
    if (f.satfinite && !is_int) return "satfinite exists only for integer forms";
    if (f.c != f.d) return "d and c types must be equal for m16n8k16/k32/k64/k128 (" + types() + ")";
    const bool block = is_block_scaled(f);
    if (!block && (f.scale_vec != 0 || f.scale_type != DType::None))
        return "scale_vec/scale type given to a form without block_scale";
    if (f.kind != Kind::Legacy && !f.ordered_metadata) return "every .kind form needs mma.sp::ordered_metadata";
    auto shape_is = [&](std::initializer_list<int> ks) {
        for (int k : ks)
            if (f.k == k) return true;
        return false;
    };
    switch (f.kind) {
        case Kind::Legacy:
            if (f.a == DType::F16 && f.b == DType::F16) {
                if (!shape_is({16, 32})) return "f16 takes m16n8k16 or m16n8k32";
                if (!one_of(f.d, {DType::F16, DType::F32})) return "f16 accumulates in f16 or f32";
                return std::nullopt;
            }
            if (f.a == DType::BF16 && f.b == DType::BF16) {
                if (!shape_is({16, 32})) return "bf16 takes m16n8k16 or m16n8k32";
                if (f.d != DType::F32) return "bf16 accumulates in f32";
                return std::nullopt;
            }
            if (f.a == DType::TF32 && f.b == DType::TF32) {
                if (!shape_is({8, 16})) return "tf32 takes m16n8k8 or m16n8k16";
                if (f.d != DType::F32) return "tf32 accumulates in f32";
                return std::nullopt;
            }
            if (one_of(f.a, {DType::E4M3, DType::E5M2}) && one_of(f.b, {DType::E4M3, DType::E5M2})) {
                if (f.k != 64) return "e4m3/e5m2 without .kind take m16n8k64";
                if (f.d != DType::F32) return "e4m3/e5m2 without .kind accumulate in f32";
                return std::nullopt;
            }
            if (one_of(f.a, {DType::S8, DType::U8}) && one_of(f.b, {DType::S8, DType::U8})) {
                if (!shape_is({32, 64})) return "u8/s8 take m16n8k32 or m16n8k64";
                if (f.d != DType::S32) return "integer forms accumulate in s32";
                return std::nullopt;
            }
            if (one_of(f.a, {DType::S4, DType::U4}) && one_of(f.b, {DType::S4, DType::U4})) {
                if (!shape_is({64, 128})) return "u4/s4 take m16n8k64 or m16n8k128";
                if (f.d != DType::S32) return "integer forms accumulate in s32";
                return std::nullopt;
            }
            return "no mma.sp form takes " + types();
        case Kind::F8F6F4:
            if (!one_of(f.a, kF8F6F4) || !one_of(f.b, kF8F6F4)) return "kind::f8f6f4 takes e4m3/e5m2/e3m2/e2m3/e2m1";
            if (f.k != 64) return "kind::f8f6f4 takes m16n8k64";
            if (!one_of(f.d, {DType::F16, DType::F32})) return "kind::f8f6f4 accumulates in f16 or f32";
            return std::nullopt;
        case Kind::MXF8F6F4:
            if (!one_of(f.a, kF8F6F4) || !one_of(f.b, kF8F6F4)) return "kind::mxf8f6f4 takes e4m3/e5m2/e3m2/e2m3/e2m1";
            if (f.k != 64) return "kind::mxf8f6f4 takes m16n8k64";
            if (f.d != DType::F32) return "block-scale forms accumulate in f32";
            if (f.scale_type != DType::UE8M0 || f.scale_vec != 1) return "kind::mxf8f6f4 takes ue8m0 scales, scale_vec::1X";
            return std::nullopt;
        case Kind::MXF4:
        case Kind::MXF4NVF4:
            if (f.a != DType::E2M1 || f.b != DType::E2M1) return std::string(kind_name(f.kind)) + " takes e2m1";
            if (f.k != 128) return std::string(kind_name(f.kind)) + " takes m16n8k128";
            if (f.d != DType::F32) return "block-scale forms accumulate in f32";
            if (f.kind == Kind::MXF4) {
                if (f.scale_type != DType::UE8M0 || f.scale_vec != 2) return "kind::mxf4 takes ue8m0 scales, scale_vec::2X";
            } else if (!((f.scale_type == DType::UE8M0 && (f.scale_vec == 2 || f.scale_vec == 4)) ||
                         (f.scale_type == DType::UE4M3 && f.scale_vec == 4))) {
                return "kind::mxf4nvf4 takes ue8m0 with scale_vec::2X/4X or ue4m3 with scale_vec::4X";
            }
            return std::nullopt;
    }
    return "unknown kind";
}

std::vector<MmaSp> all_forms() {
    std::vector<MmaSp> out;
    auto add = [&](MmaSp f) {
        if (!invalid_reason(f)) out.push_back(f);
    };
    for (bool ordered : {false, true}) {
        for (int k : {16, 32}) {
            add({k, DType::F16, DType::F16, DType::F16, DType::F16, ordered});
            add({k, DType::F16, DType::F16, DType::F32, DType::F32, ordered});
            add({k, DType::BF16, DType::BF16, DType::F32, DType::F32, ordered});
        }
        for (int k : {8, 16}) add({k, DType::TF32, DType::TF32, DType::F32, DType::F32, ordered});
        for (DType a : {DType::E4M3, DType::E5M2})
            for (DType b : {DType::E4M3, DType::E5M2}) add({64, a, b, DType::F32, DType::F32, ordered});
        for (bool sat : {false, true}) {
            for (int k : {32, 64})
                for (DType a : {DType::S8, DType::U8})
                    for (DType b : {DType::S8, DType::U8}) add({k, a, b, DType::S32, DType::S32, ordered, sat});
            for (int k : {64, 128})
                for (DType a : {DType::S4, DType::U4})
                    for (DType b : {DType::S4, DType::U4}) add({k, a, b, DType::S32, DType::S32, ordered, sat});
        }
    }
    for (DType a : kF8F6F4)
        for (DType b : kF8F6F4) {
            for (DType acc : {DType::F16, DType::F32}) add({64, a, b, acc, acc, true, false, Kind::F8F6F4});
            add({64, a, b, DType::F32, DType::F32, true, false, Kind::MXF8F6F4, 1, DType::UE8M0});
        }
    add({128, DType::E2M1, DType::E2M1, DType::F32, DType::F32, true, false, Kind::MXF4, 2, DType::UE8M0});
    add({128, DType::E2M1, DType::E2M1, DType::F32, DType::F32, true, false, Kind::MXF4NVF4, 2, DType::UE8M0});
    add({128, DType::E2M1, DType::E2M1, DType::F32, DType::F32, true, false, Kind::MXF4NVF4, 4, DType::UE8M0});
    add({128, DType::E2M1, DType::E2M1, DType::F32, DType::F32, true, false, Kind::MXF4NVF4, 4, DType::UE4M3});
    return out;
}

std::string ptx_name(const MmaSp& f) {
    require_valid(f);
    std::string s = f.ordered_metadata ? "mma.sp::ordered_metadata" : "mma.sp";
    s += ".sync.aligned.m16n8k" + std::to_string(f.k) + ".row.col";
    if (f.kind != Kind::Legacy) s += std::string(".") + kind_name(f.kind);
    if (is_block_scaled(f)) s += ".block_scale.scale_vec::" + std::to_string(f.scale_vec) + "X";
    if (f.satfinite) s += ".satfinite";
    s += std::string(".") + name(f.d) + "." + name(f.a) + "." + name(f.b) + "." + name(f.c);
    if (is_block_scaled(f)) s += std::string(".") + name(f.scale_type);
    return s;
}

int elements_per_register(DType t, MmaSp::Kind kind) { return 32 / element_bits(t, kind); }

int a_registers(const MmaSp& f) { return mma_sp_geometry(f).a_regs; }
int b_registers(const MmaSp& f) { return mma_sp_geometry(f).b_regs; }
int c_registers(const MmaSp& f) { return mma_sp_geometry(f).c_regs; }
int chunk_width(const MmaSp& f) { return mma_sp_geometry(f).chunk_width; }
int kept_per_chunk(const MmaSp& f) { return mma_sp_geometry(f).chunk_width / 2; }
int selector_count(const MmaSp& f) { return mma_sp_geometry(f).selector_count; }

}  // namespace spmma::isa
