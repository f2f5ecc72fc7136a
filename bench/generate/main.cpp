// spmma-bench-generate: how fast the runner makes a problem's operands (generate_operands: A
// drawn, pruned and compressed in one pass, then B), the step a sweep waits on when the GPU is
// faster than the host. For each size and type: seconds, nanoseconds per drawn element (m*k +
// k*n elements), the threads and the generator's instruction set; the buffers are allocated
// once and written twice (the second pass is what a sweep's reused arena sees).
//
//   spmma-bench-generate [--sizes 4096,16384] [--types f16,e4m3,s8]
#include <spmma/core/operand_set.hpp>
#include <spmma/core/operands.hpp>

#include <omp.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

using namespace spmma;

namespace {

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, ',');) out.push_back(item);
    return out;
}

double seconds_to_generate(const Problem& p, const OperandBuffers& out) {
    const auto t0 = std::chrono::steady_clock::now();
    generate_operands(p, out);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void bench(int64_t size, DType t) {
    Problem p;
    p.m = p.n = p.k = size;
    p.a = p.b = t;
    apply_default_types(p, false, false, false);
    const OperandLayout layout = OperandLayout::of(OperandSizes::of(p));  // as the runner lays out its arena
    std::vector<uint8_t> storage(layout.total);
    const OperandBuffers out = layout.buffers(storage.data());
    const double first = seconds_to_generate(p, out), again = seconds_to_generate(p, out);
    const double elements = static_cast<double>(p.m * p.k + p.k * p.n);
    std::printf("%6lld^3 %-5s first %7.3f s  again %7.3f s  %6.2f ns/element  (%d threads, %s)\n", static_cast<long long>(size),
                std::string(name(t)).c_str(), first, again, 1e9 * again / elements, omp_get_max_threads(), operand_generator_isa());
}

}  // namespace

int main(int argc, char** argv) {
    std::string sizes = "4096", types = "f16,bf16,e4m3,s8";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--sizes")) sizes = argv[i + 1];
        else if (!std::strcmp(argv[i], "--types")) types = argv[i + 1];
        else {
            std::fprintf(stderr, "usage: spmma-bench-generate [--sizes 4096,16384] [--types f16,bf16,e4m3,s8]\n");
            return 2;
        }
    }
    for (const auto& s : split(sizes))
        for (const auto& t : split(types)) {
            const auto dt = parse_dtype(t);
            if (!dt) {
                std::fprintf(stderr, "unknown type %s\n", t.c_str());
                return 2;
            }
            bench(std::stoll(s), *dt);
        }
    return 0;
}
