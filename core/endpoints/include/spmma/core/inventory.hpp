// What `spmma plugins` and `spmma devices` print: every plugin file found with its state and
// why it cannot run here, and the devices the plugins see.
#pragma once

#include <spmma/core/endpoint.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace spmma {

using Endpoints = std::vector<std::unique_ptr<PluginEndpoint>>;

std::string describe_plugins(const Endpoints& plugins, const std::vector<std::filesystem::path>& dirs, int device, bool verbose);
nlohmann::json plugins_json(const Endpoints& plugins, const std::vector<std::filesystem::path>& dirs, int device);
std::string describe_devices(const Endpoints& plugins);

}  // namespace spmma
