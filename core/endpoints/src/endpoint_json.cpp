// The JSON forms of what crosses between spmma and a worker about a plugin.
#include <spmma/core/endpoint.hpp>

namespace spmma {

nlohmann::json identity_to_json(const PluginIdentity& p) {
    nlohmann::json ks = nlohmann::json::array();
    for (const auto& k : p.kernels) ks.push_back({{"name", k.name}, {"description", k.description}});
    return {{"file", p.file.string()}, {"sha256", p.sha256},   {"state", static_cast<int>(p.state)},
            {"error", p.error},        {"abi_major", p.abi_major}, {"abi_minor", p.abi_minor},
            {"name", p.name},          {"vendor", p.vendor},   {"version", p.version},
            {"target", p.target},      {"description", p.description}, {"flags", p.flags},
            {"kernels", ks}};
}

PluginIdentity identity_from_json(const nlohmann::json& j) {
    PluginIdentity p;
    p.file = j.at("file").get<std::string>();
    p.sha256 = j.at("sha256");
    p.state = static_cast<PluginState>(j.at("state").get<int>());
    p.error = j.at("error");
    p.abi_major = j.at("abi_major");
    p.abi_minor = j.at("abi_minor");
    p.name = j.at("name");
    p.vendor = j.at("vendor");
    p.version = j.at("version");
    p.target = j.at("target");
    p.description = j.at("description");
    p.flags = j.at("flags");
    for (const auto& k : j.at("kernels")) p.kernels.push_back({k.at("name"), k.at("description")});
    return p;
}

nlohmann::json device_to_json(const DeviceInfo& d) {
    return {{"runnable", d.runnable}, {"name", d.name}, {"arch", d.arch}, {"driver", d.driver},
            {"reason", d.reason},     {"uuid", d.uuid}, {"pci_bus_id", d.pci_bus_id},
            {"sm_count", d.sm_count}, {"sm_clock_khz", d.sm_clock_khz}, {"mem_clock_khz", d.mem_clock_khz},
            {"mem_bus_bits", d.mem_bus_bits}};
}

DeviceInfo device_from_json(const nlohmann::json& j) {
    DeviceInfo d;
    d.runnable = j.at("runnable");
    d.name = j.at("name");
    d.arch = j.at("arch");
    d.driver = j.at("driver");
    d.reason = j.at("reason");
    d.uuid = j.at("uuid");
    d.pci_bus_id = j.at("pci_bus_id");
    d.sm_count = j.at("sm_count");
    d.sm_clock_khz = j.at("sm_clock_khz");
    d.mem_clock_khz = j.at("mem_clock_khz");
    d.mem_bus_bits = j.at("mem_bus_bits");
    return d;
}

}  // namespace spmma
