// Internal: operand codes eight elements at a time. The arithmetic of Drawer::value and
// FastEncoder::encode_as on vectors of eight lanes, built for AVX-512, AVX2 and baseline x86-64
// and picked for the CPU at run time. tests/core/operands holds every variant this CPU runs to
// the scalar codes bit for bit.
#pragma once

#include "drawer.hpp"

#include <spmma/fast_encode.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace spmma::detail {

// The instruction sets a batch is built for; usable_isas() lists this CPU's, best last.
enum class Isa { Baseline, Avx2, Avx512 };
const char* isa_name(Isa isa);
const std::vector<Isa>& usable_isas();

class BatchDrawer {
public:
    // Where the vector path covers the drawer and encoder: uniform and int draws into every
    // type but ue8m0 (normal draws take log and cos, and stay scalar).
    static std::optional<BatchDrawer> of(const Drawer& draw, const FastEncoder& enc);

    // Codes of elements [first, first + n): eight lanes at a time, the tail and the rare lanes
    // the vector path leaves (NaN, overflow) the scalar way.
    void codes(uint64_t first, int64_t n, uint32_t* out) const { codes(best_, first, n, out); }
    void codes(Isa isa, uint64_t first, int64_t n, uint32_t* out) const;
    // The encoder alone on given values (edge values no draw produces), for tests.
    void encode(Isa isa, const double* values, int64_t n, uint32_t* out) const;

    // What the vector code reads, as plain constants.
    enum class Value { Int, UniformFloat, UniformInt, UniformS32 };
    enum class Code { Mini, Tf32, F32, Int };
    struct Plan {
        Value value;
        Code code;
        uint64_t key;
        double lo, span;  // Int: lo + floor(u * span); UniformInt: floor(lo + u * span); UniformFloat: (2u - 1) * span
        FastEncoder::Constants enc;
    };

private:
    BatchDrawer(const Drawer& d, const FastEncoder& e, Plan p) : draw_(d), enc_(e), plan_(p) {}
    Drawer draw_;
    FastEncoder enc_;
    Plan plan_;
    Isa best_ = Isa::Baseline;
};

}  // namespace spmma::detail
