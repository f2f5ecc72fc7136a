#include <spmma/core/operand_set.hpp>

#include <atomic>

namespace spmma {
namespace {

size_t align64(size_t x) { return (x + 63) / 64 * 64; }

std::atomic<uint64_t> g_next_id{1};

}  // namespace

uint8_t* Arena::reserve(size_t bytes) {
    if (mem_.empty() || mem_.size() < bytes) {
        // NOTES: grow by half again, so a sweep of rising sizes replaces the region a few times.
        const size_t want = std::max(bytes, mem_.size() + mem_.size() / 2);
        mem_ = SharedMemory();  // unmap first: the old region's pages go back before the new ones are touched
        mem_ = SharedMemory::create(want, name_);
        id_ = g_next_id++;
    }
    return mem_.data();
}

OperandLayout OperandLayout::of(const OperandSizes& s) {
    OperandLayout l;
    l.sizes = s;
    size_t at = 0;
    auto place = [&](size_t bytes) {
        const size_t here = at;
        at = align64(at + bytes);
        return here;
    };
    l.a_values = place(s.a_values);
    l.a_indices = place(s.a_indices);
    l.b = place(s.b);
    l.c = place(s.c);
    l.scale_a = place(s.scale_a);
    l.scale_b = place(s.scale_b);
    l.row_scale = place(s.row_scale);
    l.col_scale = place(s.col_scale);
    l.bias = place(s.bias);
    l.total = at;
    return l;
}

OperandBuffers OperandLayout::buffers(uint8_t* base) const {
    auto at = [&](size_t offset, size_t bytes) { return bytes ? base + offset : nullptr; };
    return {at(a_values, sizes.a_values), at(a_indices, sizes.a_indices), at(b, sizes.b), at(c, sizes.c),
            at(scale_a, sizes.scale_a), at(scale_b, sizes.scale_b), at(row_scale, sizes.row_scale), at(col_scale, sizes.col_scale),
            at(bias, sizes.bias), sizes};
}

}  // namespace spmma
