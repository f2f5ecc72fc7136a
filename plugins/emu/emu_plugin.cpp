// The emu plugin's backend: one device (the host CPU), emulated kernels of each family whose
// packing library is built in, named "emu_" + the GPU kernel's name (every sm80, sm90a and sm120a
// kernel; the cta_group::1 kernels of sm100a).
#include "emu_gemm.hpp"
#include "emu_kernel.hpp"

#include <spmma_plugin/host_backend.hpp>
#include <spmma_plugin/kernel_registry.hpp>

#include <omp.h>

namespace spmma_emu {
namespace {

using namespace spmma_plugin;

std::vector<EmuKernel> build_kernels() {
    std::vector<EmuKernel> v;
    add_sm80_kernels(v);
    add_sm90a_kernels(v);
    add_sm100a_kernels(v);
    add_sm120a_kernels(v);
    return v;
}

const KernelRegistry<EmuKernel>& registry() { return kernel_registry<EmuKernel, build_kernels>(); }

// NOTES: the emulator is opt-in: it runs only kernels the host names (--kernel 'emu_sm80*', what
// --emulate sm80 asks for), so ordinary runs do not spend CPU minutes emulating every small
// problem. A named kernel either runs the problem or says why not (its types, pattern, scales, or
// the problem's size).
const EmuKernel& choose(const spmma_problem& p, const char* kernel) {
    if (!kernel)
        unsupported("the emulator runs only the kernels named with --kernel: emu_ + a GPU kernel's name, e.g. "
                    "--kernel 'emu_sm80*', 'emu_sm90a*', 'emu_sm100a*' or 'emu_sm120a*' (--emulate FAMILY)");
    const EmuKernel* k = registry().find(kernel);
    if (!k) unsupported(std::string("no emulated kernel named ") + kernel);
    if (auto r = k->reason(p); !r.empty()) unsupported(r);
    return *k;
}

class EmuBackend : public HostBackend {
public:
    spmma_plugin_info info() const override {
        return plugin_info("emu", "cpu",
                           "GPU kernels emulated on the CPU: each family's host packing, copies and descriptors through the "
                           "bit-level instruction models (mma.sp, wgmma.mma_async.sp, tcgen05.mma.sp)",
                           SPMMA_VERSION);
    }
    std::span<const spmma_kernel_info> kernels() const override { return registry().infos(); }
    void check_supported(int device, const spmma_problem& p, const char* kernel) const override {
        require_host(device);
        choose(p, kernel);
    }
    std::unique_ptr<Gemm> create(int device, const spmma_problem& p, const char* kernel) override {
        check_supported(device, p, kernel);
        return std::make_unique<EmuGemm>(p, choose(p, kernel));
    }

protected:
    std::string host_name() const override {
        return "host CPU, instruction models (" + std::to_string(omp_get_max_threads()) + " threads)";
    }
    std::string host_arch() const override { return "emulated"; }
};

Backend& backend() {
    static EmuBackend b;
    return b;
}

}  // namespace
}  // namespace spmma_emu

SPMMA_DEFINE_PLUGIN(spmma_emu::backend)
