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

nlohmann::json OperandLayout::to_json() const {
    return {{"sizes", {sizes.a_values, sizes.a_indices, sizes.b, sizes.c, sizes.scale_a, sizes.scale_b, sizes.row_scale, sizes.col_scale,
                       sizes.bias}},
            {"offsets", {a_values, a_indices, b, c, scale_a, scale_b, row_scale, col_scale, bias}},
            {"total", total}};
}

OperandLayout OperandLayout::from_json(const nlohmann::json& j) {
    OperandLayout l;
    const auto& s = j.at("sizes");
    const auto& o = j.at("offsets");
    l.sizes = {s.at(0), s.at(1), s.at(2), s.at(3), s.at(4), s.at(5), s.at(6), s.at(7), s.at(8)};
    l.a_values = o.at(0);
    l.a_indices = o.at(1);
    l.b = o.at(2);
    l.c = o.at(3);
    l.scale_a = o.at(4);
    l.scale_b = o.at(5);
    l.row_scale = o.at(6);
    l.col_scale = o.at(7);
    l.bias = o.at(8);
    l.total = j.at("total");
    return l;
}

}  // namespace spmma
