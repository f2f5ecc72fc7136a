// The emu plugin's backend: one device (the host CPU), emulated kernels of each family whose
// packing library is built in, named "emu_" + the GPU kernel's name (every sm80, sm90a and sm120a
// kernel; the cta_group::1 kernels of sm100a).
#include "emu_gemm.hpp"
#include "emu_kernel.hpp"

#include <omp.h>

#include <cstring>

namespace spmma_emu {

const std::vector<EmuKernel>& kernels() {
    static const std::vector<EmuKernel> all = [] {
        std::vector<EmuKernel> v;
        add_sm80_kernels(v);
        add_sm90a_kernels(v);
        add_sm100a_kernels(v);
        add_sm120a_kernels(v);
        return v;
    }();
    return all;
}

namespace {

using namespace spmma_plugin;

const std::vector<spmma_kernel_info>& kernel_infos() {
    static const std::vector<spmma_kernel_info> infos = [] {
        std::vector<spmma_kernel_info> v;
        for (const EmuKernel& k : kernels()) v.push_back({sizeof(spmma_kernel_info), 0, k.name.c_str(), k.description.c_str()});
        return v;
    }();
    return infos;
}

const EmuKernel* find(const char* name) {
    for (const EmuKernel& k : kernels())
        if (k.name == name) return &k;
    return nullptr;
}

// NOTES: the emulator is opt-in: it runs only kernels the host names (--kernel 'emu_sm80*', what
// --emulate sm80 asks for), so ordinary runs do not spend CPU minutes emulating every small
// problem. A named kernel either runs the problem or says why not (its types, pattern, scales, or
// the problem's size).
const EmuKernel& choose(const spmma_problem& p, const char* kernel) {
    if (!kernel)
        unsupported("the emulator runs only the kernels named with --kernel: emu_ + a GPU kernel's name, e.g. "
                    "--kernel 'emu_sm80*', 'emu_sm90a*', 'emu_sm100a*' or 'emu_sm120a*' (--emulate FAMILY)");
    const EmuKernel* k = find(kernel);
    if (!k) unsupported(std::string("no emulated kernel named ") + kernel);
    if (auto r = k->reason(p); !r.empty()) unsupported(r);
    return *k;
}

class EmuBackend : public Backend {
public:
    spmma_plugin_info info() const override {
        return {sizeof(spmma_plugin_info), 0, "emu", "spmma", SPMMA_VERSION, "cpu",
                "GPU kernels emulated on the CPU: each family's host packing, copies and descriptors through the "
                "bit-level instruction models (mma.sp, wgmma.mma_async.sp, tcgen05.mma.sp)"};
    }
    int device_count() const override { return 1; }
    void probe(int device, spmma_device_info* out) const override {
        spmma_device_info d{};
        d.struct_size = sizeof d;
        if (device != 0) {
            write_string(d.name, sizeof d.name, "no such device");
            write_string(d.reason, sizeof d.reason, "the emu plugin has one device, 0 (the host)");
        } else {
            d.runnable = 1;
            write_string(d.name, sizeof d.name,
                         "host CPU, instruction models (" + std::to_string(omp_get_max_threads()) + " threads)");
            write_string(d.arch, sizeof d.arch, "emulated");
        }
        copy_out(out, d);
    }
    std::span<const spmma_kernel_info> kernels() const override { return kernel_infos(); }
    void check_supported(int device, const spmma_problem& p, const char* kernel) const override {
        if (device != 0) unsupported("the emu plugin has one device, 0 (the host)");
        choose(p, kernel);
    }
    std::unique_ptr<Gemm> create(int device, const spmma_problem& p, const char* kernel) override {
        check_supported(device, p, kernel);
        return std::make_unique<EmuGemm>(p, choose(p, kernel));
    }
};

Backend& backend() {
    static EmuBackend b;
    return b;
}

}  // namespace
}  // namespace spmma_emu

SPMMA_DEFINE_PLUGIN(spmma_emu::backend)
