#include "device_slots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace spmma::app {

namespace {

int most_devices(const std::vector<std::unique_ptr<PluginEndpoint>>& plugins, const std::vector<std::string>& names) {
    int most = 0;
    for (const auto& p : plugins) {
        if (!p->identity().usable()) continue;
        if (!names.empty() && std::find(names.begin(), names.end(), p->identity().name) == names.end()) continue;
        try {
            most = std::max(most, p->device_count());
        } catch (const WorkerLost&) {
            // a plugin that cannot count its devices counts none; its records say why
        }
    }
    return most;
}

int parse_index(const std::string& item) {
    size_t used = 0;
    int v = -1;
    try {
        v = std::stoi(item, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != item.size() || v < 0) throw std::invalid_argument(fmt::format("'{}' is not a device index (0, 1, ...)", item));
    return v;
}

}  // namespace

std::vector<int> parse_devices(const std::string& text, const std::vector<std::unique_ptr<PluginEndpoint>>& plugins,
                               const std::vector<std::string>& names) {
    std::vector<int> out;
    const int n = most_devices(plugins, names);
    if (n == 0) throw std::invalid_argument("none of the plugins to run has a device");
    if (text == "all") {
        for (int i = 0; i < n; ++i) out.push_back(i);
        return out;
    }
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        const int v = parse_index(text.substr(start, comma - start));
        if (std::find(out.begin(), out.end(), v) != out.end()) throw std::invalid_argument(fmt::format("device {} is named twice", v));
        // NOTES: a device no plugin has would skip its share of the problems: refused up front.
        if (v >= n) throw std::invalid_argument(fmt::format("device {}: the plugins to run have {} device{} (0 to {})", v, n, n == 1 ? "" : "s", n - 1));
        out.push_back(v);
        start = comma + 1;
    }
    return out;
}

std::optional<std::string> device_error(int device, const std::vector<std::unique_ptr<PluginEndpoint>>& plugins,
                                        const std::vector<std::string>& names) {
    if (device < 0) return fmt::format("{} is not a device index (0, 1, ...)", device);
    const int n = most_devices(plugins, names);
    if (device < n) return std::nullopt;
    if (n == 0) return fmt::format("device {}: none of the plugins to run has a device", device);
    return fmt::format("device {}: the plugins to run have {} device{} (0 to {})", device, n, n == 1 ? "" : "s", n - 1);
}

std::vector<DeviceSlot> device_slots(const std::vector<int>& devices, std::vector<std::unique_ptr<PluginEndpoint>> first,
                                     std::function<std::vector<std::unique_ptr<PluginEndpoint>>()> open) {
    // NOTES: opened before the run, each device's workers loaded after the last device's
    // (0.2-0.3 s more start on two H100s: bench/NOTES.md, 2026-11-27); opened by the runner, they
    // load while device 0 starts its first job.
    std::vector<DeviceSlot> slots;
    for (size_t i = 0; i < devices.size(); ++i) {
        slots.push_back(DeviceSlot{devices[i], {}, {}});
        if (i == 0) slots.back().plugins = std::move(first);
        else slots.back().open = open;
    }
    return slots;
}

}  // namespace spmma::app
