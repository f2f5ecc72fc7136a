// The smallest CUDA plugin built on the backend kit (plugins/README.md counts it): one kernel,
// no packing (the kernel reads the canonical form), no heuristic. Everything else -- the C
// table, the order of the support checks, kernel lookup, device probing, operand checks, C and
// D on the device, timing, downloads -- is the kit's. Built for the plugin_kit tests only, into a
// folder spmma searches only when told.
#include <spmma_plugin/kernel_backend.hpp>
#include <spmma_plugin/kernel_gemm.hpp>
#include <spmma_plugin/refusals.hpp>

SPMMA_DECLARE_FATBIN(example_spgemm)

namespace kit_example {
namespace {

using namespace spmma_plugin;

struct Kernel : KernelCode {};  // name, description, fatbin: all this plugin's kernels need

std::vector<Kernel> build_kernels() {
    return {{{"kit_example_f16_2x4", "f16 x f16 -> f32, 2:4, one thread per element of D", SPMMA_FATBIN(example_spgemm)}}};
}

class ExampleGemm final : public cuda::KernelGemm<Kernel> {
public:
    ExampleGemm(int device, const spmma_problem& p, const Kernel& k) : KernelGemm(device, p, k, 0) {}

protected:
    void pack(const spmma_operands& ops) override {
        a_ = cuda::to_device(ops.a_values, ops.a_values_bytes);
        e_ = cuda::to_device(ops.a_indices, ops.a_indices_bytes);
        b_ = cuda::to_device(ops.b, ops.b_bytes);
        upload_c(ops, CForm::as_given);
    }

    void launch(CUstream stream) override {
        const void *a = a_.as(), *e = e_.as(), *b = b_.as(), *c = c_.as();
        void* d = d_.as();
        int m = static_cast<int>(problem_.m), n = static_cast<int>(problem_.n), k = static_cast<int>(problem_.k);
        float alpha = static_cast<float>(problem_.alpha), beta = static_cast<float>(problem_.beta);
        void* args[] = {&a, &e, &b, &c, &d, &m, &n, &k, &alpha, &beta};
        cuda::LaunchShape s;
        s.grid[0] = static_cast<unsigned>((n + 127) / 128);
        s.grid[1] = static_cast<unsigned>(m);
        s.block[0] = 128;
        cuda::launch(fn_, s, stream, args);
    }

private:
    cuda::DeviceBuffer a_, e_, b_;
};

std::unique_ptr<Gemm> make_gemm(int device, const spmma_problem& p, const Kernel& k) {
    return std::make_unique<ExampleGemm>(device, p, k);
}

class ExampleBackend final : public cuda::KernelBackend<Kernel> {
public:
    spmma_plugin_info info() const override {
        return plugin_info("kit-example", "sm_80", "the backend kit's smallest CUDA plugin: f16 2:4, no tensor cores");
    }
    std::string runs_on(const cuda::DeviceProperties& p) const override {
        return p.major >= 8 ? std::string() : "needs sm_80 or newer, device is " + p.arch();
    }

protected:
    const KernelRegistry<Kernel>& registry() const override { return kernel_registry<Kernel, build_kernels>(); }
    std::string problem_reason(const spmma_problem& p) const override {
        if (p.a_type != SPMMA_F16 || p.b_type != SPMMA_F16 || p.acc_type != SPMMA_F32 || p.saturate)
            return "the kit example computes f16 x f16 -> f32 only, not " + types_label(p);
        if (p.pattern != SPMMA_PATTERN_2_4 || p.scale_type != SPMMA_DTYPE_NONE) return "the kit example takes 2:4 A, unscaled";
        if (p.d_type != SPMMA_F32 || (p.beta != 0 && p.c_type != SPMMA_F32)) return "the kit example reads and writes f32 C and D";
        if (p.m > 65535 || p.n > (1 << 30) || p.k > (1 << 30)) return "the kit example takes m up to 65535, n and k up to 2^30";
        return {};
    }
    std::string kernel_reason(const Kernel&, const spmma_problem&) const override { return {}; }  // the one kernel
    const Kernel* choose(const spmma_problem&, const cuda::DeviceProperties&, std::string*) const override {
        return &registry().entries()[0];
    }
};

}  // namespace
}  // namespace kit_example

SPMMA_DEFINE_PLUGIN_BACKEND(kit_example::ExampleBackend)
