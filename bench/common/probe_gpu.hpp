// What the throughput probes (bench/sm80 mma_rate.cpp, bench/sm90a wgmma_rate.cpp) share on the
// host: the GPU they run on, and the median time of a probe kernel launched one CTA per SM.
#pragma once

#include <spmma_plugin/cuda_driver.hpp>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace spmma_bench {

namespace cu = spmma_plugin::cuda;

// Device 0's properties when there is a GPU that `accepts` says the probe can run on; else prints
// why (naming `needs`) and returns nothing (the probes then exit with status 3).
template <class Accept>
std::optional<cu::DeviceProperties> probe_gpu(Accept&& accepts, const char* needs) {
    std::string why;
    if (!cu::driver(&why) || cu::device_count() == 0) {
        std::fprintf(stderr, "no GPU: %s\n", why.c_str());
        return std::nullopt;
    }
    cu::DeviceProperties props = cu::device_properties(0);
    if (!accepts(props)) {
        std::fprintf(stderr, "needs %s (device 0 is %s)\n", needs, props.arch().c_str());
        return std::nullopt;
    }
    return props;
}

// The median of `iterations` event-timed launches (after `warmup`) of `f` with one CTA of
// `threads` per SM and `smem` bytes of dynamic shared memory.
inline double median_launch_ms(const cu::Stream& stream, CUfunction f, int sms, int threads, unsigned smem,
                               void** args, int warmup, int iterations) {
    cu::LaunchShape shape;
    shape.grid[0] = static_cast<unsigned>(sms);
    shape.block[0] = static_cast<unsigned>(threads);
    shape.smem_bytes = smem;
    std::vector<float> times(static_cast<size_t>(iterations));
    cu::timed_runs(stream, warmup, iterations, times.data(), [] {}, [&] { cu::launch(f, shape, stream.get(), args); });
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

}  // namespace spmma_bench
