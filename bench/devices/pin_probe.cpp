// pin_probe PATH BYTES FLAGS [DEVICE [advise]]: maps PATH (a tmpfs file) shared, touches every
// page, then times cuInit, the primary context of DEVICE (an index among the visible devices, 0
// unless given), cuMemHostRegister(FLAGS), a 64 MiB copy to the device and the unregister
// (bench/devices/pinning.sh runs it).
#include <cuda.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { std::fprintf(stderr, "%s: %d\n", #x, (int)r_); return 1; } } while (0)
int main(int argc, char** argv) {
    if (argc < 4) return 2;
    size_t bytes = std::strtoull(argv[2], nullptr, 10);
    unsigned flags = std::strtoul(argv[3], nullptr, 10);
    const int device = argc > 4 ? std::atoi(argv[4]) : 0;
    bool advise = argc > 5 && std::strcmp(argv[5], "advise") == 0;
    int fd = open(argv[1], O_RDWR | O_CREAT, 0600);
    if (fd < 0 || ftruncate(fd, bytes) != 0) { perror("open"); return 1; }
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) { perror("mmap"); return 1; }
    if (advise && madvise(p, bytes, MADV_HUGEPAGE) != 0) perror("madvise");
    double t0 = now();
    for (size_t i = 0; i < bytes; i += 4096) static_cast<volatile char*>(p)[i] = static_cast<volatile char*>(p)[i] + 1;
    double t1 = now();
    CK(cuInit(0));
    int n = 0; CK(cuDeviceGetCount(&n));
    double t1b = now();
    CUdevice dev; CK(cuDeviceGet(&dev, device));
    CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
    double t2 = now();
    CK(cuMemHostRegister(p, bytes, flags));
    double t3 = now();
    CUdeviceptr d; CK(cuMemAlloc(&d, 64 << 20));
    double t4 = now();
    CK(cuMemcpyHtoD(d, p, 64 << 20));
    double t5 = now();
    CK(cuMemHostUnregister(p));
    double t6 = now();
    std::printf("pid %d devices %d ctx on %d flags %u advise %d: touch %.3f init %.3f ctx %.3f register %.3f (%.2f GB/s) copy64M %.1f GB/s unregister %.3f\n",
                (int)getpid(), n, device, flags, (int)advise, t1 - t0, t1b - t1, t2 - t1b, t3 - t2, bytes / (t3 - t2) / 1e9,
                (64 << 20) / (t5 - t4) / 1e9, t6 - t5);
    return 0;
}
