// Every kernel of the sm80 kernel lists (include/spmma_sm80/kernels/*.inc) as the host table lists
// them, for the tests that walk the lists on the host. NOTES: in an unnamed namespace, each test
// file its own copy: the list holds addresses of op_tags.hpp's constants, one set per file.
#pragma once

#include <spmma_sm80/layout.hpp>
#include <spmma_sm80/op_tags.hpp>

#include <string>
#include <vector>

namespace spmma_sm80_test {
namespace {

struct ListedKernel {
    std::string name;
    const spmma_sm80::OpInfo* op;
    spmma_sm80::Tile tile;
    bool ordered;  // mma.sp::ordered_metadata
};

std::vector<ListedKernel> listed_kernels() {
    using namespace spmma_sm80;
    std::vector<ListedKernel> v;
#define SPMMA_SM80_KERNEL(name, tag, ord, bm, bn, wm, wn, stages) \
    v.push_back({#name, &tags::tag, Tile{bm, bn, wm, wn, stages}, (ord) != 0});
#include <spmma_sm80/kernels/f16.inc>
#include <spmma_sm80/kernels/bf16.inc>
#include <spmma_sm80/kernels/tf32.inc>
#include <spmma_sm80/kernels/i8.inc>
#include <spmma_sm80/kernels/i4.inc>
#include <spmma_sm80/kernels/f8.inc>
#undef SPMMA_SM80_KERNEL
    return v;
}

}  // namespace
}  // namespace spmma_sm80_test
