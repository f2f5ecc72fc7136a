#include <spmma/fast_encode.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace spmma;

namespace {

// Values around every representable point of t: the points, midpoints (ties), a hair either
// side, beyond the largest, and specials.
std::vector<double> edge_values(DType t) {
    std::vector<double> v = {0.0, -0.0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN(), 1e-300, -1e-300, 1e300, -1e300};
    const TypeInfo& ti = info(t);
    const double mx = ti.max_finite;
    for (double x : {mx, mx * 1.0001, mx * 2, mx + 0.5 * (is_float(t) ? ulp(t, mx) : 1.0), std::nextafter(mx + 0.5 * (is_float(t) ? ulp(t, mx) : 1.0), 0.0)}) {
        v.push_back(x);
        v.push_back(-x);
    }
    if (info(t).storage_bits <= 16 && t != DType::UE8M0) {
        const auto& table = decode_table(t);
        for (uint32_t c = 0; c < table.size(); ++c) {
            const double a = table[c];
            if (!std::isfinite(a)) continue;
            const double step = is_float(t) && t != DType::UE4M3 ? ulp(t, a) : 1.0;
            for (double x : {a, a + 0.5 * step, a - 0.5 * step, std::nextafter(a + 0.5 * step, 0.0),
                             std::nextafter(a + 0.5 * step, 1e308), a * 0.75})
                v.push_back(x);
        }
    }
    return v;
}

}  // namespace

TEST_CASE("FastEncoder gives encode's code for every type at every edge and on random doubles", "[types][fast_encode]") {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> expo(-160, 160);
    for (const TypeInfo& ti : all_types()) {
        const DType t = ti.type;
        const FastEncoder fast(t);
        INFO(name(t));
        int mismatches = 0;
        auto check = [&](double x) {
            if (fast(x) != encode(t, x)) {
                if (++mismatches <= 5) FAIL_CHECK("value " << x << ": fast " << fast(x) << ", encode " << encode(t, x));
            }
        };
        for (double x : edge_values(t)) check(x);
        for (int i = 0; i < 200000; ++i) check(std::ldexp(unit(rng), expo(rng) % (ti.cls == TypeClass::Float ? 160 : 12)));
        for (int i = 0; i < 200000; ++i) check(unit(rng) * (i % 3 == 0 ? 1.0 : i % 3 == 1 ? 6.0 : ti.max_finite));
        CHECK(mismatches == 0);
    }
}
