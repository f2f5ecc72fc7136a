// What `spmma plugins` and `spmma devices` print: every plugin file found with its state and
// why it cannot run here, and the devices the plugins see.
#pragma once

#include <spmma/core/plugins.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace spmma {

std::string describe_plugins(const std::vector<Plugin>& plugins, const std::vector<std::filesystem::path>& dirs, int device,
                             bool verbose);
nlohmann::json plugins_json(const std::vector<Plugin>& plugins, const std::vector<std::filesystem::path>& dirs, int device);
std::string describe_devices(const std::vector<Plugin>& plugins);

}  // namespace spmma
