// The Backend of a plugin that computes on the host CPU (cpu, emu): one device, 0, the host.
#pragma once

#include <spmma_plugin/backend.hpp>

#include <string>

namespace spmma_plugin {

class HostBackend : public Backend {
public:
    int device_count() const final { return 1; }
    // Device 0: runnable, named host_name(), arch host_arch(); any other: not a device.
    void probe(int device, spmma_device_info* out) const final;

protected:
    // What probe says of the host ("host CPU (8 threads)", "x86_64").
    virtual std::string host_name() const = 0;
    virtual std::string host_arch() const = 0;
    // Throws unsupported("the NAME plugin has one device, 0 (the host)") for any other device.
    void require_host(int device) const;
};

}  // namespace spmma_plugin
