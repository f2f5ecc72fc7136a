// Which CUDA driver call pattern grows a process's resident memory: each pattern 20 times, then
// 200 times with the resident set measured before and after (what a plugin handle does, one call
// family at a time, for `spmma check-plugin`'s churn check). Built on the build machine and
// carried in .deploy (bench/NOTES.md, 2026-11-27):
//   g++ -O1 -std=c++17 -I/usr/local/cuda/include bench/device/churn_probe.cpp -o .deploy/probe/churn_probe \
//       -L/usr/local/cuda/lib64/stubs -lcuda
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>
#include <unistd.h>

static long rss_kb() {
    FILE* f = fopen("/proc/self/statm", "r");
    long pages = 0, res = 0;
    if (fscanf(f, "%ld %ld", &pages, &res) != 2) res = 0;
    fclose(f);
    return res * (sysconf(_SC_PAGESIZE) / 1024);
}
#define CK(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { const char* s; cuGetErrorName(r, &s); printf("%s failed: %s\n", #x, s); exit(1); } } while (0)

static void probe(const char* name, const std::function<void()>& f) {
    for (int i = 0; i < 20; ++i) f();
    const long a = rss_kb();
    for (int i = 0; i < 200; ++i) f();
    const long b = rss_kb();
    printf("%-44s %+8.2f MiB over 200 (%+.1f KiB each)\n", name, (b - a) / 1024.0, (b - a) / 200.0);
}

int main() {
    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    CUcontext keep;
    CK(cuDevicePrimaryCtxRetain(&keep, dev));
    CK(cuCtxSetCurrent(keep));
    std::vector<char> host(64 * 1024, 1);
    probe("primary ctx retain + set current + release", [&] { CUcontext c; CK(cuDevicePrimaryCtxRetain(&c, dev)); CK(cuCtxSetCurrent(c)); CK(cuDevicePrimaryCtxRelease(dev)); });
    probe("stream create + destroy (non-blocking)", [&] { CUstream s; CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)); CK(cuStreamDestroy(s)); });
    probe("event create + destroy (2, timing)", [&] { CUevent e[2]; for (auto& x : e) CK(cuEventCreate(&x, CU_EVENT_DEFAULT)); for (auto& x : e) CK(cuEventDestroy(x)); });
    probe("mem alloc + free (5 x 32 KiB)", [&] { CUdeviceptr p[5]; for (auto& x : p) CK(cuMemAlloc(&x, 32768)); for (auto& x : p) CK(cuMemFree(x)); });
    probe("mem alloc + HtoD + sync + DtoH + free", [&] { CUdeviceptr p; CK(cuMemAlloc(&p, 65536)); CK(cuMemcpyHtoD(p, host.data(), 65536)); CK(cuCtxSynchronize()); CK(cuMemcpyDtoH(host.data(), p, 65536)); CK(cuMemFree(p)); });
    probe("stream + events record/sync + destroy", [&] { CUstream s; CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)); CUevent e[2]; for (auto& x : e) CK(cuEventCreate(&x, CU_EVENT_DEFAULT)); CK(cuEventRecord(e[0], s)); CK(cuEventRecord(e[1], s)); CK(cuStreamSynchronize(s)); float ms; CK(cuEventElapsedTime(&ms, e[0], e[1])); for (auto& x : e) CK(cuEventDestroy(x)); CK(cuStreamDestroy(s)); });
    probe("memset D8 + sync (alloc/free)", [&] { CUdeviceptr p; CK(cuMemAlloc(&p, 65536)); CK(cuMemsetD8(p, 0, 65536)); CK(cuCtxSynchronize()); CK(cuMemFree(p)); });
    printf("done\n");
    return 0;
}
