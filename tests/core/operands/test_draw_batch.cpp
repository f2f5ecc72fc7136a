// The batch generator (core/operands/src/draw_batch.hpp) against the scalar Drawer and FastEncoder it
// stands for: the same code for every element, in every instruction set this CPU runs.
#include "draw_batch.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace spmma;
using namespace spmma::detail;

namespace {

// Every type the batch path covers (ue8m0 and none are left to the scalar path).
std::vector<DType> batch_types() {
    std::vector<DType> out;
    for (const TypeInfo& t : all_types())
        if (t.type != DType::None && t.type != DType::UE8M0) out.push_back(t.type);
    return out;
}

// Values an encoder meets at its edges: zeros, ties and their neighbours at every binade of the
// type, subnormals, the largest finite value and above it, infinities, NaN; both signs.
std::vector<double> edge_values(DType t) {
    std::vector<double> v = {0.0, -0.0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN(), 1e-300, std::numeric_limits<double>::denorm_min()};
    const TypeInfo& ti = info(t);
    const int man = t == DType::TF32 ? 10 : std::max(ti.mantissa_bits, 1);
    const int top = static_cast<int>(std::ceil(std::log2(ti.max_finite))) + 2;
    for (int e = -160; e <= top; ++e) {
        const double q = std::ldexp(1.0, e - man);  // a quantum of this binade
        for (double k : {0.5, 1.0, 1.5, 2.5, 3.0, 3.5})
            for (double nudge : {-1.0, 0.0, 1.0}) {
                const double x = std::ldexp(1.0, e) + k * q;
                v.push_back(std::nextafter(x, x + nudge));
                v.push_back(k * q);
            }
    }
    v.push_back(ti.max_finite);
    v.push_back(std::nextafter(ti.max_finite, 1e300));
    v.push_back(ti.max_finite * 1.03);
    const size_t n = v.size();
    for (size_t i = 0; i < n; ++i) v.push_back(-v[i]);
    return v;
}

}  // namespace

TEST_CASE("the batch drawer gives the scalar codes for every type, uniform and int draws, in every instruction set here") {
    const uint64_t first = 1000003;  // odd, not a multiple of any lane count
    const int64_t n = 4 * 1024 + 13;  // whole chunks, a part chunk and a tail shorter than a block
    for (Distribution dist : {Distribution::Uniform, Distribution::Int})
        for (DType t : batch_types())
            for (uint64_t seed : {1ull, 0x5eedull}) {
                const Drawer draw(dist, t, seed, kStreamB);
                const FastEncoder enc(t);
                const auto batch = BatchDrawer::of(draw, enc);
                REQUIRE(batch);
                std::vector<uint32_t> want(n);
                for (int64_t i = 0; i < n; ++i) want[i] = enc(draw(first + static_cast<uint64_t>(i)));
                for (Isa isa : usable_isas()) {
                    INFO(name(t) << " " << (dist == Distribution::Int ? "int" : "uniform") << " seed " << seed << " " << isa_name(isa));
                    std::vector<uint32_t> got(n, 0xdeadbeef);
                    batch->codes(isa, first, n, got.data());
                    int64_t bad = 0;
                    for (int64_t i = 0; i < n; ++i) bad += got[i] != want[i];
                    CHECK(bad == 0);
                }
            }
}

TEST_CASE("the batch encoder gives the scalar codes at the edges: ties, subnormals, overflow, infinity, NaN, negative into unsigned") {
    for (DType t : batch_types()) {
        const FastEncoder enc(t);
        const auto batch = BatchDrawer::of(Drawer(Distribution::Uniform, t, 1, kStreamA), enc);
        REQUIRE(batch);
        const std::vector<double> v = edge_values(t);
        std::vector<uint32_t> want(v.size());
        for (size_t i = 0; i < v.size(); ++i) want[i] = enc(v[i]);
        for (Isa isa : usable_isas()) {
            INFO(name(t) << " " << isa_name(isa));
            std::vector<uint32_t> got(v.size(), 0xdeadbeef);
            batch->encode(isa, v.data(), static_cast<int64_t>(v.size()), got.data());
            for (size_t i = 0; i < v.size(); ++i) {
                if (got[i] == want[i]) continue;
                FAIL_CHECK("value " << v[i] << ": batch " << got[i] << ", scalar " << want[i]);
                break;
            }
        }
    }
}

TEST_CASE("the batch drawer leaves normal draws and ue8m0 to the scalar path") {
    CHECK_FALSE(BatchDrawer::of(Drawer(Distribution::Normal, DType::F16, 1, kStreamA), FastEncoder(DType::F16)));
    CHECK_FALSE(BatchDrawer::of(Drawer(Distribution::Uniform, DType::UE8M0, 1, kStreamA), FastEncoder(DType::UE8M0)));
}
