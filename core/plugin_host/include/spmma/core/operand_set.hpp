// One problem's operands and results in shared memory: the runner generates the operands once
// into an arena, every plugin reads them where they lie (in a worker process too), and D (or
// the sampled elements of D) comes back through a second arena. Arenas grow and are reused
// from problem to problem, so a worker maps each once, not once per problem.
#pragma once

#include <spmma/core/operands.hpp>
#include <spmma/core/shared_memory.hpp>

#include <cstdint>
#include <string>

namespace spmma {

// A growing shared region with an id that changes whenever it is replaced.
class Arena {
public:
    explicit Arena(std::string name) : name_(std::move(name)) {}
    // At least `bytes` of room (contents are not kept when it grows).
    uint8_t* reserve(size_t bytes);
    uint8_t* data() const { return mem_.data(); }
    size_t size() const { return mem_.size(); }
    int fd() const { return mem_.fd(); }
    bool pin_for(const std::string& device_uuid) { return mem_.pin_for(device_uuid); }
    uint64_t id() const { return id_; }
    const std::string& name() const { return name_; }

private:
    std::string name_;
    SharedMemory mem_;
    uint64_t id_ = 0;
};

// Where each canonical buffer lies in the operand arena (64-byte aligned).
struct OperandLayout {
    OperandSizes sizes;
    size_t a_values = 0, a_indices = 0, b = 0, c = 0, scale_a = 0, scale_b = 0, row_scale = 0, col_scale = 0, bias = 0, total = 0;
    static OperandLayout of(const OperandSizes& s);
    OperandBuffers buffers(uint8_t* base) const;
    spmma_operands view(const uint8_t* base) const { return buffers(const_cast<uint8_t*>(base)).view(); }
};

// What an execution reads and writes: the operand arena with its layout, and the result arena.
struct Exchange {
    Arena* operands = nullptr;
    OperandLayout layout;
    Arena* results = nullptr;
};

}  // namespace spmma
