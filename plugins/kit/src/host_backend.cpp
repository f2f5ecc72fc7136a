#include <spmma_plugin/host_backend.hpp>

namespace spmma_plugin {
namespace {

std::string one_device(const Backend& b) { return std::string("the ") + b.info().name + " plugin has one device, 0 (the host)"; }

}  // namespace

void HostBackend::probe(int device, spmma_device_info* out) const {
    spmma_device_info d{};
    d.struct_size = sizeof d;
    if (device != 0) {
        write_string(d.name, sizeof d.name, "no such device");
        write_string(d.reason, sizeof d.reason, one_device(*this));
    } else {
        d.runnable = 1;
        write_string(d.name, sizeof d.name, host_name());
        write_string(d.arch, sizeof d.arch, host_arch());
    }
    copy_out(out, d);
}

void HostBackend::require_host(int device) const {
    if (device != 0) unsupported(one_device(*this));
}

}  // namespace spmma_plugin
