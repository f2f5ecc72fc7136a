// Page-locking the shared operand and result memory for the GPU a plugin runs on, so that the
// plugin's copies from it run at the bus's speed instead of staging through the driver's
// pageable path (measured 2026-11-24 on an H200: about 3 GB/s pageable). spmma opens the CUDA
// driver (libcuda.so.1) at run time for this alone, registers the region with
// cuMemHostRegister(PORTABLE) in the process whose plugin reads it, and unregisters it before
// the region is unmapped. A plugin cannot tell, and nothing fails without a driver: the memory
// simply stays pageable.
#pragma once

#include <cstddef>
#include <string>

namespace spmma {

// Makes the primary context of the device with this UUID (NVML form, "GPU-...") current on the
// calling thread, retaining it for the process's life: what registering needs, done once per
// device (making a context takes a while; see SharedMemory::pin_for). False, with the reason in
// *why, when it cannot (no driver, no such device, ...).
bool use_device_for_pinning(const std::string& device_uuid, std::string* why = nullptr);
// Registers [data, data + bytes) for the device with this UUID, making its context current
// through use_device_for_pinning. Returns false, with the reason in *why, when it cannot.
bool pin_host_memory(void* data, size_t bytes, const std::string& device_uuid, std::string* why = nullptr);
// Undoes pin_host_memory (no-op for memory that was not pinned).
void unpin_host_memory(void* data);

}  // namespace spmma
