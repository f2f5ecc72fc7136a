// --devices: which devices a run uses, and one set of plugins (worker processes) per device.
#pragma once

#include <spmma/core/runner.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace spmma::app {

// "all" -> every device of the plugins that run (the most any of them counts: 0..n-1);
// "0,2" -> those indices, each once, in order, each below that count. Throws
// std::invalid_argument with the reason.
std::vector<int> parse_devices(const std::string& text, const std::vector<std::unique_ptr<PluginEndpoint>>& plugins,
                               const std::vector<std::string>& names);

// --device N other than 0: why the plugins to run have no device N (each counts its own), or
// nullopt when one has it.
std::optional<std::string> device_error(int device, const std::vector<std::unique_ptr<PluginEndpoint>>& plugins,
                                        const std::vector<std::string>& names);

// The first slot takes `first` (already open); every other device gets its own from `open`,
// called by that device's runner as the run starts.
std::vector<DeviceSlot> device_slots(const std::vector<int>& devices, std::vector<std::unique_ptr<PluginEndpoint>> first,
                                     std::function<std::vector<std::unique_ptr<PluginEndpoint>>()> open);

}  // namespace spmma::app
