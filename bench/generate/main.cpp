// spmma-bench-generate: how fast the runner makes a problem's operands (generate_operands: A
// drawn, pruned and compressed in one pass, then B), the step a sweep waits on when the GPU is
// faster than the host. For each size and type: seconds, nanoseconds per drawn element (m*k +
// k*n elements), the threads and the generator's instruction set; the buffers are allocated
// once and written twice (the second pass is what a sweep's reused arena sees). --shapes takes
// MxNxK problems: 32768x16x4096 is nearly all A (drawn and pruned), 16x32768x4096 nearly all B.
//
//   spmma-bench-generate [--sizes 4096,16384] [--shapes 32768x16x4096,...] [--types f16,e4m3,s8]
#include <spmma/core/operand_set.hpp>
#include <spmma/core/operands.hpp>
#include <spmma/core/sizes.hpp>

#include <omp.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace spmma;

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, sep);) out.push_back(item);
    return out;
}

double seconds_to_generate(const Problem& p, const OperandBuffers& out) {
    const auto t0 = std::chrono::steady_clock::now();
    generate_operands(p, out);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void bench(int64_t m, int64_t n, int64_t k, DType t) {
    Problem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.a = p.b = t;
    apply_default_types(p, false, false, false);
    const OperandLayout layout = OperandLayout::of(OperandSizes::of(p));  // as the runner lays out its arena
    std::vector<uint8_t> storage(layout.total);
    const OperandBuffers out = layout.buffers(storage.data());
    const double first = seconds_to_generate(p, out), again = seconds_to_generate(p, out);
    const double elements = static_cast<double>(p.m * p.k + p.k * p.n);
    using std::to_string;
    const std::string shape = m == n && n == k ? to_string(m) + "^3" : to_string(m) + "x" + to_string(n) + "x" + to_string(k);
    std::printf("%15s %-5s first %7.3f s  again %7.3f s  %6.2f ns/element  (%d threads, %s)\n", shape.c_str(),
                std::string(name(t)).c_str(), first, again, 1e9 * again / elements, omp_get_max_threads(), operand_generator_isa());
}

}  // namespace

int main(int argc, char** argv) {
    std::string sizes, shapes, types = "f16,bf16,e4m3,s8";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--sizes")) sizes = argv[i + 1];
        else if (!std::strcmp(argv[i], "--shapes")) shapes = argv[i + 1];
        else if (!std::strcmp(argv[i], "--types")) types = argv[i + 1];
        else {
            std::fprintf(stderr, "usage: spmma-bench-generate [--sizes 4096,16384] [--shapes MxNxK,...] [--types f16,bf16,e4m3,s8]\n");
            return 2;
        }
    }
    if (sizes.empty() && shapes.empty()) sizes = "4096";
    std::vector<std::array<int64_t, 3>> mnk;
    try {
        if (!sizes.empty())
            for (int64_t s : parse_size_list(sizes)) mnk.push_back({s, s, s});
        for (const auto& shape : split(shapes, ',')) {
            const auto d = split(shape, 'x');
            if (d.size() != 3) throw std::invalid_argument("a shape is MxNxK: " + shape);
            mnk.push_back({std::stoll(d[0]), std::stoll(d[1]), std::stoll(d[2])});
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "spmma-bench-generate: %s\n", e.what());
        return 2;
    }
    for (const auto& [m, n, k] : mnk)
        for (const auto& t : split(types, ',')) {
            const auto dt = parse_dtype(t);
            if (!dt) {
                std::fprintf(stderr, "unknown type %s\n", t.c_str());
                return 2;
            }
            bench(m, n, k, *dt);
        }
    return 0;
}
