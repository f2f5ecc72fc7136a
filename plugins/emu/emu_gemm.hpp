// One problem on the emulator: keeps the canonical operands, runs the emulated kernel on run().
#pragma once

#include "emu_kernel.hpp"

#include <spmma_plugin/backend.hpp>
#include <spmma_plugin/host_epilogue.hpp>

namespace spmma_emu {

class EmuGemm : public spmma_plugin::Gemm {
public:
    EmuGemm(const spmma_problem& p, const EmuKernel& kernel) : Gemm(p), p_(p), kernel_(kernel) {}
    std::string kernel_name() const override { return kernel_.name; }
    void upload(const spmma_operands& ops) override;
    // NOTES: one emulation per call, however many iterations are asked for; every time slot
    // gets its CPU time (the emulator's times say nothing about a GPU).
    void run(int warmup, int iterations, float* times_ms, uint32_t flags) override;
    void download(void* d, size_t bytes) override;

private:
    spmma_problem p_;
    const EmuKernel& kernel_;
    Canonical in_;
    spmma_plugin::HostEpilogue epi_;  // the problem's epilogue vectors, decoded at upload
    std::vector<uint8_t> d_;
};

}  // namespace spmma_emu
